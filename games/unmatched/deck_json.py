"""Unmatched decks as unmatched.cards deck JSON (``hero``, ``sidekick``, ``cards[]``).

Reading goes through the catalog's own parser of that shape (catalog/importers/unmatched.py),
so a deck file means the same facts whether staff load it into the catalog or a player
imports it as a deck. Each card is then matched by its title against the cards the player can
see, and only counts as the same card when its facts agree (type, value; hit points and
movement for a character; fighter and boost for its printing). A card of a fan-made deck
that matches nothing becomes the player's own card: unsaved here, saved by the import service
in the deck's transaction, never shown in the public catalog.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_lazy as _

from catalog.attributes import AttributeErrors
from catalog.importers.bundle import CardRow, ImportProblem, ProductItemRow, release_text
from catalog.models import Card, CardSet, Game, Printing
from catalog.spec import get_game
from decks.imports import errors
from decks.imports.errors import LineProblem
from decks.imports.text import DECK_NAME_MAX, CardIndex, ParsedDeck
from decks.models import MAX_QUANTITY, Deck
from decks.selectors import deck_entries
from decks.specs import EntrySpec
from games.unmatched import GAME
from games.unmatched.catalog_format import (
    bundle_from_unmatched_deck,
    code_for,
    looks_like_unmatched_deck,
)
from games.unmatched.deck_shapes import normalise
from games.unmatched.rules import ANY_FIGHTER

GAME_SLUG = GAME.slug
ORIGIN = "deck"
CUSTOM_SET_KIND = "box"
CUSTOM_SOURCE = "A player's own card, imported from an unmatched.cards deck JSON"
TITLE_MAX = 200
NOT_A_DECK = _("This is not an unmatched.cards deck: it needs “hero” and “cards”.")
EMPTY_TEXTS = ("imageUrl", "basicText", "immediateText", "duringText", "afterText")

# Where each attribute of ours comes from in the deck JSON, to point problems at the JSON.
_HERO_PATHS = {
    "hp": "hero.hp",
    "move": "hero.move",
    "ranged": "hero.isRanged",
    "hero_count": "hero.quantity",
    "sidekick": "sidekick.name",
    "sidekick_hp": "sidekick.hp",
    "sidekick_move": "sidekick.move",
    "sidekick_ranged": "sidekick.isRanged",
    "sidekick_count": "sidekick.quantity",
}
_CARD_KEYS = {"fighter": "characterName"}


def _path(where: str) -> str:
    """A bundle problem's place without the origin label: ``cards[3].value``."""
    return where.removeprefix(ORIGIN).removeprefix(": ")


def _from_bundle(problem: ImportProblem) -> LineProblem:
    return LineProblem(0, _path(problem.where), problem.message, "json")


_CARD_PATH = re.compile(r"^cards\[(\d+)\]")


def _named(problem: LineProblem, data: dict[str, Any]) -> LineProblem:
    """A problem at ``cards[3].value`` names the card there, so the player sees which one."""
    found = _CARD_PATH.match(problem.text)
    cards = data.get("cards")
    if found is None or not isinstance(cards, list) or int(found[1]) >= len(cards):
        return problem
    card = cards[int(found[1])]
    title = card.get("title") if isinstance(card, dict) else None
    if not isinstance(title, str) or not title.strip():
        return problem
    message = errors.ABOUT_CARD % {"card": title.strip()[:80], "message": problem.message}
    return LineProblem(problem.line, problem.text, str(message), problem.code)


def _same_facts(ours: dict[str, Any], theirs: dict[str, Any]) -> bool:
    """Every fact the deck gives agrees with the card's (names compared case-insensitively)."""

    def fold(value: Any) -> Any:
        return value.casefold() if isinstance(value, str) else value

    return all(fold(ours.get(key)) == fold(value) for key, value in theirs.items())


