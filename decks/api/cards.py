"""Card references in API deck lists: a card by its code, optionally pinned to a printing.

A card of the deck's game is named by its code (``MTD-001``); a card of another game is named
``<game slug>/<code>`` (``other-game/CODE-1``): saving such a card is refused (400), the
validation endpoint reports it as the legality checker's ``foreign-card`` problem. Only cards the
caller may see are found (the public catalog plus their own custom cards).

A whole list resolves in a fixed number of queries, whatever its length: the deck game's cards,
the other games' cards, then the printings of the pinned cards (plus one for suggestions when a
code is unknown).
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils import translation
from django.utils.functional import lazy
from rest_framework.exceptions import ValidationError

from catalog.models import Card, Game, Printing
from catalog.search import name_key
from catalog.spec import get_game, is_game
from decks.api import errors
from decks.game_rules import deck_rules
from decks.specs import EntrySpec

LANGUAGES = ("en", "ja")
MAX_SUGGESTIONS = 3
MAX_SUGGESTED = 50  # unknown codes that get a "did you mean" (difflib is slow on big games)


@dataclass(frozen=True)
class Say:
    """A message to render later, in the request's language or in each language."""

    template: Any  # a lazy gettext string
    params: Mapping[str, Any] = field(default_factory=dict)
    suggestions: tuple[str, ...] = ()

    def render(self, language: str | None = None) -> str:
        if language is not None:
            with translation.override(language):
                return self.render()
        text = str(self.template) % dict(self.params) if self.params else str(self.template)
        if self.suggestions:
            names = ", ".join(f"“{s}”" for s in self.suggestions)
            text += " " + str(errors.DID_YOU_MEAN) % {"names": names}
        return text

    def both(self) -> dict[str, str]:
        return {language: self.render(language) for language in LANGUAGES}


@dataclass
class Resolved:
    """One entry of a posted list, with what it names or why it names nothing."""

    index: int
    ref: str
    zone: str
    quantity: int
    card: Card | None = None
    printing: Printing | None = None
    #: the card named is of another game (``card`` is set, and refused when saving)
    foreign: bool = False
    card_error: Say | None = None
    printing_error: Say | None = None


def split_ref(ref: str) -> tuple[str | None, str]:
    """``"code"`` → (None, code); ``"game/code"`` → (game, code)."""
    slug, sep, code = ref.strip().partition("/")
    return (slug, code) if sep else (None, slug)


def visible(user: Any) -> Q:
    mine = Q(owner__isnull=True)
    if user is not None and getattr(user, "is_authenticated", False):
        mine |= Q(owner=user)
    return mine


class _Suggester:
    """Codes close to an unknown one, by code or name: one query per game, however many."""

    def __init__(self, user: Any) -> None:
        self.user = user
        self.keys: dict[int, dict[str, str]] = {}
        self.asked = 0

    def _keys(self, game: Game) -> dict[str, str]:
        if game.pk not in self.keys:
            by_key: dict[str, str] = {}
            # a withdrawn card stays resolvable in a deck list sent back, never suggested
            rows = Card.objects.filter(game=game, withdrawn_at__isnull=True).filter(
                visible(self.user)
            )
            for code, name_en, name_ja in rows.values_list("code", "name_en", "name_ja"):
                by_key.setdefault(code.casefold(), code)
                for name in (name_en, name_ja):
                    if name:
                        by_key.setdefault(name_key(name), f"{code} ({name})")
            self.keys[game.pk] = by_key
        return self.keys[game.pk]

    def __call__(self, game: Game, text: str) -> tuple[str, ...]:
        self.asked += 1
        if self.asked > MAX_SUGGESTED:
            return ()
        by_key = self._keys(game)
        close = difflib.get_close_matches(
            name_key(text), list(by_key), n=MAX_SUGGESTIONS, cutoff=0.6
        )
        return tuple(dict.fromkeys(by_key[k] for k in close))


def pin_text(pin: Mapping[str, Any]) -> str:
    variant = pin.get("variant")
    parts = [f"({pin.get('set')})", pin.get("number") or "", f"[{variant}]" if variant else ""]
    return " ".join(str(p) for p in parts if p)


def printing_text(printing: Printing) -> str:
    return pin_text(
        {
            "set": printing.card_set.code,
            "number": printing.collector_number,
            "variant": printing.variant,
        }
    )


def pick_printing(printings: Sequence[Printing], pin: Mapping[str, Any]) -> list[Printing]:
    """The printings a pin names; without a number or variant the plain one is meant."""
    set_code = str(pin.get("set") or "").casefold()
    number, variant = pin.get("number"), pin.get("variant")
    found = [
        p
        for p in printings
        if p.card_set.code.casefold() == set_code
        and (number is None or p.collector_number.casefold() == str(number).casefold())
        and (variant is None or p.variant == variant)
    ]
    if len(found) > 1 and variant is None:
        found = [p for p in found if not p.variant] or found
    if len(found) > 1 and number is None:
        found = [p for p in found if not p.collector_number] or found
    return found


