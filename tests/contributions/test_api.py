"""The contributions API, the player's side: propose, list, read, withdraw and resubmit."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from catalog.models import Game
from contributions import errors
from contributions.api import serializers as s
from contributions.models import Proposal
from contributions.services import proposal_ask, proposal_submit
from tests.contributions.conftest import GAME, SOURCE, hunter, payload
from tests.contributions.test_api_fixtures import (
    API,
    client_for,
    create_body,
    fresh_cache,  # noqa: F401 (an autouse fixture)
    proposal_url,
    where,
)

pytestmark = pytest.mark.django_db


def _propose(author: Any, game: Game, code: str = "T-002") -> Proposal:
    content = payload(cards=[hunter(code, f"Hunter {code}")])
    return proposal_submit(author=author, game=game, kind="card", payload=content, **SOURCE)


# --- creating --------------------------------------------------------------------------------


def test_a_player_proposes_a_card_and_gets_it_back_open(game: Game, owner: Any) -> None:
    response = client_for(owner).post(f"{API}proposals/", create_body(), format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["state"], body["kind"], body["game"], body["author"]) == (
        "open",
        "card",
        GAME,
        "owner",
    )
    assert body["url"].endswith(proposal_url(body["id"]))
    assert [event["action"] for event in body["events"]] == ["submitted"]
    assert Proposal.objects.get(pk=body["id"]).payload["cards"][0]["code"] == "T-002"


def test_a_signed_out_proposal_is_401(game: Game) -> None:
    response = client_for(None).post(f"{API}proposals/", create_body(), format="json")

    assert response.status_code == 401
    assert not Proposal.objects.exists()


def test_a_refusal_names_every_field_and_the_payload_at_once(game: Game, owner: Any) -> None:
    bad_card = hunter("T-002", "Second Hunter")
    bad_card["attributes"]["attack"] = "lots"
    body = create_body(source_detail="", payload=payload(cards=[bad_card]), source_kind="gossip")

    response = client_for(owner).post(f"{API}proposals/", body, format="json")

    assert response.status_code == 400
    assert response.json()["detail"]
    places = where(response)
    assert places == {"source_detail", "source_kind", "payload: cards[0]"}
    assert not Proposal.objects.exists()


def test_an_unknown_game_is_a_400_at_game(game: Game, owner: Any) -> None:
    response = client_for(owner).post(
        f"{API}proposals/", create_body(game="no-such-game"), format="json"
    )

    assert response.status_code == 400
    assert where(response) == {"game"}


def test_a_payload_of_another_game_is_refused_by_the_services(game: Game, owner: Any) -> None:
    content = payload(cards=[hunter("T-002", "Second")]) | {"game": "grand-archive"}

    response = client_for(owner).post(
        f"{API}proposals/", create_body(payload=content), format="json"
    )

    assert response.status_code == 400
    assert where(response) == {"payload: game"}


def test_a_payload_and_a_sheet_together_are_refused(game: Game, owner: Any) -> None:
    body = create_body(kind="sheet", sheet="code,type\r\n")

    response = client_for(owner).post(f"{API}proposals/", body, format="json")

    assert response.status_code == 400
    assert response.json()["problems"] == [{"where": "sheet", "message": s.PAYLOAD_OR_SHEET}]


def test_a_correction_without_its_target_is_refused_at_reason(game: Game, owner: Any) -> None:
    response = client_for(owner).post(
        f"{API}proposals/", create_body(kind="correction"), format="json"
    )

    assert response.status_code == 400
    assert response.json()["problems"] == [
        {"where": "reason", "message": str(errors.CORRECTION_TARGET)}
    ]


@override_settings(CONTRIBUTIONS_PROPOSALS_PER_HOUR=2)
def test_the_third_proposal_in_an_hour_is_429_with_retry_after(game: Game, owner: Any) -> None:
    client = client_for(owner)
    for code in ("T-002", "T-003"):
        body = create_body(payload=payload(cards=[hunter(code, f"Hunter {code}")]))
        assert client.post(f"{API}proposals/", body, format="json").status_code == 201

    response = client.post(f"{API}proposals/", create_body(), format="json")

    assert response.status_code == 429
    assert response.json()["detail"] == str(errors.RATE_LIMITED % {"max": 2})
    assert 3500 <= int(response["Retry-After"]) <= 3600
    assert Proposal.objects.count() == 2


# --- a clean sheet proposed -------------------------------------------------------------------

SHEET = (
    "code,type,name_en,name_ja,set,number,attack,movement,reach,item_icons\r\n"
    "T-002,hunter,Second Hunter,二人目のハンター,t1,002,2,1,1,meat|ball\r\n"
)


def test_a_clean_sheet_is_proposed_as_its_cards(game: Game, owner: Any) -> None:
    body = create_body(kind="sheet", sheet=SHEET)
    del body["payload"]

    response = client_for(owner).post(f"{API}proposals/", body, format="json")

    assert response.status_code == 201, response.json()
    [card] = response.json()["payload"]["cards"]
    assert (card["code"], card["name_ja"]) == ("T-002", "二人目のハンター")


def test_a_sheet_with_problems_is_refused_at_its_line_and_column(game: Game, owner: Any) -> None:
    body = create_body(kind="sheet", sheet=SHEET.replace(",2,1,1,", ",lots,1,1,"))
    del body["payload"]

    response = client_for(owner).post(f"{API}proposals/", body, format="json")

    assert response.status_code == 400
    assert "sheet:2:attack" in where(response)
    assert not Proposal.objects.exists()


def test_a_sheet_is_read_only_for_a_sheet_kind(game: Game, owner: Any) -> None:
    body = create_body(sheet=SHEET)
    del body["payload"]

    response = client_for(owner).post(f"{API}proposals/", body, format="json")

    assert response.status_code == 400
    assert where(response) == {"sheet"}


# --- reading ---------------------------------------------------------------------------------


def test_a_player_lists_only_their_proposals_filtered_by_state(
    game: Game, owner: Any, stranger: Any, editor: Any
) -> None:
    first, second = _propose(owner, game, "T-002"), _propose(owner, game, "T-003")
    _propose(stranger, game, "T-004")
    proposal_ask(proposal=first, editor=editor, note="Which starter?")

    everything = client_for(owner).get(f"{API}proposals/").json()
    asked = client_for(owner).get(f"{API}proposals/", {"state": "changes_requested"}).json()

    assert [row["id"] for row in everything["results"]] == [second.pk, first.pk]
    assert [row["id"] for row in asked["results"]] == [first.pk]
    assert asked["results"][0]["decision_note"] == "Which starter?"


def test_listing_by_an_unknown_state_is_a_400_at_state(game: Game, owner: Any) -> None:
    response = client_for(owner).get(f"{API}proposals/", {"state": "lost"})

    assert response.status_code == 400
    assert where(response) == {"state"}


def test_listing_by_game_keeps_that_games_proposals(game: Game, owner: Any) -> None:
    _propose(owner, game)

    other = client_for(owner).get(f"{API}proposals/", {"game": "grand-archive"}).json()
    same = client_for(owner).get(f"{API}proposals/", {"game": GAME}).json()

    assert (other["count"], same["count"]) == (0, 1)


def test_listing_signed_out_is_401(game: Game) -> None:
    assert client_for(None).get(f"{API}proposals/").status_code == 401


def test_listing_costs_the_same_for_one_proposal_or_ten(
    game: Game, owner: Any, django_assert_max_num_queries: Any
) -> None:
    for number in range(10):
        _propose(owner, game, f"T-{number + 10:03d}")
    client = client_for(owner)

    with django_assert_max_num_queries(5):
        response = client.get(f"{API}proposals/")

    assert response.json()["count"] == 10


def test_a_proposal_is_read_by_its_author_and_editors_and_404_to_others(
    game: Game, owner: Any, editor: Any, stranger: Any
) -> None:
    proposal = _propose(owner, game)
    url = proposal_url(proposal.pk)

    assert client_for(owner).get(url).status_code == 200
    assert client_for(editor).get(url).json()["id"] == proposal.pk
    assert client_for(stranger).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 401
    assert client_for(owner).get(proposal_url(proposal.pk + 1000)).status_code == 404


# --- withdrawing and resubmitting ------------------------------------------------------------


def test_the_author_withdraws_a_waiting_proposal(game: Game, owner: Any) -> None:
    proposal = _propose(owner, game)

    response = client_for(owner).post(
        proposal_url(proposal.pk, "withdraw"), {"note": "duplicate"}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["state"] == "withdrawn"
    assert response.json()["events"][-1]["note"] == "duplicate"


def test_withdrawing_twice_is_a_400_naming_the_state(game: Game, owner: Any) -> None:
    proposal = _propose(owner, game)
    client_for(owner).post(proposal_url(proposal.pk, "withdraw"), format="json")

    response = client_for(owner).post(proposal_url(proposal.pk, "withdraw"), format="json")

    assert response.status_code == 400
    assert where(response) == {errors.WHOLE}


def test_only_the_author_withdraws(game: Game, owner: Any, editor: Any, stranger: Any) -> None:
    proposal = _propose(owner, game)
    url = proposal_url(proposal.pk, "withdraw")

    by_editor = client_for(editor).post(url, format="json")

    assert by_editor.status_code == 403
    assert by_editor.json()["detail"] == str(errors.NOT_AUTHOR)
    assert client_for(stranger).post(url, format="json").status_code == 404
    assert client_for(None).post(url, format="json").status_code == 401
    proposal.refresh_from_db()
    assert proposal.state == Proposal.State.OPEN


def test_the_author_resubmits_after_an_editor_asked(game: Game, owner: Any, editor: Any) -> None:
    proposal = _propose(owner, game)
    proposal_ask(proposal=proposal, editor=editor, note="Fix the name")
    fixed = payload(cards=[hunter("T-002", "Second Hunter, fixed")])

    response = client_for(owner).post(
        proposal_url(proposal.pk, "resubmit"), {"payload": fixed, "note": "done"}, format="json"
    )

    assert response.status_code == 200, response.json()
    assert response.json()["state"] == "open"
    assert response.json()["payload"]["cards"][0]["name_en"] == "Second Hunter, fixed"
    assert response.json()["events"][-1] == response.json()["events"][-1] | {
        "action": "resubmitted",
        "note": "done",
    }


def test_a_resubmission_without_content_is_a_400_at_payload(game: Game, owner: Any) -> None:
    proposal = _propose(owner, game)

    response = client_for(owner).post(
        proposal_url(proposal.pk, "resubmit"), {"note": "x"}, format="json"
    )

    assert response.status_code == 400
    assert where(response) == {"payload"}


def test_a_resubmission_by_someone_else_is_refused(game: Game, owner: Any, editor: Any) -> None:
    proposal = _propose(owner, game)
    body = {"payload": payload(cards=[hunter("T-002", "Hijacked")])}

    response = client_for(editor).post(proposal_url(proposal.pk, "resubmit"), body, format="json")

    assert response.status_code == 403
    proposal.refresh_from_db()
    assert proposal.payload["cards"][0]["name_en"] == "Hunter T-002"


def test_the_api_root_lists_the_proposals(client: Any) -> None:
    links = client.get(API).json()

    assert links["proposals"].endswith(f"{API}proposals/")


def test_a_sheets_proposal_is_resubmitted_as_a_corrected_sheet(
    game: Game, owner: Any, editor: Any
) -> None:
    body = create_body(kind="sheet", sheet=SHEET)
    del body["payload"]
    created = client_for(owner).post(f"{API}proposals/", body, format="json").json()
    proposal_ask(proposal=Proposal.objects.get(pk=created["id"]), editor=editor, note="attack 3")
    url = proposal_url(created["id"], "resubmit")

    bad = client_for(owner).post(url, {"sheet": SHEET.replace(",2,1,1,", ",x,1,1,")}, "json")
    good = client_for(owner).post(url, {"sheet": SHEET.replace(",2,1,1,", ",3,1,1,")}, "json")

    assert (bad.status_code, where(bad)) == (400, {"sheet:2:attack"})
    assert good.status_code == 200, good.json()
    assert good.json()["payload"]["cards"][0]["attributes"]["attack"] == 3
