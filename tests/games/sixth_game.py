"""Pebbles: a sixth game written as a contributor would, one package, for the seam's proof.

``write_pebbles(folder)`` writes the whole package (``pebbles_game/``) into a folder outside the
repository, declaring every part of the contract (games/contract.py): a catalog spec whose
attributes are each declared once (schema, search field, facet, face), its own kinds of set and
product, its data with an official product, a search field of its own that is not one attribute
(``search.py``), three zones (the pouch is a sideboard), two deck extras (a tokens count and
a list of marks, a resource like Recharge's chips), deck rules and checks, a default printing, a
draw schedule, an engine with golden games, a test-hand panel, a card face and its stylesheet,
a deck format and a catalog format of its own, collection finishes and languages, official
product facts and a deck start, a rules reference in both languages, and a small gettext
catalog of its labels in Japanese. Nothing in DeckLab's own code names it; tests register it
with ``games.registry.register``, and a worker process finds it through ``DECKLAB_EXTRA_GAMES``.

The rules of Pebbles (its own digest, ``pebbles.md``, written beside the package): a deck is one
keeper and a bag of exactly 10 pebbles (line 3); a deck may hold at most 5 tokens (line 4); draw
3, then 1 a turn (line 5); each turn's pebble adds its weight, and the goldfish opponent falls at
``target`` (line 6); a pouch of at most 3 pebbles waits beside the bag (line 7); at most 4 marks
of 1 to 3 points, 6 points in all (line 8); a pebble is grey, red, blue or green (line 9).
"""

from __future__ import annotations

import json
import struct
import textwrap
from pathlib import Path

PACKAGE = "pebbles_game"
SLUG = "pebbles"
DECK_FORMAT = "pebbles-deck"
#: the game's labels in Japanese: its own gettext catalog (``locale/ja``), which a site lists in
#: LOCALE_PATHS as it lists the game's package in DECKLAB_EXTRA_GAMES
JAPANESE = {
    "Pebble": "小石",
    "Keeper": "番人",
    "keeper": "番人",
    "bag": "袋",
    "pouch": "小袋",
    "Weight": "重さ",
    "Hue": "色合い",
    "Any colour": "どの色でも",
    "Pebble tokens": "小石トークン",
    "Pebble marks": "小石の印",
    "Polished": "磨き仕上げ",
    "Pebbles deck JSON": "ペブルスのデッキJSON",
    "Quarry": "石切り場",
    "Pouch box": "小袋の箱",
}

DIGEST = """\
# Pebbles

A deck is one keeper and a bag of exactly 10 pebbles.
A deck may hold at most 5 tokens.
Draw 3 pebbles, then 1 each turn.
Each turn's pebble adds its weight; the opponent falls when the total reaches the target.
A pouch of at most 3 pebbles waits beside the bag; it is never drawn.
A deck may hold at most 4 marks, each worth 1 to 3 points, 6 points in all.
A pebble is grey, red, blue or green.
"""

