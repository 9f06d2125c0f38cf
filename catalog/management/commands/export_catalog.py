"""manage.py export_catalog GAME [--output PATH]"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from catalog.exporters import export_catalog_json
from catalog.models import Game
from catalog.spec import all_games


class Command(BaseCommand):
    help = (
        "Write one game's catalog (sets, cards with printings, products with items) as DeckLab "
        "catalog JSON, to stdout or --output. import_catalog reads it back unchanged."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "game", help="the game's slug (manage.py shows them: see the catalog home)"
        )
        parser.add_argument("--output", type=Path, help="write here instead of stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["game"]
        game = Game.objects.filter(slug=slug).first()
        if game is None:
            slugs = ", ".join(g.slug for g in all_games())
            raise CommandError(f"No catalog for {slug!r} in this database (games: {slugs}).")
        text = export_catalog_json(game)
        output: Path | None = options["output"]
        if output is None:
            self.stdout.write(text, ending="")
            return
        output.parent.mkdir(parents=True, exist_ok=True)
        # written beside the target, then renamed, so a failed run never leaves half a file
        partial = output.with_name(output.name + ".partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(output)
        self.stdout.write(f"Wrote {output} ({len(text.encode('utf-8'))} bytes).")
