"""Real answers of the main API endpoints, on real catalogs, a deck and a collection, match the
OpenAPI schema.

The schemathesis run (tests/test_api_schemathesis.py) generates requests against an empty
database: a deck, product or card it names does not exist, so it only ever sees 404s from the
detail endpoints, and a field documented as an object but returned as a list (``data_notes``)
went unnoticed. Here each response is one a player gets, checked by schemathesis' schema
conformance checks.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from schemathesis.specs.openapi import checks as openapi_checks

from catalog.models import Card, CardSet, Printing

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("committed_catalogs", "keep_the_test_connection"),
]

APP = get_wsgi_application()
CHECKS = [
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_schema_conformance,
]

from tests.test_api_schemathesis import keep_the_test_connection  # noqa: E402, F401


def _get(
    schema: Any,
    path: str,
    headers: dict[str, str],
    query: dict[str, Any] | None = None,
    **params: Any,
) -> Any:
    case = schema[path]["GET"].Case(path_parameters=params, query=query or {})
    response = case.call(app=APP, base_url="http://testserver", headers=headers)
    assert response.status_code == 200, (path, params, response.text[:500])
    case.validate_response(response, checks=CHECKS)
    return response.json()


def _collect(owner: Any, key: str) -> None:
    """Two copies of an Unmatched printing in the owner's collection, added through the API."""
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    card = Card.objects.filter(game__slug="unmatched").order_by("pk").first()
    printing = Printing.objects.filter(card=card).select_related("card_set").first()
    assert card is not None and printing is not None
    added = api.post(
        "/api/v1/collection/items/",
        {
            "game": "unmatched",
            "set": printing.card_set.code,
            "card": card.code,
            "number": printing.collector_number,
            "variant": printing.variant,
            "quantity": 2,
        },
        format="json",
    )
    assert added.status_code == 201, added.content
    # the test client connects Django's connection closers again after each request
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)


def test_the_main_endpoints_answer_as_the_schema_documents(owner: Any) -> None:
    token, _ = Token.objects.get_or_create(user=owner)
    headers = {"Authorization": f"Token {token.key}"}
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    deck = api.post(
        "/api/v1/decks/from-product/", {"game": "unmatched", "product": "elektra"}, format="json"
    )
    assert deck.status_code == 201, deck.content
    public_id = deck.json()["public_id"]
    card_set = CardSet.objects.filter(game__slug="unmatched").order_by("pk").first()
    card = Card.objects.filter(game__slug="unmatched").order_by("pk").first()
    assert card_set is not None and card is not None
    _collect(owner, token.key)
    schema = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
    for who in ({}, headers):
        _get(schema, "/api/v1/games/", who)
        _get(schema, "/api/v1/games/{game}/", who, game="unmatched")
        _get(schema, "/api/v1/games/{game}/sets/", who, game="unmatched")
        _get(schema, "/api/v1/games/{game}/sets/{code}/", who, game="unmatched", code=card_set.code)
        _get(schema, "/api/v1/games/{game}/cards/", who, game="unmatched")
        _get(schema, "/api/v1/games/{game}/cards/{code}/", who, game="unmatched", code=card.code)
        _get(schema, "/api/v1/games/{game}/printings/", who, game="unmatched")
        _get(schema, "/api/v1/games/{game}/products/", who, game="unmatched")
        product = _get(
            schema, "/api/v1/games/{game}/products/{code}/", who, game="unmatched", code="elektra"
        )
        assert product["data_notes"]
        _get(schema, "/api/v1/cards/", who, {"q": "a"})
        _get(schema, "/api/v1/engines/", who)
        _get(schema, "/api/v1/decks/", who, {"game": "unmatched", "public": 1} if not who else {})
    detail = _get(schema, "/api/v1/decks/{public_id}/", headers, public_id=public_id)
    assert isinstance(detail["data_notes"], list) and detail["data_notes"]
    _get(schema, "/api/v1/decks/{public_id}/revisions/", headers, public_id=public_id)
    _get(schema, "/api/v1/decks/{public_id}/collection/", headers, public_id=public_id)
    _get(schema, "/api/v1/runs/", headers)
    _get(schema, "/api/v1/collection/wishlist/", headers)
    _get(schema, "/api/v1/collection/settings/", headers)


def test_the_collection_items_answer_as_the_schema_documents(owner: Any) -> None:
    token, _ = Token.objects.get_or_create(user=owner)
    headers = {"Authorization": f"Token {token.key}"}
    _collect(owner, token.key)
    schema = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
    _get(schema, "/api/v1/collection/items/", headers)
