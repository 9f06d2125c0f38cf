"""The contributions API answers as its OpenAPI schema documents: real answers (a proposal, the
queue, an approval, a card's history, a sheet checked) and a bounded schemathesis run over its
operations, anonymous, as a player and as an editor (no 5xx, nothing off the schema)."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from drf_spectacular.generators import SchemaGenerator
from hypothesis import given
from rest_framework.authtoken.models import Token

from catalog.models import Game
from contributions.services import proposal_submit
from tests.contributions.conftest import GAME, SOURCE, hunter, payload
from tests.test_api_schemathesis import (
    APP,
    BASE_URL,
    RUN,
    keep_the_test_connection,  # noqa: F401 (a fixture)
)
from tests.test_api_schemathesis import CHECKS as FUZZ_CHECKS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("keep_the_test_connection")]

OURS = ("/api/v1/proposals/", "/api/v1/review/", "/api/v1/changes/", "sheet-", "/history/")


def _schema() -> Any:
    return schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))


def _headers(user: Any) -> dict[str, str]:
    token, _created = Token.objects.get_or_create(user=user)
    return {"Authorization": f"Token {token.key}"}


def _call(
    schema: Any, method: str, path: str, headers: dict[str, str], status: int, **case: Any
) -> Any:
    response = schema[path][method].Case(**case).call(app=APP, base_url=BASE_URL, headers=headers)
    assert response.status_code == status, (path, response.text[:500])
    schema[path][method].Case(**case).validate_response(response, checks=FUZZ_CHECKS)
    return response


def test_real_answers_match_the_schema(game: Game, owner: Any, editor: Any) -> None:
    schema = _schema()
    mine, editors = _headers(owner), _headers(editor)
    proposal = proposal_submit(
        author=owner,
        game=game,
        kind="card",
        payload=payload(cards=[hunter("T-002", "Second Hunter")]),
        **SOURCE,
    )
    ids = {"proposal_id": proposal.pk}

    _call(schema, "GET", "/api/v1/proposals/", mine, 200)
    _call(schema, "GET", "/api/v1/proposals/{proposal_id}/", mine, 200, path_parameters=ids)
    _call(schema, "GET", "/api/v1/review/{game}/", editors, 200, path_parameters={"game": GAME})
    approved = _call(
        schema, "POST", "/api/v1/proposals/{proposal_id}/approve/", editors, 200,
        path_parameters=ids, body={"note": "thanks"},
    )  # fmt: skip
    change = approved.json()["changes"][0]["id"]
    _call(
        schema, "GET", "/api/v1/games/{game}/cards/{code}/history/", {}, 200,
        path_parameters={"game": GAME, "code": "T-002"},
    )  # fmt: skip
    _call(
        schema, "POST", "/api/v1/games/{game}/sheet-check/", mine, 200,
        path_parameters={"game": GAME}, body={"text": "code,type\r\nT-9,hunter\r\n"},
        media_type="application/json",
    )  # fmt: skip
    _call(
        schema, "GET", "/api/v1/games/{game}/sheet-template/", {}, 200,
        path_parameters={"game": GAME},
    )  # fmt: skip
    _call(
        schema, "POST", "/api/v1/proposals/", mine, 400,
        body={"kind": "card", "game": GAME, "payload": {}, **SOURCE},
    )  # fmt: skip
    _call(
        schema, "POST", "/api/v1/changes/{change_id}/revert/", mine, 403,
        path_parameters={"change_id": change},
    )  # fmt: skip


def _fuzz(operation: Any, headers: dict[str, str]) -> str:
    """The operation's generated requests by one caller: its failure, or ""."""

    @RUN
    @given(case=operation.as_strategy())
    def one(case: Any) -> None:
        response = case.call(app=APP, base_url=BASE_URL, headers=headers)
        case.validate_response(response, checks=FUZZ_CHECKS)

    try:
        one()
    except (Exception, BaseExceptionGroup) as exc:  # every failure is reported
        return f"{operation.label}: {str(exc)[:600]}"
    return ""


def test_generated_requests_are_never_a_5xx_or_off_the_schema(
    game: Game, owner: Any, editor: Any
) -> None:
    schema = _schema()
    proposal_submit(
        author=owner, game=game, kind="card", payload=payload(cards=[hunter("T-3", "H")]), **SOURCE
    )
    failures: list[str] = []
    for caller in ({}, _headers(owner), _headers(editor)):
        for result in schema.get_all_operations():
            operation = result.ok()
            if not any(part in operation.path for part in OURS):
                continue
            failure = _fuzz(operation, caller)
            if failure:
                failures.append(failure)

    assert failures == []
