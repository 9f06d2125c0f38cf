"""manage.py load_catalogs: load the project's own catalog files (catalog/data/*.json).

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

DATA_DIR = Path(__file__).resolve().parents[2] / "data"


class Command(BaseCommand):
    help = "Load DeckLab's own catalog files (all five games) into the database."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--data-dir", type=Path, default=DATA_DIR)

    def handle(self, *args: Any, **options: Any) -> None:
        files = sorted(options["data_dir"].glob("*.json"))
        if not files:
            raise CommandError(f"No catalog files in {options['data_dir']}")
        bundles = [b for f in files for b in bundles_from_path(f)]
        try:
            report = import_bundles(bundles)
        except CatalogImportError as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"{len(exc.problems)} problem(s); nothing was loaded.") from exc
        self.stdout.write(report.summary())
