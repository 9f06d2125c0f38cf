"""Card faces at set-page size lead with the name and the stats: the picture box gives way, so
the stats sit in the upper part of the face and nothing of the face is hidden."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.core.management import call_command

from games import registry

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("game", "set_code"), [("unmatched", "battle-of-legends-volume-one")])
def test_a_set_page_face_shows_name_and_stats_in_its_upper_part(
    page: Page, live_server: Any, game: str, set_code: str
) -> None:
    call_command("import_catalog", str(registry.get(game).catalog_file), verbosity=0)
    page.goto(f"{live_server.url}/games/{game}/sets/{set_code}/")
    face = page.locator(".face.face-sm.face-type-character").first
    box = face.bounding_box()
    stats = face.locator(".stats").bounding_box()
    name = face.locator(".face-name").bounding_box()
    assert box and stats and name
    assert not face.locator(".face-mono").is_visible()
    # the stats start in the upper half and end inside the face
    assert stats["y"] - box["y"] < box["height"] / 2
    assert stats["y"] + stats["height"] <= box["y"] + box["height"]
    assert name["height"] >= 12
