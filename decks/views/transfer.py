"""Deck lists in and out: import a new deck, import into a deck, export a deck.

An import is all or nothing: when any line cannot be read the form comes back (400) listing
every bad line with its number, its text and the reason (with a "did you mean"), and
nothing is saved.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from decks import errors
from decks.errors import DeckError, StaleDeckError
from decks.forms import (
    DeckImportForm,
    DeckImportIntoForm,
    deck_games,
    version_from_post,
)
from decks.imports.errors import UNKNOWN_NAMES_LANGUAGE, DeckImportError, LineProblem
from decks.imports.formats import TEXT, format_for, game_formats
from decks.imports.service import deck_export, deck_import, deck_import_into
from decks.imports.text import NAME_LANGUAGES, names_language
from decks.views.access import get_deck_for_user


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_deck(request: HttpRequest) -> HttpResponse:
    games = deck_games()
    problems: list[LineProblem] = []
    if request.method == "POST":
        form = DeckImportForm(request.POST, request.FILES, games=games)
        if form.is_valid():
            data = form.cleaned_data
            try:
                deck = deck_import(
                    owner=request.user,
                    game=form.chosen_game,
                    text=data["text"],
                    fmt=data["fmt"],
                    name=data["name"] or None,
                    visibility=data["visibility"],
                )
            except DeckImportError as exc:
                problems = exc.problems
            else:
                messages.success(request, _("Deck imported."))
                if deck.game_id != form.chosen_game.pk:
                    # the list said which game it is (its game: line, or its own JSON format)
                    messages.info(
                        request,
                        _("The list is a %(game)s deck, so it was imported as one.")
                        % {"game": deck.game.name},
                    )
                return redirect("decks:detail", deck.public_id)
        status = 400
    else:
        form = DeckImportForm(initial={"game": request.GET.get("game")}, games=games)
        status = 200
    context = {"form": form, "problems": problems}
    return render(request, "decks/import.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_into(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = get_deck_for_user(request, public_id, owner=True)
    problems: list[LineProblem] = []
    message: Any = ""
    status = 200
    if request.method == "POST":
        form = DeckImportIntoForm(request.POST, request.FILES)
        status = 400
        if form.is_valid():
            try:
                deck_import_into(
                    deck=deck,
                    user=request.user,
                    expected_version=version_from_post(request.POST),
                    text=form.cleaned_data["text"],
                    fmt=form.cleaned_data["fmt"],
                )
            except StaleDeckError:
                message, status = errors.STALE_DECK, 409
                deck.refresh_from_db(fields=["version"])
            except DeckImportError as exc:
                problems = exc.problems
            except DeckError as exc:
                message = exc.message
            else:
                messages.success(request, _("The list replaced the deck's cards."))
                return redirect("decks:detail", deck.public_id)
    else:
        # the deck's own list to start from: editing it as text is the quickest bulk change
        names = names_language(get_language())
        text = deck_export(deck=deck, names=names)
        form = DeckImportIntoForm(initial={"fmt": "text", "text": text})
    own = game_formats(deck.game.slug)
    fmt_field = form.fields["fmt"]
    assert isinstance(fmt_field, forms.ChoiceField)
    fmt_field.choices = [(TEXT, _("DeckLab text list")), *((f.code, f.label) for f in own)]
    context = {
        "deck": deck,
        "form": form,
        "problems": problems,
        "message": str(message) if message else "",
        "stale": status == 409,
        "own_formats": own,
    }
    return render(request, "decks/import_into.html", context, status=status)


@require_safe
def export(request: HttpRequest, public_id: str, fmt: str) -> HttpResponse:
    deck = get_deck_for_user(request, public_id)
    if fmt != TEXT and format_for(deck.game.slug, fmt) is None:
        raise Http404
    # the card names in the interface's language unless the link says (?names=en|ja)
    names = request.GET.get("names") or names_language(get_language())
    if names not in NAME_LANGUAGES:
        message = UNKNOWN_NAMES_LANGUAGE % {"languages": ", ".join(NAME_LANGUAGES)}
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
    exported = deck_export(deck=deck, fmt=fmt, names=names)
    stem = slugify(deck.name) or deck.public_id
    if isinstance(exported, str):
        body, content_type, suffix = exported, "text/plain; charset=utf-8", "txt"
    else:
        body = json.dumps(exported, ensure_ascii=False, indent=2)
        content_type, suffix = "application/json", "json"
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"{stem}.{suffix}"
    )
    return response
