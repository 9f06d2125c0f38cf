"""The DeckLab text format (docs/deck-format.md): a plain list players paste and share.

Reading never stops at the first bad line: every line that cannot be read becomes a
``LineProblem`` with its number and, where a catalog name is close, a "did you mean". Cards
are looked up in a fixed number of queries (all the game's visible cards at once, then the
printings of the cards whose printing is pinned), never one query per line.

Writing is the inverse: ``export_deck_text`` gives a list that reads back into exactly the
same deck (zones, quantities, pinned printings, rules variant, extras and name).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import models
from django.db.models import F, Q, QuerySet
from django.utils import translation

from catalog.models import Card, Game, Printing
from catalog.search import name_key, normalise
from catalog.spec import all_games, get_game
from decks.extras import ExtraError, extra_of, extras_of
from decks.game_rules import DeckRules, deck_rules
from decks.imports import errors
from decks.imports.errors import LineProblem
from decks.models import MAX_ENTRIES, MAX_QUANTITY, Deck
from decks.selectors import deck_entries
from decks.specs import EntrySpec
from games import registry

MAX_BYTES = 100 * 1024
MAX_LINE = 300
MAX_SUGGESTED = 50  # "did you mean" for this many unknown names, then none (difflib is slow)
DECK_NAME_MAX = Deck._meta.get_field("name").max_length or 120
LANGUAGES = ("en", "ja")

# Words players use for "the deck itself", in both languages; they name the game's deck zone.
DECK_ALIASES = ("deck", "main", "main deck", "maindeck", "デッキ", "メイン", "メインデッキ", "山札")

META_KEYS = {
    "name": "name",
    "デッキ名": "name",
    "名前": "name",
    "game": "game",
    "ゲーム": "game",
    "rules": "rules",
    "variant": "rules",
    "ルール": "rules",
}

_ENTRY = re.compile(r"^(?P<qty>\d+)[x×]?\s+(?P<rest>\S.*)$", re.IGNORECASE)
_QUANTITY_LIKE = re.compile(r"^(?:[-+]?[\d.,]+[x×]?|[x×][\d.,]*|\d\S*)$", re.IGNORECASE)
_META = re.compile(r"^(?P<key>[^\s:：]+)\s*[:：]\s*(?P<value>.*)$")
_VARIANT = re.compile(r"^(?P<head>.*?)\s*\[(?P<variant>[^\[\]]*)\]$")
_CODE_PIN = re.compile(r"^\((?P<set>[^()\s]+)\)(?:\s+(?P<number>[^\s()\[\]]+))?$")
_GREEDY_PIN = re.compile(r"^(?P<name>.+)\s+\((?P<set>[^()\s]+)\)(?:\s+(?P<number>[^\s()\[\]]+))?$")
_CODE = re.compile(r"^#(?P<code>[-\w]+)(?:\s+(?P<pin>\S.*))?$")
_COUNT_SUFFIX = re.compile(r"\s*\(\d+\)$")
_BREAKS = re.compile(r"[\r\n\t]+")


def _loose(text: str) -> str:
    """Zones and keywords are also compared without spaces, hyphens and middle dots."""
    return re.sub(r"[\s\-_・･]+", "", normalise(text))


_META_KEYS = {_loose(key): meaning for key, meaning in META_KEYS.items()}


def _extra_keys() -> dict[str, str]:
    """Every game's extras' line names (a line of another game's extra is reported as such,
    not as an unreadable line)."""
    return {
        _loose(name): extra.key
        for slug in registry.slugs()
        for extra in extras_of(slug)
        for name in extra.text_keys
    }


def _quoted(names: Iterable[str]) -> str:
    return ", ".join(f"“{n}”" for n in names)


def did_you_mean(word: str, known: dict[str, str], *, cutoff: float = 0.6) -> str:
    """A translated " Did you mean …?" naming the displays of the keys closest to ``word``."""
    close = difflib.get_close_matches(word, list(known), n=3, cutoff=cutoff)
    names = list(dict.fromkeys(known[k] for k in close))
    return " " + str(errors.DID_YOU_MEAN % {"names": _quoted(names)}) if names else ""


def visible_cards(*, game: Game, user: Any = None) -> QuerySet[Card]:
    """The public catalog plus the user's own cards (custom cards of others stay hidden)."""
    mine = Q(owner__isnull=True)
    if user is not None and getattr(user, "is_authenticated", False):
        mine |= Q(owner=user)
    # a card withdrawn from the catalog is not found again (decks that hold it keep it)
    return Card.objects.filter(game=game, withdrawn_at__isnull=True).filter(mine)


