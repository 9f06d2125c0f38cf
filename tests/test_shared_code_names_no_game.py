"""Shared code names no game (issue 20's figure): outside ``games/`` (and tests, docs,
migrations, translations and the benchmarks, which measure particular games), no file may
name a game or one of a game's own words, so the next person reading a shared module never
wonders whether it is about one game. A handful of files may, each for a reason written here.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the games' names and slugs, and words only one game uses (its chips, fighters, hunters,
#: protagonist, missions); a list badge called "chip" reads as Recharge's chips to the next
#: person, so it counts too
GAME_WORDS = re.compile(
    r"unmatched|recharge|monster[-_ ]?hunter|ouka|央華|封神|mattsan|マッツァン"
    r"|\bchips?\b|\bfighters?\b|\bhunters?\b|\bprotagonists?\b|\bmissions?\b",
    re.IGNORECASE,
)
SKIPPED_DIRS = ("games/", "tests/", "docs/", "bench/", "locale/")
SKIPPED_SUFFIXES = (".md", ".po", ".mo", ".lock", ".txt", ".json", ".yml", ".yaml", ".toml")

#: the shared files that may name a game, and why (at most 3: issue 20)
ALLOWED: dict[str, str] = {}


def shared_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return sorted(
        name
        for name in listed
        if not name.startswith(SKIPPED_DIRS)
        and "/migrations/" not in name
        and not name.endswith(SKIPPED_SUFFIXES)
        and (ROOT / name).is_file()
    )


def naming_a_game() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name in shared_files():
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        lines = [
            f"{n}: {line.strip()[:100]}"
            for n, line in enumerate(text.splitlines(), 1)
            if GAME_WORDS.search(line)
        ]
        if lines:
            found[name] = lines
    return found


def test_at_most_three_shared_files_name_a_game_each_for_a_stated_reason() -> None:
    assert len(ALLOWED) <= 3
    found = naming_a_game()
    unexpected = {name: lines for name, lines in found.items() if name not in ALLOWED}
    assert unexpected == {}, "\n".join(
        f"{name}:{line}" for name, lines in unexpected.items() for line in lines
    )


def test_the_check_sees_a_game_named_in_shared_code() -> None:
    assert GAME_WORDS.search("# e.g. Unmatched's boost")
    assert GAME_WORDS.search("the counter chips")
    assert not GAME_WORDS.search("permission_classes = [IsAuthenticated]")
    assert "catalog/spec.py" in shared_files()
