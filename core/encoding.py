"""JSON out, encoded in C (orjson) and byte for byte as DRF's renderer writes it: every REST
answer (core/renderers.py), every socket message (games/consumers.py) and a game's pushes,
whose frames are encoded once where the change is made, not once per socket (games/notify.py).

DRF's `JSONRenderer` writes compact UTF-8 (`UNICODE_JSON`, `COMPACT_JSON`), escapes U+2028
and U+2029 (a page may embed the JSON in a script), and hands what `json` cannot encode to its
`JSONEncoder` (datetimes to milliseconds and `Z`, decimals, lazy translations...). orjson
writes the same compact UTF-8; `default` below is DRF's encoder, for datetimes too (orjson's
own keep microseconds); the two line separators are escaped after. (DRF refuses a NaN, orjson
writes it `null`: no payload of ours holds one, a rating's `mu` and `sigma` included.)

`Fragment` embeds JSON already encoded (a game payload shared by a response and its pushes).
"""

from __future__ import annotations

from typing import Any

import orjson
from rest_framework.utils.encoders import JSONEncoder

Fragment = orjson.Fragment

_DRF = JSONEncoder()
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
_LINE, _PARAGRAPH = "\u2028".encode(), "\u2029".encode()


def json_bytes(value: Any) -> bytes:
    """`value` as DRF's JSON renderer writes it (TypeError for what it cannot encode)."""
    try:
        data = orjson.dumps(value, default=_DRF.default, option=_OPTIONS)
    except orjson.JSONEncodeError as error:
        raise TypeError(str(error)) from error
    if _LINE in data or _PARAGRAPH in data:
        data = data.replace(_LINE, b"\\u2028").replace(_PARAGRAPH, b"\\u2029")
    return data


def json_text(value: Any) -> str:
    """`json_bytes` as text: a websocket's text frame."""
    return json_bytes(value).decode()