_FILES: dict[str, str] = {
    "__init__.py": """
        from games.registry import Game

        GAME = Game(slug="pebbles", package=__name__, digest="pebbles.md", sort_order=900)
    """,
    "catalog.py": """
        from django import forms
        from django.utils.translation import gettext_lazy as _

        from catalog.attributes import AttributeSchema, Searchable, attribute
        from catalog.kinds import PRODUCT_KINDS, SET_KINDS
        from catalog.spec import CardType, GameSpec
        from pebbles_game import GAME

        # pebbles.md:9
        HUES = (("grey", _("Grey")), ("red", _("Red")), ("blue", _("Blue")), ("green", _("Green")))


        class PebbleAttributes(AttributeSchema):
            # each attribute declared once: its schema, its search field and facet, its face
            weight = attribute(
                forms.IntegerField(label=_("Weight"), min_value=1, max_value=9),
                Searchable(facet=True, example="weight>=2"),
                face=True,
            )
            hue = attribute(
                forms.ChoiceField(label=_("Hue"), choices=HUES),
                Searchable(facet=True, example="hue:red"),
                face=True,
            )


        class KeeperAttributes(AttributeSchema):
            lantern = attribute(
                forms.ChoiceField(label=_("Lantern"), choices=HUES, required=False), face=True
            )


        SPEC = GameSpec(
            slug=GAME.slug,
            name_en="Pebbles",
            name_ja="ペブルス",
            publisher="Nobody",
            years="2026",
            rules_digest=GAME.digest,
            card_types=(
                CardType("pebble", _("Pebble"), PebbleAttributes),
                CardType("keeper", _("Keeper"), KeeperAttributes),
            ),
            # its own kinds of set and product beside the shared ones
            set_kinds=(*SET_KINDS, ("quarry", _("Quarry"))),
            product_kinds=(*PRODUCT_KINDS, ("pouch-box", _("Pouch box"))),
            sort_order=GAME.sort_order,
            accent="#8a7f70",
        )
    """,
    "search.py": """
        from django.utils.translation import gettext_lazy as _

        from catalog.query.fields import SearchField
        from pebbles_game.catalog import HUES

        # a field that is not one attribute: a pebble's hue or a keeper's lantern
        FIELDS = (
            SearchField(
                "colour",
                _("Any colour"),
                "choice",
                keys=("hue", "lantern"),
                choices=HUES,
                example="colour:red",
            ),
        )
    """,
    "deck.py": """
        from django.utils.translation import gettext_lazy as _

        from decks.game_rules import DeckRules, Zone
        from decks.legality.problems import Cite, Problem, Severity, Text
        from decks.legality.rules import ExactlyOneOfType, ZoneSize
        from pebbles_game import GAME

        MAX_TOKENS = 5
        MAX_MARK_POINTS = 6


        def default_printing(deck, card):
            \"\"\"A pebble added without a printing is the one of the oldest set.\"\"\"
            return card.printings.order_by("card_set__code", "collector_number").first()


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


        def marks(deck, rules):
            points = sum(deck.extras.get("marks") or ())
            if points <= MAX_MARK_POINTS:
                return []
            return [
                Problem(
                    code="too-many-mark-points",
                    severity=Severity.ERROR,
                    cite=Cite(GAME.digest, 8),
                    message=Text(
                        "Marks worth %(actual)d points; at most %(max)d.",
                        {"actual": points, "max": MAX_MARK_POINTS},
                    ),
                    expected=MAX_MARK_POINTS,
                    actual=points,
                )
            ]


        RULES = DeckRules(
            game=GAME.slug,
            construction=Cite(GAME.digest, 3),
            zones=(
                Zone("keeper", _("keeper"), ("keeper",), Cite(GAME.digest, 3)),
                Zone("bag", _("bag"), ("pebble",), Cite(GAME.digest, 3), is_deck=True),
                # the sideboard: kept with the deck, never drawn
                Zone("pouch", _("pouch"), ("pebble",), Cite(GAME.digest, 7), aliases=("side",)),
            ),
            rules=(
                ExactlyOneOfType("keeper", Cite(GAME.digest, 3)),
                ZoneSize("bag", Cite(GAME.digest, 3), exactly=10),
                ZoneSize("pouch", Cite(GAME.digest, 7), maximum=3),
            ),
            checks=(tokens, marks),
        )
    """,
    "extras.py": """
        from django.utils.translation import gettext_lazy as _

        from decks.extras import Extra, ExtraError

        MAX_MARKS = 4


        class Tokens(Extra):
            key = "tokens"
            label = _("Pebble tokens")
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


        class Marks(Extra):
            \"\"\"A list of marks, each worth 1 to 3 points (pebbles.md:8): a resource list.\"\"\"

            key = "marks"
            label = _("Pebble marks")
            text_keys = ("marks",)
            editor_template = "games/pebbles/marks_editor.html"
            display_template = "games/pebbles/marks_display.html"

            def clean(self, value):
                if not isinstance(value, list) or len(value) > MAX_MARKS:
                    raise ExtraError("At most 4 marks.")
                for mark in value:
                    if isinstance(mark, bool) or not isinstance(mark, int) or not 1 <= mark <= 3:
                        raise ExtraError("Each mark is worth 1, 2 or 3 points.")
                return sorted(value, reverse=True)

            def parse_text(self, text):
                words = text.split()
                if not all(w.isdigit() for w in words):
                    raise ExtraError("Write the marks as numbers: 3 2 1.")
                return self.clean([int(w) for w in words])

            def to_text(self, value):
                return " ".join(str(v) for v in value)

            def from_post(self, current, data):
                return self.parse_text(data.get("marks", ""))

            def context(self, value):
                return {"marks": value or [], "points": sum(value or ())}


        EXTRAS = (Tokens(), Marks())
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
    "collection.py": """
        from django.utils.translation import gettext_lazy as _

        # a pebble may be polished; Pebbles was printed in English first, then in Japanese
        FINISHES = (("normal", _("Normal")), ("polished", _("Polished")))
        LANGUAGES = ("en", "ja")
    """,
    "official.py": """
        import json
        from pathlib import Path

        from games.official import DataNote, OfficialProduct

        _RAW = json.loads(Path(__file__).with_name("official.json").read_text("utf-8"))
        OFFICIAL = {
            code: OfficialProduct(
                code=code,
                notes=tuple(DataNote(n["en"], n["ja"], n["source"]) for n in entry["notes"]),
            )
            for code, entry in _RAW["products"].items()
        }
        #: a deck started from the starter gets the tokens and marks its box holds
        STARTER_EXTRAS = {"tokens": 2, "marks": [2, 1]}


        def start_deck(code, entries):
            if code not in OFFICIAL:
                return entries, {}
            return entries, {key: value for key, value in STARTER_EXTRAS.items()}
    """,
    "formats.py": """
        from django.utils.translation import gettext_lazy as _

        from catalog.importers.bundle import CardRow, CatalogBundle, PrintingRow, SetRow
        from catalog.importers.formats import CatalogFormat
        from catalog.models import Game
        from decks.imports.errors import LineProblem
        from decks.imports.formats import DeckFormat
        from decks.imports.text import CardIndex, ParsedDeck
        from decks.specs import EntrySpec
        from pebbles_game import GAME

        DECK = "pebbles-deck"
        ZONES = ("keeper", "bag", "pouch")


        def recognises_deck(data):
            return isinstance(data, dict) and data.get("format") == DECK


        def parse_deck(data, user=None):
            \"\"\"{"format": "pebbles-deck", "bag": {"PB-001": 4}, ..., "tokens": 2}\"\"\"
            parsed = ParsedDeck(name=str(data.get("name") or ""))
            index = CardIndex(Game.objects.get(slug=GAME.slug), user)
            for zone in ZONES:
                for code, quantity in (data.get(zone) or {}).items():
                    card = index.coded(code)
                    if card is None or not isinstance(quantity, int):
                        parsed.problems.append(
                            LineProblem(0, f"{zone}.{code}", "No such pebble.", "card")
                        )
                        continue
                    parsed.entries.append(EntrySpec(card, zone, quantity))
            if "tokens" in data:
                parsed.extras["tokens"] = data["tokens"]
            return parsed


        def export_deck(deck):
            out = {"format": DECK, "name": deck.name, **{zone: {} for zone in ZONES}}
            for entry in deck.entries.select_related("card").order_by("zone", "card__code"):
                out[entry.zone][entry.card.code] = entry.quantity
            out["tokens"] = deck.extras.get("tokens", 0)
            return out


        def recognises_catalog(data):
            return isinstance(data, dict) and "pebble-bag" in data


        def read_catalog(data, origin):
            \"\"\"New pebbles: {"pebble-bag": set code, "name_en": .., "pebbles": [rows]}.\"\"\"
            bundle = CatalogBundle(game=GAME.slug, origin=origin)
            code = data["pebble-bag"]
            bundle.sets.append(
                SetRow(origin, code, data.get("name_en", ""), data.get("name_ja", ""), is_demo=True)
            )
            for n, (card, name_en, name_ja, weight, hue) in enumerate(data.get("pebbles", ())):
                bundle.cards.append(
                    CardRow(
                        f"{origin}: pebbles[{n}]",
                        card,
                        "pebble",
                        name_en,
                        name_ja,
                        {"weight": weight, "hue": hue},
                        is_demo=True,
                        source="A pebble bag",
                        printings=[PrintingRow(origin, code, card.rsplit("-", 1)[-1])],
                    )
                )
            return bundle


        DECK_FORMATS = (
            DeckFormat(
                code=DECK,
                label=_("Pebbles deck JSON"),
                parse=parse_deck,
                export=export_deck,
                recognises=recognises_deck,
            ),
        )
        CATALOG_FORMATS = (
            CatalogFormat(name="pebble bag", recognises=recognises_catalog, read=read_catalog),
        )
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
    "templates/marks_editor.html": """
        {% url 'decks:edit-extra' deck.public_id extra.key as action %}
        <form id="marks-editor" method="post" action="{{ action }}"
              {% if oob %}hx-swap-oob="true"{% endif %}>
          <input name="marks" value="{{ view.marks|join:' ' }}" data-marks>
        </form>
    """,
    "templates/marks_display.html": """
        <p data-marks>Marks: {{ view.marks|join:" " }} ({{ view.points }} points)</p>
    """,
    "static/face.css": """
        .pebble-face { border-radius: 50%; }
    """,
}

