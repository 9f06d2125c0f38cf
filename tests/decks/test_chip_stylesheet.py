"""Recharge's chip editor is styled by Recharge's own stylesheet, linked by the editor page
only where the deck has the chips extra; the shared deck stylesheet knows nothing of chips."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

from catalog.models import Game
from decks.models import Deck
from decks.services import deck_create

pytestmark = pytest.mark.django_db

CHIPS_CSS = "games/recharge/chips.css"


def editor_of(slug: str, owner: Any) -> str:
    call_command("import_catalog", f"games/{slug.replace('-', '_')}/catalog.json", verbosity=0)
    game = Game.objects.get(slug=slug)
    deck: Deck = deck_create(owner=owner, game=game, name="Styled")
    return reverse("decks:edit", args=[deck.public_id])


def test_recharges_editor_page_links_the_chip_stylesheet(owner: Any, owner_client: Client) -> None:
    page = owner_client.get(editor_of("recharge", owner)).content.decode()
    assert "chip-add" in page  # the chip editor is drawn
    assert f'<link rel="stylesheet" href="{static(CHIPS_CSS)}">' in page


def test_a_game_without_chips_does_not_link_it(owner: Any, owner_client: Client) -> None:
    page = owner_client.get(editor_of("monster-hunter", owner)).content.decode()
    assert static(CHIPS_CSS) not in page


def test_the_chip_rules_moved_from_the_shared_deck_stylesheet_to_recharges() -> None:
    shared = (Path(settings.BASE_DIR) / "static" / "decks" / "decks.css").read_text()
    assert ".chip-" not in shared
    found = finders.find(CHIPS_CSS)
    assert isinstance(found, str), "the game's static finder does not serve chips.css"
    rules = Path(found).read_text()
    for selector in (".chip-item {", ".chip-item input {", ".chip-add {"):
        assert selector in rules
