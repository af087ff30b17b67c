"""The web server of ``salad serve``: REST lobby, table websockets, storage, bots and timers.

- :mod:`~salad.server.run`: :func:`serve`, uvicorn, alone or as one node of a cluster
  (:mod:`~salad.server.cluster`: PostgreSQL, Redis and a load balancer);
- :mod:`~salad.server.app`: the app factory :func:`~salad.server.app.create_app`, built from
  :mod:`~salad.server.routes` (one router per concern) and :mod:`~salad.server.sockets`;
- :mod:`~salad.server.tables`: tables in memory, their games, bots and timers, and what is
  sent (:mod:`~salad.server.tables.wire`); :mod:`~salad.server.store`: the database;
- :mod:`~salad.server.messages`: the websocket's messages and :mod:`~salad.server.schemas`
  the REST bodies, as pydantic models; :mod:`~salad.server.protocol`: a Python client's side
  of the websocket.

>>> from salad.server.store import database_url
>>> database_url("postgresql://u@localhost/salad")
'postgresql+psycopg://u@localhost/salad'
"""
