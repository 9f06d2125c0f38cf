"""Forms of the deck pages and the editor: they bound sizes and turn text into typed values.

Business rules stay in the services (zones, printings, variants, versions); forms only refuse
what is not even the right kind of value, with messages kept as module constants so tests
assert against the words players read.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from catalog.models import Game
from decks import errors
from decks.game_rules import deck_rules, has_deck_rules
from decks.imports.formats import format_choices
from decks.models import MAX_DESCRIPTION, MAX_QUANTITY, Deck

NAME_MAX = 120
SEARCH_MAX = 100
IMPORT_MAX_BYTES = 100 * 1024

MISSING_VERSION = _("The form did not say which version of the deck it was editing; reload.")
NOT_A_NUMBER = _("“%(value)s” is not a whole number.")
NO_SUCH_CARD = errors.CARD_NOT_VISIBLE
NO_SUCH_ENTRY = _("That card is no longer in this deck; reload to see the latest list.")
NO_SUCH_PRINTING = _("No such printing of this card.")
NOTHING_TO_CHANGE = _("Say what to change: a quantity, a step, a zone or a printing.")
NO_SUCH_PRODUCT = _("Pick a product that lists its cards.")
FILE_TOO_BIG = _("The file is larger than %(kb)d KB.")
FILE_NOT_TEXT = _("The file is not UTF-8 text.")
TEXT_OR_FILE = _("Paste a list or choose a file.")
NO_SUCH_REVISION = _("Pick two revisions of this deck.")


def deck_games() -> list[Game]:
    """The games a deck can be built for: those with deck rules (one query)."""
    return [g for g in Game.objects.order_by("sort_order", "slug") if has_deck_rules(g.slug)]


def _game_choices(games: list[Game]) -> list[tuple[str, str]]:
    return [(g.slug, g.name) for g in games]


def _choice_field(form: forms.Form, name: str) -> forms.ChoiceField:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    return field


def variant_choices(game_slug: str) -> list[tuple[str, str]]:
    if not has_deck_rules(game_slug):
        return []
    return [(v.code, str(v.label)) for v in deck_rules(game_slug).variants]


class DeckFieldsMixin(forms.Form):
    """Name and visibility, as the create and settings forms share them."""

    name = forms.CharField(label=_("Name"), max_length=NAME_MAX, strip=True)
    visibility = forms.ChoiceField(
        label=_("Visibility"), choices=Deck.Visibility.choices, initial=Deck.Visibility.PRIVATE
    )


class DeckCreateForm(DeckFieldsMixin):
    game = forms.ChoiceField(label=_("Game"))
    variant = forms.ChoiceField(label=_("Rules variant"), required=False)

    field_order = ("game", "name", "visibility", "variant")

    def __init__(self, *args: Any, games: list[Game], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games = {g.slug: g for g in games}
        _choice_field(self, "game").choices = _game_choices(games)
        slug = self.selected_game_slug
        _choice_field(self, "variant").choices = variant_choices(slug) if slug else []

    @property
    def selected_game_slug(self) -> str:
        raw = self.data.get("game") if self.is_bound else self.initial.get("game")
        if raw in self.games:
            return str(raw)
        return next(iter(self.games), "")

    @property
    def has_variants(self) -> bool:
        return bool(_choice_field(self, "variant").choices)

    @property
    def chosen_game(self) -> Game:
        return self.games[self.cleaned_data["game"]]


class DeckSettingsForm(DeckFieldsMixin):
    description = forms.CharField(
        label=_("Description (Markdown)"),
        required=False,
        max_length=MAX_DESCRIPTION,
        widget=forms.Textarea(attrs={"rows": 6}),
        strip=False,
    )
    variant = forms.ChoiceField(label=_("Rules variant"), required=False)

    field_order = ("name", "visibility", "variant", "description")

    def __init__(self, *args: Any, deck: Deck, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {
                "name": deck.name,
                "visibility": deck.visibility,
                "variant": deck.variant,
                "description": deck.description,
            },
        )
        super().__init__(*args, **kwargs)
        self.deck = deck
        choices = variant_choices(deck.game.slug)
        if choices:
            _choice_field(self, "variant").choices = choices
        else:
            del self.fields["variant"]

    def changes(self) -> dict[str, Any]:
        """The cleaned fields whose values differ from the deck's."""
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if getattr(self.deck, name) != value
        }


