"""Django's {# #} comment ends at the end of its line: one spread over several lines is not a
comment at all and is shown to players as it is (the Recharge chips panel once showed one).
Longer notes go in {% comment %}; tests/browser/test_every_page.py checks the rendered pages."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
TEMPLATE_DIRS = [ROOT / "templates", *ROOT.glob("games/*/templates"), *ROOT.glob("*/templates")]
# an opening {# with no closing #} before the end of its line
UNCLOSED = re.compile(r"\{#(?:(?!#\}).)*$", re.MULTILINE)


def test_no_template_spreads_a_hash_comment_over_several_lines() -> None:
    found = sorted(
        f"{path.relative_to(ROOT)}:{text[: match.start()].count(chr(10)) + 1}"
        for directory in {d.resolve() for d in TEMPLATE_DIRS if d.is_dir()}
        for path in directory.rglob("*")
        if path.suffix in {".html", ".txt", ".xml"}
        for text in [path.read_text(encoding="utf-8")]
        for match in UNCLOSED.finditer(text)
    )
    assert found == []
