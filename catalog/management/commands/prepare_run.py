"""manage.py prepare_run: everything ``scripts/run`` does before it starts the servers, in one
process, skipping each step whose inputs have not changed since it last ran.

A second start with nothing changed pays Django's start-up once and a few cheap checks:
unapplied migrations (the migration planner), translations (each .po against its .mo), static
files (a fingerprint of every file the finders see) and the catalogs (a fingerprint of the
catalog files, kept with the row counts they produced, so an emptied database loads again).
"""

from __future__ import annotations

import hashlib
import json
from argparse import ArgumentParser
from collections.abc import Iterable
from pathlib import Path
from time import perf_counter
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor

from catalog.models import Card, Product
from games import registry

STATIC_STAMP = ".prepare-run-static"
CATALOG_STAMP = "prepare-run-catalogs.json"


def fingerprint(files: Iterable[Path]) -> str:
    """Names, sizes and modification times: a changed, added or removed file changes it."""
    digest = hashlib.sha256()
    for path in sorted(files):
        stat = path.stat()
        digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def static_sources() -> list[Path]:
    found: list[Path] = []
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            found.append(Path(storage.path(path)))
    return found


def catalog_files() -> list[Path]:
    return [f for g in registry.all_games() if (f := g.catalog_file) is not None]


class Command(BaseCommand):
    help = (
        "Migrate, compile translations, collect static files, load the catalogs and create "
        "the demo account, each only when needed."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--demo-username", default="demo")
        parser.add_argument("--demo-password", required=True)
        parser.add_argument("--no-messages", action="store_true", help="Skip compilemessages.")

    def step(self, label: str, needed: bool, run: Any) -> None:
        start = perf_counter()
        if needed:
            run()
            self.stdout.write(f"{label}: done in {perf_counter() - start:.1f} s")
        else:
            self.stdout.write(f"{label}: unchanged, skipped")

    def handle(self, *args: Any, **options: Any) -> None:
        self.step("Migrations", self.migrations_pending(), self.migrate)
        if not options["no_messages"]:
            self.step("Translations", self.messages_stale(), self.compile_messages)
        static_print = fingerprint(static_sources())
        self.step(
            "Static files",
            self.stamp_of(Path(settings.STATIC_ROOT) / STATIC_STAMP) != static_print,
            lambda: self.collect_static(static_print),
        )
        catalog_stamp = self.catalog_stamp()
        self.step(
            "Catalogs",
            self.stamp_of(Path(settings.VAR_DIR) / CATALOG_STAMP) != catalog_stamp,
            self.load_catalogs,
        )
        # "--password=VALUE": call_command passes a keyword option as two words, and a
        # password beginning with "-" would then read as an option
        call_command(
            "create_demo_account",
            f"--password={options['demo_password']}",
            username=options["demo_username"],
            stdout=self.stdout,
        )

    # --- migrations ----------------------------------------------------------------------
    def migrations_pending(self) -> bool:
        executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
        return bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))

    def migrate(self) -> None:
        call_command("migrate", interactive=False, verbosity=0)

    # --- translations ----------------------------------------------------------------------
    def po_files(self) -> list[Path]:
        return [p for root in settings.LOCALE_PATHS for p in Path(root).rglob("*.po")]

    def messages_stale(self) -> bool:
        for po in self.po_files():
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.stat().st_mtime_ns < po.stat().st_mtime_ns:
                return True
        return False

    def compile_messages(self) -> None:
        call_command(
            "compilemessages", ignore_patterns=[".venv", "var", "staticfiles"], verbosity=0
        )

    # --- static files ----------------------------------------------------------------------
    def stamp_of(self, path: Path) -> str:
        return path.read_text(encoding="utf-8").strip() if path.is_file() else ""

    def collect_static(self, stamp: str) -> None:
        call_command("collectstatic", interactive=False, verbosity=0)
        (Path(settings.STATIC_ROOT) / STATIC_STAMP).write_text(stamp, encoding="utf-8")

    # --- catalogs --------------------------------------------------------------------------
    def catalog_stamp(self) -> str:
        """The catalog files' fingerprint and the rows the database holds now: a database
        emptied or swapped since the last load no longer matches the stamp written then."""
        counts = (Card.objects.filter(owner=None).count(), Product.objects.count())
        database = str(settings.DATABASES[DEFAULT_DB_ALIAS].get("NAME", ""))
        return json.dumps([fingerprint(catalog_files()), counts, database])

    def load_catalogs(self) -> None:
        call_command("load_catalogs", stdout=self.stdout)
        (Path(settings.VAR_DIR) / CATALOG_STAMP).write_text(self.catalog_stamp(), encoding="utf-8")
