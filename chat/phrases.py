"""The fixed phrases anyone may send (guests too, and muted players): `GET /chat/phrases/`.

Ids are stable (clients and stored messages name them); a phrase's text may be reworded, never
its meaning. A client shows the text in its own language from the id; `GET /chat/phrases/`
answers in the request's (the values are lazy: `str()` one where it is sent).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from django.utils.translation import pgettext_lazy

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

PHRASES: MappingProxyType[str, _StrPromise] = MappingProxyType(
    {
        "hello": pgettext_lazy("chat phrase", "Hello"),
        "good_luck": pgettext_lazy("chat phrase", "Good luck"),
        "have_fun": pgettext_lazy("chat phrase", "Have fun"),
        "your_turn": pgettext_lazy("chat phrase", "Your turn"),
        "nice_yaniv": pgettext_lazy("chat phrase", "Nice Yaniv!"),
        "well_played": pgettext_lazy("chat phrase", "Well played"),
        "oops": pgettext_lazy("chat phrase", "Oops"),
        "thanks": pgettext_lazy("chat phrase", "Thanks"),
        "sorry": pgettext_lazy("chat phrase", "Sorry"),
        "wow": pgettext_lazy("chat phrase", "Wow!"),
        "good_game": pgettext_lazy("chat phrase", "Good game"),
        "rematch": pgettext_lazy("chat phrase", "Rematch?"),
        "bye": pgettext_lazy("chat phrase", "Bye"),
    }
)