class CardIndex:
    """A game's cards as one player sees them, by name (either language) and by code."""

    def __init__(self, game: Game, user: Any = None) -> None:
        self.game = game
        cards = visible_cards(game=game, user=user).order_by(F("owner").asc(nulls_first=True), "pk")
        self.by_name: dict[str, list[Card]] = defaultdict(list)
        self.by_code: dict[str, Card] = {}
        self.by_folded_code: dict[str, list[Card]] = defaultdict(list)
        self.display: dict[str, str] = {}
        for card in cards:
            self.by_code[card.code] = card
            self.by_folded_code[card.code.casefold()].append(card)
            # a card whose two names fold to one key is still one card under it
            names = {name_key(n): n for n in (card.name_ja, card.name_en) if n}
            for key, name in names.items():
                self.by_name[key].append(card)
                self.display.setdefault(key, name)
        self._printings: dict[int, list[Printing]] = {}

    def named(self, text: str) -> list[Card]:
        return list(self.by_name.get(name_key(text), ()))

    def coded(self, code: str) -> Card | None:
        found = self.by_code.get(code)
        if found is None and len(self.by_folded_code.get(code.casefold(), ())) == 1:
            found = self.by_folded_code[code.casefold()][0]
        return found

    def suggest(self, text: str) -> str:
        return did_you_mean(name_key(text), self.display)

    def load_printings(self, cards: Iterable[Card]) -> None:
        """Fetch the printings of these cards (one query for all that are not loaded yet)."""
        wanted = {c.pk for c in cards} - set(self._printings)
        if not wanted:
            return
        for pk in wanted:
            self._printings[pk] = []
        found = Printing.objects.filter(card_id__in=wanted).select_related("card_set")
        for printing in found.order_by("card_set__code", "collector_number", "variant", "pk"):
            self._printings[printing.card_id].append(printing)

    def printings(self, card: Card) -> list[Printing]:
        self.load_printings([card])
        return self._printings[card.pk]


@dataclass
class ParsedDeck:
    """A read deck list: entries ready for the deck services, or the problems that stop it."""

    entries: list[EntrySpec] = field(default_factory=list)
    name: str = ""
    variant: str = ""
    extras: dict[str, Any] = field(default_factory=dict)
    problems: list[LineProblem] = field(default_factory=list)
    #: unsaved rows the entries point at (a player's custom set, cards, printings) in the order
    #: they must be saved; the import service saves them in the deck's own transaction
    new_rows: list[models.Model] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class _Pin:
    set_code: str | None = None
    number: str | None = None
    variant: str | None = None

    @property
    def given(self) -> bool:
        return (self.set_code, self.number, self.variant) != (None, None, None)

    def __str__(self) -> str:
        parts = [f"({self.set_code})" if self.set_code else "", self.number or ""]
        parts.append(f"[{self.variant}]" if self.variant else "")
        return " ".join(p for p in parts if p)


def printing_pin(printing: Printing) -> str:
    """How a printing is written after a card: ``(SET) NUMBER [variant]``."""
    return str(_Pin(printing.card_set.code, printing.collector_number or None, printing.variant))


def pick_printings(printings: Sequence[Printing], pin: _Pin) -> list[Printing]:
    """The printings a pin names. Without a variant the plain printing is meant when there is
    one; without a number, the one printed without a number."""
    found = [
        p
        for p in printings
        if (pin.set_code is None or p.card_set.code.casefold() == pin.set_code.casefold())
        and (pin.number is None or p.collector_number.casefold() == pin.number.casefold())
        and (pin.variant is None or p.variant == pin.variant)
    ]
    if len(found) > 1 and pin.variant is None:
        found = [p for p in found if not p.variant] or found
    if len(found) > 1 and pin.number is None:
        found = [p for p in found if not p.collector_number] or found
    return found


