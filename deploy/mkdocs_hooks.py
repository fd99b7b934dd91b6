"""MkDocs hook (mkdocs.yml): the site's pages of the files that live outside docs/.

README.md and bench/README.md are pages of the site through docs/index.md and docs/bench.md,
which include them (the include-markdown plugin). A link to either, written as GitHub reads
it (`../bench/README.md` from a page of docs/, `bench/README.md` in the README, which the
plugin rewrites to `../bench/README.md`), becomes a link to its page here, anchor kept.
"""

from __future__ import annotations

import re
from typing import Any

# The repository file, as a page of docs/ links to it, and the site's page that includes it.
PAGES = {"../README.md": "index.md", "../bench/README.md": "bench.md"}
_LINK = re.compile(r"\]\((" + "|".join(re.escape(path) for path in PAGES) + r")(#[^)]*)?\)")


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return _LINK.sub(lambda match: f"]({PAGES[match[1]]}{match[2] or ''})", markdown)
