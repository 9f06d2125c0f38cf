"""The player's contribution pages: the home, proposing with a form, a proposal's page,
withdrawing and resubmitting, and who may see what."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catalog.models import Card, Game
from contributions.models import Proposal
from contributions.services import proposal_ask, proposal_submit
from tests.contributions.conftest import SOURCE, hunter, payload

pytestmark = pytest.mark.django_db

CARD_FORM = "/contribute/monster-hunter/card/hunter/"


def card_post(**changes: Any) -> dict[str, Any]:
    data = {
        "name_en": "Page Hunter",
        "name_ja": "ページの狩人",
        "code": "",
        "attr_attack": "2",
        "attr_movement": "1",
        "attr_reach": "1",
        "attr_item_icons": ["meat", "ball"],
        "set": "t1",
        "number": "050",
        **SOURCE,
    }
    data.update(changes)
    return data


def a_proposal(author: Any, game: Game, code: str = "T-100") -> Proposal:
    return proposal_submit(
        author=author,
        game=game,
        kind="card",
        payload=payload(cards=[hunter(code, f"Hunter {code}")]),
        title=f"Hunter {code}",
        **SOURCE,
    )


def in_language(client: Client, language: str) -> Client:
    client.cookies["django_language"] = language
    return client


def page_urls(proposal: Proposal) -> list[str]:
    return [
        "/contribute/",
        "/contribute/monster-hunter/card/",
        CARD_FORM,
        "/contribute/monster-hunter/set/",
        "/contribute/monster-hunter/cards/T-001/correct/",
        "/contribute/monster-hunter/cards/T-001/names/",
        "/contribute/monster-hunter/sheet/",
        "/contribute/monster-hunter/names-sheet/",
        f"/contribute/proposals/{proposal.pk}/",
    ]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_page_answers_in_both_languages(
    game: Game, owner: Any, owner_client: Client, language: str
) -> None:
    proposal = a_proposal(owner, game)
    client = in_language(owner_client, language)

    for url in page_urls(proposal):
        response = client.get(url)
        assert response.status_code == 200, url
        assert f'<html lang="{language}">' in response.content.decode(), url


def test_a_japanese_page_shows_the_forms_labels_in_japanese(
    game: Game, owner_client: Client
) -> None:
    body = in_language(owner_client, "ja").get(CARD_FORM).content.decode()

    # the form's labels are in the catalogue already (translated with the foundation)
    assert "Where the facts come from" not in body


def test_a_signed_out_visitor_is_sent_to_sign_in(game: Game, owner: Any) -> None:
    proposal = a_proposal(owner, game)
    urls = [
        *page_urls(proposal),
        "/contribute/monster-hunter/sheet/template.csv",
        f"/contribute/proposals/{proposal.pk}/resubmit/",
    ]
    for url in urls:
        response = Client().get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/"), url


def test_a_stranger_cannot_see_nor_withdraw_another_players_proposal(
    game: Game, owner: Any, stranger_client: Client
) -> None:
    proposal = a_proposal(owner, game)

    assert stranger_client.get(f"/contribute/proposals/{proposal.pk}/").status_code == 404
    withdraw = stranger_client.post(f"/contribute/proposals/{proposal.pk}/withdraw/")
    assert withdraw.status_code == 404
    assert stranger_client.get(f"/contribute/proposals/{proposal.pk}/resubmit/").status_code == 404
    proposal.refresh_from_db()
    assert proposal.state == Proposal.State.OPEN


def test_an_editor_sees_a_players_proposal_but_cannot_withdraw_it(
    game: Game, owner: Any, editor: Any
) -> None:
    proposal = a_proposal(owner, game)
    client = Client()
    client.force_login(editor)

    page = client.get(f"/contribute/proposals/{proposal.pk}/")
    assert page.status_code == 200
    assert b'id="withdraw-button"' not in page.content
    assert client.post(f"/contribute/proposals/{proposal.pk}/withdraw/").status_code == 403


def test_a_card_proposal_posted_creates_the_proposal_with_its_payload(
    game: Game, owner: Any, owner_client: Client
) -> None:
    response = owner_client.post(CARD_FORM, card_post())

    proposal = Proposal.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/contribute/proposals/{proposal.pk}/"
    assert (proposal.author, proposal.kind, proposal.state) == (owner, "card", "open")
    assert (proposal.source_kind, proposal.source_detail) == (
        SOURCE["source_kind"],
        SOURCE["source_detail"],
    )
    [card] = proposal.payload["cards"]
    assert card["code"] == "t1-050"
    assert (card["name_en"], card["name_ja"]) == ("Page Hunter", "ページの狩人")
    assert card["attributes"] == {
        "attack": 2,
        "movement": 1,
        "reach": 1,
        "item_icons": ["meat", "ball"],
    }
    assert card["printings"] == [{"set": "t1", "number": "050", "attributes": {}}]
    assert not Card.objects.filter(code="t1-050").exists()  # nothing reaches the catalog yet


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"attr_attack": "many"}, "attr_attack"),
        ({"source_detail": ""}, "source_detail"),
        ({"source_kind": "publisher_page"}, "source_url"),
        ({"code": "T-001"}, "code"),
        ({"set": "nope"}, "set"),
        ({"name_en": "", "name_ja": ""}, "name_en"),
    ],
)
def test_bad_input_is_shown_beside_its_field_and_proposes_nothing(
    game: Game, owner_client: Client, changes: dict[str, str], field: str
) -> None:
    response = owner_client.post(CARD_FORM, card_post(**changes))

    assert response.status_code == 200
    assert f'data-field="{field}"'.encode() in response.content
    assert not Proposal.objects.exists()


def test_a_nul_character_is_refused_beside_its_field_not_a_500(
    game: Game, owner_client: Client
) -> None:
    response = owner_client.post(CARD_FORM, card_post(attr_attack="1\x00"))

    # the site's input guard answers 400 before the view (decklab.safe_input)
    assert response.status_code == 400
    assert b'data-field="attr_attack"' in response.content
    assert not Proposal.objects.exists()


def test_an_unknown_card_type_or_game_is_not_found(game: Game, owner_client: Client) -> None:
    assert owner_client.get("/contribute/monster-hunter/card/dragon/").status_code == 404
    assert owner_client.get("/contribute/chess/card/").status_code == 404
    assert owner_client.get("/contribute/monster-hunter/cards/NOPE/correct/").status_code == 404


def test_a_rate_limited_player_is_told_so_with_a_429(
    game: Game, owner_client: Client, settings: Any
) -> None:
    settings.CONTRIBUTIONS_PROPOSALS_PER_HOUR = 0

    response = owner_client.post(CARD_FORM, card_post())

    assert response.status_code == 429
    assert b"the most allowed" in response.content
    assert not Proposal.objects.exists()


def test_a_set_proposal_is_sent_from_its_form(game: Game, owner_client: Client) -> None:
    data = {"code": "t9", "name_en": "Ninth", "kind": "expansion", **SOURCE}
    data["release_precision"] = "day"

    response = owner_client.post("/contribute/monster-hunter/set/", data)

    proposal = Proposal.objects.get()
    assert response.status_code == 302, response.content.decode()[:3000]
    assert proposal.kind == "set"
    assert proposal.payload["sets"][0]["code"] == "t9"


def test_a_correction_names_its_card_and_reason(game: Game, owner_client: Client) -> None:
    data = {
        "name_en": "Test Hunter",
        "name_ja": "",
        "attr_attack": "3",
        "attr_movement": "2",
        "attr_reach": "1",
        "attr_item_icons": "meat",
        "reason": "The attack is 3 on my card",
        **SOURCE,
    }

    response = owner_client.post("/contribute/monster-hunter/cards/T-001/correct/", data)

    proposal = Proposal.objects.get()
    assert response.status_code == 302
    assert (proposal.kind, proposal.target_kind, proposal.target_code) == (
        "correction",
        "card",
        "T-001",
    )
    assert proposal.payload["cards"][0]["attributes"]["attack"] == 3


def test_a_names_proposal_adds_the_missing_name(game: Game, owner_client: Client) -> None:
    response = owner_client.post(
        "/contribute/monster-hunter/cards/T-001/names/", {"name_ja": "試験の狩人", **SOURCE}
    )

    proposal = Proposal.objects.get()
    assert response.status_code == 302
    assert proposal.kind == "names"
    assert proposal.payload["cards"][0]["name_ja"] == "試験の狩人"


def test_the_proposal_page_shows_its_payload_and_the_editors_note(
    game: Game, owner: Any, owner_client: Client, editor: Any
) -> None:
    proposal = a_proposal(owner, game)
    proposal_ask(proposal=proposal, editor=editor, note="Which set is it <b>in</b>?")

    body = owner_client.get(f"/contribute/proposals/{proposal.pk}/").content.decode()

    assert 'data-card="T-100"' in body
    assert "Hunter T-100" in body
    assert "Which set is it &lt;b&gt;in&lt;/b&gt;?" in body
    assert 'data-action="asked"' in body
    assert 'id="resubmit-link"' in body


def test_the_author_withdraws_an_open_proposal(
    game: Game, owner: Any, owner_client: Client
) -> None:
    proposal = a_proposal(owner, game)

    response = owner_client.post(f"/contribute/proposals/{proposal.pk}/withdraw/")

    proposal.refresh_from_db()
    assert response.status_code == 302
    assert proposal.state == Proposal.State.WITHDRAWN
    again = owner_client.post(f"/contribute/proposals/{proposal.pk}/withdraw/")
    assert again.status_code == 403


def test_a_card_proposal_is_resubmitted_through_its_form_after_changes_are_asked(
    game: Game, owner: Any, owner_client: Client, editor: Any
) -> None:
    url = "/contribute/proposals/{}/resubmit/"
    owner_client.post(CARD_FORM, card_post())
    proposal = Proposal.objects.get()
    assert owner_client.get(url.format(proposal.pk)).status_code == 404  # not asked yet
    proposal_ask(proposal=proposal, editor=editor, note="The English name is wrong")

    form = owner_client.get(url.format(proposal.pk)).content.decode()
    assert 'value="Page Hunter"' in form
    assert 'value="meat" selected' in form or 'value="meat" checked' in form
    response = owner_client.post(
        url.format(proposal.pk), card_post(name_en="Paged Hunter", note="fixed")
    )

    proposal.refresh_from_db()
    assert response.status_code == 302
    assert proposal.state == Proposal.State.OPEN
    assert proposal.payload["cards"][0]["name_en"] == "Paged Hunter"
    assert list(proposal.events.values_list("action", "note"))[-1] == ("resubmitted", "fixed")


def test_the_proposals_list_costs_the_same_queries_for_1_and_30_proposals(
    game: Game, owner: Any, owner_client: Client, settings: Any
) -> None:
    settings.CONTRIBUTIONS_PROPOSALS_PER_HOUR = 100
    a_proposal(owner, game, "T-100")
    owner_client.get("/contribute/")  # the session's first reads are not the page's
    with CaptureQueriesContext(connection) as one:
        assert owner_client.get("/contribute/").status_code == 200
    for number in range(101, 130):
        a_proposal(owner, game, f"T-{number}")
    with CaptureQueriesContext(connection) as thirty:
        response = owner_client.get("/contribute/")

    assert response.content.decode().count("data-proposal=") == 30
    assert len(thirty) == len(one) <= 8, [q["sql"] for q in thirty.captured_queries]


def test_the_card_page_links_to_report_a_mistake(game: Game, owner_client: Client) -> None:
    url = "/games/monster-hunter/cards/T-001/"

    signed_in = owner_client.get(url).content.decode()
    signed_out = Client().get(url).content.decode()

    assert 'href="/contribute/monster-hunter/cards/T-001/correct/"' in signed_in
    assert 'href="/contribute/monster-hunter/cards/T-001/names/"' in signed_in
    assert "/accounts/login/?next=/contribute/monster-hunter/cards/T-001/correct/" in signed_out


def test_a_set_and_a_correction_are_shown_again_in_their_forms_to_resubmit(
    game: Game, owner_client: Client, editor: Any
) -> None:
    owner_client.post(
        "/contribute/monster-hunter/set/",
        {
            "code": "t9",
            "name_en": "Ninth",
            "kind": "expansion",
            "release_precision": "day",
            **SOURCE,
        },
    )
    correction = {
        "name_en": "Test Hunter",
        "attr_attack": "3",
        "attr_movement": "2",
        "attr_reach": "1",
        "attr_item_icons": ["meat"],
        "reason": "The attack is 3 on my card",
        **SOURCE,
    }
    owner_client.post("/contribute/monster-hunter/cards/T-001/correct/", correction)
    card_set, fix = Proposal.objects.order_by("id")
    for proposal in (card_set, fix):
        proposal_ask(proposal=proposal, editor=editor, note="Say more")

    set_form = owner_client.get(f"/contribute/proposals/{card_set.pk}/resubmit/")
    fix_form = owner_client.get(f"/contribute/proposals/{fix.pk}/resubmit/")

    assert set_form.status_code == fix_form.status_code == 200
    assert 'value="Ninth"' in set_form.content.decode()
    assert 'name="attr_attack" value="3"' in fix_form.content.decode()
    assert "The attack is 3 on my card" in fix_form.content.decode()