class _Matcher:
    def __init__(self, game: Game, user: Any, data: dict[str, Any], parsed: ParsedDeck) -> None:
        self.game = game
        self.user = user
        self.data = data
        self.parsed = parsed
        self.spec = get_game(GAME_SLUG)
        self.index = CardIndex(game, user)
        self.card_set: CardSet | None = None
        self.taken_codes: set[str] | None = None
        self.hero_number = ""

    def problem(self, path: str, message: Any, code: str) -> None:
        self.parsed.problems.append(LineProblem(0, path, str(message), code))

    def attributes(self, row: CardRow) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The card's and its printing's attributes, checked by the game's schemas."""
        path = _path(row.where)
        failed = False
        try:
            card = self.spec.validate_card_attributes(row.card_type, row.attributes)
        except AttributeErrors as exc:
            failed = True
            for key, messages in exc.errors.items():
                where = _HERO_PATHS.get(key, key) if row.card_type == "character" else key
                where = where if "." in where else f"{path}.{where}"
                self.problem(where, " ".join(messages), "attribute")
            card = {}
        try:
            printing = self.spec.validate_printing_attributes(
                row.printings[0].attributes, row.card_type
            )
        except AttributeErrors as exc:
            failed = True
            for key, messages in exc.errors.items():
                self.problem(f"{path}.{_CARD_KEYS.get(key, key)}", " ".join(messages), "attribute")
            printing = {}
        if len(row.name_en) > TITLE_MAX:
            failed = True
            self.problem(f"{path}.title", errors.TITLE_TOO_LONG % {"max": TITLE_MAX}, "title")
        return None if failed else (card, printing)

    def run(self, rows: dict[str, CardRow], items: list[ProductItemRow], name: str) -> None:
        checked = {code: self.attributes(row) for code, row in rows.items()}
        candidates: dict[str, list[Card]] = {}
        for code, row in rows.items():
            facts = checked[code]
            candidates[code] = [
                card
                for card in self.index.named(row.name_en)
                if facts is not None
                and card.card_type == row.card_type
                and _same_facts(card.attributes, facts[0])
            ]
        # one query for the printings of every card a title could mean
        self.index.load_printings(c for cards in candidates.values() for c in cards)
        for item in items:
            row, facts = rows[item.card_code], checked[item.card_code]
            if not 1 <= item.quantity <= MAX_QUANTITY:
                message = errors.BAD_QUANTITY % {"quantity": item.quantity}
                self.problem(f"{_path(item.where)}.quantity", message, "quantity")
            if facts is None:
                continue
            found = self.match(candidates[item.card_code], row, item, facts[1])
            if found is None:
                found = self.custom(row, facts, name)
            if found is not None:
                if item.zone == "hero" and found[1].collector_number:
                    # the hero's own deck: the printing its cards default to (a file with no id)
                    self.hero_number = found[1].collector_number
                self.parsed.entries.append(EntrySpec(found[0], item.zone, item.quantity, found[1]))

    def match(
        self, cards: list[Card], row: CardRow, item: ProductItemRow, printing: dict[str, Any]
    ) -> tuple[Card, Printing] | None:
        """The first card with a printing of the same facts, preferring the deck's own."""
        for card in cards:
            same = [
                p
                for p in self.index.printings(card)
                if not p.variant and _same_facts(p.attributes, printing)
            ]
            exact = [
                p
                for p in same
                if (p.card_set.code, p.collector_number) == (item.set_code, item.collector_number)
            ]
            # the same deck id in another set: the hero deck reprinted
            near = [p for p in same if p.collector_number == item.collector_number]
            home = [p for p in same if p.collector_number == self.hero_number]
            if same:
                return card, (exact or near or home or same)[0]
        return None

    # a fan-made deck's own cards

    def custom(
        self, row: CardRow, facts: tuple[dict[str, Any], dict[str, Any]], name: str
    ) -> tuple[Card, Printing] | None:
        if not getattr(self.user, "is_authenticated", False):
            if not any(p.code == "account" for p in self.parsed.problems):
                self.problem(_path(row.where), errors.CUSTOM_NEEDS_ACCOUNT, "account")
            return None
        card_set = self.custom_set(name)
        card = Card(
            game=self.game,
            code=self.new_code(row),
            card_type=row.card_type,
            name_en=row.name_en,
            attributes=facts[0],
            owner=self.user,
            source=CUSTOM_SOURCE,
        )
        printing = Printing(
            card=card,
            card_set=card_set,
            collector_number=self.deck_number(name),
            attributes=facts[1],
        )
        self.parsed.new_rows.extend((card, printing))
        return card, printing

    def deck_number(self, name: str) -> str:
        raw = self.data.get("id")
        deck_id = str(raw).strip() if isinstance(raw, str | int) and str(raw).strip() else ""
        return code_for(deck_id or name)[:40]

    def custom_set(self, name: str) -> CardSet:
        """The player's set for this deck (``custom-<user id>-<deck>``), new or from before."""
        if self.card_set is not None:
            return self.card_set
        base = f"custom-{self.user.pk}-{code_for(name)}"[:74]
        existing = dict(
            CardSet.objects.filter(game=self.game, code__startswith=base).values_list(
                "code", "owner_id"
            )
        )
        code, n = base, 1
        while code in existing and existing[code] != self.user.pk:
            n += 1
            code = f"{base}-{n}"
        found = CardSet.objects.filter(game=self.game, code=code).first()
        if found is None:
            set_name = str(self.data.get("set") or "").strip() or f"{name} (custom deck)"
            found = CardSet(
                game=self.game,
                code=code,
                name_en=set_name[:200],
                kind=CUSTOM_SET_KIND,
                owner=self.user,
                source=CUSTOM_SOURCE,
            )
            self.parsed.new_rows.append(found)
        self.card_set = found
        return found

    def new_code(self, row: CardRow) -> str:
        """``u<user id>-<title>``: a namespace no catalog code uses, numbered if taken."""
        prefix = f"u{self.user.pk}-"
        if self.taken_codes is None:
            self.taken_codes = set(
                Card.objects.filter(game=self.game, code__startswith=prefix).values_list(
                    "code", flat=True
                )
            )
        kind = "character-" if row.card_type == "character" else ""
        base = f"{prefix}{kind}{code_for(row.name_en)}"[:110]
        code, n = base, 1
        while code in self.taken_codes:
            n += 1
            code = f"{base}-{n}"
        self.taken_codes.add(code)
        return code


