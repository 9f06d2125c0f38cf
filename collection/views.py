"""Collection pages: the collection per game, adding from catalog pages, quantities changed
in place (htmx), imports with preview and undo, exports, the wishlist, a deck's copies."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from catalog.models import CardSet, Game, Printing, Product, listed
from catalog.query.errors import QueryError
from collection import errors, limits
from collection.forms import (
    EXPORT_CHOICES,
    AddForm,
    ImportForm,
    MoveForm,
    QuantityForm,
    WishQuantityForm,
)
from collection.imports import (
    CollectionImportError,
    Preview,
    collection_export,
    collection_import_commit_batch,
    collection_import_preview,
    collection_import_remember_mapping,
    dialect_or_none,
)
from collection.interchange.dialects import (
    DIALECTS,
    GENERIC_NAMES,
    MAPPABLE_LABELS,
    generic_columns,
)
from collection.interchange.read import decode
from collection.interchange.write import export_wishlist
from collection.jobs import collection_job_submit, collection_jobs_of
from collection.marks import collection_mark
from collection.models import (
    CollectionItem,
    CollectionJob,
    CollectionSettings,
    ImportBatch,
    WishlistItem,
)
from collection.selectors import (
    collection_binders,
    collection_items,
    collection_owner_for,
    collection_page_totals,
    collection_public_items,
    collection_shows_all_cards,
    set_completion,
    set_missing_cards,
    trade_list,
    wishlist,
)
from collection.services import (
    ItemSpec,
    collection_add,
    collection_import_undo,
    collection_item_move,
    collection_item_set_quantity,
    collection_settings_update,
    deck_mark_built,
    deck_unmark_built,
    product_specs,
    set_specs,
    spec_problems,
    wishlist_add_missing,
    wishlist_set_quantity,
)
from collection.vocab import (
    Condition,
    finish_label,
    finishes_for,
    language_label,
    languages_for,
)
from decks.selectors import deck_get_for_owner, deck_get_for_viewer

ITEMS_PER_PAGE = 50
FILTERS = ("set", "card", "type", "condition", "finish", "language", "binder", "tag", "q", "sort")


VISIBILITIES = ("private", "trades", "cards")


def _visibility(user: Any) -> str:
    found = CollectionSettings.objects.filter(owner_id=user.pk).first()
    if found is None or not found.is_public:
        return "private"
    return "cards" if found.shows_all_cards else "trades"


def _is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _back(request: HttpRequest, default: str) -> HttpResponse:
    target = request.POST.get("next") or request.META.get("HTTP_REFERER") or default
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}):
        target = default
    return redirect(target)


def _refused(request: HttpRequest, field: str, message: str) -> HttpResponse:
    """A refused form: 400 naming the field, as a fragment for htmx or a small page."""
    context = {"field": field, "message": message, "back": request.META.get("HTTP_REFERER")}
    template = "collection/_refused.html" if _is_htmx(request) else "collection/refused.html"
    return render(request, template, context, status=400)


def _first_error(form: Any) -> tuple[str, str]:
    field, found = next(iter(form.errors.items()))
    return ("form" if field == "__all__" else field), str(found[0])


def _game_or_404(slug: str) -> Game:
    game = Game.objects.filter(slug=slug).first()
    if game is None:
        raise Http404
    return game


@login_required
@require_safe
def index(request: HttpRequest) -> HttpResponse:
    games = list(Game.objects.all())
    totals = collection_page_totals(
        owner=request.user,
        items=CollectionItem.objects.filter(owner_id=request.user.pk),
        filters={"game": "*"},  # every game's items
        mark=collection_mark(owner=request.user),
    )
    imports = ImportBatch.objects.filter(owner_id=request.user.pk).exclude(
        status=ImportBatch.Status.PREVIEWED
    )[:10]
    # big imports and exports under way on a worker, each linking to its progress
    under_way = (CollectionJob.Status.QUEUED, CollectionJob.Status.RUNNING)
    jobs = collection_jobs_of(owner_id=request.user.pk).filter(status__in=under_way)[:10]
    context = {
        "games": games,
        "totals": totals,
        "imports": imports,
        "visibility": _visibility(request.user),
        "jobs": jobs,
    }
    return render(request, "collection/index.html", context)


@login_required
@require_safe
def game_page(request: HttpRequest, game: str) -> HttpResponse:
    found = _game_or_404(game)
    filters = {k: request.GET.get(k, "").strip()[:100] for k in FILTERS}
    query_error: QueryError | None = None
    try:
        items = collection_items(owner=request.user, filters={**filters, "game": found.slug})
    except QueryError as exc:
        # a mistake in the search: said where it is, and the collection shown unfiltered by it
        query_error = exc
        items = collection_items(
            owner=request.user, filters={**filters, "q": "", "game": found.slug}
        )
    # the aggregates are counted once per change of the collection (collection/marks.py)
    mark = collection_mark(owner=request.user)
    totals = collection_page_totals(
        owner=request.user,
        items=items,
        filters={**filters, "game": found.slug, "q": "" if query_error else filters["q"]},
        mark=mark,
    )
    paginator = Paginator(items, ITEMS_PER_PAGE)
    paginator.count = totals.items  # already counted by the totals: no second COUNT query
    completion = set_completion(owner=request.user, game=found, mark=mark)
    # a player's binders across games, from the (owner, binder) index
    binders = collection_binders(owner=request.user)
    context = {
        "game": found,
        "spec": found.spec,
        "filters": filters,
        "page": paginator.get_page(request.GET.get("page")),
        "totals": totals,
        "completion": completion,
        "binders": binders,
        "conditions": Condition.choices,
        "finishes": finishes_for(found.slug),
        "languages": [(c, language_label(c)) for c in languages_for(found.slug)],
        "query_error": query_error,
    }
    return render(request, "collection/game.html", context, status=400 if query_error else 200)


@login_required
@require_safe
def set_missing(request: HttpRequest, game: str, code: str) -> HttpResponse:
    card_set = CardSet.objects.select_related("game").filter(game__slug=game, code=code).first()
    if card_set is None:
        raise Http404
    cards = set_missing_cards(owner=request.user, card_set=card_set)
    page = Paginator(cards, ITEMS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "collection/set_missing.html", {"card_set": card_set, "page": page})


# --- adding ------------------------------------------------------------------------------------


def _add(request: HttpRequest, game_slug: str, specs: list[ItemSpec]) -> HttpResponse | None:
    for spec in specs[:1]:
        problems = spec_problems(spec, game_slug=game_slug)
        if problems:
            return _refused(request, *problems[0])
    try:
        limits.collection_room_check(owner=request.user, specs=specs)
        collection_add(owner=request.user, specs=specs)
    except errors.CollectionError as exc:
        return _refused(request, exc.field, str(exc.message))
    return None


def _spec_fields(form: AddForm) -> dict[str, Any]:
    data = form.cleaned_data
    return {
        "condition": data["condition"],
        "finish": data["finish"],
        "language": data["language"],
        "binder": data.get("binder", "").strip(),
    }


@login_required
@require_POST
def add_printing(request: HttpRequest) -> HttpResponse:
    printing = (
        Printing.objects.select_related("card__game")
        .filter(listed("card__"), pk=request.POST.get("printing", "0") or 0)
        .first()
        if request.POST.get("printing", "").isdigit()
        else None
    )
    if printing is None:
        return _refused(request, "printing", _("Choose a printing of the card."))
    form = AddForm(request.POST, game_slug=printing.card.game.slug)
    if not form.is_valid():
        return _refused(request, *_first_error(form))
    spec = ItemSpec(
        printing_id=printing.pk, quantity=form.cleaned_data["quantity"], **_spec_fields(form)
    )
    refused = _add(request, printing.card.game.slug, [spec])
    if refused:
        return refused
    messages.success(
        request,
        _("%(count)d × %(printing)s added to your collection.")
        % {"count": spec.quantity, "printing": printing},
    )
    return _back(request, printing.card.get_absolute_url())


@login_required
@require_POST
def add_product(request: HttpRequest, game: str, code: str) -> HttpResponse:
    product = Product.objects.select_related("game").filter(game__slug=game, code=code).first()
    if product is None:
        raise Http404
    form = AddForm(request.POST, game_slug=game)
    form.fields["quantity"].required = False
    if not form.is_valid():
        return _refused(request, *_first_error(form))
    try:
        specs = [
            ItemSpec(
                printing_id=s.printing_id,
                quantity=s.quantity * (form.cleaned_data["quantity"] or 1),
                **_spec_fields(form),
            )
            for s in product_specs(product=product)
        ]
    except errors.CollectionError as exc:
        return _refused(request, exc.field, str(exc.message))
    refused = _add(request, game, specs)
    if refused:
        return refused
    messages.success(
        request,
        _("The contents of %(product)s (%(count)d cards) were added to your collection.")
        % {"product": product.name, "count": sum(s.quantity for s in specs)},
    )
    return _back(request, product.get_absolute_url())


@login_required
@require_POST
def add_set(request: HttpRequest, game: str, code: str) -> HttpResponse:
    card_set = CardSet.objects.select_related("game").filter(game__slug=game, code=code).first()
    if card_set is None:
        raise Http404
    form = AddForm(request.POST, game_slug=game)
    if not form.is_valid():
        return _refused(request, *_first_error(form))
    specs = [
        ItemSpec(
            printing_id=s.printing_id, quantity=form.cleaned_data["quantity"], **_spec_fields(form)
        )
        for s in set_specs(card_set=card_set)
    ]
    refused = _add(request, game, specs)
    if refused:
        return refused
    messages.success(
        request,
        _("%(count)d cards of %(set)s were added to your collection.")
        % {"count": sum(s.quantity for s in specs), "set": card_set.name},
    )
    return _back(request, card_set.get_absolute_url())


# --- changing in place -------------------------------------------------------------------------


def _my_item(request: HttpRequest, item_id: int) -> CollectionItem:
    item = (
        CollectionItem.objects.select_related("printing__card__game", "printing__card_set")
        .filter(pk=item_id, owner_id=request.user.pk)
        .first()
    )
    if item is None:
        raise Http404
    return item


@login_required
@require_POST
def item_quantity(request: HttpRequest, item_id: int) -> HttpResponse:
    """htmx: each change saved at once; answers the row (empty when the item is gone)."""
    item = _my_item(request, item_id)
    form = QuantityForm(request.POST)
    if not form.is_valid():
        return _refused(request, *_first_error(form))
    try:
        changed = collection_item_set_quantity(item=item, quantity=form.cleaned_data["quantity"])
    except errors.CollectionError as exc:
        return _refused(request, exc.field, str(exc.message))
    if changed is None:
        return HttpResponse("")
    if not _is_htmx(request):
        return _back(request, reverse("collection:index"))
    return render(request, "collection/_item_row.html", {"item": _my_item(request, item_id)})


@login_required
@require_POST
def item_move(request: HttpRequest, item_id: int) -> HttpResponse:
    item = _my_item(request, item_id)
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _refused(request, *_first_error(form))
    try:
        collection_item_move(item=item, quantity=item.quantity, binder=form.cleaned_data["binder"])
    except errors.CollectionError as exc:
        return _refused(request, exc.field, str(exc.message))
    return _back(request, reverse("collection:game", args=[item.printing.card.game.slug]))


# --- imports and exports -----------------------------------------------------------------------


def _games() -> list[tuple[str, str]]:
    return [(g.slug, g.name) for g in Game.objects.all()]


@login_required
def import_page(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        form = ImportForm(games=_games(), initial={"game": request.GET.get("game")})
        return render(request, "collection/import.html", {"form": form})
    form = ImportForm(request.POST, request.FILES, games=_games())
    if not form.is_valid():
        return render(request, "collection/import.html", {"form": form}, status=400)
    upload = form.cleaned_data.get("file")
    typed = form.cleaned_data.get("typed", "")
    try:
        content = decode(upload.read()) if upload else (typed or form.cleaned_data["text"])
    except ValueError as exc:
        form.add_error("file", str(exc))
        return render(request, "collection/import.html", {"form": form}, status=400)
    game = _game_or_404(form.cleaned_data["game"])
    mapping = _posted_mapping(request)
    dialect_code = "list" if typed else form.cleaned_data.get("format", "")
    # the limits of an import (collection/limits.py): how many an hour, how many rows
    too_long = limits.import_rows_problem(content)
    if too_long:
        form.add_error(None, too_long)
        return render(request, "collection/import.html", {"form": form}, status=400)
    throttled = limits.import_started(user=request.user)
    if throttled:
        form.add_error(None, throttled)
        return render(request, "collection/import.html", {"form": form}, status=429)
    if limits.text_rows(content) - 1 > limits.job_threshold():
        # a big file is read by a worker: its page shows the progress, then the preview (a
        # mapping given with it is remembered first, so the worker reads the file with it)
        if mapping:
            collection_import_remember_mapping(owner=request.user, content=content, mapping=mapping)
        job = collection_job_submit(
            owner=request.user,
            kind=CollectionJob.Kind.PREVIEW,
            content=content,
            params={
                "game": game.slug,
                "format": dialect_code,
                "file_name": upload.name[:255] if upload else "",
            },
        )
        return redirect("collection:job", job.pk)
    preview = collection_import_preview(
        owner=request.user,
        content=content,
        game=game,
        dialect_code=dialect_code,
        file_name=upload.name if upload else "",
        mapping=mapping,
    )
    status = 200 if preview.batch else 400
    context = {
        "form": form,
        "preview": preview,
        "rows": _preview_rows(preview, game.slug),
        "content": content,
        "mapping_choices": [("", _("(not read)"))]
        + [(name, str(label)) for name, label in MAPPABLE_LABELS.items()],
        "columns": _mapping_columns(preview, mapping),
    }
    return render(request, "collection/import.html", context, status=status)


def _posted_mapping(request: HttpRequest) -> dict[str, int]:
    """The mapping step's answer: ``map-<column index>`` = our field (empty: not read)."""
    mapping: dict[str, int] = {}
    for name in request.POST:
        index, value = name.removeprefix("map-"), request.POST.get(name, "")
        if name.startswith("map-") and index.isascii() and index.isdigit() and value:
            mapping[value[:40]] = int(index[:6])
    return mapping


