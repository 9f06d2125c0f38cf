"""An ``or`` (or ``and``) group of printing fields is one condition on one printing: a single
EXISTS over the card's printings, which the planner turns into a join from the printing
indexes, instead of one correlated EXISTS per branch (issue 19)."""

from __future__ import annotations

import pytest

from catalog.models import Card
from catalog.query.compile import compile_query
from tests.catalog.factories import CardFactory, GameFactory, PrintingFactory

pytestmark = pytest.mark.django_db


def sql_of(query: str) -> str:
    compiled = compile_query(query, slug="unmatched")
    return str(Card.objects.filter(compiled.condition).query)


@pytest.mark.parametrize(
    "query",
    [
        "boost:2 or boost:3",
        "(boost:2 or boost:3) fighter:alice",
        "(set:a boost:2) or boost:3",
        "fighter:alice (boost:1 or (boost:2 set:b))",
    ],
)
def test_a_group_of_printing_fields_is_one_exists(query: str) -> None:
    assert sql_of(query).count("EXISTS") == 1


def test_a_negated_printing_field_stays_its_own_exists() -> None:
    # "-set:X": never printed in X, not "a printing elsewhere"
    assert sql_of("boost:2 -set:a").count("EXISTS") == 2


def test_a_group_of_printing_fields_holds_for_one_printing() -> None:
    game = GameFactory(slug="unmatched")
    split, together = CardFactory(game=game), CardFactory(game=game)
    PrintingFactory(card=split, attributes={"boost": 2, "fighter": "Bob"})
    PrintingFactory(card=split, attributes={"boost": 0, "fighter": "Alice"})
    PrintingFactory(card=together, attributes={"boost": 3, "fighter": "Alice"})
    compiled = compile_query("(boost:2 or boost:3) fighter:alice", slug="unmatched")
    found = set(Card.objects.filter(compiled.condition).values_list("pk", flat=True))
    assert found == {together.pk}
    either = compile_query("boost:2 or fighter:alice", slug="unmatched")
    found = set(Card.objects.filter(either.condition).values_list("pk", flat=True))
    assert found == {split.pk, together.pk}