OFFICIAL = {
    "products": {
        "PB-START": {
            "notes": [
                {
                    "en": "The box's pouch pebble is listed here; the rulebook forgets it.",
                    "ja": "箱の小袋の小石をここに載せています。ルールブックには載っていません。",
                    "source": "Pebbles rulebook, p. 1",
                }
            ]
        }
    }
}

REFERENCE = {
    "format": "decklab-rules-reference",
    "version": 1,
    "sections": [
        {
            "key": "construction",
            "en": {"title": "The bag and the pouch"},
            "ja": {"title": "袋と小袋"},
            "rules": [
                {
                    "anchor": "the-bag",
                    "lines": [3, 4],
                    "en": {"title": "Keeper, bag and tokens", "text": "One keeper, ten pebbles."},
                    "ja": {"title": "番人と袋とトークン", "text": "番人1枚と小石10個。"},
                },
                {
                    "anchor": "the-pouch",
                    "lines": [7, 8],
                    "en": {"title": "The pouch and marks", "text": "Three pebbles wait aside."},
                    "ja": {"title": "小袋と印", "text": "小石3個までを脇に置けます。"},
                },
            ],
        },
        {
            "key": "turn",
            "en": {"title": "A turn of weighing"},
            "ja": {"title": "量る手番"},
            "rules": [
                {
                    "anchor": "weighing",
                    "lines": [5, 6],
                    "en": {"title": "Drawing and weighing", "text": "Draw, add the weight."},
                    "ja": {"title": "引いて量る", "text": "引いて、重さを足します。"},
                }
            ],
        },
    ],
}

