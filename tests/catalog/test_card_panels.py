"""The card page's panels (catalog.panels): apps built on the catalog add sections to the card
page by registering them, and the catalog imports none of them."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from django.conf import settings
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse

from catalog.models import Card
from catalog.panels import CardPanel, card_panel_register, card_panel_unregister, card_panels
from tests.catalog.factories import CardFactory, GameFactory, PrintingFactory

#: the apps the catalog must not import: every one built on it (docs/architecture.md)
DOWNSTREAM = ("contributions", "decks", "collection", "simulator")
MARK = "toy-panel-mark"


def _imported_modules(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def test_the_catalog_package_imports_nothing_from_the_contributions_app() -> None:
    root = Path(settings.BASE_DIR) / "catalog"
    found = [
        f"{path.relative_to(root.parent)}: {module}"
        for path in sorted(root.rglob("*.py"))
        for module in _imported_modules(path)
        if module.split(".")[0] == "contributions"
    ]
    assert found == []


def test_the_card_page_template_names_no_contributions_page() -> None:
    template = Path(settings.BASE_DIR) / "templates" / "catalog" / "card.html"
    assert "contributions" not in template.read_text(encoding="utf-8")


@pytest.fixture
def toy_panel() -> Iterator[list[tuple[int, str]]]:
    """A panel in the ``end`` slot that says which card it was asked about."""
    asked: list[tuple[int, str]] = []

    def context(request: HttpRequest, card: Card) -> dict[str, Any]:
        asked.append((card.pk, request.path))
        return {"value": f"{MARK}-{card.code}"}

    card_panel_register(CardPanel("toy", "end", "contributions/review/_value.html", context))
    yield asked
    card_panel_unregister("toy")


@pytest.mark.django_db
def test_a_registered_panel_is_rendered_on_the_card_page_for_that_card(
    client: Client, toy_panel: list[tuple[int, str]]
) -> None:
    card = cast(Card, CardFactory(game=GameFactory(slug="unmatched")))
    PrintingFactory(card=card)
    url = reverse("catalog:card", args=["unmatched", card.code])

    html = client.get(url).content.decode()

    assert f'<code class="diff-value">{MARK}-{card.code}</code>' in html
    assert toy_panel == [(card.pk, url)]
    # the end slot comes after the page's columns: after the products section
    assert html.index(MARK) > html.index('id="products-title"')


@pytest.mark.django_db
def test_an_unregistered_panel_leaves_the_page(client: Client) -> None:
    card = cast(Card, CardFactory(game=GameFactory(slug="unmatched")))
    card_panel_register(
        CardPanel("gone", "end", "contributions/review/_value.html", lambda r, c: {"value": MARK})
    )
    card_panel_unregister("gone")

    html = client.get(reverse("catalog:card", args=["unmatched", card.code])).content.decode()

    assert MARK not in html


def test_registering_again_under_a_key_replaces_the_panel_and_a_bad_slot_is_refused() -> None:
    first = CardPanel("twice", "end", "a.html", lambda r, c: {})
    second = CardPanel("twice", "actions", "b.html", lambda r, c: {})
    card_panel_register(first)
    card_panel_register(second)
    try:
        assert [p for p in card_panels() if p.key == "twice"] == [second]
        with pytest.raises(ValueError, match="unknown card page slot"):
            card_panel_register(CardPanel("bad", "sidebar", "c.html", lambda r, c: {}))
    finally:
        card_panel_unregister("twice")
    assert "bad" not in {p.key for p in card_panels()}
