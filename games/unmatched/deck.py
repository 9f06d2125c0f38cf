"""Unmatched deck construction: shared/rules/unmatched.md lines 16-19 (and 5-7, 12)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from decks.game_rules import DeckRules, Stat, Zone
from decks.legality.facts import DeckFacts
from decks.legality.problems import Cite, Problem, Severity, Text
from decks.legality.rules import ExactlyOneOfType, ZoneSize
from games.official import official_product
from games.unmatched import GAME
from games.unmatched.official import OFFICIAL_KEY, SIDEKICK_KEY
from games.unmatched.rules import ANY_FIGHTER, fighter_names, is_ours, may_use, sidekick_options

DIGEST = "unmatched.md"
FIGHTERS = Cite(DIGEST, 18)
SIDEKICK = Cite(DIGEST, 6)
OFFICIAL = Cite(DIGEST, 16)


def fighters_can_use(deck: DeckFacts, rules: DeckRules) -> list[Problem]:
    """Line 18: each card usable by the deck's hero, its sidekick(s) or any fighter. A card
    printed in the character's own hero deck is usable whatever its fighter is called there."""
    heroes = deck.in_zone("hero")
    if len(heroes) != 1:
        return []  # the hero rule reports it; fighters cannot be judged without one
    character = heroes[0].card
    sidekick = str(character.attributes.get("sidekick") or "")
    chosen = str(deck.extras.get(SIDEKICK_KEY) or "")
    left_out: list[str] = []
    if chosen and chosen in sidekick_options(sidekick):
        # the sidekick not chosen is not in the game (Buffy's Giles or Xander): its cards
        # leave the deck even though they are printed in the hero's own deck
        left_out = [o for o in sidekick_options(sidekick) if o != chosen]
        sidekick = chosen
    names = fighter_names(character.name_en, sidekick, character.code)
    # the names as printed, for the message (the code's spelling only helps matching)
    shown = fighter_names(character.name_en, sidekick)
    own_decks = {p.number for p in character.printings if p.number}
    problems = []
    for entry in deck.in_zone("deck"):
        printings = (entry.printing,) if entry.printing else entry.card.printings
        fighters = sorted({str(p.attributes.get("fighter", "")) for p in printings} - {""})
        if not fighters:
            continue  # a card with no fighter printed has nothing to check
        in_own_deck = any(p.number in own_decks for p in printings)
        not_chosen = left_out and all(
            may_use(f, left_out) and not may_use(f, names) for f in fighters
        )
        if not not_chosen and is_ours(fighters, names, in_own_deck=in_own_deck):
            continue
        problems.append(
            Problem(
                code="fighter",
                severity=Severity.ERROR,
                cite=FIGHTERS,
                message=Text(
                    _(
                        "%(card)s can be played only by %(fighters)s; this deck's "
                        "fighters are %(names)s."
                    ),
                    {"fighters": " / ".join(fighters), "names": ", ".join(shown)},
                    {"card": entry.card},
                ),
                fix=Text(
                    _("Remove %(n)d × %(card)s."), {"n": entry.quantity}, {"card": entry.card}
                ),
                cards=(entry.card,),
                zone="deck",
                expected=shown,
                actual=fighters,
            )
        )
    return problems


