"""The deck editor: one page, and small POST endpoints that each make one change.

Every change names the deck version its page read. The answer to an htmx request is a set of
out-of-band fragments (the entry list, the legality panel, the statistics, the version field
and the message area), so the page updates in place; a stale version is a 409 with the
stale-deck message, bad input a 400 naming the field. Without htmx the same endpoints
redirect back to the editor (or show it with the message), so nothing needs JavaScript.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_POST, require_safe

from catalog.models import Printing
from catalog.query.compile import compile_query, order_cards
from catalog.query.context import search_context
from catalog.query.errors import QueryError
from catalog.query.syntax import MAX_QUERY_LENGTH
from decks import errors
from decks.errors import DeckError, StaleDeckError
from decks.extras import ExtraError, extra_of, extra_views
from decks.forms import (
    NO_SUCH_ENTRY,
    NO_SUCH_PRINTING,
    AddCardForm,
    DeckSettingsForm,
    EntryChangeForm,
    version_from_post,
)
from decks.game_rules import deck_rules
from decks.imports.text import visible_cards
from decks.models import Deck, DeckEntry
from decks.services import (
    META_FIELDS,
    deck_entry_add,
    deck_entry_set,
    deck_entry_update,
    deck_update,
    editing_session,
)
from decks.views.access import get_deck_for_user, is_htmx
from decks.views.panels import PRINTINGS_PREFETCH, deck_panels
from decks.views.rows import editor_rows

SEARCH_LIMIT = 30
Change = Callable[[Deck, int], None]


def _first_error(form: forms.Form) -> tuple[str, str]:
    field, messages = next(iter(form.errors.items()))
    return ("entry" if field == "__all__" else field), str(messages[0])


def _editor_context(deck: Deck, *, settings_form: DeckSettingsForm | None = None) -> dict[str, Any]:
    rules = deck_rules(deck.game.slug)
    return {
        "deck": deck,
        "rules": rules,
        "extra_views": extra_views(deck),
        "settings_form": settings_form or DeckSettingsForm(deck=deck),
        "card_types": deck.game.spec.card_types,
    }


@login_required
@require_safe
def edit(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = get_deck_for_user(request, public_id, owner=True)
    context = _editor_context(deck)
    context.update(_panels(deck))
    return render(request, "decks/edit.html", context)


def _panels(deck: Deck, *, charts: bool = True) -> dict[str, Any]:
    panels = deck_panels(deck, charts=charts)
    return {"panels": panels, "zone_rows": editor_rows(deck, panels)}


def _respond(
    request: HttpRequest,
    deck: Deck,
    *,
    status: int = 200,
    message: Any = None,
    field: str = "",
    extra: str = "",
    settings_form: DeckSettingsForm | None = None,
    entry_id: int | None = None,
) -> HttpResponse:
    context = _editor_context(deck, settings_form=settings_form)
    context.update(
        {
            "message": str(message) if message is not None else "",
            "message_field": field,
            "stale": status == 409,
            "row_error": (entry_id, str(message)) if entry_id and status == 400 else None,
        }
    )
    if not is_htmx(request):
        if status == 200:
            return redirect("decks:edit", deck.public_id)
        context.update(_panels(deck))
        return render(request, "decks/edit.html", context, status=status)
    if status != 409:
        # a refused change leaves the deck as it was, but the list is drawn again so the
        # row can show its error beside the value that was refused
        context.update(_panels(deck, charts=status == 200))
    context.update({"oob": True, "extra_changed": extra, "saved": status == 200})
    response = render(request, "decks/editor/_update.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _edit(
    request: HttpRequest,
    deck: Deck,
    change: Change,
    *,
    extra: str = "",
    settings_form: DeckSettingsForm | None = None,
    entry_id: int | None = None,
) -> HttpResponse:
    """Apply ``change`` to the owner's deck with the version the page read, and answer."""
    try:
        # an editing session's clicks are one revision; the settings form's Save is an
        # explicit save and, like imports, stays a revision of its own
        with editing_session() if settings_form is None else nullcontext():
            change(deck, version_from_post(request.POST))
    except StaleDeckError:
        _reload(deck)
        return _respond(
            request, deck, status=409, message=errors.STALE_DECK, field="version", extra=extra
        )
    except DeckError as exc:
        _reload(deck)
        form = settings_form
        if form is not None and exc.field in form.fields and exc.field not in form.errors:
            form.add_error(exc.field, str(exc.message))
        return _respond(
            request,
            deck,
            status=400,
            message=exc.message,
            field=exc.field,
            extra=extra,
            settings_form=form,
            entry_id=entry_id,
        )
    return _respond(request, deck, extra=extra, settings_form=settings_form)


