from __future__ import annotations

from django.contrib import admin

from decks.models import Deck, DeckEntry, DeckRevision


class DeckEntryInline(admin.TabularInline):
    model = DeckEntry
    raw_id_fields = ("card", "printing")
    extra = 0


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "owner", "visibility", "is_legal", "card_count", "updated_at")
    list_filter = ("game", "visibility", "is_legal")
    search_fields = ("name", "owner__username", "public_id")
    list_select_related = ("game", "owner")
    raw_id_fields = ("owner", "cloned_from", "source_product")
    readonly_fields = ("public_id", "version", "is_legal", "card_count")
    inlines = [DeckEntryInline]


@admin.register(DeckRevision)
class DeckRevisionAdmin(admin.ModelAdmin):
    list_display = ("deck", "number", "author", "created_at", "summary")
    list_select_related = ("deck", "author")
    raw_id_fields = ("deck", "author")
    readonly_fields = ("deck", "number", "author", "created_at", "summary", "snapshot")