def _mapping_columns(preview: Preview, mapping: dict[str, int]) -> list[tuple[int, str, str]]:
    """Each column of a header to map: its index, its header and the field chosen for it."""
    result = preview.result
    if not result.needs_mapping:
        return []
    chosen = {index: name for name, index in (mapping or result.mapping).items()}
    if not chosen:
        chosen = {index: name for name, index in generic_columns(result.header).items()}
    return [(i, cell, chosen.get(i, "")) for i, cell in enumerate(result.header[:60])]


def _preview_rows(preview: Preview, game_slug: str) -> list[dict[str, Any]]:
    """The preview's first items with labels, not codes, in the page's language."""
    shown = preview.plan[:200]
    printings = {
        p.pk: p
        for p in Printing.objects.filter(pk__in=[o.spec.printing_id for o in shown]).select_related(
            "card", "card_set"
        )
    }
    return [
        {
            "printing": printings[o.spec.printing_id],
            "outcome": o,
            "condition": Condition(o.spec.condition).label,
            "finish": finish_label(game_slug, o.spec.finish),
            "language": language_label(o.spec.language),
        }
        for o in shown
    ]


@require_safe
def formats_page(request: HttpRequest) -> HttpResponse:
    """Every collection file format read: its header, what it carries, the column names a
    typed spreadsheet may use, and the mapping step (linked from the import page and from
    the refusal of a header that is not known)."""
    formats = [
        {
            "dialect": d,
            "header": ",".join(d.header),
            "carries": [str(MAPPABLE_LABELS[f]) for f in MAPPABLE_LABELS if d.carries(f)],
            "conditions": sorted(set(d.conditions_out.values())),
        }
        for d in DIALECTS
    ]
    names = [(MAPPABLE_LABELS[f], ", ".join(GENERIC_NAMES[f])) for f in GENERIC_NAMES]
    return render(request, "collection/formats.html", {"formats": formats, "names": names})


