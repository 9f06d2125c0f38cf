"""A bounded schemathesis run over the whole API, in-process, anonymous and with a token.

Every operation of the OpenAPI schema gets a few generated requests (valid and invalid); the
run fails on any 5xx and on any answer whose status, content type or body the schema does not
document (errors included: they all share the one ``Error`` shape, decklab/api/schema.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis.specs.openapi import checks as openapi_checks

from tests.catalog.factories import GameFactory

#: examples per operation and per kind of caller: ~45 operations x 2 callers x this
EXAMPLES = 4
#: requests made, by status class, for the figures in docs/benchmarks.md
SEEN: dict[str, int] = {}

CHECKS = [
    schemathesis.checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_schema_conformance,
]


APP = get_wsgi_application()
BASE_URL = "http://testserver"

RUN = hypothesis_settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


def _run(headers: dict[str, str]) -> list[str]:
    """Every operation's generated requests; the failures, one line each."""
    document = SchemaGenerator().get_schema(request=None, public=True)
    schema = schemathesis.openapi.from_dict(document)
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @RUN
        @given(case=operation.as_strategy())
        def one(case: Any) -> None:
            response = case.call(app=APP, base_url=BASE_URL, headers=headers)
            key = f"{response.status_code // 100}xx"
            SEEN[key] = SEEN.get(key, 0) + 1
            case.validate_response(response, checks=CHECKS)

        try:
            one()
        except (Exception, BaseExceptionGroup) as exc:  # every operation's failure is reported
            failures.append(f"{operation.label}: {str(exc)[:600]}")
    return failures


@pytest.fixture
def keep_the_test_connection() -> Iterator[None]:
    """Django's WSGI handler closes the connection after each request; the test client does
    not, and neither may this in-process run (the test's transaction lives on it)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.django_db
@pytest.mark.usefixtures("keep_the_test_connection")
def test_no_request_anonymous_or_with_a_token_is_a_5xx_or_off_the_schema(owner: Any) -> None:
    GameFactory(slug="unmatched")
    token, _ = Token.objects.get_or_create(user=owner)
    failures = _run({}) + _run({"Authorization": f"Token {token.key}"})
    print(f"schemathesis: {sum(SEEN.values())} requests, by status class {sorted(SEEN.items())}")
    assert failures == []
    assert SEEN.get("5xx", 0) == 0