class Zones:
    """A game's zones by every name a player may use for them: the shared words for the deck,
    each zone's code, its label in both languages and the aliases the game declares on it."""

    def __init__(self, rules: DeckRules) -> None:
        self.rules = rules
        self.names: dict[str, str] = {}
        home = rules.deck_zones[0] if rules.deck_zones else rules.zones[0]
        for alias in DECK_ALIASES:
            self.names[_loose(alias)] = home.code
        for zone in rules.zones:
            for name in (zone.code, *_labels(zone.label), *zone.aliases):
                self.names[_loose(name)] = zone.code

    def find(self, text: str) -> str | None:
        return self.names.get(_loose(text))

    def listing(self) -> str:
        """The zones by their labels in the reader's language (codes are accepted too)."""
        return ", ".join(str(z.label) for z in self.rules.zones)

    def suggest(self, text: str) -> str:
        return did_you_mean(_loose(text), self.names, cutoff=0.7)


def _game_name(spec: Any) -> str:
    """The game's name in the reader's language, for messages."""
    japanese = (translation.get_language() or "en").startswith("ja")
    return str(spec.name_ja if japanese and spec.name_ja else spec.name_en)


def _labels(label: Any) -> list[str]:
    found = []
    for language in LANGUAGES:
        with translation.override(language):
            found.append(str(label))
    return found


def _game(game: Game | str) -> Game:
    return game if isinstance(game, Game) else Game.objects.get(slug=game)


# --- reading -----------------------------------------------------------------------------------


@dataclass
class _Line:
    number: int
    text: str
    quantity: int
    zone: str | None  # None: the card's home zone (no header above it yet)
    cards: list[Card]
    pin: _Pin
    label: str  # what the line called the card, for messages


