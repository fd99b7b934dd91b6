"""Examples of clients of the public API (docs/bots.md): they use nothing of the server."""
