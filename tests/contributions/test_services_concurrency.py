"""Editors approving the same proposal at the same moment apply it once (PostgreSQL row locks;
real threads, real transactions)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from catalog.cache import catalog_version
from catalog.models import Card, Game, Printing
from contributions import errors
from contributions.errors import ProposalError
from contributions.models import CatalogChange, Proposal, ProposalEvent
from contributions.services import proposal_approve, proposal_submit
from tests.contributions.conftest import SOURCE, _editor, hunter, payload

EDITORS = 4


@pytest.mark.django_db(transaction=True)
def test_editors_approving_at_once_apply_the_proposal_once(owner: Any, game: Game) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's")
    editors = [_editor(f"editor-{n}") for n in range(EDITORS)]
    proposal = proposal_submit(
        author=owner,
        game=game,
        kind="card",
        payload=payload(cards=[hunter("T-002", "Once")]),
        **SOURCE,
    )
    version = catalog_version()
    barrier = threading.Barrier(EDITORS)
    applied: list[list[CatalogChange]] = []
    refused: list[str] = []
    failed: list[BaseException] = []

    def approve(editor: Any) -> None:
        try:
            barrier.wait(timeout=10)
            applied.append(
                proposal_approve(proposal=Proposal.objects.get(pk=proposal.pk), editor=editor)
            )
        except ProposalError as exc:
            refused.append(exc.problems[0].message)
        except BaseException as exc:
            failed.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=approve, args=(e,)) for e in editors]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert failed == []
    assert len(applied) == 1
    assert refused == [str(errors.NOT_OPEN % {"state": "Approved"})] * (EDITORS - 1)
    assert sorted(CatalogChange.objects.values_list("object_kind", "object_code")) == [
        ("card", "T-002"),
        ("printing", "T-002/t1/002"),
    ]
    assert [c.pk for c in applied[0]] == list(
        CatalogChange.objects.order_by("id").values_list("pk", flat=True)
    )
    assert Card.objects.filter(code="T-002").count() == 1
    assert Printing.objects.filter(card__code="T-002").count() == 1
    assert ProposalEvent.objects.filter(action="approved").count() == 1
    assert Proposal.objects.get().state == Proposal.State.APPROVED
    assert catalog_version() == version + 1