def _my_batch(request: HttpRequest, batch_id: int) -> ImportBatch:
    # its text (up to 16 MB) is read only where it is needed: a big one by the worker
    mine = ImportBatch.objects.defer("content").filter(owner_id=request.user.pk)
    batch = mine.filter(pk=batch_id).first()
    if batch is None:
        raise Http404
    return batch


@login_required
@require_POST
def import_commit(request: HttpRequest, batch_id: int) -> HttpResponse:
    batch = _my_batch(request, batch_id)
    if batch.row_count > limits.job_threshold():
        job = collection_job_submit(owner=request.user, kind=CollectionJob.Kind.COMMIT, batch=batch)
        return redirect("collection:job", job.pk)
    try:
        collection_import_commit_batch(batch=batch)
    except CollectionImportError as exc:
        messages.error(request, f"{errors.IMPORT_REFUSED} {exc.problems[0]}")
    except errors.CollectionError as exc:
        messages.error(request, str(exc.message))
    else:
        messages.success(
            request,
            _("Imported %(copies)d copies in %(rows)d items. You can undo this import below.")
            % {"copies": batch.copy_count, "rows": batch.row_count},
        )
    return redirect("collection:index")


@login_required
@require_POST
def import_undo(request: HttpRequest, batch_id: int) -> HttpResponse:
    batch = _my_batch(request, batch_id)
    if batch.row_count > limits.job_threshold():
        job = collection_job_submit(owner=request.user, kind=CollectionJob.Kind.UNDO, batch=batch)
        return redirect("collection:job", job.pk)
    try:
        collection_import_undo(batch=batch)
    except errors.CollectionError as exc:
        messages.error(request, str(exc.message))
    else:
        messages.success(request, _("The import was undone."))
    return redirect("collection:index")


