"""Bad input never breaks a proposal form: whatever a page or a JSON body posts, the form is
valid or invalid, never an exception; and a valid form's bundle is one the importer accepts."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.models import Card, CardSet
from contributions.forms import (
    ProposalForm,
    card_proposal_form,
    correction_form,
    names_form,
    set_proposal_form,
)
from tests.catalog.factories import CardFactory, PrintingFactory
from tests.contributions.forms_helpers import (
    GAME_TYPES,
    SLUGS,
    a_set,
    card_data,
    data_from_initial,
    importer_problems,
)

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=60,
    deadline=None,
    # the database fixture is the test's: the forms only read it
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True),
    st.text(max_size=300),
    st.sampled_from(["", " ", "true", "false", "0", "-1", "99", "100", "T1", "2024-02-30"]),
    st.lists(st.one_of(st.text(max_size=70), st.integers(), st.none()), max_size=25),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def _mutated(base: dict[str, Any], draw: st.DataObject) -> dict[str, Any]:
    """``base`` with some fields replaced by anything, some dropped and some made up."""
    keys = sorted(base)
    data = dict(base)
    for key in draw.draw(st.lists(st.sampled_from(keys), max_size=len(keys))):
        data[key] = draw.draw(values)
    for key in draw.draw(st.lists(st.sampled_from(keys), max_size=3)):
        data.pop(key, None)
    data.update(draw.draw(st.dictionaries(st.text(max_size=12), values, max_size=3)))
    return data


def _verdict(form: ProposalForm) -> None:
    if form.is_valid():
        assert importer_problems(form.bundle()) == []
    else:
        assert form.errors


@pytest.mark.parametrize(("slug", "card_type"), GAME_TYPES)
@FUZZ
@given(draw=st.data())
def test_a_card_form_given_anything_is_valid_or_invalid(
    slug: str, card_type: str, draw: st.DataObject
) -> None:
    if not CardSet.objects.filter(game__slug=slug, code="T1").exists():
        a_set(slug)
    _verdict(card_proposal_form(slug, card_type, _mutated(card_data(slug, card_type), draw)))


@pytest.mark.parametrize("slug", SLUGS)
@FUZZ
@given(draw=st.data())
def test_a_set_form_given_anything_is_valid_or_invalid(slug: str, draw: st.DataObject) -> None:
    base = {
        "code": "NEW-1",
        "name_en": "New Set",
        "name_ja": "",
        "kind": "expansion",
        "release_date": "2024-05-17",
        "release_precision": "month",
        "official_size": "60",
        "source_kind": "in_hand",
        "source_detail": "the box",
        "source_url": "",
    }
    _verdict(set_proposal_form(slug, _mutated(base, draw)))


@pytest.mark.parametrize("slug", ["mattsan", "unmatched", "ouka-fushin"])
@FUZZ
@given(draw=st.data())
def test_a_correction_given_anything_is_valid_or_invalid(slug: str, draw: st.DataObject) -> None:
    card = Card.objects.filter(game__slug=slug, code="C-1").first()
    if card is None:
        card_set = a_set(slug)
        card_type = {"mattsan": "unit", "unmatched": "attack", "ouka-fushin": "story"}[slug]
        card = CardFactory(game=card_set.game, card_type=card_type, code="C-1", name_ja="")
        PrintingFactory(card=card, card_set=card_set, collector_number="001")
    base = {
        **data_from_initial(correction_form(card)),
        "reason": "because",
        "source_kind": "rulebook",
        "source_detail": "page 3",
    }
    _verdict(correction_form(card, _mutated(base, draw)))
    _verdict(names_form(card, _mutated({"name_ja": "名前", **base}, draw)))
