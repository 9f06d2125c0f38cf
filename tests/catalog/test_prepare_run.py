"""manage.py prepare_run (scripts/run's preparation in one process): the first run does every
step, a second one with nothing changed skips them all, and a change brings its step back."""

from __future__ import annotations

import os
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from catalog.models import Card, CardSet, Game, Product

pytestmark = pytest.mark.django_db(transaction=True)


def prepare() -> list[str]:
    out = StringIO()
    call_command("prepare_run", demo_password="a-long-demo-password", no_messages=True, stdout=out)
    return [line for line in out.getvalue().splitlines() if ":" in line]


@pytest.fixture
def places(settings: Any, tmp_path: Path) -> Path:
    settings.STATIC_ROOT = tmp_path / "static"
    settings.VAR_DIR = tmp_path / "var"
    settings.VAR_DIR.mkdir()
    return tmp_path


def test_a_second_start_with_nothing_changed_skips_every_step(places: Path) -> None:
    first = prepare()
    assert "Static files: unchanged, skipped" not in first
    assert any(line.startswith("Catalogs: done") for line in first)
    assert Card.objects.filter(game__slug="unmatched").exists()
    second = prepare()
    assert [
        line for line in second if line.split(":")[0] in {"Migrations", "Static files", "Catalogs"}
    ] == [
        "Migrations: unchanged, skipped",
        "Static files: unchanged, skipped",
        "Catalogs: unchanged, skipped",
    ]
    for model in (Product, Card, CardSet):  # loaded by the command, outside any test transaction
        model.objects.all().delete()
    Game.objects.all().delete()


def test_an_emptied_database_or_a_changed_static_file_brings_its_step_back(
    places: Path, settings: Any
) -> None:
    prepare()
    Product.objects.all().delete()
    stamp = next(Path(settings.STATIC_ROOT).glob(".prepare-run-static"))
    stamp.write_text("stale", encoding="utf-8")
    again = prepare()
    assert any(line.startswith("Catalogs: done") for line in again)
    assert any(line.startswith("Static files: done") for line in again)
    assert os.path.exists(stamp)
    for model in (Product, Card, CardSet):
        model.objects.all().delete()
    Game.objects.all().delete()
