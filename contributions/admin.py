"""Admin for contributions: read-mostly. Proposals are decided and changes reverted through
the services (contributions.services), which check the editor, write the history and move the
catalog version; the admin only shows them (and staff may delete a spam proposal)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from contributions.models import CatalogChange, Proposal, ProposalEvent, SetLock


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ProposalEventInline(admin.TabularInline):
    model = ProposalEvent
    extra = 0
    fields = ("at", "action", "actor", "note")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Proposal)
class ProposalAdmin(ReadOnly):
    list_display = ("__str__", "game", "kind", "state", "author", "created_at")
    list_filter = ("game", "state", "kind")
    list_select_related = ("game", "author")
    search_fields = ("title", "author__username", "target_code")
    date_hierarchy = "created_at"
    inlines = [ProposalEventInline]


@admin.register(CatalogChange)
class CatalogChangeAdmin(ReadOnly):
    list_display = ("object_kind", "object_code", "game", "proposed_by", "approved_by", "at")
    list_filter = ("game", "object_kind")
    list_select_related = ("game", "proposed_by", "approved_by")
    search_fields = ("object_code",)
    date_hierarchy = "at"

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the history is never edited, only added to


@admin.register(SetLock)
class SetLockAdmin(ReadOnly):
    list_display = ("card_set", "locked_by", "at")
    list_select_related = ("card_set", "locked_by")
