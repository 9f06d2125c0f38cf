"""The sheet pages: the templates, a bad sheet's problems, a clean sheet's preview and its
confirmation, the names sheet, and a sheet resubmitted after changes are asked."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from catalog.models import Game
from contributions.models import Proposal
from contributions.services import proposal_ask
from tests.contributions.conftest import SOURCE

pytestmark = pytest.mark.django_db

SHEET_URL = "/contribute/monster-hunter/sheet/"
NAMES_URL = "/contribute/monster-hunter/names-sheet/"
HEADER = "code,type,name_en,name_ja,set,number,attack,movement,reach,item_icons\r\n"
CLEAN = (
    HEADER
    + "T-002,hunter,Second Hunter,二人目のハンター,t1,002,2,1,1,meat|ball\r\n"
    + "T-003,hunter,Third Hunter,,t1,003,1,1,1,\r\n"
)
#: line 3 names a set that does not exist and line 4 misspells its type (hunter was meant)
BAD = (
    HEADER
    + "T-002,hunter,Second Hunter,,t1,002,2,1,1,\r\n"
    + "T-003,hunter,Third Hunter,,t2,003,1,1,1,\r\n"
    + "T-004,huntr,Fourth Hunter,,t1,004,1,1,1,\r\n"
)


def upload(text: str, encoding: str = "utf-8") -> SimpleUploadedFile:
    return SimpleUploadedFile("sheet.csv", text.encode(encoding), content_type="text/csv")


def check(client: Client, url: str, text: str, encoding: str = "utf-8") -> Any:
    return client.post(url, {"step": "check", "file": upload(text, encoding), **SOURCE})


def confirmation(response: Any) -> dict[str, Any]:
    """What the preview's confirm button posts: its hidden fields as the browser sends them."""
    form = re.search(r'<form[^>]*id="sheet-confirm".*?</form>', response.content.decode(), re.S)
    assert form, response.content.decode()[-3000:]
    html = form.group(0)
    data: dict[str, Any] = dict(
        re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', html)
    )
    text = re.search(r"<textarea name=\"text\"[^>]*>\n(.*?)</textarea>", html, re.S)
    assert text
    data["text"] = text.group(1).replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&")
    return data


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_sheet_template_downloads_with_the_games_columns(
    game: Game, owner_client: Client, language: str
) -> None:
    owner_client.cookies["django_language"] = language

    response = owner_client.get("/contribute/monster-hunter/sheet/template.csv?set=t1")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "monster-hunter-t1-sheet.csv" in response["Content-Disposition"]
    text = response.content.decode("utf-8-sig")
    assert text.startswith("code,type,name_en,name_ja,set,number")
    assert ",t1,EX-001" in text


def test_a_template_of_an_unknown_set_is_not_found(game: Game, owner_client: Client) -> None:
    assert (
        owner_client.get("/contribute/monster-hunter/sheet/template.csv?set=zz").status_code == 404
    )
    assert (
        owner_client.get("/contribute/monster-hunter/names-sheet/template.csv").status_code == 404
    )


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_bad_sheet_lists_each_problem_with_line_column_and_meaning_and_proposes_nothing(
    game: Game, owner_client: Client, language: str
) -> None:
    owner_client.cookies["django_language"] = language

    response = check(owner_client, SHEET_URL, BAD)

    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="sheet-problems"' in body
    assert 'id="sheet-confirm"' not in body
    assert re.search(r'<tr data-line="3" data-column="set"><td>3</td><td>set</td><td>.*t2', body)
    row = re.search(r'<tr data-line="4" data-column="type">(.*?)</tr>', body, re.S)
    assert row, body
    assert "<td>hunter</td>" in row.group(1)  # did you mean
    assert not Proposal.objects.exists()


def test_a_clean_sheet_is_previewed_then_proposed_once_even_if_confirmed_twice(
    game: Game, owner: Any, owner_client: Client
) -> None:
    preview = check(owner_client, SHEET_URL, CLEAN)
    assert preview.status_code == 200
    assert 'data-card="T-002"' in preview.content.decode()
    assert not Proposal.objects.exists()  # a preview proposes nothing

    data = confirmation(preview)
    first = owner_client.post(SHEET_URL, data)
    second = owner_client.post(SHEET_URL, data)

    proposal = Proposal.objects.get()
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == f"/contribute/proposals/{proposal.pk}/"
    assert (proposal.kind, proposal.author, proposal.source_detail) == (
        "sheet",
        owner,
        SOURCE["source_detail"],
    )
    assert [card["code"] for card in proposal.payload["cards"]] == ["T-002", "T-003"]
    assert proposal.payload["cards"][0]["name_ja"] == "二人目のハンター"


