"""manage.py check_game PACKAGE [--rules DIR]

For the author of a game kept outside this repository: registers the game package PACKAGE
(dotted, importable: on PYTHONPATH) and runs on it every conformance check DeckLab's own games
pass (``simulator.conformance``): its declared parts load, and, with an engine, random
play-outs end, copies are independent, games are determined by their seed, ``play`` and
``play_games`` equal the state API game by game, the engine cites real digest lines and its
golden transcripts are unchanged. Prints each check's result; exits non-zero on a failure.
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import registry
from simulator import conformance


class Command(BaseCommand):
    help = (
        "Register the game package PACKAGE and run every conformance check on it; "
        "exits non-zero when one fails."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("package", help="the game's dotted package, e.g. mygames.poker")
        parser.add_argument(
            "--rules",
            type=Path,
            default=conformance.RULES_DIR,
            help="the folder of rule digests the engine cites (default: shared/rules)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        package: str = options["package"]
        try:
            game = registry.register(package)
        except (ImportError, TypeError, ValueError) as exc:
            raise CommandError(f"{package}: cannot register the game: {exc}") from exc
        results = conformance.run_checks(game, options["rules"])
        if not any(result.check.needs_engine for result in results):
            self.stdout.write(f"{game.slug}: no engine.py, so only the contract is checked")
        for result in results:
            if result.passed:
                self.stdout.write(
                    self.style.SUCCESS(f"PASS {result.check.key}: ") + result.check.title
                )
            else:
                self.stdout.write(
                    self.style.ERROR(f"FAIL {result.check.key}: ") + result.check.title
                )
                self.stdout.write("    " + result.problem.replace("\n", "\n    "))
        failed = [r.check.key for r in results if not r.passed]
        if failed:
            raise CommandError(
                f"{game.slug}: {len(failed)} of {len(results)} checks failed: {', '.join(failed)}"
            )
        self.stdout.write(f"{game.slug}: all {len(results)} checks passed")
