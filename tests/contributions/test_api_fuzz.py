"""Any JSON at all (and any bytes) sent to the create endpoint: a 201, a 400 naming problems,
or a 429, never a 500 (the test client re-raises a view's exception, so one fails here)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from catalog.models import Game
from tests.contributions.conftest import BASE, GAME, HUNTER
from tests.contributions.test_api_fixtures import API, client_for, create_body

pytestmark = pytest.mark.django_db

RUN = hypothesis_settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(
        ["", GAME, "card", "sheet", "names", "correction", "in_hand", "publisher_page", "t1"]
    ),
    st.sampled_from(["T-001", "hunter", "\x00", "a\x00b", "\ud800", "http://", "x" * 6000]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=20,
)
FIELDS = [
    "kind",
    "game",
    "payload",
    "sheet",
    "source_kind",
    "source_detail",
    "source_url",
    "title",
    "target_kind",
    "target_code",
    "reason",
]
#: a valid body with some fields replaced by anything, or dropped
BODIES = st.builds(
    lambda changes, dropped: {
        key: value for key, value in create_body(**changes).items() if key not in dropped
    },
    st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=4),
    st.sets(st.sampled_from(FIELDS), max_size=3),
)
#: a valid payload whose card is changed anywhere
CARDS = st.builds(
    lambda card: create_body(payload=BASE | {"sets": [], "cards": [card]}),
    st.fixed_dictionaries(
        {
            "code": st.one_of(st.just("T-009"), JSON),
            "type": st.one_of(st.just("hunter"), JSON),
            "name_en": st.one_of(st.just("Fuzz"), JSON),
            "attributes": st.one_of(st.just(HUNTER), JSON),
            "printings": st.one_of(st.just([{"set": "t1", "number": "009"}]), JSON),
        }
    ),
)
ALLOWED = {201, 400, 429}


@pytest.fixture
def owner_api(game: Game, owner: Any) -> APIClient:
    """One client for every example (hypothesis runs them all in the test's transaction)."""
    return client_for(owner)


@RUN
@given(body=st.one_of(JSON, BODIES, CARDS))
@example(body={"payload": {"cards": [{"printings": [{"set": {"a": 1}}]}]}})
@example(body=create_body(payload=[1, 2]))
@example(body=create_body(kind="sheet", payload=None, sheet="\x00"))
def test_any_json_body_is_answered_without_a_500(owner_api: APIClient, body: Any) -> None:
    text = json.dumps(body)
    response = owner_api.post(f"{API}proposals/", text, content_type="application/json")

    assert response.status_code in ALLOWED, response.content
    if response.status_code != 201:
        assert response.json()["detail"]


@RUN
@given(raw=st.binary(max_size=200))
@example(raw=b"[" * 5000)
@example(raw=b'{"kind": "card", "payload": ' + b"{" * 3000)
def test_any_bytes_are_answered_without_a_500(owner_api: APIClient, raw: bytes) -> None:
    response = owner_api.post(f"{API}proposals/", raw, content_type="application/json")

    assert response.status_code in ALLOWED, response.content
