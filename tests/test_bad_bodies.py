"""Bodies that cannot be read are 400s naming why: invalid UTF-8 in JSON, NUL in form fields."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from rest_framework.response import Response
from rest_framework.test import APIClient, APIRequestFactory
from rest_framework.views import APIView

pytestmark = pytest.mark.django_db

NOT_UTF8 = b'{"game": "unmatched", "text": "caf\xe9 \xff\xfe"}'
NUL_MESSAGE = "NUL character"


def _write_operations() -> list[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for template, operations in schema["paths"].items():
        path = template
        for name in ("game", "code", "public_id", "item_id", "wish_id", "batch_id", "job_id"):
            path = path.replace("{" + name + "}", "unmatched" if name == "game" else "1")
        path = path.replace("{entry_id}", "1").replace("{number}", "1")
        found.extend((method.upper(), path) for method in operations if method != "get")
    return found


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_invalid_utf8_in_any_json_body_is_never_a_500(owner: Any, signed_in: bool) -> None:
    api = APIClient(raise_request_exception=False)
    if signed_in:
        api.force_authenticate(owner)
    operations = _write_operations()
    assert len(operations) > 15
    answers = {
        (method, path): api.generic(method, path, NOT_UTF8, content_type="application/json")
        for method, path in operations
    }
    assert {key: a.status_code for key, a in answers.items() if a.status_code >= 500} == {}


def test_invalid_utf8_is_a_400_saying_so_to_anyone() -> None:
    answer = APIClient().generic(
        "POST", "/api/v1/decks/validate/", NOT_UTF8, content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json() == {"detail": "The request body is not valid UTF-8 text."}


class _FormEcho(APIView):
    """An API view with the project's default parsers (JSON, form, multipart)."""

    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []

    def post(self, request: Any) -> Response:
        return Response({"fields": sorted(request.data)})


@pytest.mark.parametrize("format", ["multipart", "form"])
def test_a_nul_in_an_api_form_field_is_a_400_naming_the_field(format: str) -> None:
    factory = APIRequestFactory()
    if format == "multipart":
        request = factory.post("/", {"deck": "ok", "binder": "a\x00b"}, format="multipart")
    else:
        body = "deck=ok&binder=a%00b"
        request = factory.post("/", body, content_type="application/x-www-form-urlencoded")
    answer = _FormEcho.as_view()(request)
    assert answer.status_code == 400
    assert list(answer.data) == ["binder"] and NUL_MESSAGE in str(answer.data["binder"][0])
    clean = factory.post("/", {"deck": "ok", "binder": "b"}, format="multipart")
    assert _FormEcho.as_view()(clean).data == {"fields": ["binder", "deck"]}


def test_a_nul_in_a_site_form_field_is_the_400_page_naming_it(owner: Any) -> None:
    response = Client().post("/accounts/login/", {"username": "a\x00b", "password": "x"})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-status="400"' in page and 'data-field="username"' in page
    client = Client()
    client.force_login(owner)
    refused = client.post("/collection/settings/", {"visibility": "private", "note": "\x00"})
    assert refused.status_code == 400 and 'data-field="note"' in refused.content.decode()