class _Reader:
    def __init__(self, game: Game, user: Any, parsed: ParsedDeck) -> None:
        self.game = game
        self.spec = get_game(game.slug)
        self.rules = deck_rules(game.slug)
        self.zones = Zones(self.rules)
        self.index = CardIndex(game, user)
        self.parsed = parsed
        self.zone: str | None = None
        self.zone_known = True
        self.lines: list[_Line] = []
        self.entry_lines = 0
        self.meta_lines: dict[str, int] = {}
        self.suggestions = 0
        self.wrong_game = False

    def problem(self, number: int, text: str, message: Any, code: str) -> None:
        self.parsed.problems.append(LineProblem(number, text[:MAX_LINE], str(message), code))

    def suggest(self, text: str, *, code: bool = False) -> str:
        self.suggestions += 1
        if self.suggestions > MAX_SUGGESTED:
            return ""
        if code:
            return did_you_mean(text, {c: f"#{c}" for c in self.index.by_code})
        return self.index.suggest(text)

    # one line

    def read(self, text: str) -> None:
        for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
            line = unicodedata.normalize("NFKC", raw).strip()
            if not line or (line.startswith(("#", "//")) and not line.startswith("##")):
                continue
            if len(line) > MAX_LINE:
                self.problem(number, raw, errors.LINE_TOO_LONG % {"max": MAX_LINE}, "line-length")
            elif entry := _ENTRY.match(line):
                self.entry(number, raw, int(entry["qty"]), entry["rest"])
            elif not self.meta(number, raw):
                self.header_or_unreadable(number, raw, line)
        if self.wrong_game:
            self.parsed.problems = [p for p in self.parsed.problems if p.code == "game"]
            return
        self.resolve()

    def meta(self, number: int, raw: str) -> bool:
        # the raw line: a deck's name keeps its full-width letters
        found = _META.match(raw.strip())
        key = _META_KEYS.get(_loose(found["key"])) if found else None
        if found is not None and key is None:
            key = _extra_keys().get(_loose(found["key"]))
        if found is None or key is None:
            return False
        value = found["value"].strip()
        if key != "name":
            value = unicodedata.normalize("NFKC", value)
        if key in self.meta_lines:
            first = self.meta_lines[key]
            self.problem(number, raw, errors.REPEATED_META % {"key": key, "first": first}, "meta")
            return True
        self.meta_lines[key] = number
        if key == "name":
            self.deck_name(number, raw, value)
        elif key == "game":
            self.game_line(number, raw, value)
        elif key == "rules":
            self.rules_line(number, raw, value)
        else:
            self.extra_line(number, raw, key, value)
        return True

    def deck_name(self, number: int, raw: str, value: str) -> None:
        if not value:
            self.problem(number, raw, errors.EMPTY_DECK_NAME, "name")
        elif len(value) > DECK_NAME_MAX:
            self.problem(number, raw, errors.NAME_TOO_LONG % {"max": DECK_NAME_MAX}, "name")
        else:
            self.parsed.name = value

    def game_line(self, number: int, raw: str, value: str) -> None:
        names = {}
        for spec in all_games():
            for name in (spec.slug, spec.name_en, spec.name_ja):
                names[_loose(name)] = spec.slug
        slug = names.get(_loose(value))
        if slug is None:
            message = errors.UNKNOWN_GAME % {"text": value}
            self.problem(number, raw, str(message) + did_you_mean(_loose(value), names), "game")
        elif slug != self.game.slug:
            listed = _game_name(get_game(slug))
            message = errors.WRONG_GAME % {"listed": listed, "game": _game_name(self.spec)}
            self.problem(number, raw, message, "game")
            # every card line would be reported against the wrong game: only this one is
            self.wrong_game = True

    def rules_line(self, number: int, raw: str, value: str) -> None:
        if not self.rules.variants:
            self.problem(
                number, raw, errors.NO_RULES_VARIANTS % {"game": _game_name(self.spec)}, "rules"
            )
            return
        names = {}
        for variant in self.rules.variants:
            for name in (variant.code, *_labels(variant.label)):
                names[_loose(name)] = variant.code
        code = names.get(_loose(value))
        if code is None:
            known = ", ".join(v.code for v in self.rules.variants)
            message = errors.UNKNOWN_RULES % {
                "text": value,
                "game": _game_name(self.spec),
                "known": known,
            }
            self.problem(number, raw, message, "rules")
        else:
            self.parsed.variant = code

    def extra_line(self, number: int, raw: str, key: str, value: str) -> None:
        """A deck extra's line (``counters: 5x10``), read by the game's extra of that key."""
        extra = extra_of(self.game.slug, key)
        if extra is None:
            message = errors.NO_SUCH_EXTRA % {"game": _game_name(self.spec), "key": key}
            self.problem(number, raw, message, key)
            return
        try:
            self.parsed.extras[extra.key] = extra.parse_text(value)
        except ExtraError as exc:
            self.problem(number, raw, str(exc.message), extra.key)

    def header_or_unreadable(self, number: int, raw: str, line: str) -> None:
        explicit = line.startswith("##") or line.endswith(":")
        name = _COUNT_SUFFIX.sub("", line.lstrip("#").rstrip(":").strip())
        zone = self.zones.find(name)
        if zone is not None:
            self.zone, self.zone_known = zone, True
            return
        words = line.split()
        if not explicit and len(words) == 1 and _QUANTITY_LIKE.match(line):
            self.problem(number, raw, errors.EMPTY_NAME, "card")
            return
        if (
            not explicit
            and len(words) > 1
            and (_QUANTITY_LIKE.match(words[0]) or self.resolvable(line.split(None, 1)[1]))
        ):
            message = errors.BAD_QUANTITY % {"quantity": words[0]}
            self.problem(number, raw, message, "quantity")
            return
        if not explicit and self.resolvable(line):
            message = errors.MISSING_QUANTITY % {"name": line}
            self.problem(number, raw, message, "quantity")
            return
        if explicit or len(words) <= 3:
            self.zone, self.zone_known = None, False
            game, zones = _game_name(self.spec), self.zones.listing()
            message = str(errors.NOT_A_ZONE % {"text": name, "game": game, "zones": zones})
            self.problem(number, raw, message + self.zones.suggest(name), "zone")
        else:
            message = errors.NOT_A_LINE % {"zones": self.zones.listing()}
            self.problem(number, raw, message, "unreadable")

    def resolvable(self, rest: str) -> bool:
        rest = rest.strip()
        if rest.startswith("#"):
            found = _CODE.match(rest)
            return bool(found and self.index.coded(found["code"]))
        return bool(self.index.named(rest))

    def entry(self, number: int, raw: str, quantity: int, rest: str) -> None:
        self.entry_lines += 1
        if self.entry_lines == MAX_ENTRIES + 1:
            self.problem(number, raw, errors.TOO_MANY_LINES % {"max": MAX_ENTRIES}, "lines")
        if self.entry_lines > MAX_ENTRIES:
            return
        if not 1 <= quantity <= MAX_QUANTITY:
            self.problem(number, raw, errors.BAD_QUANTITY % {"quantity": quantity}, "quantity")
            return
        pin = _Pin()
        found_variant = _VARIANT.match(rest)
        if found_variant:
            rest = found_variant["head"]
            variant = self.variant(number, raw, found_variant["variant"])
            if variant is None:
                return
            pin.variant = variant
        cards, label = self.cards(number, raw, rest, pin)
        if cards is None:
            return
        if not self.zone_known:
            return  # the header above was reported; its cards have nowhere to go
        self.lines.append(_Line(number, raw, quantity, self.zone, cards, pin, label))

    def variant(self, number: int, raw: str, text: str) -> str | None:
        variants = self.spec.variants
        if not variants:
            self.problem(
                number, raw, errors.NO_VARIANTS % {"game": _game_name(self.spec)}, "variant"
            )
            return None
        names = {}
        for code, label in variants:
            for name in (code, *_labels(label)):
                names[_loose(name)] = code
        found = names.get(_loose(text))
        if found is None:
            known = ", ".join(code for code, _label in variants)
            message = errors.UNKNOWN_VARIANT % {
                "variant": text,
                "game": _game_name(self.spec),
                "known": known,
            }
            self.problem(number, raw, str(message) + did_you_mean(_loose(text), names), "variant")
        return found

    def cards(self, number: int, raw: str, rest: str, pin: _Pin) -> tuple[list[Card] | None, str]:
        """The cards a line's text names (several when a name is shared), filling ``pin``."""
        rest = rest.strip()
        if rest.startswith("#"):
            return self.coded(number, raw, rest, pin)
        if not rest:
            self.problem(number, raw, errors.EMPTY_NAME, "card")
            return None, ""
        cards = self.index.named(rest)
        name = rest
        if not cards and (split := _GREEDY_PIN.match(rest)):
            name = split["name"]
            cards = self.index.named(name)
            if cards:
                pin.set_code, pin.number = split["set"], split["number"]
        if not cards:
            message = errors.UNKNOWN_CARD % {"name": name, "game": _game_name(self.spec)}
            self.problem(number, raw, str(message) + self.suggest(name), "unknown-card")
            return None, name
        return cards, name

    def coded(self, number: int, raw: str, rest: str, pin: _Pin) -> tuple[list[Card] | None, str]:
        found = _CODE.match(rest)
        card = self.index.coded(found["code"]) if found else None
        if found is None or card is None:
            code = found["code"] if found else rest.lstrip("#")
            message = errors.UNKNOWN_CODE % {"code": code, "game": _game_name(self.spec)}
            self.problem(number, raw, str(message) + self.suggest(code, code=True), "unknown-card")
            return None, rest
        if found["pin"]:
            split = _CODE_PIN.match(found["pin"])
            if split is None:
                message = errors.UNKNOWN_CARD % {"name": rest, "game": _game_name(self.spec)}
                self.problem(number, raw, message, "unknown-card")
                return None, rest
            pin.set_code, pin.number = split["set"], split["number"]
        return [card], card.name_en or card.name_ja or card.code

    # every line read: printings, zones, merging

    def resolve(self) -> None:
        self.index.load_printings(c for ln in self.lines if ln.pin.given for c in ln.cards)
        # identical lines are one entry (the services merge too, but the sum must be checked
        # here to name the line that goes over 99)
        merged: dict[tuple[str, int, int | None], EntrySpec] = {}
        first_line: dict[tuple[str, int, int | None], int] = {}
        for line in self.lines:
            chosen = self.choose(line)
            if chosen is None:
                continue
            card, printing = chosen
            zone = line.zone or self.home_zone(card)
            key = (zone, card.pk, printing.pk if printing else None)
            before = merged.get(key)
            total = line.quantity + (before.quantity if before else 0)
            if total > MAX_QUANTITY:
                message = errors.OVER_99 % {"first": first_line[key], "total": total}
                self.problem(line.number, line.text, message, "quantity")
                continue
            first_line.setdefault(key, line.number)
            merged[key] = EntrySpec(card, zone, total, printing)
        self.parsed.entries = list(merged.values())
        self.parsed.problems.sort(key=lambda p: p.line)

    def home_zone(self, card: Card) -> str:
        # Before any header, a card goes where its type belongs (a hero to the hero zone),
        # so a list without headers still reads; the first zone takes anything else.
        home = self.rules.home_zone(card.card_type)
        return (home or self.rules.zones[0]).code

    def choose(self, line: _Line) -> tuple[Card, Printing | None] | None:
        cards = line.cards
        if len(cards) > 1 and line.pin.given:
            cards = [
                c for c in cards if len(pick_printings(self.index.printings(c), line.pin)) == 1
            ]
        if len(cards) != 1:
            codes = _quoted(f"#{c.code}" for c in (cards or line.cards))
            message = errors.AMBIGUOUS_NAME % {"name": line.label, "codes": codes}
            self.problem(line.number, line.text, message, "ambiguous-card")
            return None
        card = cards[0]
        if not line.pin.given:
            return card, None
        printings = self.index.printings(card)
        found = pick_printings(printings, line.pin)
        if len(found) == 1:
            return card, found[0]
        name = card.name_en or card.name_ja
        if found:
            message = errors.AMBIGUOUS_PRINTING % {
                "card": name,
                "count": len(found),
                "pin": str(line.pin),
            }
        else:
            known = ", ".join(printing_pin(p) for p in printings[:8]) or "—"
            known += ", …" if len(printings) > 8 else ""
            message = errors.NO_PRINTING % {"card": name, "pin": str(line.pin), "known": known}
        self.problem(line.number, line.text, message, "printing")
        return None


