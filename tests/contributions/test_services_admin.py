"""The admin shows proposals and the history but never edits them: decisions and reverts go
through the services, which check the editor and record every change."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from catalog.models import CardSet, Game
from contributions.models import CatalogChange, Proposal, SetLock
from contributions.services import proposal_approve, proposal_submit, set_lock
from tests.contributions.conftest import SOURCE, hunter, payload


@pytest.fixture
def admin_client_(db: None) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.test", "x"))
    return client


@pytest.mark.parametrize("model", [Proposal, CatalogChange, SetLock], ids=lambda m: m.__name__)
def test_the_admin_lists_and_shows_but_cannot_add_or_change(
    model: Any, admin_client_: Client, owner: Any, editor: Any, game: Game
) -> None:
    proposal = proposal_submit(
        author=owner,
        game=game,
        kind="card",
        payload=payload(cards=[hunter("T-002", "x")]),
        **SOURCE,
    )
    proposal_approve(proposal=proposal, editor=editor)
    set_lock(card_set=CardSet.objects.get(code="t1"), editor=editor)
    name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    assert admin_client_.get(reverse(f"{name}_changelist")).status_code == 200
    row = model.objects.first()
    page = admin_client_.get(reverse(f"{name}_change", args=[row.pk]))
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert admin_client_.get(reverse(f"{name}_add")).status_code == 403