#: the cards: (code, English, Japanese, weight, hue)
PEBBLES = (
    ("PB-001", "Grey Pebble", "灰色の小石", 1, "grey"),
    ("PB-002", "Red Pebble", "赤い小石", 3, "red"),
    ("PB-003", "Blue Pebble", "青い小石", 2, "blue"),
    ("PB-004", "Green Pebble", "緑の小石", 2, "green"),
)

CATALOG = {
    "format": "decklab-catalog",
    "version": 1,
    "game": SLUG,
    "source": "Pebbles: a toy game of DeckLab's test suite",
    "demo": True,
    "sets": [
        {"code": "PB", "name_en": "Pebbles Base", "name_ja": "ペブルス基本", "kind": "quarry"}
    ],
    "cards": [
        {
            "code": code,
            "type": "pebble",
            "name_en": name,
            "name_ja": name_ja,
            "attributes": {"weight": weight, "hue": hue},
            "printings": [{"set": "PB", "number": code[-3:]}],
        }
        for code, name, name_ja, weight, hue in PEBBLES
    ]
    + [
        {
            "code": "PB-100",
            "type": "keeper",
            "name_en": "Old Keeper",
            "name_ja": "年老いた番人",
            "attributes": {"lantern": "red"},
            "printings": [{"set": "PB", "number": "100"}],
        }
    ],
    "products": [
        {
            "code": "PB-START",
            "kind": "pouch-box",
            "set": "PB",
            "name_en": "Pebbles Starter",
            "name_ja": "ペブルス スターター",
            "items": [
                {"card": "PB-100", "quantity": 1, "zone": "keeper"},
                {"card": "PB-001", "quantity": 4, "zone": "bag"},
                {"card": "PB-002", "quantity": 3, "zone": "bag"},
                {"card": "PB-003", "quantity": 3, "zone": "bag"},
                {"card": "PB-004", "quantity": 1, "zone": "pouch"},
            ],
        }
    ],
}

#: a file in the game's own catalog format (formats.py CATALOG_FORMATS)
PEBBLE_BAG = {
    "pebble-bag": "PBS",
    "name_en": "Pebbles Shore",
    "pebbles": [["PBS-001", "Sea Glass", "シーグラス", 4, "blue"]],
}


def _mo(messages: dict[str, str]) -> bytes:
    """A GNU gettext catalog (.mo) of ``messages``, as msgfmt writes it: a header, then the
    original and translated strings' lengths and offsets, then the strings."""
    entries = {"": "Content-Type: text/plain; charset=UTF-8\n", **messages}
    keys = sorted(entries)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(entries[k].encode() + b"\0" for k in keys)
    start = 7 * 4 + 16 * len(keys)
    offsets: list[int] = []
    position = 0
    for k in keys:
        offsets += [len(k.encode()), start + position]
        position += len(k.encode()) + 1
    position = 0
    for k in keys:
        offsets += [len(entries[k].encode()), start + len(ids) + position]
        position += len(entries[k].encode()) + 1
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    return header + struct.pack(f"{len(offsets)}i", *offsets) + ids + strs


def write_pebbles(folder: Path) -> Path:
    """The Pebbles package written into ``folder`` (which then goes on ``sys.path``)."""
    package = folder / PACKAGE
    for name, text in _FILES.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    data = {
        "catalog.json": CATALOG,
        "reference.json": REFERENCE,
        "official.json": OFFICIAL,
        "pebble-bag.json": PEBBLE_BAG,
    }
    for name, value in data.items():
        (package / name).write_text(json.dumps(value, ensure_ascii=False), "utf-8")
    (package / "pebbles.md").write_text(DIGEST, "utf-8")
    messages = package / "locale" / "ja" / "LC_MESSAGES"
    messages.mkdir(parents=True, exist_ok=True)
    (messages / "django.mo").write_bytes(_mo(JAPANESE))
    return package
