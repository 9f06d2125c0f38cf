"""Rendered card faces are reused, yet a face always shows the card as it is now."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from catalog.templatetags import card_faces
from tests.catalog.factories import CardFactory, GameFactory, PrintingFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The codes of the cards whose face templates actually ran, with an empty cache."""
    monkeypatch.setattr(card_faces, "_rendered", type(card_faces._rendered)())
    seen: list[str] = []
    real = card_faces._render_face

    def counting(spec: Any, card: Any, *args: Any) -> Any:
        seen.append(card.code)
        return real(spec, card, *args)

    monkeypatch.setattr(card_faces, "_render_face", counting)
    return seen


def test_the_same_face_twice_renders_its_template_once(renders: list[str]) -> None:
    card = CardFactory(game=GameFactory(slug="mattsan"), name_en="Kite")
    first = card_faces.card_face(card)
    again = card_faces.card_face(card)
    assert again == first
    assert "Kite" in first
    assert renders == [card.code]


def test_a_renamed_card_shows_its_new_name(renders: list[str]) -> None:
    card = CardFactory(game=GameFactory(slug="mattsan"), name_en="Kite")
    card_faces.card_face(card)
    card.name_en = "Falcon"
    card.save()
    face = str(card_faces.card_face(card))
    assert "Falcon" in face
    assert "Kite" not in face


def test_changed_attributes_or_printing_give_a_new_face(renders: list[str]) -> None:
    printing = PrintingFactory(card=CardFactory(game=GameFactory(slug="mattsan")))
    card = printing.card
    card_faces.card_face(card, printing=printing)
    card.attributes = {**card.attributes, "extra_note": "changed"}
    card_faces.card_face(card, printing=printing)
    printing.collector_number = "999"
    assert "999" in str(card_faces.card_face(card, printing=printing))
    assert renders == [card.code] * 3


@pytest.mark.parametrize(("language", "shown"), [("en", "Kite"), ("ja", "カイト")])
def test_each_language_gets_its_own_face(renders: list[str], language: str, shown: str) -> None:
    card = CardFactory(game=GameFactory(slug="mattsan"), name_en="Kite", name_ja="カイト")
    with translation.override("en" if language == "ja" else "ja"):
        card_faces.card_face(card)
    with translation.override(language):
        face = str(card_faces.card_face(card))
    assert f'<span class="face-name">{shown}</span>' in face
    assert len(renders) == 2


def test_the_cache_keeps_at_most_its_size(
    renders: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(card_faces, "FACE_CACHE_SIZE", 2)
    game = GameFactory(slug="mattsan")
    cards = [CardFactory(game=game) for _ in range(3)]
    for card in cards:
        card_faces.card_face(card)
    assert len(card_faces._rendered) == 2
    card_faces.card_face(cards[0])  # the oldest was dropped: drawn again
    assert renders == [c.code for c in cards] + [cards[0].code]