def parse_deck_text(text: str, *, game: Game | str, user: Any = None) -> ParsedDeck:
    """Read a deck list in the DeckLab text format against the cards ``user`` can see."""
    parsed = ParsedDeck()
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        message = errors.TOO_LONG % {"max": MAX_BYTES // 1024}
        parsed.problems.append(LineProblem(0, "", str(message), "size"))
        return parsed
    _Reader(_game(game), user, parsed).read(text)
    return parsed


# --- writing -----------------------------------------------------------------------------------


def _shared_names(game: Game, viewer: Any) -> Counter[str]:
    """How many visible cards answer to each name: a shared name is written as its code."""
    counts: Counter[str] = Counter()
    rows = visible_cards(game=game, user=viewer).values_list("name_en", "name_ja")
    for name_en, name_ja in rows:
        counts.update({name_key(n) for n in (name_en, name_ja) if n})
    return counts


#: the languages a list's card names are written in (``names``); reading takes either
NAME_LANGUAGES = ("en", "ja")


def names_language(language: str | None) -> str:
    """The names' language for an interface language ("ja-jp" -> "ja"; anything else "en")."""
    return "ja" if (language or "").lower().startswith("ja") else "en"


def _card_ref(card: Card, shared: Counter[str], names: str = "en") -> str:
    name = (card.name_ja or card.name_en) if names == "ja" else (card.name_en or card.name_ja)
    plain = (
        name
        and name == name.strip()
        and shared[name_key(name)] == 1
        and not name.startswith(("#", "//"))
        and not name.endswith("]")
    )
    return name if plain else f"#{card.code}"


def export_entries_text(
    *,
    game: Game,
    entries: Iterable[EntrySpec],
    name: str = "",
    variant: str = "",
    extras: dict[str, Any] | None = None,
    viewer: Any = None,
    names: str = "en",
) -> str:
    """A deck list of these entries (printings with ``card_set`` loaded) and deck fields, its
    cards named in ``names`` (en or ja; a card without a name there keeps the other)."""
    rules = deck_rules(game.slug)
    shared = _shared_names(game, viewer)
    lines = []
    if name:
        lines.append(f"name: {_BREAKS.sub(' ', name).strip()}")
    lines.append(f"game: {game.slug}")
    if rules.variants and variant:
        lines.append(f"rules: {variant}")
    for extra in extras_of(game.slug):
        value = (extras or {}).get(extra.key)
        if value is not None:
            lines.append(f"{extra.text_keys[0]}: {extra.to_text(value)}".rstrip())
    by_zone: dict[str, list[EntrySpec]] = defaultdict(list)
    for entry in entries:
        by_zone[entry.zone].append(entry)
    order = [z.code for z in rules.zones] + sorted(set(by_zone) - {z.code for z in rules.zones})
    for zone in order:
        if not by_zone.get(zone):
            continue
        lines.extend(("", f"## {zone}"))
        for entry in by_zone[zone]:
            pin = f" {printing_pin(entry.printing)}" if entry.printing else ""
            lines.append(f"{entry.quantity} {_card_ref(entry.card, shared, names)}{pin}")
    return "\n".join(lines) + "\n"


def export_deck_text(deck: Deck, names: str = "en") -> str:
    """The deck as a DeckLab text list that reads back into exactly this deck (its cards
    named in ``names``: en or ja)."""
    entries = [EntrySpec(e.card, e.zone, e.quantity, e.printing) for e in deck_entries(deck=deck)]
    return export_entries_text(
        game=deck.game,
        entries=entries,
        name=deck.name,
        variant=deck.variant,
        extras=deck.extras,
        viewer=deck.owner,
        names=names,
    )