@login_required
@require_safe
def export(request: HttpRequest) -> HttpResponse:
    code = request.GET.get("format", "decklab")
    dialect = dialect_or_none(code)
    if dialect is None:
        return _refused(request, "format", _("Choose one of the formats."))
    slug = request.GET.get("game", "")
    game = _game_or_404(slug) if slug else None
    items = CollectionItem.objects.filter(owner_id=request.user.pk)
    if game is not None:
        # the set each item carries: a count of the game's items joins none to its printing
        items = items.filter(card_set__game=game)
    count = items.count()
    if count > limits.job_threshold():
        # a big export is written by a worker (a POST starts it): nothing is read here
        context = {"dialect": dialect, "formats": EXPORT_CHOICES, "game": game, "count": count}
        return render(request, "collection/export.html", context)
    exported = collection_export(owner=request.user, dialect=dialect, game=game)
    if request.GET.get("download") != "1":
        context = {
            "exported": exported,
            "dialect": dialect,
            "formats": EXPORT_CHOICES,
            "game": game,
        }
        return render(request, "collection/export.html", context)
    response = HttpResponse(exported.content, content_type="text/csv; charset=utf-8")
    name = f"collection-{code}{'-' + slug if slug else ''}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_POST
def settings(request: HttpRequest) -> HttpResponse:
    """Who sees the collection: ``private``, ``trades`` (public: the trade list) or ``cards``
    (public: every card and quantity too)."""
    choice = request.POST.get("visibility", "")
    if choice not in VISIBILITIES:
        return _refused(request, "visibility", _("Choose who sees your collection."))
    collection_settings_update(
        owner=request.user, is_public=choice != "private", shows_all_cards=choice == "cards"
    )
    return redirect("collection:index")