def recognises(data: Any) -> bool:
    """Whether decoded JSON is an unmatched.cards deck, in any of the shapes players' files take."""
    return looks_like_unmatched_deck(normalise(data))


def parse_unmatched_json(data: Any, *, user: Any) -> ParsedDeck:
    """Read an unmatched.cards deck against the cards ``user`` can see; titles that match no
    card become ``user``'s own cards (in ``new_rows``, unsaved)."""
    parsed = ParsedDeck()
    data = normalise(data)  # the spellings and wrappers of other builders' files
    if not looks_like_unmatched_deck(data):
        parsed.problems.append(LineProblem(0, "", str(NOT_A_DECK), "json"))
        return parsed
    bundle = bundle_from_unmatched_deck(data, ORIGIN)
    parsed.problems.extend(_named(_from_bundle(p), data) for p in bundle.problems)
    if parsed.problems or not bundle.products:
        return parsed
    product = bundle.products[0]
    parsed.name = product.name_en
    if len(parsed.name) > DECK_NAME_MAX:
        message = errors.NAME_TOO_LONG % {"max": DECK_NAME_MAX}
        parsed.problems.append(LineProblem(0, "name", str(message), "name"))
    matcher = _Matcher(Game.objects.get(slug=GAME_SLUG), user, data, parsed)
    matcher.run({row.code: row for row in bundle.cards}, product.items, parsed.name)
    if parsed.problems:
        parsed.entries, parsed.new_rows = [], []
    return parsed


# --- writing -----------------------------------------------------------------------------------


def _first_printings(cards: list[Card]) -> dict[int, Printing]:
    """Each card's first printing (for the fighter and boost of an entry with none pinned)."""
    first: dict[int, Printing] = {}
    found = Printing.objects.filter(card__in=cards).select_related("card_set").order_by("pk")
    for printing in found:
        first.setdefault(printing.card_id, printing)
    return first


def _hero(card: Card) -> tuple[dict[str, Any], dict[str, Any] | None]:
    facts = card.attributes
    hero = {
        "name": card.name_en or card.name_ja,
        "hp": facts.get("hp"),
        "move": facts.get("move"),
        "isRanged": facts.get("ranged"),
        "specialAbility": "",
        "quantity": facts.get("hero_count", 1),
    }
    if not facts.get("sidekick"):
        return hero, None
    sidekick = {
        "name": facts["sidekick"],
        "hp": facts.get("sidekick_hp"),
        "move": facts.get("sidekick_move"),
        "isRanged": facts.get("sidekick_ranged"),
        "quantity": facts.get("sidekick_count"),
        "quote": "",
    }
    return hero, sidekick


def export_unmatched_json(deck: Deck) -> dict[str, Any]:
    """The deck as unmatched.cards deck JSON: facts only, every text left empty (DeckLab keeps
    no card prose)."""
    if deck.game.slug != GAME_SLUG:
        raise ValueError("only Unmatched decks are written as unmatched.cards deck JSON")
    entries = deck_entries(deck=deck)
    unpinned = [e.card for e in entries if e.printing is None]
    first = _first_printings(unpinned) if unpinned else {}
    heroes = [e for e in entries if e.zone == "hero"]
    hero_printing = (heroes[0].printing or first.get(heroes[0].card_id)) if heroes else None
    out: dict[str, Any] = {
        "id": hero_printing.collector_number if hero_printing else code_for(deck.name),
        "version": 1,
        "name": deck.name,
    }
    if hero_printing is not None:
        card_set = hero_printing.card_set
        out["set"] = card_set.name_en or card_set.name_ja
        released = release_text(card_set.release_date, card_set.release_precision)
        if released:
            out["released"] = released
    out["hero"], out["sidekick"] = _hero(heroes[0].card) if heroes else ({}, None)
    # one line per card: the same card pinned to two printings is one line of the JSON
    lines: dict[int, dict[str, Any]] = {}
    for entry in entries:
        if entry.zone != "deck":
            continue
        if entry.card_id in lines:
            lines[entry.card_id]["quantity"] += entry.quantity
            continue
        printing = entry.printing or first.get(entry.card_id)
        facts = printing.attributes if printing else {}
        fighter = str(facts.get("fighter", ANY_FIGHTER))
        lines[entry.card_id] = {
            "title": entry.card.name_en or entry.card.name_ja,
            "type": entry.card.card_type,
            "characterName": "Any" if fighter.casefold() == ANY_FIGHTER else fighter,
            "value": entry.card.attributes.get("value"),
            "boost": facts.get("boost"),
            "quantity": entry.quantity,
            **dict.fromkeys(EMPTY_TEXTS, ""),
        }
    out["cards"] = list(lines.values())
    return out
