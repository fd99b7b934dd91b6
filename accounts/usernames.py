"""What a username may be, and the one form every comparison of usernames uses."""

from __future__ import annotations

import unicodedata

# Registration and createsuperuser accept only these: ASCII, so that PostgreSQL's LOWER of a
# stored name is exactly its `username_key`, and the unique index on LOWER serves lookups.
USERNAME_PATTERN = r"^[A-Za-z0-9_.@+-]{3,30}\Z"


def username_key(username: str) -> str:
    """The one form of a username that lookups, uniqueness and the login throttle compare:
    NFKC (full-width and compatibility forms), Unicode whitespace stripped at the ends,
    casefolded. A spelling that reaches an account has that account's key, so it counts
    against the account's login limit; "v\u0131ctim" (dotless i) keeps its U+0131, so it is not
    "victim" here, and finds no account."""
    return unicodedata.normalize("NFKC", username).strip().casefold()
