"""manage.py load_catalogs: load the project's own catalog files (each game package's
``catalog.json``, or the JSON files of ``--data-dir``).

These committed files hold facts only, with their sources named, so a fresh clone shows all
five games without ../shared. Idempotent: running it again changes nothing.
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from catalog.importers.bundle import CatalogImportError
from catalog.importers.service import bundles_from_path, import_bundles
from games import registry


class Command(BaseCommand):
    help = "Load DeckLab's own catalog files (every registered game's) into the database."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--data-dir", type=Path, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["data_dir"] is not None:
            files = sorted(options["data_dir"].glob("*.json"))
        else:
            files = [f for g in registry.all_games() if (f := g.catalog_file) is not None]
        if not files:
            raise CommandError(f"No catalog files in {options['data_dir'] or 'the games'}")
        bundles = [b for f in files for b in bundles_from_path(f)]
        try:
            report = import_bundles(bundles)
        except CatalogImportError as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"{len(exc.problems)} problem(s); nothing was loaded.") from exc
        self.stdout.write(report.summary())
