"""manage.py regenerate_golden [GAME] [--check]

Rewrites the golden seeded transcripts (tests/simulator/golden/<game>_<label>.txt) of every
registered engine, or of GAME, from the fixed decks in simulator/golden.py. Run it only when a
change in how an engine plays is meant, and review the diff of the files before committing.
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from simulator import golden
from simulator.engine.registry import engines


class Command(BaseCommand):
    help = (
        "Rewrite the golden transcripts of every engine (or of GAME) from the fixed decks of "
        "simulator/golden.py; --check only reports the files that would change."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("game", nargs="?", help="a game slug (default: every engine)")
        parser.add_argument(
            "--check", action="store_true", help="write nothing; fail if a file would change"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        registered = engines()
        slug = options["game"]
        if slug is not None and slug not in registered:
            known = ", ".join(sorted(registered)) or "none"
            raise CommandError(f"No engine for the game {slug!r} (engines: {known}).")
        directory: Path = golden.GOLDEN_DIR  # read here, so tests can point it elsewhere
        changed: list[Path] = []
        for game in [slug] if slug else sorted(registered):
            if game not in golden.GOLDEN_DECKS:
                self.stderr.write(f"{game}: no fixed deck in simulator/golden.py; skipped.")
                continue
            wanted = golden.golden_files(game, registered[game], directory)
            stale = set(directory.glob(f"{game}_*.txt")) - set(wanted)
            for path, text in sorted(wanted.items()):
                current = path.read_text(encoding="utf-8") if path.exists() else None
                if current == text:
                    continue
                changed.append(path)
                if not options["check"]:
                    directory.mkdir(parents=True, exist_ok=True)
                    path.write_text(text, encoding="utf-8")
                    self.stdout.write(f"wrote {path.name}")
            for path in sorted(stale):
                changed.append(path)
                if not options["check"]:
                    path.unlink()
                    self.stdout.write(f"removed {path.name} (no longer a golden game)")
        if options["check"] and changed:
            names = ", ".join(p.name for p in changed)
            raise CommandError(f"{len(changed)} golden file(s) would change: {names}")
        if not changed:
            self.stdout.write("golden transcripts are up to date")