def sidekick_chosen(deck: DeckFacts, rules: DeckRules) -> list[Problem]:
    """Line 6: a hero whose sidekick is "Giles or Xander" plays with one of them. A choice
    the hero does not offer is an error; no choice while the deck holds cards of several
    alternatives is an error too (the other checks cannot know whose cards leave)."""
    heroes = deck.in_zone("hero")
    if len(heroes) != 1:
        return []
    character = heroes[0].card
    options = sidekick_options(str(character.attributes.get("sidekick") or ""))
    chosen = str(deck.extras.get(SIDEKICK_KEY) or "")
    if len(options) < 2 and not chosen:
        return []
    if chosen and chosen not in options:
        return [
            Problem(
                code="sidekick-choice",
                severity=Severity.ERROR,
                cite=SIDEKICK,
                message=Text(
                    _("%(card)s's sidekick cannot be %(chosen)s."),
                    {"chosen": chosen},
                    {"card": character},
                ),
                fix=Text(_("Choose one of: %(options)s."), {"options": " / ".join(options)}),
                cards=(character,),
                zone="hero",
                expected=options,
                actual=chosen,
            )
        ]
    if chosen:
        return []
    printed = {
        str(p.attributes.get("fighter", ""))
        for e in deck.in_zone("deck")
        for p in ((e.printing,) if e.printing else e.card.printings)
    }
    used = [o for o in options if any(f and f != ANY_FIGHTER and may_use(f, [o]) for f in printed)]
    if len(used) < 2:
        return []
    return [
        Problem(
            code="sidekick-choice",
            severity=Severity.ERROR,
            cite=SIDEKICK,
            message=Text(
                _(
                    "%(card)s plays with one sidekick of %(options)s, and this deck holds "
                    "cards of each."
                ),
                {"options": " / ".join(options)},
                {"card": character},
            ),
            fix=Text(
                _("Choose the sidekick in the editor, then remove the other one's cards."),
            ),
            cards=(character,),
            zone="hero",
            expected=options,
            actual=used,
        )
    ]


@dataclass(frozen=True)
class ActionDeckSize:
    """Line 16: exactly 30 action cards, except a deck still holding an official product's
    list where our source lists another number: a warning carrying the data note (and its
    source) instead of an error asking the player to add cards the box has."""

    size: ZoneSize

    @property
    def cite(self) -> Cite:
        return self.size.cite

    def check(self, deck: DeckFacts, rules: DeckRules) -> list[Problem]:
        code = str(deck.extras.get(OFFICIAL_KEY) or "")
        product = official_product(GAME.slug, code) if code else None
        heroes = deck.in_zone("hero")
        actual = deck.count(self.size.zone)
        if (
            product is None
            or product.listed is None
            or actual != product.listed
            or len(heroes) != 1
            or heroes[0].card.code != product.hero
        ):
            return self.size.check(deck, rules)
        return [
            Problem(
                code="official-list",
                severity=Severity.WARNING,
                cite=OFFICIAL,
                message=Text(
                    _(
                        "This is the official deck as our source lists it (%(actual)d action "
                        "cards): %(note)s"
                    ),
                    {"actual": actual, "note": note},
                ),
                zone=self.size.zone,
                expected=self.size.exactly,
                actual=actual,
            )
            for note in product.notes
        ]


RULES = DeckRules(
    game=GAME.slug,
    construction=Cite(DIGEST, 16),
    zones=(
        Zone(
            "hero",
            _("hero (character card)"),
            ("character",),
            Cite(DIGEST, 19),
            aliases=(
                "character",
                "character card",
                "ヒーロー",
                "キャラクター",
                "キャラクターカード",
            ),
        ),
        Zone(
            "deck",
            _("action deck"),
            ("attack", "defense", "versatile", "scheme"),
            Cite(DIGEST, 18),
            is_deck=True,
            aliases=("action deck", "アクションデッキ"),
        ),
    ),
    rules=(
        ExactlyOneOfType("hero", Cite(DIGEST, 19), code="one-hero"),  # line 19
        # line 18: exactly 30 action cards (an official list the source gets wrong is explained)
        ActionDeckSize(ZoneSize("deck", Cite(DIGEST, 18), exactly=30)),
    ),
    checks=(fighters_can_use, sidekick_chosen),
    stats=(
        Stat("value", _("Values by fighter"), split_by="fighter", numeric=True),
        Stat("boost", _("Boosts by fighter"), on="printing", split_by="fighter", numeric=True),
    ),
)


def default_printing(deck: Any, card: Any) -> Any:
    """The printing a card added without one is pinned to: the one in the deck's hero's own
    deck, if the card was printed there (Feint added to a Medusa deck is Medusa's Feint, with
    her boost, not Alice's). None when the deck has no hero or the hero's deck lacks the card."""
    from catalog.models import Printing
    from decks.models import DeckEntry

    hero = DeckEntry.objects.filter(deck=deck, zone="hero").values_list("card_id", flat=True)
    numbers = Printing.objects.filter(card_id__in=hero).exclude(collector_number="")
    return (
        Printing.objects.filter(
            card=card, collector_number__in=numbers.values("collector_number"), variant=""
        )
        .order_by("pk")
        .first()
    )
