"""The card list's serialisers build their output by hand (issue 19: DRF's generic field walk
was most of a 50-card search page). The declared fields stay the OpenAPI schema; these tests
hold the hand-built output to exactly what DRF's own walk gives, for every card of every
game's committed catalog, in both languages."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import RequestFactory
from django.utils import translation
from rest_framework import serializers
from rest_framework.request import Request

from catalog.api.serializers import CardOutputSerializer, PrintingBriefSerializer
from catalog.models import Card

pytestmark = pytest.mark.django_db


def _by_drf(serializer: serializers.Serializer[Any], instance: Any) -> dict[str, Any]:
    """What ``serializers.Serializer`` itself gives, bypassing the hand-built override."""
    return dict(serializers.Serializer.to_representation(serializer, instance))


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_card_as_drf_would_write_it(committed_catalogs: None, language: str) -> None:
    request = Request(RequestFactory().get("/api/v1/", HTTP_HOST="testserver"))
    cards = Card.objects.select_related("game").prefetch_related("printings__card_set")
    checked = 0
    with translation.override(language):
        card_output = CardOutputSerializer(context={"request": request})
        printing_output = PrintingBriefSerializer(context={"request": request})
        for card in cards:
            by_hand = card_output.to_representation(card)
            expected = _by_drf(card_output, card)
            # DRF's walk of the nested list goes through the printing serialiser's own
            # override, so the printings are compared one by one below
            assert list(by_hand) == list(expected), card.code
            assert by_hand == expected, card.code
            for printing in card.printings.all():
                assert printing_output.to_representation(printing) == _by_drf(
                    printing_output, printing
                ), printing
            checked += 1
    assert checked > 900  # the five committed catalogs (990 cards), not a handful


def test_a_stored_value_outside_the_choices_is_shown_as_stored(committed_catalogs: None) -> None:
    card = Card.objects.filter(card_type="character", game__slug="ouka-fushin").first()
    assert card is not None
    card.attributes = {**card.attributes, "school": "not-a-school", "timing": ["x", 3]}
    output = CardOutputSerializer(card, context={}).data
    shown = {row["key"]: row["value"] for row in output["attributes_display"]}
    assert shown["school"] == "not-a-school"
    assert shown["timing"] == "x, 3"
