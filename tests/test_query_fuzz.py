"""Generated values in every query parameter of every API endpoint and of the pages that read
query parameters, anonymously and signed in: never a 500.

The API's parameters are read from its OpenAPI schema; the pages' from what their views read
(the catalog's filters from the game's own FilterSet). Values: NUL characters, huge strings,
percent-escapes that are not UTF-8, any unicode, numbers out of every range. A NUL anywhere is
refused by one middleware (decklab/safe_input_middleware.py) with a 400 naming the parameter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from catalog.filters import _card_filterset
from catalog.models import Card, CardSet, Printing
from collection.models import CollectionItem
from decks.models import Deck
from decks.services import deck_from_product

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("committed_catalogs")]

#: generated queries per endpoint and caller (plus one with a NUL in every parameter)
EXAMPLES = 6
RUN = hypothesis_settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


def _escaped(text: str) -> str:
    return quote(text, safe="")


#: values as they appear in a query string (already percent-encoded)
VALUES = st.one_of(
    st.text(max_size=30).map(_escaped),
    st.text(max_size=10).map(lambda t: _escaped(f"{t}\x00{t}")),
    st.sampled_from(["a%00b", "%00", "%C0%80"]),  # NUL, and NUL's overlong (invalid) form
    st.binary(min_size=1, max_size=8).map(lambda b: "".join(f"%{x:02X}" for x in b)),
    st.integers(min_value=2_000, max_value=20_000).map(lambda n: "x" * n),
    st.integers(min_value=500, max_value=3_000).map(lambda n: _escaped("カード" * n)),
    st.sampled_from(["-1", "0", "1", "2", "99999999999999999999999", "1e309", "NaN", "１", ""]),
    st.integers().map(str),
)


def _queries(names: list[str]) -> st.SearchStrategy[str]:
    pairs = st.lists(
        st.tuples(st.sampled_from(names), VALUES), min_size=1, max_size=min(4, len(names))
    )
    return pairs.map(lambda items: "&".join(f"{_escaped(n)}={v}" for n, v in items))


def _fuzz(get: Callable[[str], Any], path: str, names: list[str], failures: list[str]) -> None:
    def check(query: str) -> None:
        response = get(f"{path}?{query}")
        if response.status_code >= 500:
            failures.append(f"{response.status_code} {path}?{query[:200]}")

    # every parameter with a NUL at once, then generated values
    check("&".join(f"{_escaped(name)}=a%00b" for name in names))

    @RUN
    @given(query=_queries(names))
    def generated(query: str) -> None:
        check(query)

    generated()


class World:
    """What the paths name: a game, a set, a card, a product, the owner's deck and item."""

    def __init__(self, owner: Any) -> None:
        from catalog.models import Product

        self.card_set = CardSet.objects.filter(game__slug="unmatched").order_by("pk").first()
        self.card = Card.objects.filter(game__slug="unmatched").order_by("pk").first()
        printing = Printing.objects.filter(card=self.card).first()
        assert self.card_set is not None and self.card is not None and printing is not None
        product = Product.objects.get(game__slug="unmatched", code="elektra")
        self.deck: Deck = deck_from_product(product=product, user=owner)
        self.item = CollectionItem.objects.create(owner=owner, printing=printing, quantity=2)

    def path_value(self, path: str, name: str) -> str:
        if name == "game":
            return "unmatched"
        if name == "public_id":
            return str(self.deck.public_id)
        if name == "item_id":
            return str(self.item.pk)
        if name == "code":
            if "/sets/" in path:
                return str(self.card_set.code)  # type: ignore[union-attr]
            if "/cards/" in path:
                return str(self.card.code)  # type: ignore[union-attr]
            return "elektra"
        return "1"


def _api_operations(world: World) -> list[tuple[str, list[str]]]:
    """Every GET operation of the schema, as a concrete path and its query parameters."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for template, operations in schema["paths"].items():
        get = operations.get("get")
        if get is None:
            continue
        params = get.get("parameters", [])
        names = [p["name"] for p in params if p["in"] == "query"] or ["format"]
        path = template
        for p in params:
            if p["in"] == "path":
                path = path.replace("{" + p["name"] + "}", world.path_value(template, p["name"]))
        found.append((path, names))
    return found


def _pages(world: Any) -> list[tuple[str, list[str]]]:
    from collection.views import FILTERS

    catalog = [*sorted(_card_filterset("unmatched").base_filters), "q", "page", "sort", "view"]
    collection = [*FILTERS, "page"]
    deck = f"/decks/{world.deck.public_id}"
    return [
        ("/games/unmatched/", catalog),
        (f"/games/unmatched/sets/{world.card_set.code}/", catalog),
        ("/search/", ["q", "game", "page"]),
        ("/decks/browse/unmatched/", ["legal", "card", "player", "page", "sort"]),
        ("/decks/new/", ["game"]),
        ("/decks/import/", ["game"]),
        (f"{deck}/", ["view"]),
        (f"{deck}/history/", ["page"]),
        (f"{deck}/diff/", ["a", "b"]),
        (f"{deck}/edit/search/", ["q", "type", "mine", "page"]),
        (f"{deck}/test-hand/", ["seed", "turn", "hand"]),
        (f"{deck}/export/text/", ["names"]),
        ("/collection/", collection),
        ("/collection/unmatched/", collection),
        ("/collection/wishlist/", ["game", "page"]),
        ("/collection/export/", ["format", "game", "download"]),
        ("/collection/import/", ["game"]),
        ("/collection/players/owner/cards/", collection),
        ("/collection/players/owner/trades/", collection),
        ("/sim/runs/", ["page"]),
        ("/accounts/owner/", ["page"]),
    ]


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_no_value_in_any_query_parameter_of_the_api_is_a_500(owner: Any, signed_in: bool) -> None:
    world = World(owner)
    api = APIClient(raise_request_exception=False)
    if signed_in:
        api.force_authenticate(owner)
    failures: list[str] = []
    operations = _api_operations(world)
    assert len(operations) > 25
    for path, names in operations:
        _fuzz(api.get, path, names, failures)
    assert failures == []


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_no_value_in_any_query_parameter_of_a_page_is_a_500(owner: Any, signed_in: bool) -> None:
    from django.test import Client

    world = World(owner)
    client = Client(raise_request_exception=False)
    if signed_in:
        client.force_login(owner)
    failures: list[str] = []
    for path, names in _pages(world):
        _fuzz(client.get, path, names, failures)
    assert failures == []


def test_a_nul_in_a_query_parameter_is_a_400_naming_it(owner: Any) -> None:
    from django.test import Client

    api = APIClient()
    api.force_authenticate(owner)
    answer = api.get("/api/v1/collection/items/?owner=a%00b")
    assert answer.status_code == 400
    assert list(answer.json()) == ["owner"]
    assert "NUL" in answer.json()["owner"][0]
    anonymous = APIClient().get("/api/v1/decks/?game=a%00b&public=1")
    assert (anonymous.status_code, list(anonymous.json())) == (400, ["game"])
    client = Client()
    client.force_login(owner)
    page = client.get("/collection/unmatched/?binder=a%00b")
    assert page.status_code == 400
    assert 'data-field="binder"' in page.content.decode()
