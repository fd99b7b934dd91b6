"""The ground every app stands on: the error type and its answers, payload shapes, advisory
locks and the lock order, bounded Redis, the JSON parser, logs, metrics, rate limits, public
reads, the OpenAPI parts every view shares, the socket groups and their publishing, and the
shims of core/perf/.

It imports no app and not config/ (the composition root, which imports the apps): any app may
import it (.importlinter)."""
