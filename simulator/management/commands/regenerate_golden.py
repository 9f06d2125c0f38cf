"""manage.py regenerate_golden [GAME] [--check] [--directory DIR]

Rewrites the golden seeded transcripts (``golden/<label>.txt`` in each game's package) of every
game with an engine, or of GAME, from the fixed deck in the package's ``golden.py``. Run it only
when a change in how an engine plays is meant; ``--check`` writes nothing and fails when a
file would change (what the conformance test asserts).
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import registry
from simulator.engine.golden import golden_deck, golden_files


class Command(BaseCommand):
    help = (
        "Rewrite the golden transcripts of every engine (or of GAME) from the fixed decks in "
        "each game package's golden.py; --check only reports the files that would change."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("game", nargs="?", help="a game slug (default: every engine)")
        parser.add_argument(
            "--check", action="store_true", help="write nothing; fail if a file would change"
        )
        parser.add_argument(
            "--directory",
            type=Path,
            help="write under DIR/<slug>/ instead of each game's own golden/ folder",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        registered = registry.engines()
        slug = options["game"]
        if slug is not None and slug not in registered:
            known = ", ".join(sorted(registered)) or "none"
            raise CommandError(f"No engine for the game {slug!r} (engines: {known}).")
        changed: list[Path] = []
        for name in [slug] if slug else sorted(registered):
            game = registry.get(name)
            if golden_deck(game) is None:
                self.stderr.write(f"{name}: no GOLDEN_DECK in its golden.py; skipped.")
                continue
            base: Path | None = options["directory"]
            directory = base / name if base else game.golden_dir
            wanted = golden_files(game, directory)
            stale = set(directory.glob("*.txt")) - set(wanted)
            for path, text in sorted(wanted.items()):
                current = path.read_text(encoding="utf-8") if path.exists() else None
                if current == text:
                    continue
                changed.append(path)
                if not options["check"]:
                    directory.mkdir(parents=True, exist_ok=True)
                    path.write_text(text, encoding="utf-8")
                    self.stdout.write(f"wrote {name}/{path.name}")
            for path in sorted(stale):
                changed.append(path)
                if not options["check"]:
                    path.unlink()
                    self.stdout.write(f"removed {name}/{path.name} (no longer a golden game)")
        if options["check"] and changed:
            names = ", ".join(f"{p.parent.name}/{p.name}" for p in changed)
            raise CommandError(f"{len(changed)} golden file(s) would change: {names}")
        if not changed:
            self.stdout.write("golden transcripts are up to date")