def _quantity_field(low: int) -> forms.IntegerField:
    # the validators' own texts say "Ensure this value…"; players read the one rule instead
    return forms.IntegerField(
        required=False,
        min_value=low,
        max_value=MAX_QUANTITY,
        error_messages=dict.fromkeys(("invalid", "min_value", "max_value"), errors.BAD_QUANTITY),
    )


class AddCardForm(forms.Form):
    """A card from the search results, added to a zone (optionally as one printing)."""

    card = forms.CharField(max_length=120)
    zone = forms.SlugField(max_length=30)
    printing = forms.IntegerField(
        required=False,
        min_value=1,
        error_messages={"invalid": NO_SUCH_PRINTING, "min_value": NO_SUCH_PRINTING},
    )
    delta = _quantity_field(-MAX_QUANTITY)


class EntryChangeForm(forms.Form):
    """One change to an entry: a new quantity (0 removes), a step (−1/+1), a zone or a
    printing ("" unpins). Which of them the request carried decides what changes."""

    quantity = _quantity_field(0)
    delta = _quantity_field(-MAX_QUANTITY)
    zone = forms.SlugField(required=False, max_length=30)
    printing = forms.IntegerField(
        required=False,
        min_value=1,
        error_messages={"invalid": NO_SUCH_PRINTING, "min_value": NO_SUCH_PRINTING},
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        given = [name for name in ("quantity", "delta", "zone", "printing") if name in self.data]
        if not given and not self.errors:
            raise forms.ValidationError(NOTHING_TO_CHANGE)
        data["given"] = given
        return data


def version_from_post(data: Any) -> int:
    """The deck version the editing page read; every write names it."""
    raw = data.get("version", "")
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise errors.DeckError(MISSING_VERSION, "version") from None


class _UploadMixin(forms.Form):
    fmt = forms.ChoiceField(label=_("Format"), choices=format_choices, initial="text")
    text = forms.CharField(
        label=_("Deck list"),
        required=False,
        max_length=IMPORT_MAX_BYTES,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
    )
    file = forms.FileField(label=_("…or a file"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload:
            if upload.size > IMPORT_MAX_BYTES:
                self.add_error("file", FILE_TOO_BIG % {"kb": IMPORT_MAX_BYTES // 1024})
                return data
            try:
                data["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", FILE_NOT_TEXT)
                return data
        if not (data.get("text") or "").strip() and "text" not in self.errors:
            self.add_error("text", TEXT_OR_FILE)
        return data


class DeckImportForm(_UploadMixin):
    game = forms.ChoiceField(label=_("Game"))
    name = forms.CharField(
        label=_("Name"),
        max_length=NAME_MAX,
        required=False,
        help_text=_("Leave empty to use the name the list gives."),
    )
    visibility = forms.ChoiceField(
        label=_("Visibility"), choices=Deck.Visibility.choices, initial=Deck.Visibility.PRIVATE
    )

    field_order = ("game", "fmt", "text", "file", "name", "visibility")

    def __init__(self, *args: Any, games: list[Game], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games = {g.slug: g for g in games}
        _choice_field(self, "game").choices = _game_choices(games)

    @property
    def chosen_game(self) -> Game:
        return self.games[self.cleaned_data["game"]]


class DeckImportIntoForm(_UploadMixin):
    field_order = ("fmt", "text", "file")


class BrowseForm(forms.Form):
    legal = forms.BooleanField(label=_("Legal decks only"), required=False)
    card = forms.CharField(
        label=_("Containing a card"),
        required=False,
        max_length=SEARCH_MAX,
        help_text=_("A card's code or part of its name in Japanese or English."),
    )
    player = forms.CharField(label=_("Player"), required=False, max_length=150)


class DiffForm(forms.Form):
    a = forms.IntegerField(min_value=1, error_messages={"required": NO_SUCH_REVISION})
    b = forms.IntegerField(min_value=1, error_messages={"required": NO_SUCH_REVISION})


class ProductPickForm(forms.Form):
    product = forms.IntegerField(error_messages={"required": NO_SUCH_PRODUCT})