def test_a_sheet_saved_as_shift_jis_is_read(game: Game, owner_client: Client) -> None:
    response = check(owner_client, SHEET_URL, CLEAN, encoding="cp932")

    assert 'id="sheet-confirm"' in response.content.decode()
    assert "二人目のハンター" in response.content.decode()


def test_a_confirmation_is_checked_again_and_a_tampered_text_proposes_nothing(
    game: Game, owner_client: Client
) -> None:
    data = confirmation(check(owner_client, SHEET_URL, CLEAN))
    data["text"] = BAD

    response = owner_client.post(SHEET_URL, data)

    assert response.status_code == 200
    assert 'id="sheet-problems"' in response.content.decode()
    assert not Proposal.objects.exists()


@pytest.mark.parametrize(
    "posted",
    [
        {"step": "check", **SOURCE},  # no file
        {"step": "confirm", "text": "", **SOURCE},
        {"step": "check", "file": "not a file", "source_kind": "nope"},
    ],
)
def test_a_sheet_post_without_a_sheet_is_shown_again_with_its_error(
    game: Game, owner_client: Client, posted: dict[str, Any]
) -> None:
    response = owner_client.post(SHEET_URL, posted)

    assert response.status_code == 200
    assert b"invalid-feedback" in response.content
    assert not Proposal.objects.exists()


def test_a_file_that_is_not_text_is_refused(game: Game, owner_client: Client) -> None:
    binary = SimpleUploadedFile("sheet.xlsx", b"\x81\xff\x00PK\x03\x04", content_type="x/y")

    response = owner_client.post(SHEET_URL, {"step": "check", "file": binary, **SOURCE})

    assert response.status_code == 200
    assert b'data-field="file"' in response.content


def test_a_sheet_over_the_size_bound_is_refused(
    game: Game, owner_client: Client, settings: Any
) -> None:
    settings.CATALOG_UPLOAD_MAX_BYTES = 100

    response = check(owner_client, SHEET_URL, CLEAN)

    assert response.status_code == 200
    assert b'data-field="file"' in response.content
    assert not Proposal.objects.exists()


def test_a_names_sheet_adds_the_missing_names(game: Game, owner_client: Client) -> None:
    template = owner_client.get("/contribute/monster-hunter/names-sheet/template.csv?set=t1")
    text = template.content.decode("utf-8-sig").replace("Test Hunter,", "Test Hunter,試験狩人")

    preview = check(owner_client, NAMES_URL, text)
    assert "試験狩人" in preview.content.decode()
    response = owner_client.post(NAMES_URL, confirmation(preview))

    proposal = Proposal.objects.get()
    assert response.status_code == 302
    assert proposal.kind == "names"
    assert proposal.payload["cards"][0]["name_ja"] == "試験狩人"


def test_a_sheet_proposal_is_resubmitted_with_a_new_sheet(
    game: Game, owner: Any, owner_client: Client, editor: Any
) -> None:
    owner_client.post(SHEET_URL, confirmation(check(owner_client, SHEET_URL, CLEAN)))
    proposal = Proposal.objects.get()
    proposal_ask(proposal=proposal, editor=editor, note="T-003 has a Japanese name")
    redirect = owner_client.get(f"/contribute/proposals/{proposal.pk}/resubmit/")
    url = redirect["Location"]
    fixed = CLEAN.replace("Third Hunter,,", "Third Hunter,三人目,")

    preview = owner_client.post(url, {"step": "check", "file": upload(fixed), "note": "done"})
    response = owner_client.post(url, confirmation(preview))

    proposal.refresh_from_db()
    assert (redirect.status_code, response.status_code) == (302, 302)
    assert proposal.state == Proposal.State.OPEN
    assert proposal.payload["cards"][1]["name_ja"] == "三人目"
    assert Proposal.objects.count() == 1
