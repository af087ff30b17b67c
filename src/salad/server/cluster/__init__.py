"""Many servers, one game: ``salad serve --redis URL`` on PostgreSQL, behind any load balancer.

Each node is equal; each table is played by the one node that holds its lease in Redis
(:mod:`.link`); a request for it that reaches another node is redirected there by the holder's
name (:mod:`.router`), which the load balancer routes; a node that dies loses its leases within
seconds and another node takes its tables over from the database (:mod:`.node`). The
deployment is in docs/deploy.md. Without ``--redis`` none of this runs.
"""
