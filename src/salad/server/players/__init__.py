"""Players the site remembers (#34): the identity a browser holds (a signed cookie, no password:
:mod:`~.identity`) and the server secret that signs it (:mod:`~.secret`). Their rows are in the
store (:mod:`salad.server.store.players`); their REST routes in :mod:`salad.server.routes.me`."""
