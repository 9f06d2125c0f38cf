"""A deck's history: its revisions, the difference between two, and restoring one."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from decks import errors
from decks.errors import DeckError, StaleDeckError
from decks.extras import extra_of
from decks.forms import DiffForm, version_from_post
from decks.game_rules import DeckRules, deck_rules
from decks.models import Deck, DeckRevision
from decks.selectors import deck_revisions
from decks.services import deck_restore
from decks.snapshots import EntryChange, diff_snapshots
from decks.views.access import get_deck_for_user, is_owner

REVISIONS_PER_PAGE = 50
FIELD_LABELS = {
    "name": gettext_lazy("Name"),
    "description": gettext_lazy("Description"),
    "visibility": gettext_lazy("Visibility"),
    "variant": gettext_lazy("Rules variant"),
    "extras": gettext_lazy("Game extras"),
}


@require_safe
def history(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = get_deck_for_user(request, public_id)
    page = Paginator(deck_revisions(deck=deck), REVISIONS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    rules = deck_rules(deck.game.slug)
    for revision in page:  # the page keeps these objects for the template
        revision.shown_summary = revision_summary(revision, rules)  # type: ignore[attr-defined]
    context = {"deck": deck, "page": page, "is_owner": is_owner(request, deck)}
    return render(request, "decks/history.html", context)


SUMMARY_MAX = 300


def revision_summary(revision: DeckRevision, rules: DeckRules) -> str:
    """What the revision changed, in the reader's language ("+2 フェイント, 名前"), from the
    changes it stores as data; a revision stored before those has only its English line."""
    changes = revision.changes if isinstance(revision.changes, dict) else {}
    if not changes:
        if revision.summary == "created":
            return _("created")
        return revision.summary or "—"
    japanese = (get_language() or "en").startswith("ja")
    parts = []
    for entry in changes.get("entries", []):
        names = (entry.get("name_ja"), entry.get("name_en"))
        name = next((n for n in (names if japanese else names[::-1]) if n), entry.get("card"))
        delta = int(entry.get("delta", 0))
        parts.append(f"{'+' if delta > 0 else '−'}{abs(delta)} {name}")
    fields = changes.get("fields", {})
    for name, values in fields.items():
        if name == "extras":
            old, new = values.get("before") or {}, values.get("after") or {}
            for key in sorted(set(old) | set(new)):
                if old.get(key) != new.get(key):
                    extra = extra_of(rules.game, key)
                    parts.append(str(extra.label) if extra else key)
            continue
        parts.append(str(FIELD_LABELS.get(name, name)))
    text = "、".join(parts) if japanese else ", ".join(parts)
    return text if len(text) <= SUMMARY_MAX else text[: SUMMARY_MAX - 1] + "…"


@dataclass(frozen=True)
class ChangeRow:
    change: EntryChange
    name: str

    @property
    def kind(self) -> str:
        if self.change.before == 0:
            return "added"
        if self.change.after == 0:
            return "removed"
        return "changed"


@dataclass(frozen=True)
class ZoneChanges:
    label: str
    rows: list[ChangeRow]


@dataclass(frozen=True)
class FieldChange:
    name: str
    label: str
    before: str
    after: str


def _shown(name: str, value: Any, rules: DeckRules) -> str:
    """A field's value as players read it: labels rather than codes, lists as lists."""
    if value in (None, ""):
        return "—"
    if name == "visibility" and value in Deck.Visibility.values:
        return str(Deck.Visibility(value).label)
    if name == "variant":
        return rules.variant_label(value)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "—"
    return str(value)


def _field_changes(fields: dict[str, tuple[Any, Any]], rules: DeckRules) -> list[FieldChange]:
    rows = []
    for name, (before, after) in fields.items():
        if name == "extras":
            # one row per extra, labelled and shown by the game's extra, not a dictionary
            old, new = before or {}, after or {}
            for key in sorted(set(old) | set(new)):
                if old.get(key) != new.get(key):
                    extra = extra_of(rules.game, key)
                    if extra is None:
                        was, now = (
                            _shown(key, old.get(key), rules),
                            _shown(key, new.get(key), rules),
                        )
                        rows.append(FieldChange(key, key, was, now))
                    else:
                        was, now = extra.shown(old.get(key)), extra.shown(new.get(key))
                        rows.append(FieldChange(key, str(extra.label), was, now))
            continue
        label = str(FIELD_LABELS.get(name, name))
        rows.append(
            FieldChange(name, label, _shown(name, before, rules), _shown(name, after, rules))
        )
    return rows


def _zone_changes(game: str, changes: list[EntryChange]) -> list[ZoneChanges]:
    rules = deck_rules(game)
    japanese = (get_language() or "en").startswith("ja")
    by_zone: dict[str, list[ChangeRow]] = defaultdict(list)
    for change in changes:
        name = (
            (change.name_ja or change.name_en) if japanese else (change.name_en or change.name_ja)
        )
        by_zone[change.zone].append(ChangeRow(change, name or change.card))
    order = [z.code for z in rules.zones] + sorted(set(by_zone) - {z.code for z in rules.zones})
    return [ZoneChanges(rules.zone_label(code), by_zone[code]) for code in order if by_zone[code]]


def _bad_request(request: HttpRequest, deck: Any, message: Any) -> HttpResponse:
    context = {"deck": deck, "message": str(message)}
    return render(request, "decks/problem.html", context, status=400)


@require_safe
def diff(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = get_deck_for_user(request, public_id)
    form = DiffForm(request.GET)
    if not form.is_valid():
        return _bad_request(request, deck, next(iter(form.errors.values()))[0])
    numbers = sorted({form.cleaned_data["a"], form.cleaned_data["b"]})
    found = {
        r.number: r
        for r in DeckRevision.objects.filter(deck=deck, number__in=numbers).select_related("author")
    }
    if len(found) != len(numbers):
        raise Http404
    older, newer = found[numbers[0]], found[numbers[-1]]
    changes = diff_snapshots(older.snapshot, newer.snapshot)
    fields = _field_changes(changes.fields, deck_rules(deck.game.slug))
    context = {
        "deck": deck,
        "older": older,
        "newer": newer,
        "zones": _zone_changes(deck.game.slug, changes.entries),
        "fields": fields,
        "is_empty": changes.is_empty,
        "is_owner": is_owner(request, deck),
    }
    return render(request, "decks/diff.html", context)


@login_required
@require_POST
def restore(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    deck = get_deck_for_user(request, public_id, owner=True)
    revision = DeckRevision.objects.filter(deck=deck, number=number).first()
    if revision is None:
        raise Http404
    try:
        deck_restore(
            deck=deck,
            user=request.user,
            expected_version=version_from_post(request.POST),
            revision=revision,
        )
    except StaleDeckError:
        context = {"deck": deck, "message": str(errors.STALE_DECK), "stale": True}
        return render(request, "decks/problem.html", context, status=409)
    except DeckError as exc:
        return _bad_request(request, deck, exc.message)
    messages.success(
        request, _("Revision %(number)d is back, as a new revision.") % {"number": number}
    )
    return redirect("decks:detail", deck.public_id)
