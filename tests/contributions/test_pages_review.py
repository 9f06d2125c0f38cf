"""The editors' pages: the queue, a proposal's diff and decision, reverts from the card page,
set locks; who may see and do what, in both languages, within a fixed number of queries."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from catalog.models import Card, Game
from contributions import errors
from contributions.models import CatalogChange, Proposal, SetLock
from contributions.selectors import proposals_of
from contributions.services import proposal_approve, proposal_submit
from decks.models import Deck, DeckEntry
from tests.conftest import _client_for
from tests.contributions.conftest import SOURCE, hunter, kind_of, payload


def submit(author: Any, game: Game, *cards: dict[str, Any], **extra: Any) -> Proposal:
    content = payload(cards=list(cards))
    fields = {**SOURCE, **kind_of(game, content), **extra}
    return proposal_submit(
        author=author,
        game=game,
        payload=content,
        title="A new hunter",
        **fields,
    )


def page(pk: int) -> str:
    return reverse("contributions:review-proposal", args=[pk])


def action(name: str, pk: int) -> str:
    return reverse(f"contributions:review-{name}", args=[pk])


def card_url(code: str) -> str:
    return reverse("catalog:card", args=["monster-hunter", code])


@pytest.fixture
def editor_client(editor: Any) -> Client:
    return _client_for(editor)


# --- who may do what -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        reverse("contributions:review"),
        reverse("contributions:review-game", args=["monster-hunter"]),
    ],
)
def test_a_player_who_is_not_an_editor_is_refused_the_review_pages(
    stranger_client: Client, game: Game, url: str
) -> None:
    assert stranger_client.get(url).status_code == 403


def test_a_visitor_is_sent_to_sign_in(client: Client, game: Game) -> None:
    response = client.get(reverse("contributions:review"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_a_proposal_is_hidden_from_a_stranger_and_refused_to_its_author(
    owner: Any, owner_client: Client, stranger_client: Client, game: Game
) -> None:
    proposal = submit(owner, game, hunter("T-002", "Fresh Face"))
    assert stranger_client.get(page(proposal.pk)).status_code == 404
    assert owner_client.get(page(proposal.pk)).status_code == 403
    assert stranger_client.post(action("approve", proposal.pk)).status_code == 404
    assert owner_client.post(action("approve", proposal.pk)).status_code == 403
    assert Proposal.objects.get().state == Proposal.State.OPEN


def test_an_editor_cannot_approve_their_own_proposal(
    editor: Any, editor_client: Client, game: Game
) -> None:
    proposal = submit(editor, game, hunter("T-002", "Fresh Face"))
    html = editor_client.get(page(proposal.pk)).content.decode()
    assert action("approve", proposal.pk) not in html
    response = editor_client.post(action("approve", proposal.pk))
    assert response.status_code == 403
    assert str(errors.OWN_PROPOSAL) in response.content.decode()
    assert not Card.objects.filter(code="T-002").exists()


def test_an_editor_approves_and_the_new_card_has_its_page(
    owner: Any, editor_client: Client, game: Game, client: Client
) -> None:
    proposal = submit(owner, game, hunter("T-002", "Fresh Face"))
    response = editor_client.post(action("approve", proposal.pk), follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert "T-002/t1/002" in html  # the changes applied are listed
    assert Proposal.objects.get().state == Proposal.State.APPROVED
    card_page = client.get(card_url("T-002"))
    assert card_page.status_code == 200
    assert "Fresh Face" in card_page.content.decode()


# --- the proposal's page ---------------------------------------------------------------------


def test_the_proposal_page_shows_the_diff_checks_duplicates_and_source(
    owner: Any, editor_client: Client, game: Game
) -> None:
    proposal = submit(
        owner,
        game,
        hunter("T-002", "Test Hunters"),
        source_kind="publisher_page",
        source_url="https://example.test/cards/t-002",
    )
    html = editor_client.get(page(proposal.pk)).content.decode()
    assert 'data-kind="card" data-code="T-002"' in html and 'data-new="true"' in html
    assert 'data-field="name_en"' in html and "Test Hunters" in html
    assert 'data-duplicate="T-001"' in html
    assert '<a href="https://example.test/cards/t-002" rel="nofollow noopener"' in html
    assert "payload-clean" in html


def test_the_proposal_page_shows_problems_found_now_such_as_a_lock(
    owner: Any, editor: Any, editor_client: Client, game: Game
) -> None:
    proposal = submit(owner, game, hunter("T-002", "Fresh Face"))
    SetLock.objects.create(card_set=game.sets.get(code="t1"), locked_by=editor)
    html = editor_client.get(page(proposal.pk)).content.decode()
    assert "payload-problems" in html
    assert "locked by an editor" in html
    response = editor_client.post(action("approve", proposal.pk))
    assert response.status_code == 400  # refused with its reason, no 500
    assert not Card.objects.filter(code="T-002").exists()


def test_a_correction_shows_only_the_changed_field(
    owner: Any, editor_client: Client, game: Game
) -> None:
    proposal = submit(owner, game, hunter("T-001", "Renamed Hunter", number="001"))
    html = editor_client.get(page(proposal.pk)).content.decode()
    assert "Renamed Hunter" in html and "Test Hunter" in html
    assert 'data-field="name_en"' in html
    assert 'data-field="attributes.attack"' not in html
    assert 'data-new="true"' not in html


@pytest.mark.parametrize("name", ["reject", "ask"])
def test_reject_and_ask_need_a_note(
    name: str, owner: Any, editor_client: Client, game: Game
) -> None:
    proposal = submit(owner, game, hunter("T-002", "Fresh Face"))
    response = editor_client.post(action(name, proposal.pk), {"note": "  "})
    assert response.status_code == 400
    assert str(errors.NOTE_REQUIRED) in response.content.decode()
    assert Proposal.objects.get().state == Proposal.State.OPEN


@pytest.mark.parametrize(
    ("name", "state"),
    [("reject", Proposal.State.REJECTED), ("ask", Proposal.State.CHANGES_REQUESTED)],
)
def test_reject_and_ask_record_the_note_the_author_sees(
    name: str, state: str, owner: Any, owner_client: Client, editor_client: Client, game: Game
) -> None:
    proposal = submit(owner, game, hunter("T-002", "Fresh Face"))
    note = "The printed name is Fresh Face & Co — check the card."
    response = editor_client.post(action(name, proposal.pk), {"note": note})
    assert response.status_code == 302
    [mine] = proposals_of(user=owner)
    assert (mine.state, mine.decision_note) == (state, note)
    assert [e.note for e in mine.events.all()][-1] == note
    mine_page = owner_client.get(reverse("contributions:proposal", args=[proposal.pk]))
    assert mine_page.status_code == 200
    assert escape(note) in mine_page.content.decode()


def test_a_sheet_of_many_rows_is_paginated_and_approved_at_once(
    owner: Any, editor_client: Client, game: Game
) -> None:
    cards = [hunter(f"S-{n:03d}", f"Sheet card {n}") for n in range(1, 61)]
    proposal = proposal_submit(
        author=owner,
        game=game,
        kind="sheet",
        payload=payload(cards=cards),
        title="A sheet",
        **SOURCE,
    )
    first = editor_client.get(page(proposal.pk)).content.decode()
    assert first.count('class="card mb-2 diff-row"') == 100
    assert "?page=2" in first and "Approve all rows" in first
    second = editor_client.get(page(proposal.pk) + "?page=2").content.decode()
    assert second.count('class="card mb-2 diff-row"') == 20
    editor_client.post(action("approve", proposal.pk))
    assert Card.objects.filter(code__startswith="S-").count() == 60


# --- the queue ---------------------------------------------------------------------------


def test_the_queue_of_1000_open_proposals_takes_at_most_10_queries(
    owner: Any, stranger: Any, editor_client: Client, game: Game
) -> None:
    start = timezone.now() - timedelta(days=1)
    Proposal.objects.bulk_create(
        Proposal(
            game=game,
            author=owner if n % 2 else stranger,
            kind="card",
            title=f"card {n:04d}",
            payload=payload(cards=[hunter(f"Q-{n:04d}", f"Queued {n}")]),
            created_at=start + timedelta(seconds=n),
            state=Proposal.State.CHANGES_REQUESTED if n == 3 else Proposal.State.OPEN,
            **SOURCE,
        )
        for n in range(1_000)
    )
    url = reverse("contributions:review-game", args=["monster-hunter"])
    with CaptureQueriesContext(connection) as queries:
        response = editor_client.get(url)
    assert response.status_code == 200
    assert len(queries) <= 10
    html = response.content.decode()
    assert html.index("card 0000") < html.index("card 0003") < html.index("card 0099")
    assert "card 0100" not in html  # the next page
    with CaptureQueriesContext(connection) as queries:
        home = editor_client.get(reverse("contributions:review"))
    assert len(queries) <= 10
    assert 'data-waiting="1000"' in home.content.decode()


def test_an_editor_locks_and_unlocks_a_set_from_the_queue(
    editor_client: Client, stranger_client: Client, game: Game
) -> None:
    lock = reverse("contributions:set-lock", args=["monster-hunter", "t1"])
    unlock = reverse("contributions:set-unlock", args=["monster-hunter", "t1"])
    assert stranger_client.post(lock).status_code == 403
    assert not SetLock.objects.exists()
    editor_client.post(lock)
    assert SetLock.objects.filter(card_set__code="t1").exists()
    html = editor_client.get(reverse("contributions:review-game", args=["monster-hunter"]))
    assert 'data-locked="true"' in html.content.decode()
    editor_client.post(unlock)
    assert not SetLock.objects.exists()


# --- history and reverts -----------------------------------------------------------------


def approved(owner: Any, editor: Any, game: Game, *cards: dict[str, Any]) -> Proposal:
    proposal = submit(owner, game, *cards)
    proposal_approve(proposal=proposal, editor=editor)
    return proposal


def test_the_card_page_lists_its_history_and_offers_revert_to_editors_only(
    owner: Any, editor: Any, editor_client: Client, client: Client, game: Game
) -> None:
    approved(owner, editor, game, hunter("T-001", "Renamed Hunter", number="001"))
    change = CatalogChange.objects.get(object_kind="card")
    public = client.get(card_url("T-001")).content.decode()
    assert f'data-change="{change.pk}"' in public
    assert "Test Hunter" in public and "Renamed Hunter" in public
    assert "Proposed by owner" in public and "approved by editor" in public
    assert SOURCE["source_detail"] in public
    revert = reverse("contributions:change-revert", args=[change.pk])
    assert revert not in public
    assert revert in editor_client.get(card_url("T-001")).content.decode()


def test_reverting_from_the_card_page_returns_the_old_values(
    owner: Any, editor: Any, editor_client: Client, game: Game
) -> None:
    approved(owner, editor, game, hunter("T-001", "Renamed Hunter", number="001"))
    change = CatalogChange.objects.get(object_kind="card")
    response = editor_client.post(
        reverse("contributions:change-revert", args=[change.pk]), {"next": card_url("T-001")}
    )
    assert response["Location"] == card_url("T-001")
    assert Card.objects.get(code="T-001").name_en == "Test Hunter"


def test_reverting_a_new_card_removes_it(
    owner: Any, editor: Any, editor_client: Client, game: Game
) -> None:
    approved(owner, editor, game, hunter("T-002", "Gone Soon"))
    change = CatalogChange.objects.get(object_kind="card")
    response = editor_client.post(
        reverse("contributions:change-revert", args=[change.pk]),
        {"next": card_url("T-002")},
        follow=True,
    )
    assert response.status_code == 200
    assert not Card.objects.filter(code="T-002").exists()


def test_reverting_a_card_decks_use_withdraws_it(
    owner: Any, editor: Any, stranger: Any, editor_client: Client, game: Game
) -> None:
    approved(owner, editor, game, hunter("T-002", "Kept"))
    card = Card.objects.get(code="T-002")
    for name in ("One", "Two", "Three"):
        deck = Deck.objects.create(owner=stranger, game=game, name=name)
        DeckEntry.objects.create(deck=deck, card=card, zone="main", quantity=1)
    change = CatalogChange.objects.get(object_kind="card")
    response = editor_client.post(
        reverse("contributions:change-revert", args=[change.pk]),
        {"next": card_url("T-002")},
        follow=True,
    )
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == f"/games/{game.slug}/"
    card.refresh_from_db()
    assert card.withdrawn_at is not None  # kept for the three decks, out of the catalog
    assert DeckEntry.objects.filter(card=card).count() == 3


def test_a_stranger_cannot_revert_a_change(
    owner: Any, editor: Any, stranger_client: Client, game: Game
) -> None:
    approved(owner, editor, game, hunter("T-001", "Renamed Hunter", number="001"))
    change = CatalogChange.objects.get(object_kind="card")
    response = stranger_client.post(reverse("contributions:change-revert", args=[change.pk]))
    assert response.status_code == 403
    assert Card.objects.get(code="T-001").name_en == "Renamed Hunter"


def test_an_editor_reverts_a_whole_proposal_from_its_page(
    owner: Any, editor: Any, editor_client: Client, game: Game
) -> None:
    proposal = approved(owner, editor, game, hunter("T-002", "Gone"), hunter("T-003", "Too"))
    html = editor_client.get(page(proposal.pk)).content.decode()
    assert action("revert", proposal.pk) in html
    editor_client.post(action("revert", proposal.pk))
    assert not Card.objects.filter(code__in=["T-002", "T-003"]).exists()


# --- languages and query counts -----------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_review_pages_render_in_both_languages(
    language: str, owner: Any, editor: Any, editor_client: Client, game: Game
) -> None:
    proposal = submit(owner, game, hunter("T-002", "Fresh Face"))
    approved(owner, editor, game, hunter("T-001", "Renamed Hunter", number="001"))
    editor_client.cookies["django_language"] = language
    for url, mark in (
        (reverse("contributions:review"), 'data-game="monster-hunter"'),
        (reverse("contributions:review-game", args=["monster-hunter"]), "data-proposal="),
        (page(proposal.pk), 'data-code="T-002"'),
        (card_url("T-001"), 'id="history-title"'),
    ):
        response = editor_client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        html = response.content.decode()
        assert response.status_code == 200
        assert f'lang="{language}"' in html and mark in html


def test_the_proposal_page_costs_the_same_queries_for_1_row_as_for_60(
    owner: Any, editor_client: Client, game: Game
) -> None:
    small = submit(owner, game, hunter("T-002", "One"))
    large = submit(owner, game, *[hunter(f"L-{n:03d}", f"Many {n}") for n in range(1, 31)])
    counts = []
    for proposal in (small, large):
        with CaptureQueriesContext(connection) as queries:
            assert editor_client.get(page(proposal.pk)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_card_page_adds_at_most_two_queries_for_its_history(
    owner: Any, editor: Any, editor_client: Client, game: Game
) -> None:
    with CaptureQueriesContext(connection) as queries:
        editor_client.get(card_url("T-001"))
    before = len(queries)
    for name in ("A", "B", "C"):
        approved(owner, editor, game, hunter("T-001", f"Hunter {name}", number="001"))
    with CaptureQueriesContext(connection) as queries:
        html = editor_client.get(card_url("T-001")).content.decode()
    assert html.count("data-change=") == 3
    assert len(queries) == before


def test_the_diff_shows_values_as_json_and_escapes_what_players_wrote(
    owner: Any, editor_client: Client, game: Game
) -> None:
    proposal = submit(owner, game, hunter("T-002", "<b>Bold</b> Hunter"))
    html = editor_client.get(page(proposal.pk)).content.decode()
    assert "<b>Bold</b>" not in html and "&lt;b&gt;Bold&lt;/b&gt; Hunter" in html
    assert "[&quot;meat&quot;]" in html  # item_icons, as the payload writes it


def test_an_editor_sees_no_decision_on_their_own_proposal(
    editor: Any, editor_client: Client, game: Game
) -> None:
    proposal = submit(editor, game, hunter("T-002", "Fresh Face"))
    html = editor_client.get(page(proposal.pk)).content.decode()
    assert "own-proposal" in html
    assert action("reject", proposal.pk) not in html
