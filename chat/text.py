"""What free text may be: 1-200 printable characters, no listed word. Pure checks, no database.

A word list (YANIV_CHAT_BLOCKLIST, one word a line) is matched word by word, whatever the case,
after NFKC normalisation (a word spelled in full-width letters is that word) and with the
joiners that emoji need taken out (a joiner inside a word does not hide it).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

from django.utils.translation import gettext

MAX_LENGTH = 200
# Format characters are refused (bidi overrides and isolates, invisible characters), except
# the joiners that emoji sequences (families, flags...) are made with.
_JOINERS = {"\u200c", "\u200d"}
_WORD = re.compile(r"\w+")


def text_problem(text: str) -> str | None:
    """Why `text` (already trimmed) may not be sent, or None."""
    if not text:
        return gettext("A message needs at least one character.")
    if len(text) > MAX_LENGTH:
        return gettext("A message has at most %(max)s characters.") % {"max": MAX_LENGTH}
    for character in text:
        category = unicodedata.category(character)
        if category in {"Zl", "Zp"} or (category.startswith("C") and character not in _JOINERS):
            return gettext("Messages may not contain the character %(code)s.") % {
                "code": f"U+{ord(character):04X}"
            }
    return None


@cache
def blocklist(path: str) -> frozenset[str]:
    """The words of the list at `path`, normalised as messages are (read once per path)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return frozenset(
        _normalised(line.strip()) for line in lines if line.strip() and not line.startswith("#")
    )


def _normalised(text: str) -> str:
    text = "".join(c for c in text if c not in _JOINERS)
    return unicodedata.normalize("NFKC", text).casefold()


def listed_word(text: str, words: frozenset[str]) -> str | None:
    """The first word of `text` on the list, or None."""
    return next((w for w in _WORD.findall(_normalised(text)) if w in words), None)
