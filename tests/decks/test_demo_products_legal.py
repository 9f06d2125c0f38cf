"""The demo prebuilt products of the project's own catalog (each game's catalog.json, loaded by
``manage.py load_catalogs``) under their games' construction rules.

Monster Hunter, 央華封神 and Mattsan demo decks are legal. A Recharge product is legal but for
its chips: a product holds no counter chips, so the only problem is the chip total (0 points
against 50-65, recharge.md line 30), under either rules variant.

The catalog is loaded once for the module inside a transaction that is rolled back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction

from catalog.models import Product
from decks.legality.check import check_deck
from decks.legality.facts import DeckFacts
from decks.legality.load import product_facts
from decks.legality.problems import Cite, Severity
from tests.decks.legality_builders import MATTSAN, MH, OUKA, RECHARGE, cited_text, rendered

pytestmark = pytest.mark.django_db  # the test database exists before the module fixture

PREBUILT_KINDS = (Product.Kind.STARTER, Product.Kind.PREBUILT)


@pytest.fixture(scope="module")
def demo_decks(
    django_db_setup: None, django_db_blocker: Any
) -> Iterator[dict[str, dict[str, DeckFacts]]]:
    """game -> product code -> the product's contents as a deck, for every demo prebuilt."""
    decks: dict[str, dict[str, DeckFacts]] = {}
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("load_catalogs", stdout=StringIO())
        products = (
            Product.objects.filter(is_demo=True, kind__in=PREBUILT_KINDS)
            .select_related("game")
            .prefetch_related("items__printing__card_set", "items__printing__card__game")
            .order_by("game__slug", "code")
        )
        for product in products:
            facts = product_facts(product.items.all(), product.game.slug)
            decks.setdefault(product.game.slug, {})[product.code] = facts
        transaction.set_rollback(True)
    yield decks


@pytest.mark.parametrize("game", [MH, OUKA, MATTSAN])
def test_every_demo_prebuilt_of_the_game_is_legal_with_nothing_to_report(
    demo_decks: dict[str, dict[str, DeckFacts]], game: str
) -> None:
    assert demo_decks.get(game), f"no demo prebuilt product for {game}"
    for code, facts in demo_decks[game].items():
        assert facts.entries, code
        problems = check_deck(facts)
        assert problems == [], (code, [p.as_dict() for p in problems])


@pytest.mark.parametrize("variant", ["", "basic", "tournament"])
def test_a_recharge_demo_prebuilt_is_legal_but_for_the_chips_no_product_holds(
    demo_decks: dict[str, dict[str, DeckFacts]], variant: str
) -> None:
    assert demo_decks.get(RECHARGE), "no demo prebuilt product for recharge"
    for code, facts in demo_decks[RECHARGE].items():
        assert facts.extras == {}
        problems = check_deck(dataclasses.replace(facts, variant=variant))
        assert [(p.code, p.severity) for p in problems] == [("chip-total", Severity.ERROR)], code
        (problem,) = problems
        assert (problem.expected, problem.actual) == ([50, 65], 0)
        assert problem.cite == Cite("recharge.md", 30)
        assert "total 50–65" in cited_text(problem.cite)
        assert rendered(problem)["fix"]["en"] == "Add 50 points of chips."


def test_a_recharge_demo_prebuilt_with_legal_chips_is_entirely_legal(
    demo_decks: dict[str, dict[str, DeckFacts]],
) -> None:
    for code, facts in demo_decks[RECHARGE].items():
        with_chips = dataclasses.replace(facts, extras={"chips": [5] * 10})
        assert check_deck(with_chips) == [], code
