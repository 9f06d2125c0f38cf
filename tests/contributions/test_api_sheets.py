"""The contributions API's sheets: the template to fill in and the check (nothing proposed)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from catalog.models import Game
from contributions.models import Proposal
from tests.contributions.conftest import GAME
from tests.contributions.test_api_fixtures import (
    API,
    client_for,
    fresh_cache,  # noqa: F401 (an autouse fixture)
    where,
)

pytestmark = pytest.mark.django_db

TEMPLATE = f"{API}games/{GAME}/sheet-template/"
CHECK = f"{API}games/{GAME}/sheet-check/"
SHEET = (
    "code,type,name_en,name_ja,set,number,attack,movement,reach,item_icons\r\n"
    "T-002,hunter,Second Hunter,二人目のハンター,t1,002,2,1,1,meat|ball\r\n"
)


def test_anyone_downloads_a_card_sheet_printed_in_a_set(game: Game) -> None:
    response = client_for(None).get(TEMPLATE, {"set": "t1"})

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows and {row["set"] for row in rows} == {"t1"}


def test_a_names_sheet_lists_the_sets_cards(game: Game) -> None:
    response = client_for(None).get(TEMPLATE, {"set": "t1", "kind": "names"})

    assert response.status_code == 200
    assert "T-001" in response.content.decode("utf-8-sig")


@pytest.mark.parametrize(
    ("query", "field"),
    [({"set": "nope"}, "set"), ({"kind": "names"}, "set"), ({"kind": "deck"}, "kind")],
)
def test_a_template_of_a_bad_set_or_kind_is_a_400(
    game: Game, query: dict[str, str], field: str
) -> None:
    response = client_for(None).get(TEMPLATE, query)

    assert response.status_code == 400
    assert where(response) == {field}


def test_the_template_of_an_unknown_game_is_404(game: Game) -> None:
    assert client_for(None).get(f"{API}games/nope/sheet-template/").status_code == 404


def test_a_clean_sheet_checks_clean_with_its_payload_and_proposes_nothing(
    game: Game, owner: Any
) -> None:
    response = client_for(owner).post(CHECK, {"text": SHEET}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert (body["clean"], body["problems"]) == (True, [])
    assert body["payload"]["cards"][0]["code"] == "T-002"
    assert not Proposal.objects.exists()


def test_a_shift_jis_upload_is_read(game: Game, owner: Any) -> None:
    upload = SimpleUploadedFile("sheet.csv", SHEET.encode("cp932"), content_type="text/csv")

    response = client_for(owner).post(CHECK, {"file": upload}, format="multipart")

    assert response.status_code == 200, response.json()
    assert response.json()["payload"]["cards"][0]["name_ja"] == "二人目のハンター"


def test_each_problem_has_its_line_column_and_suggestions(game: Game, owner: Any) -> None:
    text = SHEET.replace(",hunter,", ",huntr,").replace(",2,1,1,", ",lots,1,1,")

    response = client_for(owner).post(CHECK, {"text": text}, format="json")

    body = response.json()
    assert (response.status_code, body["clean"], body["payload"]) == (200, False, None)
    places = {(p["line"], p["column"]) for p in body["problems"]}
    assert (2, "type") in places, body["problems"]
    [typo] = [p for p in body["problems"] if p["column"] == "type"]
    assert "hunter" in typo["did_you_mean"]


def test_a_check_needs_the_text_or_a_file_but_not_both(game: Game, owner: Any) -> None:
    upload = SimpleUploadedFile("sheet.csv", SHEET.encode(), content_type="text/csv")

    neither = client_for(owner).post(CHECK, {}, format="json")
    both = client_for(owner).post(CHECK, {"file": upload, "text": SHEET}, format="multipart")

    assert (neither.status_code, where(neither)) == (400, {"text"})
    assert (both.status_code, where(both)) == (400, {"text"})


def test_an_upload_that_is_not_text_is_a_400_at_file(game: Game, owner: Any) -> None:
    upload = SimpleUploadedFile("sheet.csv", b"\x81\xff\x00\xfe" * 10, content_type="text/csv")

    response = client_for(owner).post(CHECK, {"file": upload}, format="multipart")

    assert (response.status_code, where(response)) == (400, {"file"})


def test_checking_is_for_signed_in_players(game: Game) -> None:
    assert client_for(None).post(CHECK, {"text": SHEET}, format="json").status_code == 401


def test_checking_against_an_unknown_game_is_404(game: Game, owner: Any) -> None:
    response = client_for(owner).post(
        f"{API}games/nope/sheet-check/", {"text": SHEET}, format="json"
    )

    assert response.status_code == 404
