"""Admin for the catalog: every model, searchable by code and by Japanese or English name.

Attributes are validated against the game's schema by ``Card.clean`` / ``Printing.clean``;
the model forms here put those errors on the ``attributes`` field and save nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import QuerySet
from django.db.models.functions import Length
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from catalog.kinds import Kinds
from catalog.models import (
    Card,
    CardSet,
    CatalogImportJob,
    Game,
    Printing,
    Product,
    ProductItem,
)
from catalog.spec import GameSpec, all_games

INCOMPLETE = _("Correct the fields marked above first.")
CHARACTERS = _("%(count)s characters")
OTHER_GAME = _("This printing belongs to another game than the product.")


class GuardedModelForm(forms.ModelForm):
    """A model form whose model ``clean()`` may read relations the form failed to fill.

    ``Card.clean`` reads ``self.game`` and ``Printing.clean`` reads ``self.card_set``; when
    that field already has an error, the relation is missing and ``clean()`` would raise
    DoesNotExist (a 500). The field's own error is the useful answer, so keep that.
    """

    def full_clean(self) -> None:
        try:
            super().full_clean()
        except ObjectDoesNotExist:
            if not self.errors:
                self.add_error(None, INCOMPLETE)


#: every catalog list is searched by code and by its Japanese or English name
BILINGUAL_SEARCH = ("code", "name_en", "name_ja")


class KindAdmin(admin.ModelAdmin):
    """A set or product admin whose ``kind`` is picked among the kinds each game declares
    (catalog.kinds), grouped by game; the model's ``clean()`` refuses a kind the row's own
    game does not declare, and the list shows the game's label for it."""

    #: the kinds a game declares for this model (its GameSpec's set_kinds or product_kinds)
    declared_kinds: Callable[[GameSpec], Kinds]

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "kind":
            choices: list[tuple[str, Any]] = [("", "---------")]
            choices += [
                (spec.name_en, [(code, label) for code, label in self.declared_kinds(spec)])
                for spec in all_games()
            ]
            kwargs["widget"] = forms.Select(choices=choices)
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    @admin.display(description=_("kind"), ordering="kind")
    def kind_label(self, row: CardSet | Product) -> str:
        return row.get_kind_display()


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("slug", "name_en", "name_ja", "sort_order")
    search_fields = ("slug", "name_en", "name_ja")
    ordering = ("sort_order", "slug")


@admin.register(CardSet)
class CardSetAdmin(KindAdmin):
    form = GuardedModelForm
    declared_kinds = attrgetter("set_kinds")
    list_display = ("code", "name_en", "name_ja", "game", "kind_label", "release_date", "is_demo")
    list_filter = ("game", "kind", "is_demo")
    list_select_related = ("game",)
    search_fields = BILINGUAL_SEARCH
    date_hierarchy = "release_date"


class PrintingInline(admin.TabularInline):
    model = Printing
    form = GuardedModelForm
    extra = 0
    fields = ("card_set", "collector_number", "variant", "attributes")
    autocomplete_fields = ("card_set",)


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    form = GuardedModelForm
    list_display = ("code", "name_en", "name_ja", "game", "card_type", "copy_limit", "is_demo")
    list_filter = ("game", "card_type", "is_demo")
    list_select_related = ("game",)
    search_fields = BILINGUAL_SEARCH
    fields = (
        "game",
        "code",
        "card_type",
        "name_en",
        "name_ja",
        "attributes",
        "copy_limit",
        "source",
        "is_demo",
    )
    inlines = (PrintingInline,)


@admin.register(Printing)
class PrintingAdmin(admin.ModelAdmin):
    form = GuardedModelForm
    list_display = ("card", "card_set", "collector_number", "variant")
    list_filter = ("card__game", "variant")
    list_select_related = ("card", "card_set")
    search_fields = (
        "card__code",
        "card__name_en",
        "card__name_ja",
        "card_set__code",
        "collector_number",
    )
    autocomplete_fields = ("card", "card_set")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Printing]:
        # Printing.__str__ names the card and the set: the autocomplete list needs both.
        return super().get_queryset(request).select_related("card", "card_set")


class ProductItemFormSet(forms.BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        game_id = getattr(self.instance, "game_id", None)
        for form in self.forms:
            printing = form.cleaned_data.get("printing") if form.cleaned_data else None
            if printing is not None and game_id and printing.card.game_id != game_id:
                form.add_error("printing", OTHER_GAME)


class ProductItemInline(admin.TabularInline):
    model = ProductItem
    formset = ProductItemFormSet
    extra = 0
    fields = ("printing", "zone", "quantity")
    autocomplete_fields = ("printing",)


@admin.register(Product)
class ProductAdmin(KindAdmin):
    form = GuardedModelForm
    declared_kinds = attrgetter("product_kinds")
    list_display = ("code", "name_en", "name_ja", "game", "kind_label", "card_set", "release_date")
    list_filter = ("game", "kind", "is_demo")
    list_select_related = ("game", "card_set")
    search_fields = BILINGUAL_SEARCH
    autocomplete_fields = ("card_set",)
    inlines = (ProductItemInline,)


@admin.register(CatalogImportJob)
class CatalogImportJobAdmin(admin.ModelAdmin):
    """Read-only: jobs are made by the upload page and finished by the worker."""

    list_display = ("file_name", "status", "progress", "game", "uploaded_by", "created_at")
    list_filter = ("status", "game")
    list_select_related = ("uploaded_by",)
    search_fields = ("file_name",)
    date_hierarchy = "created_at"
    # The content can be megabytes; the detail page shows its size instead.
    fields = (
        "file_name",
        "game",
        "uploaded_by",
        "status",
        "stage",
        "progress",
        "summary",
        "problem_list",
        "content_size",
        "created_at",
        "started_at",
        "finished_at",
    )
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[CatalogImportJob]:
        queryset = super().get_queryset(request).defer("content")
        return queryset.annotate(content_chars=Length("content"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("problems"))
    def problem_list(self, obj: CatalogImportJob) -> SafeString:
        if not obj.problems:
            return format_html("{}", "—")
        rows = format_html_join(
            "",
            "<li><code>{}</code> {}</li>",
            ((p.get("where", ""), p.get("message", "")) for p in obj.problems),
        )
        return format_html("<ul>{}</ul>", rows)

    @admin.display(description=_("size"))
    def content_size(self, obj: CatalogImportJob) -> str:
        chars = getattr(obj, "content_chars", None) or 0
        return str(CHARACTERS % {"count": f"{chars:,}"})
