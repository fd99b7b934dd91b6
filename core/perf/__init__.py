"""Where the project takes a faster path than a framework's own, leaning on its internals.

Each module replaces one thing a framework does, for a cost measured in `bench/` (README,
"What helped"), and says what it replaces, why, and which internals it relies on:

- `sql`: the ORM's compiling of the hot queries (the game lock, the seats, the bearer token,
  the event and game rows), as SQL built once from the models' metadata.
- `http`: Django's ASGI handler, as its WSGI handler in a pool of threads.
- `cache`: Django's Redis cache client, built once per connection pool instead of per call.
- `channels`: the Redis pub/sub channel layer's `group_send` (one PUBLISH from the calling
  thread) and Channels' dispatch of each socket message (no `close_old_connections` hop).
- `celery`: Celery's Django fixup closing the connection pool around every task; and a task
  publish bounded as the project's other Redis calls are.

An upgrade that changes one of those internals fails a test in tests/core/perf/, each
written against the framework's own code, so that a shim never goes silently wrong.
"""
