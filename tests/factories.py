"""factory_boy factories shared by every app's tests.

Create with `PlayerFactory.create(...)`: mypy then knows the result is a Player.
"""

# factory_boy's declarations are untyped.
# mypy: disable-error-code="no-untyped-call"

from __future__ import annotations

from functools import cache

import factory
from django.contrib.auth.hashers import make_password
from django.utils import timezone
from factory.declarations import LazyFunction, Sequence, Trait

from accounts.models import Player

PASSWORD = "Correct-Horse-Battery-9"


@cache
def _password_hash() -> str:
    # Argon2 is slow on purpose; one hash (one salt) serves every registered test player.
    return make_password(PASSWORD)


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    """A guest by default; `registered=True` gives a username and the password PASSWORD;
    `banned=True` bans the player for good."""

    class Meta:
        model = Player
        skip_postgeneration_save = True

    class Params:
        registered = Trait(
            is_guest=False,
            username=Sequence(lambda n: f"player{n}"),
            password=LazyFunction(lambda: _password_hash()),
        )
        banned = Trait(banned_at=LazyFunction(timezone.now), ban_reason="Cheating.")

    display_name = Sequence(lambda n: f"Player {n}")
    is_guest = True
    username = None
    # Guests have no usable password (and making one is cheap: no hashing).
    password = LazyFunction(lambda: make_password(None))
