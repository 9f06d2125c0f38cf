"""``/api/v1/`` answers with the API's entry points (issue 18: it answered 404)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient

from decklab.api_root import ENTRY_POINTS

pytestmark = pytest.mark.django_db


def test_the_api_root_lists_every_entry_point_as_an_absolute_link() -> None:
    response = APIClient().get("/api/v1/", HTTP_HOST="testserver")
    assert response.status_code == 200
    links = response.json()
    assert set(links) == set(ENTRY_POINTS)
    assert links["games"] == "http://testserver/api/v1/games/"
    assert links["cards"] == "http://testserver/api/v1/cards/"
    assert links["decks"] == "http://testserver/api/v1/decks/"
    assert links["runs"] == "http://testserver/api/v1/runs/"
    assert links["collection"] == "http://testserver/api/v1/collection/items/"
    assert links["docs"] == "http://testserver/api/v1/docs/"
    assert links["schema"] == "http://testserver/api/v1/schema/"


def test_every_link_of_the_api_root_answers() -> None:
    client = APIClient()
    for name, url in client.get("/api/v1/").json().items():
        status = client.get(url).status_code
        # the player's own collections ask for a sign-in and the validation and import
        # endpoints take only POST (405); none is missing, none fails
        assert status in (200, 401, 403, 405), (name, url, status)


def test_the_api_root_is_in_the_schema(tmp_path: Path) -> None:
    # warnings are held by the catalog API's own schema test; this one looks at the root
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    root = schema["paths"]["/api/v1/"]["get"]
    reference = root["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    component = schema["components"]["schemas"][reference.rsplit("/", 1)[-1]]
    assert set(component["properties"]) == set(ENTRY_POINTS)
    assert all(p["format"] == "uri" for p in component["properties"].values())
