"""The contributions API, the editors' side: the queue, decisions, reverts, and a card's
public history."""

from __future__ import annotations

from typing import Any

import pytest

from catalog.models import Card, Game
from contributions import errors
from contributions.models import CatalogChange, Proposal
from contributions.services import proposal_approve, proposal_submit
from tests.contributions.conftest import GAME, SOURCE, hunter, kind_of, payload
from tests.contributions.test_api_fixtures import (
    API,
    client_for,
    fresh_cache,  # noqa: F401 (an autouse fixture)
    proposal_url,
    where,
)

pytestmark = pytest.mark.django_db

QUEUE = f"{API}review/{GAME}/"


def _propose(author: Any, game: Game, code: str = "T-002", name: str = "") -> Proposal:
    content = payload(cards=[hunter(code, name or f"Hunter {code}")])
    return proposal_submit(
        author=author, game=game, payload=content, **kind_of(game, content), **SOURCE
    )


def _history_url(code: str) -> str:
    return f"{API}games/{GAME}/cards/{code}/history/"


# --- the queue -------------------------------------------------------------------------------


def test_an_editor_sees_the_games_open_proposals_oldest_first(
    game: Game, owner: Any, stranger: Any, editor: Any
) -> None:
    first, second = _propose(owner, game, "T-002"), _propose(stranger, game, "T-003")
    withdrawn = _propose(owner, game, "T-004")
    client_for(owner).post(proposal_url(withdrawn.pk, "withdraw"), format="json")

    response = client_for(editor).get(QUEUE)

    assert response.status_code == 200
    assert [row["id"] for row in response.json()["results"]] == [first.pk, second.pk]
    assert response.json()["results"][0]["author"] == "owner"


def test_the_queue_is_403_to_players_and_401_signed_out(game: Game, owner: Any) -> None:
    refused = client_for(owner).get(QUEUE)

    assert refused.status_code == 403
    assert refused.json()["detail"] == str(errors.NOT_EDITOR)
    assert client_for(None).get(QUEUE).status_code == 401


def test_the_queue_of_an_unknown_game_is_404(game: Game, editor: Any) -> None:
    assert client_for(editor).get(f"{API}review/no-such-game/").status_code == 404


def test_the_queue_costs_the_same_for_two_proposals_or_twelve(
    game: Game, owner: Any, stranger: Any, editor: Any, django_assert_max_num_queries: Any
) -> None:
    for number in range(12):
        _propose(owner if number % 2 else stranger, game, f"T-{number + 10:03d}")
    client = client_for(editor)

    # the token, the editor check (the view's, before the game is looked up, and the
    # selector's own), the game, the page of proposals with their authors
    with django_assert_max_num_queries(5):
        response = client.get(QUEUE)

    assert response.json()["count"] == 12


# --- decisions -------------------------------------------------------------------------------


def test_an_editor_approves_and_gets_the_changes(game: Game, owner: Any, editor: Any) -> None:
    proposal = _propose(owner, game)

    response = client_for(editor).post(
        proposal_url(proposal.pk, "approve"), {"note": "thanks"}, format="json"
    )

    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["proposal"]["state"] == "approved"
    assert body["proposal"]["decided_by"] == "editor"
    changed = {(c["object_kind"], c["object_code"], c["before"] is None) for c in body["changes"]}
    assert ("card", "T-002", True) in changed
    assert Card.objects.filter(game=game, code="T-002").exists()


def test_a_player_cannot_approve(game: Game, owner: Any, stranger: Any) -> None:
    proposal = _propose(owner, game)

    for user in (owner, stranger):
        response = client_for(user).post(proposal_url(proposal.pk, "approve"), format="json")
        assert response.status_code == 403
        assert response.json()["detail"] == str(errors.NOT_EDITOR)
    assert client_for(None).post(proposal_url(proposal.pk, "approve")).status_code == 401
    assert not Card.objects.filter(game=game, code="T-002").exists()


def test_an_editor_cannot_decide_their_own_proposal(game: Game, editor: Any) -> None:
    proposal = _propose(editor, game)

    for action in ("approve", "reject", "ask"):
        response = client_for(editor).post(
            proposal_url(proposal.pk, action), {"note": "mine"}, format="json"
        )
        assert response.status_code == 403, action
        assert response.json()["detail"] == str(errors.OWN_PROPOSAL)


def test_deciding_a_missing_proposal_is_404(game: Game, editor: Any) -> None:
    assert client_for(editor).post(proposal_url(999_999, "approve")).status_code == 404


