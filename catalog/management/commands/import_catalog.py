"""manage.py import_catalog PATH [PATH ...] [--game SLUG]"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from catalog.importers.bundle import CatalogImportError
from catalog.importers.service import bundles_from_path, import_bundles


class Command(BaseCommand):
    help = (
        "Import catalog files (DeckLab JSON, CSV card lists, the games' own catalog formats, or a "
        "folder of them). All-or-nothing: any bad line leaves the database untouched."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("paths", nargs="+", type=Path)
        parser.add_argument("--game", help="the game of CSV files that have no game column")

    def handle(self, *args: Any, **options: Any) -> None:
        bundles = [b for p in options["paths"] for b in bundles_from_path(p, game=options["game"])]
        try:
            report = import_bundles(bundles)
        except CatalogImportError as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"{len(exc.problems)} problem(s); nothing was imported.") from exc
        self.stdout.write(report.summary())