# --- wishlist ----------------------------------------------------------------------------------


@login_required
@require_safe
def wishlist_page(request: HttpRequest) -> HttpResponse:
    wishes = wishlist(owner=request.user)
    if request.GET.get("download") == "1":
        response = HttpResponse(export_wishlist(wishes), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="wishlist.csv"'
        return response
    page = Paginator(wishes, ITEMS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "collection/wishlist.html", {"wishes": page.object_list, "page": page})


@login_required
@require_POST
def wish_quantity(request: HttpRequest, wish_id: int) -> HttpResponse:
    wish = WishlistItem.objects.filter(pk=wish_id, owner_id=request.user.pk).first()
    if wish is None:
        raise Http404
    form = WishQuantityForm(request.POST)
    if not form.is_valid():
        return _refused(request, *_first_error(form))
    wishlist_set_quantity(wish=wish, quantity=form.cleaned_data["quantity"])
    return _back(request, reverse("collection:wishlist"))


# --- decks -------------------------------------------------------------------------------------


@login_required
@require_POST
def deck_wish_missing(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = deck_get_for_viewer(public_id=public_id, user=request.user)
    added = wishlist_add_missing(owner=request.user, deck=deck)
    messages.success(
        request, _("%(count)d missing copies were added to your wishlist.") % {"count": added}
    )
    return _back(request, deck.get_absolute_url())


@login_required
@require_POST
def deck_build(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = deck_get_for_owner(public_id=public_id, user=request.user)
    try:
        if request.POST.get("built") == "0":
            deck_unmark_built(deck=deck, user=request.user)
            messages.success(request, _("The deck is no longer marked as built."))
        else:
            deck_mark_built(deck=deck, user=request.user)
            messages.success(request, _("The deck is marked as built: its copies are reserved."))
    except errors.CollectionError as exc:
        messages.error(request, str(exc.message))
    return _back(request, deck.get_absolute_url())


@require_safe
def player_trades(request: HttpRequest, username: str) -> HttpResponse:
    """What a player offers for trade: shown to others only when the player made the
    collection public (404 otherwise, whether or not the player exists)."""
    owner, read_only = collection_owner_for(viewer=request.user, username=username)
    # a page at a time: a player may offer any number of items
    page = Paginator(trade_list(owner=owner), ITEMS_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "player": owner,
        "items": page.object_list,
        "page": page,
        "is_self": not read_only,
        "shows_all_cards": collection_shows_all_cards(owner=owner),
    }
    return render(request, "collection/trades.html", context)


@require_safe
def player_cards(request: HttpRequest, username: str) -> HttpResponse:
    """Every card of a public collection and how many, when the player chose to show them
    (404 otherwise); only the public fields, a page at a time."""
    owner, read_only = collection_owner_for(viewer=request.user, username=username)
    if read_only and not collection_shows_all_cards(owner=owner):
        raise Http404
    items = collection_public_items(owner=owner, filters={"sort": "name"}, all_cards=True)
    page = Paginator(items, ITEMS_PER_PAGE).get_page(request.GET.get("page"))
    context = {"player": owner, "items": page.object_list, "page": page, "is_self": not read_only}
    return render(request, "collection/player_cards.html", context)