def test_approving_a_decided_proposal_is_a_400(
    game: Game, owner: Any, editor: Any, second_editor: Any
) -> None:
    proposal = _propose(owner, game)
    proposal_approve(proposal=proposal, editor=editor)

    response = client_for(second_editor).post(proposal_url(proposal.pk, "approve"), format="json")

    assert response.status_code == 400
    assert where(response) == {errors.WHOLE}


def test_an_editor_rejects_with_a_note(game: Game, owner: Any, editor: Any) -> None:
    proposal = _propose(owner, game)

    response = client_for(editor).post(
        proposal_url(proposal.pk, "reject"), {"note": "Not a real card"}, format="json"
    )

    assert response.status_code == 200
    assert (response.json()["state"], response.json()["decision_note"]) == (
        "rejected",
        "Not a real card",
    )


@pytest.mark.parametrize("action", ["reject", "ask"])
def test_rejecting_or_asking_needs_a_note(game: Game, owner: Any, editor: Any, action: str) -> None:
    proposal = _propose(owner, game)

    blank = client_for(editor).post(proposal_url(proposal.pk, action), {"note": " "}, format="json")
    missing = client_for(editor).post(proposal_url(proposal.pk, action), {}, format="json")

    assert (blank.status_code, where(blank)) == (400, {"note"})
    assert blank.json()["problems"][0]["message"] == str(errors.NOTE_REQUIRED)
    assert (missing.status_code, where(missing)) == (400, {"note"})


def test_an_editor_asks_for_changes(game: Game, owner: Any, editor: Any) -> None:
    proposal = _propose(owner, game)

    response = client_for(editor).post(
        proposal_url(proposal.pk, "ask"), {"note": "Which set?"}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["state"] == "changes_requested"


# --- reverts and history ---------------------------------------------------------------------


def _applied(owner: Any, editor: Any, game: Game) -> list[CatalogChange]:
    return proposal_approve(proposal=_propose(owner, game), editor=editor)


def test_an_editor_reverts_a_change(game: Game, owner: Any, editor: Any) -> None:
    [card_change] = [c for c in _applied(owner, editor, game) if c.object_kind == "card"]
    printing = CatalogChange.objects.filter(proposal=card_change.proposal, object_kind="printing")
    for change in printing:  # the printing first: the card is removed only without printings
        client_for(editor).post(f"{API}changes/{change.pk}/revert/", format="json")

    response = client_for(editor).post(f"{API}changes/{card_change.pk}/revert/", format="json")

    assert response.status_code == 201, response.json()
    assert response.json()["reverts"] == card_change.pk
    assert response.json()["after"] is None
    assert not Card.objects.filter(game=game, code="T-002").exists()


def test_reverting_is_for_editors(game: Game, owner: Any, editor: Any, stranger: Any) -> None:
    change = _applied(owner, editor, game)[0]
    url = f"{API}changes/{change.pk}/revert/"

    assert client_for(stranger).post(url, format="json").status_code == 403
    assert client_for(None).post(url, format="json").status_code == 401
    assert client_for(editor).post(f"{API}changes/999999/revert/").status_code == 404


def test_reverting_twice_is_a_400(game: Game, owner: Any, editor: Any) -> None:
    change = _applied(owner, editor, game)[0]
    url = f"{API}changes/{change.pk}/revert/"
    client_for(editor).post(url, format="json")

    response = client_for(editor).post(url, format="json")

    assert response.status_code == 400
    assert response.json()["problems"]


def test_anyone_reads_a_cards_history_newest_first(game: Game, owner: Any, editor: Any) -> None:
    _applied(owner, editor, game)
    renamed = _propose(owner, game, "T-002", "Renamed Hunter")
    proposal_approve(proposal=renamed, editor=editor)

    response = client_for(None).get(_history_url("T-002"))

    assert response.status_code == 200
    rows = response.json()["results"]
    cards = [row for row in rows if row["object_kind"] == "card"]
    assert [row["after"]["name_en"] for row in cards] == ["Renamed Hunter", "Hunter T-002"]
    assert (cards[0]["proposed_by"], cards[0]["approved_by"]) == ("owner", "editor")


def test_the_history_of_an_unknown_card_is_404(game: Game) -> None:
    assert client_for(None).get(_history_url("NOPE")).status_code == 404
    assert client_for(None).get(f"{API}games/nope/cards/T-001/history/").status_code == 404


def test_a_cards_history_costs_the_same_for_one_change_or_many(
    game: Game, owner: Any, editor: Any, django_assert_max_num_queries: Any
) -> None:
    for number in range(6):
        proposal = _propose(owner, game, "T-002", f"Hunter take {number}")
        proposal_approve(proposal=proposal, editor=editor)
    client = client_for(owner)

    with django_assert_max_num_queries(6):
        response = client.get(_history_url("T-002"))

    assert response.json()["count"] >= 6
