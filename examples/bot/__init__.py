"""The reference bot: a Yaniv bot on the public API alone (docs/bots.md)."""
