"""The review queue, a player's proposals and a card's history: what they hold and how few
queries they take whatever the number of rows."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from catalog.models import Card, Game
from contributions.errors import NotAllowed
from contributions.models import Proposal
from contributions.selectors import card_history, proposals_of, review_queue
from contributions.services import (
    change_revert,
    proposal_approve,
    proposal_ask,
    proposal_submit,
)
from tests.contributions.conftest import SOURCE, hunter, kind_of, payload

OPEN_PROPOSALS = 1_000


def test_the_review_queue_of_1000_open_proposals_takes_at_most_10_queries(
    owner: Any, stranger: Any, editor: Any, game: Game, django_assert_max_num_queries: Any
) -> None:
    start = timezone.now() - timedelta(days=1)
    Proposal.objects.bulk_create(
        Proposal(
            game=game,
            author=owner if n % 2 else stranger,
            kind="card",
            title=f"card {n}",
            payload=payload(cards=[hunter(f"Q-{n:04d}", f"Queued {n}")]),
            created_at=start + timedelta(seconds=n),
            **SOURCE,
        )
        for n in range(OPEN_PROPOSALS)
    )
    Proposal.objects.filter(title="card 7").update(state=Proposal.State.REJECTED)
    with django_assert_max_num_queries(10):
        queue = review_queue(game=game, editor=editor)
        authors = {p.author.username for p in queue}
        games = {p.game.slug for p in queue}
    assert len(queue) == OPEN_PROPOSALS - 1
    assert queue[0].title == "card 0" and queue[-1].title == f"card {OPEN_PROPOSALS - 1}"
    assert (authors, games) == ({"owner", "stranger"}, {"monster-hunter"})


def test_a_player_cannot_see_the_review_queue(stranger: Any, game: Game) -> None:
    with pytest.raises(NotAllowed):
        review_queue(game=game, editor=stranger)


def test_a_player_sees_their_proposals_with_what_the_editor_said(
    owner: Any, stranger: Any, editor: Any, game: Game, django_assert_max_num_queries: Any
) -> None:
    mine = [
        proposal_submit(
            author=owner,
            game=game,
            kind="card",
            payload=payload(cards=[hunter(code, code)]),
            **SOURCE,
        )
        for code in ("T-002", "T-003")
    ]
    proposal_submit(
        author=stranger,
        game=game,
        kind="card",
        payload=payload(cards=[hunter("T-004", "x")]),
        **SOURCE,
    )
    proposal_ask(proposal=mine[0], editor=editor, note="which printing?")
    with django_assert_max_num_queries(3):
        found = proposals_of(user=owner)
        said = {
            p.pk: [(e.action, e.note, e.actor and e.actor.username) for e in p.events.all()]
            for p in found
        }
    assert [p.pk for p in found] == [mine[1].pk, mine[0].pk]
    assert said[mine[0].pk] == [("submitted", "", "owner"), ("asked", "which printing?", "editor")]


def test_a_cards_history_holds_its_changes_and_its_printings_in_at_most_6_queries(
    owner: Any, editor: Any, second_editor: Any, game: Game, django_assert_max_num_queries: Any
) -> None:
    def approve(*cards: dict[str, Any]) -> list[Any]:
        content = payload(cards=list(cards))
        proposal = proposal_submit(
            author=owner, game=game, payload=content, **kind_of(game, content), **SOURCE
        )
        return proposal_approve(proposal=proposal, editor=editor)

    approve(hunter("T-002", "Two"), hunter("T-0020", "Twenty"))
    second = hunter("T-002", "Two, renamed")
    second["printings"].append({"set": "t1", "number": "002-P"})
    renamed, promo = approve(second)
    change_revert(change=promo, editor=second_editor)
    card = Card.objects.get(code="T-002")
    with django_assert_max_num_queries(6):
        history = card_history(card=card)
        shown = [
            (
                c.object_kind,
                c.object_code,
                c.proposed_by.username,
                c.approved_by.username,
                c.proposal.pk if c.proposal else None,
            )
            for c in history
        ]
    proposal = renamed.proposal_id
    assert [row[:2] for row in shown] == [
        ("printing", "T-002/t1/002-P"),  # the revert, newest first
        ("printing", "T-002/t1/002-P"),
        ("card", "T-002"),
        ("printing", "T-002/t1/002"),
        ("card", "T-002"),
    ]
    assert shown[0][2:] == ("second-editor", "second-editor", None)
    assert shown[1][2:] == ("owner", "editor", proposal)
    # the other card's code starts the same: never in this card's history
    assert all(not code.startswith("T-0020") for _kind, code, *_rest in shown)
