"""Visitors' set-page card grids are cached, and never outlive a catalog import."""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from catalog.cache import catalog_version
from catalog.models import Card, CardSet
from games import registry


def test_an_import_refreshes_a_cached_grid(
    db: None, client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    call_command("import_catalog", str(registry.get("mattsan").catalog_file), verbosity=0)
    card_set = CardSet.objects.get(game__slug="mattsan", code="MTD")
    card = Card.objects.filter(printings__card_set=card_set).order_by("code").first()
    assert card is not None
    url = reverse("catalog:set", args=["mattsan", "MTD"])
    assert card.name_en in client.get(url).content.decode()
    # a change behind the importer's back stays hidden by the cached grid...
    Card.objects.filter(pk=card.pk).update(name_en="Renamed Behind The Back")
    assert "Renamed Behind The Back" not in client.get(url).content.decode()
    # ...an import moves the catalog's version, and the next visitor sees the new rows
    before = catalog_version()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_catalog", str(registry.get("mattsan").catalog_file), verbosity=0)
    assert catalog_version() == before + 1
    assert card.name_en in client.get(url).content.decode()


def test_a_signed_in_player_never_gets_a_cached_grid(db: None, owner_client: Client) -> None:
    call_command("import_catalog", str(registry.get("mattsan").catalog_file), verbosity=0)
    card = Card.objects.filter(printings__card_set__code="MTD").order_by("code").first()
    assert card is not None
    url = reverse("catalog:set", args=["mattsan", "MTD"])
    owner_client.get(url)
    Card.objects.filter(pk=card.pk).update(name_en="Seen At Once")
    assert "Seen At Once" in owner_client.get(url).content.decode()
