"""Developers' tools, outside the project's code: nothing the apps, core/ or config/ import, and
not in the image (.dockerignore). `devservers`: the embedded PostgreSQL and Redis of `make
run` and `make test`, and `make backup` / `make restore`."""
