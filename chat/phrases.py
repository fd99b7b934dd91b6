"""The fixed phrases anyone may send (guests too, and muted players): `GET /chat/phrases/`.

Ids are stable (clients and stored messages name them); a phrase's text may be reworded, never
its meaning. A client shows the text in its own language from the id.
"""

from __future__ import annotations

from types import MappingProxyType

PHRASES: MappingProxyType[str, str] = MappingProxyType(
    {
        "hello": "Hello",
        "good_luck": "Good luck",
        "have_fun": "Have fun",
        "your_turn": "Your turn",
        "nice_yaniv": "Nice Yaniv!",
        "well_played": "Well played",
        "oops": "Oops",
        "thanks": "Thanks",
        "sorry": "Sorry",
        "wow": "Wow!",
        "good_game": "Good game",
        "rematch": "Rematch?",
        "bye": "Bye",
    }
)
