# The finished games the rating tests rate, and the real Celery worker of the games tests
# (fixtures: pytest finds them by these names).
from tests.games.conftest import celery_worker, make_game, players  # noqa: F401