def _reload(deck: Deck) -> None:
    """The deck's own fields as stored: a service may have counted a version or set a field
    in memory before refusing, and the database rolled that back. Relations stay cached."""
    deck.refresh_from_db(fields=[*META_FIELDS, "version", "is_legal", "card_count"])


def _unchanged(deck: Deck, version: int) -> None:
    """Nothing to save: still refuse a stale page, so it learns early that it is stale."""
    if version != deck.version:
        raise StaleDeckError


@login_required
@require_POST
def add(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = get_deck_for_user(request, public_id, owner=True)
    form = AddCardForm(request.POST)

    def change(deck: Deck, version: int) -> None:
        if not form.is_valid():
            field, message = _first_error(form)
            raise DeckError(message, field)
        data = form.cleaned_data
        card = visible_cards(game=deck.game, user=request.user).filter(code=data["card"]).first()
        if card is None:
            raise DeckError(errors.CARD_NOT_VISIBLE, "card")
        # without a printing the service pins the game's default one (e.g. the character's
        # own printing), as for the API and imports; the entry row lets the player change it
        printing = None
        if data.get("printing"):
            printing = Printing.objects.filter(card=card, pk=data["printing"]).first()
            if printing is None:
                raise DeckError(NO_SUCH_PRINTING, "printing")
        deck_entry_add(
            deck=deck,
            user=request.user,
            expected_version=version,
            card=card,
            zone=data["zone"],
            delta=data.get("delta") or 1,
            printing=printing,
        )

    return _edit(request, deck, change)


def _change_entry(request: HttpRequest, form: EntryChangeForm, entry_id: int) -> Change:
    def change(deck: Deck, version: int) -> None:
        if not form.is_valid():
            field, message = _first_error(form)
            raise DeckError(message, field)
        entry = (
            DeckEntry.objects.select_related("card", "printing")
            .filter(deck=deck, pk=entry_id)
            .first()
        )
        if entry is None:
            if version != deck.version:
                raise StaleDeckError
            raise DeckError(NO_SUCH_ENTRY, "entry")
        data, given = form.cleaned_data, form.cleaned_data["given"]
        common: dict[str, Any] = {"deck": deck, "user": request.user, "expected_version": version}
        if "quantity" in given or "delta" in given:
            key = "quantity" if "quantity" in given else "delta"
            if data.get(key) is None:
                raise DeckError(errors.BAD_QUANTITY, key)
            if key == "quantity" and data["quantity"] == entry.quantity:
                return _unchanged(deck, version)
            place: dict[str, Any] = {
                "card": entry.card,
                "zone": entry.zone,
                "printing": entry.printing,
            }
            if key == "quantity":
                deck_entry_set(**common, **place, quantity=data["quantity"])
            else:
                deck_entry_add(**common, **place, delta=data["delta"])
        elif "zone" in given:
            if not data.get("zone"):
                raise DeckError(errors.UNKNOWN_ZONE, "zone")
            if data["zone"] == entry.zone:
                return _unchanged(deck, version)
            deck_entry_update(**common, entry=entry, zone=data["zone"])
        else:
            printing = None
            if data.get("printing"):
                printing = Printing.objects.filter(card=entry.card, pk=data["printing"]).first()
                if printing is None:
                    raise DeckError(NO_SUCH_PRINTING, "printing")
            if printing == entry.printing:
                return _unchanged(deck, version)
            deck_entry_update(**common, entry=entry, printing=printing)

    return change


@login_required
@require_POST
def entry(request: HttpRequest, public_id: str, entry_id: int) -> HttpResponse:
    deck = get_deck_for_user(request, public_id, owner=True)
    change = _change_entry(request, EntryChangeForm(request.POST), entry_id)
    return _edit(request, deck, change, entry_id=entry_id)


@login_required
@require_POST
def settings(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = get_deck_for_user(request, public_id, owner=True)
    form = DeckSettingsForm(request.POST, deck=deck)

    def change(deck: Deck, version: int) -> None:
        if not form.is_valid():
            field, message = _first_error(form)
            raise DeckError(message, field)
        changes = form.changes()
        if not changes:
            return _unchanged(deck, version)
        deck_update(deck=deck, user=request.user, expected_version=version, **changes)

    return _edit(request, deck, change, settings_form=form)


@login_required
@require_POST
def edit_extra(request: HttpRequest, public_id: str, key: str) -> HttpResponse:
    """A post of a deck extra's editor partial, handled by the game's extra of that key."""
    deck = get_deck_for_user(request, public_id, owner=True)
    extra = extra_of(deck.game.slug, key)
    if extra is None:
        raise Http404

    def change(deck: Deck, version: int) -> None:
        current = deck.extras.get(key) if isinstance(deck.extras, dict) else None
        try:
            value = extra.from_post(current, request.POST)
        except ExtraError as exc:
            raise DeckError(exc.message, key) from exc
        if value == current:
            return _unchanged(deck, version)
        extras = {**deck.extras, key: value}
        deck_update(deck=deck, user=request.user, expected_version=version, extras=extras)

    return _edit(request, deck, change, extra=key)


#: the editor search's "only cards I have" choices (search-language flags)
MINE_CHOICES = ("owned", "free")


@login_required
@require_safe
def search(request: HttpRequest, public_id: str) -> HttpResponse:
    """Cards of the deck's game by the catalog's search language (names in Japanese or
    English, the game's fields, ``in:deck``, ``is:owned``; or an exact code), with the zones
    that take each one; bounded, so a one-letter query stays cheap. A query with a mistake
    answers its position and "did you mean"."""
    deck = get_deck_for_user(request, public_id, owner=True)
    rules = deck_rules(deck.game.slug)
    query = request.GET.get("q", "").strip()[:MAX_QUERY_LENGTH]
    card_type = request.GET.get("type", "")
    # "build only from what I have": the collection's is:owned / is:free, added to the search
    mine = request.GET.get("mine", "")
    if mine in MINE_CHOICES and request.user.is_authenticated:
        query = f"{query} is:{mine}".strip()
    cards: list[Any] = []
    more = False
    query_error: QueryError | None = None
    compiled = None
    if query:
        try:
            # the catalog's search language; in:deck means this deck here
            compiled = compile_query(
                query,
                slug=deck.game.slug,
                context=search_context(user=request.user, deck=deck),
                per_printing=False,
            )
        except QueryError as exc:
            query_error = exc
    if (query or card_type) and query_error is None:
        found = visible_cards(game=deck.game, user=request.user)
        if compiled is not None and compiled.condition:
            found = found.filter(compiled.condition | Q(code__iexact=query))
        if card_type:
            found = found.filter(card_type=card_type)
        found = found.order_by("name_en", "name_ja", "pk")
        if compiled is not None and compiled.order is not None:
            found = order_cards(found, compiled, slug=deck.game.slug)
        rows = list(
            found.select_related("game").prefetch_related(PRINTINGS_PREFETCH)[: SEARCH_LIMIT + 1]
        )
        more = len(rows) > SEARCH_LIMIT
        cards = rows[:SEARCH_LIMIT]
    in_deck: dict[int, int] = {}
    for card_id, quantity in DeckEntry.objects.filter(
        deck=deck, card_id__in=[c.pk for c in cards]
    ).values_list("card_id", "quantity"):
        in_deck[card_id] = in_deck.get(card_id, 0) + quantity
    results = [
        {
            "card": card,
            "zones": [z for z in rules.zones if card.card_type in z.card_types],
            "in_deck": in_deck.get(card.pk, 0),
        }
        for card in cards
    ]
    context = {
        "deck": deck,
        "query": query,
        "card_type": card_type,
        "results": results,
        "more": more,
        "limit": SEARCH_LIMIT,
        "query_error": query_error,
        "query_error_parts": query_error.parts(query) if query_error else None,
    }
    response = render(request, "decks/editor/_search_results.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response