def resolve_entries(
    *, game: Game, user: Any, entries: Sequence[Mapping[str, Any]]
) -> list[Resolved]:
    """What each entry names ({card, zone, quantity, printing?}), in a fixed number of queries."""
    resolved = [
        Resolved(index=i, ref=str(e["card"]), zone=str(e["zone"]), quantity=int(e["quantity"]))
        for i, e in enumerate(entries)
    ]
    own_codes: set[str] = set()
    foreign: dict[str, set[str]] = defaultdict(set)
    for item in resolved:
        slug, code = split_ref(item.ref)
        if slug is None or slug == game.slug:
            own_codes.add(code)
        else:
            foreign[slug].add(code)

    cards: dict[tuple[str, str], Card] = {}
    for card in Card.objects.filter(game=game, code__in=own_codes).filter(visible(user)):
        card.game = game  # the caller's Game: no query per card for card.game later
        cards[(game.slug, card.code)] = card
    if foreign:
        wanted = Q()
        for slug, codes in foreign.items():
            wanted |= Q(game__slug=slug, code__in=codes)
        for card in Card.objects.filter(wanted).filter(visible(user)).select_related("game"):
            cards[(card.game.slug, card.code)] = card

    suggest = _Suggester(user)
    games: dict[str, Game | None] = {game.slug: game}
    for item in resolved:
        slug, code = split_ref(item.ref)
        slug = slug or game.slug
        item.card = cards.get((slug, code))
        if item.card is not None:
            item.foreign = slug != game.slug
            continue
        if slug not in games:
            games[slug] = Game.objects.filter(slug=slug).first() if is_game(slug) else None
        named_game = games[slug]
        if named_game is None:
            item.card_error = Say(errors.UNKNOWN_FOREIGN_GAME, {"slug": slug})
        else:
            item.card_error = Say(
                errors.UNKNOWN_CARD,
                {"game": _game_name(named_game.slug), "code": code},
                suggest(named_game, code),
            )

    _resolve_printings(resolved, entries)
    return resolved


def _resolve_printings(resolved: list[Resolved], entries: Sequence[Mapping[str, Any]]) -> None:
    pinned = [r for r in resolved if r.card is not None and entries[r.index].get("printing")]
    if not pinned:
        return
    printings: dict[int, list[Printing]] = defaultdict(list)
    found = Printing.objects.filter(card__in={r.card.pk for r in pinned if r.card}).select_related(
        "card_set"
    )
    for printing in found.order_by("card_set__code", "collector_number", "variant", "pk"):
        printings[printing.card_id].append(printing)
    for item in pinned:
        assert item.card is not None
        pin = entries[item.index]["printing"]
        matches = pick_printing(printings[item.card.pk], pin)
        if len(matches) == 1:
            item.printing = matches[0]
            continue
        known = ", ".join(printing_text(p) for p in printings[item.card.pk][:8]) or "—"
        item.printing_error = Say(
            errors.UNKNOWN_PRINTING,
            {"card": item.card.name_en or item.card.name_ja, "pin": pin_text(pin), "known": known},
        )


def _in_language(slug: str) -> str:
    spec = get_game(slug)
    japanese = (translation.get_language() or "en").startswith("ja")
    return spec.name_ja if japanese and spec.name_ja else spec.name_en


def _zones_in_language(rules: Any) -> str:
    return ", ".join(str(z.label) for z in rules.zones)


# Messages are rendered later in each language (Say.both): names chosen when rendered, not now
_game_name = lazy(_in_language, str)
_zone_names = lazy(_zones_in_language, str)


def _zone_error(game: Game, zone: str) -> Say | None:
    rules = deck_rules(game.slug)
    if rules.zone(zone) is not None:
        return None
    return Say(
        errors.UNKNOWN_ZONE,
        {
            "game": _game_name(game.slug),
            "zone": zone,
            "zones": _zone_names(rules),
        },
    )


def _entry_errors(game: Game, item: Resolved) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    if item.card_error is not None:
        found["card"] = [item.card_error.render()]
    elif item.foreign and item.card is not None:
        found["card"] = [
            str(errors.FOREIGN_CARD)
            % {
                "code": item.ref,
                "game": _game_name(item.card.game.slug),
                "deck_game": _game_name(game.slug),
            }
        ]
    zone_error = _zone_error(game, item.zone)
    if zone_error is not None:
        found["zone"] = [zone_error.render()]
    if item.printing_error is not None:
        found["printing"] = [item.printing_error.render()]
    return found


def entry_specs(
    *, game: Game, user: Any, entries: Sequence[Mapping[str, Any]], field_name: str = "entries"
) -> list[EntrySpec]:
    """Entries to save, or a 400 naming each bad entry's fields.

    The errors take the shape DRF 3.18 gives a list's own errors (its default
    ``LIST_SERIALIZER_ERRORS_AS_DICT``): the bad entries by index, ``{"entries": {"2":
    {"card": ["…"]}}}``, so a client reads every 400 about entries the same way.
    """
    resolved = resolve_entries(game=game, user=user, entries=entries)
    problems = {item.index: _entry_errors(game, item) for item in resolved}
    bad = {str(index): found for index, found in problems.items() if found}
    if bad:
        raise ValidationError({field_name: bad})
    return [
        EntrySpec(item.card, item.zone, item.quantity, item.printing)
        for item in resolved
        if item.card is not None
    ]


def entry_spec(*, game: Game, user: Any, entry: Mapping[str, Any]) -> EntrySpec:
    """One entry to save (the entries endpoint), or a 400 naming its bad fields."""
    (item,) = resolve_entries(game=game, user=user, entries=[entry])
    problems = _entry_errors(game, item)
    if problems:
        raise ValidationError(problems)
    assert item.card is not None
    return EntrySpec(item.card, item.zone, item.quantity, item.printing)


def zone_error(game: Game, zone: str) -> str | None:
    found = _zone_error(game, zone)
    return found.render() if found else None
