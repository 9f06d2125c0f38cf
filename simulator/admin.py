"""Simulation runs in the admin: read-only (runs are made by the pages and the API), so staff
can see what ran, on which worker, and why a run failed."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from simulator.models import RunChunk, SimulationRun


class RunChunkInline(admin.TabularInline):
    model = RunChunk
    fields = ("index", "start", "count", "status", "worker", "attempts", "lease_until", "seconds")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: SimulationRun | None = None) -> bool:
        return False


@admin.register(SimulationRun)
class SimulationRunAdmin(admin.ModelAdmin):
    list_display = ("public_id", "owner", "deck_name", "engine", "games", "status", "created_at")
    list_filter = ("status", "engine")
    search_fields = ("public_id", "owner__username", "deck_name")
    list_select_related = ("owner",)
    readonly_fields = [f.name for f in SimulationRun._meta.fields]
    exclude = ("deck_data",)
    inlines = [RunChunkInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: SimulationRun | None = None) -> bool:
        return False
