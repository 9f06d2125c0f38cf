"""Pebbles: a sixth game written as a contributor would, one package, for the seam's proof.

``write_pebbles(folder)`` writes the whole package (``pebbles_game/``) into a folder outside the
repository: a catalog spec and its data, two zones, one deck extra (tokens), two legality rules,
a draw schedule, a trivial engine with golden data, a test-hand panel and a card face. Nothing
in DeckLab's own code names it; tests register it with ``games.registry.register``, and a
worker process finds it through ``DECKLAB_EXTRA_GAMES``.

The rules of Pebbles (its own digest, ``pebbles.md``): a deck is one keeper and a bag of exactly
10 pebbles (line 3); a deck may hold at most 5 tokens (line 4); draw 3, then 1 a turn (line 5);
each turn's pebble adds its weight, and the goldfish opponent falls at ``target`` (line 6).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

PACKAGE = "pebbles_game"
SLUG = "pebbles"

_FILES: dict[str, str] = {
    "__init__.py": """
        from games.registry import Game

        GAME = Game(slug="pebbles", package=__name__, digest="pebbles.md", sort_order=900)
    """,
    "catalog.py": """
        from django import forms

        from catalog.attributes import AttributeSchema
        from catalog.spec import CardType, Facet, GameSpec
        from pebbles_game import GAME


        class PebbleAttributes(AttributeSchema):
            weight = forms.IntegerField(label="Weight", min_value=1, max_value=9)
            face_keys = ("weight",)


        SPEC = GameSpec(
            slug=GAME.slug,
            name_en="Pebbles",
            name_ja="ペブルス",
            publisher="Nobody",
            years="2026",
            rules_digest=GAME.digest,
            card_types=(
                CardType("pebble", "Pebble", PebbleAttributes),
                CardType("keeper", "Keeper"),
            ),
            facets=(Facet("weight", "Weight", "range"),),
            sort_order=GAME.sort_order,
        )
    """,
    "deck.py": """
        from decks.game_rules import DeckRules, Zone
        from decks.legality.problems import Cite, Problem, Severity, Text
        from decks.legality.rules import ExactlyOneOfType, ZoneSize
        from pebbles_game import GAME

        MAX_TOKENS = 5


        def tokens(deck, rules):
            count = deck.extras.get("tokens") or 0
            if count <= MAX_TOKENS:
                return []
            return [
                Problem(
                    code="too-many-tokens",
                    severity=Severity.ERROR,
                    cite=Cite(GAME.digest, 4),
                    message=Text(
                        "%(actual)d tokens; at most %(max)d.", {"actual": count, "max": MAX_TOKENS}
                    ),
                    fix=Text("Remove %(n)d tokens.", {"n": count - MAX_TOKENS}),
                    expected=MAX_TOKENS,
                    actual=count,
                )
            ]


        RULES = DeckRules(
            game=GAME.slug,
            construction=Cite(GAME.digest, 3),
            zones=(
                Zone("keeper", "keeper", ("keeper",), Cite(GAME.digest, 3)),
                Zone("bag", "bag", ("pebble",), Cite(GAME.digest, 3), is_deck=True),
            ),
            rules=(
                ExactlyOneOfType("keeper", Cite(GAME.digest, 3)),
                ZoneSize("bag", Cite(GAME.digest, 3), exactly=10),
            ),
            checks=(tokens,),
        )
    """,
    "extras.py": """
        from decks.extras import Extra, ExtraError


        class Tokens(Extra):
            key = "tokens"
            label = "Tokens"
            text_keys = ("tokens",)
            editor_template = "games/pebbles/tokens_editor.html"
            display_template = "games/pebbles/tokens_display.html"

            def clean(self, value):
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
                    raise ExtraError("Tokens are a whole number from 0 to 99.")
                return value

            def parse_text(self, text):
                if not text.strip().isdigit():
                    raise ExtraError("Write the tokens as a whole number.")
                return self.clean(int(text))

            def to_text(self, value):
                return str(value)

            def from_post(self, current, data):
                raw = data.get("tokens", "")
                if not raw.isdigit():
                    raise ExtraError("Write the tokens as a whole number.")
                return self.clean(int(raw))

            def context(self, value):
                return {"tokens": value or 0}


        EXTRAS = (Tokens(),)
    """,
    "schedule.py": """
        from simulator.engine.schedule import DrawSchedule
        from simulator.engine.setup import GameSetup

        SCHEDULE = DrawSchedule(opening=3, per_turn=1, draws_on_first_turn=True)
        SETUP = GameSetup(schedule=SCHEDULE, note="Pebbles draws %(per_turn)d a turn.")
    """,
    "engine.py": """
        from dataclasses import dataclass

        from pebbles_game import GAME
        from pebbles_game.schedule import SCHEDULE
        from simulator.engine.engine import Engine, GameState
        from simulator.engine.params import Param, ParamSpec


        @dataclass(frozen=True)
        class Prepared:
            weights: tuple


        class PebblesState(GameState):
            def __init__(self, weights, order, target):
                self.weights, self.order, self.target = weights, order, target
                self.turn = 0
                self.total = 0

            def is_over(self):
                return self.total >= self.target or self.turn >= len(self.order)

            def legal_actions(self):
                return [] if self.is_over() else ["draw"]

            def apply(self, action):
                self.total += self.weights[self.order[self.turn]]
                self.turn += 1
                return f"turn {self.turn}: {self.total}"

            def copy(self):
                twin = PebblesState(self.weights, list(self.order), self.target)
                twin.turn, twin.total = self.turn, self.total
                return twin


        class PebblesEngine(Engine):
            slug = GAME.slug
            schedule = SCHEDULE
            params = ParamSpec(
                (Param("target", "Target weight", "int", 12, minimum=1, maximum=90),)
            )
            not_modelled = ("Everything but weighing pebbles.",)
            cites = ("pebbles.md:6",)

            def prepare(self, deck, params):
                weights = (deck.cards[i].attributes.get("weight") or 0 for i in deck.pile())
                return Prepared(tuple(int(w) for w in weights))

            def new_game(self, prepared, params, rng):
                order = list(range(len(prepared.weights)))
                rng.shuffle(order)
                return PebblesState(prepared.weights, order, int(params["target"]))

            def choose(self, state):
                return "draw"

            def record(self, state, metrics):
                fell = state.total >= state.target
                metrics.count("fell", int(fell))
                if fell:
                    metrics.observe("falls_turn", state.turn)


        ENGINE = PebblesEngine()
    """,
    "golden.py": """
        from simulator.engine.cards import SimCard, SimDeck

        GOLDEN_DECK = SimDeck(
            game="pebbles",
            cards=(
                SimCard(0, "PB-001", "Grey Pebble", "pebble", {"weight": 1}),
                SimCard(1, "PB-002", "Red Pebble", "pebble", {"weight": 3}),
            ),
            zones={"bag": ((0, 6), (1, 4))},
            draw_zone="bag",
        )
        GOLDEN_GAMES = (("game0", 0, {}), ("heavy_game1", 1, {"target": 20}))
    """,
    "testhand.py": """
        from simulator.testhands.panels import Panel


        def heaviest(deck, hand):
            card = max((deck.cards[i] for i in hand), key=lambda c: c.attributes.get("weight", 0))
            return {"card": card.name, "weight": card.attributes.get("weight", 0)}


        PANELS = (Panel("heaviest", "games/pebbles/heaviest.html", heaviest),)
    """,
    "templates/face.html": """
        <div class="pebble-face" data-pebble-face>{{ face.card.name }} · {{ face.a.weight }}</div>
    """,
    "templates/heaviest.html": """
        {% if data %}<p data-heaviest>Heaviest: {{ data.card }} ({{ data.weight }})</p>{% endif %}
    """,
    "templates/tokens_editor.html": """
        {% url 'decks:edit-extra' deck.public_id extra.key as action %}
        <form id="tokens-editor" method="post" action="{{ action }}"
              {% if oob %}hx-swap-oob="true"{% endif %}>
          <input name="tokens" value="{{ view.tokens }}" data-tokens>
        </form>
    """,
    "templates/tokens_display.html": """
        <p data-tokens>Tokens: {{ view.tokens }}</p>
    """,
}

CATALOG = {
    "format": "decklab-catalog",
    "version": 1,
    "game": SLUG,
    "source": "Pebbles: a toy game of DeckLab's test suite",
    "demo": True,
    "sets": [{"code": "PB", "name_en": "Pebbles Base", "name_ja": "ペブルス基本", "kind": "base"}],
    "cards": [
        {
            "code": code,
            "type": "pebble",
            "name_en": name,
            "name_ja": name_ja,
            "attributes": {"weight": weight},
            "printings": [{"set": "PB", "number": code[-3:]}],
        }
        for code, name, name_ja, weight in (
            ("PB-001", "Grey Pebble", "灰色の小石", 1),
            ("PB-002", "Red Pebble", "赤い小石", 3),
            ("PB-003", "Blue Pebble", "青い小石", 2),
        )
    ]
    + [
        {
            "code": "PB-100",
            "type": "keeper",
            "name_en": "Old Keeper",
            "name_ja": "年老いた番人",
            "printings": [{"set": "PB", "number": "100"}],
        }
    ],
}


def write_pebbles(folder: Path) -> Path:
    """The Pebbles package written into ``folder`` (which then goes on ``sys.path``)."""
    package = folder / PACKAGE
    for name, text in _FILES.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    (package / "catalog.json").write_text(json.dumps(CATALOG, ensure_ascii=False), "utf-8")
    return package
