"""The 央華封神 engine's golden deck and games (pure data, no Django).

``GOLDEN_DECK`` is built by hand to reach every rule the engine plays: the protagonist's
growth cards (one of destiny 1, which can never be used, and two of 2 and 3), immortals to place
and grow, a destiny-2 immortal card whose destiny-1 card is missing, stories with and without a
check, with one and two prerequisite keywords, on every ability and "any", one out of reach at
destiny 1, accidents (dead for the goldfish), climaxes with one and two conditions, extra
bonuses and four climax types, two missions (one needing two types), and a substitute
protagonist with fewer spares than the protagonist's character cards, so a rebuild leaves one
card of the old protagonist in the deck.

``GOLDEN_GAMES``: (label, game index, parameters over the defaults): the default play, no hidden
success, a lost dice-off (substitute and rebuild), climaxes held until deck-out, several climaxes
at once with the assumptions switched, and a dice-off with the other assumptions.
"""

from __future__ import annotations

from typing import Any

from simulator.engine.cards import SimCard, SimDeck

GAME = "ouka-fushin"


def _deck() -> SimDeck:
    cards: list[SimCard] = []
    zones: dict[str, list[tuple[int, int]]] = {}

    def add(zone: str, copies: int, code: str, name: str, kind: str, **attributes: Any) -> None:
        cards.append(SimCard(len(cards), code, name, kind, attributes))
        zones.setdefault(zone, []).append((len(cards) - 1, copies))

    def hero(zone: str, code: str, name: str, character: str, school: str, *rows: int) -> None:
        keys = ("combat", "exploration", "negotiation")
        levels = {f"{k}_{d + 1}": rows[d * 3 + i] for d in range(3) for i, k in enumerate(keys)}
        add(zone, 1, code, name, "protagonist", character=character, school=school, **levels)

    hero("protagonist", "G-P1", "Suiran", "翠嵐", "goton", 3, 2, 0, 4, 3, 1, 5, 4, 2)
    hero("substitute", "G-P2", "Hakuun", "珀雲", "fusui-bokusen", 1, 3, 2, 1, 4, 3, 2, 5, 4)
    add("missions", 1, "G-M1", "Strike Down Evil", "mission", climax_types=["退治"], bonus=50)
    add(
        "missions",
        1,
        "G-M2",
        "Peace Under Heaven",
        "mission",
        climax_types=["退治", "救済"],
        bonus=80,
    )

    def person(zone: str, copies: int, code: str, name: str, character: str, level: int) -> None:
        add(
            zone,
            copies,
            code,
            name,
            "character",
            character=character,
            destiny=level,
            school="goton",
        )

    person("main", 1, "G-C1", "Suiran, in Training", "翠嵐", 1)
    person("main", 2, "G-C2", "Suiran, Wind-Clad", "翠嵐", 2)
    person("main", 2, "G-C3", "Suiran, Master", "翠嵐", 3)
    person("main", 2, "G-C4", "Elder Bedrock, Hermit", "磐石翁", 1)
    person("main", 2, "G-C5", "Elder Bedrock, Earth Splitter", "磐石翁", 2)
    person("main", 1, "G-C6", "Moon Howler, Youth", "嘯月", 1)
    person("main", 1, "G-C7", "Meiteki, Caller of Ghosts", "冥笛", 2)
    person("spares", 1, "G-S1", "Hakuun, Apprentice", "珀雲", 1)
    person("spares", 2, "G-S2", "Hakuun, Star Reader", "珀雲", 2)
    person("spares", 1, "G-S3", "Hakuun, Dragon Veins", "珀雲", 3)

    def story(
        copies: int,
        code: str,
        name: str,
        keywords: list[str],
        points: int,
        target: int | None = None,
        ability: str | None = None,
        prerequisites: list[str] | None = None,
        kind: str = "normal",
    ) -> None:
        attributes: dict[str, Any] = {"story_kind": kind, "keywords": keywords, "points": points}
        if target is not None:
            attributes["target"] = target
            attributes["ability"] = ability
        if prerequisites:
            attributes["prerequisites"] = prerequisites
        add("main", copies, code, name, "story", **attributes)

    story(3, "G-T1", "Down from the Mountain Gate", ["旅立ち"], 10, 4, "any")
    story(2, "G-T2", "Wayside Teahouse", ["旅立ち", "宴"], 5)
    story(3, "G-T3", "Search of the Misty Valley", ["秘境"], 20, 7, "exploration", ["旅立ち"])
    story(3, "G-T4", "Tracks of the Fiend", ["妖魔"], 15, 6, "exploration")
    story(2, "G-T5", "The Fiend Hunt", ["妖魔", "仇敵"], 35, 9, "combat", ["妖魔"])
    story(2, "G-T6", "Treasure of the Old Shrine", ["宝貝", "秘境"], 30, 8, "exploration", ["秘境"])
    story(2, "G-T7", "Shadow of the Nemesis", ["仇敵"], 15, 6, "combat")
    story(2, "G-T8", "The Village Elder's Plea", ["邑", "盟約"], 20, 6, "negotiation", ["旅立ち"])
    story(1, "G-T9", "Oath of the Duel", ["仇敵", "盟約"], 40, 10, "combat", ["仇敵"])
    story(
        1, "G-T10", "Night of Falling Stars", ["天災", "秘境"], 15, 6, "exploration", kind="event"
    )
    story(
        1, "G-T11", "Forest of Fiendish Air", ["妖魔", "秘境"], 20, 7, "exploration", kind="effect"
    )
    story(
        1,
        "G-T12",
        "Reunion on the Road",
        ["師弟", "盟約"],
        25,
        5,
        "negotiation",
        ["旅立ち", "妖魔"],
    )
    story(2, "G-A1", "Rockfall", ["天災"], 10, kind="accident")
    story(1, "G-A2", "The False Envoy", ["仇敵"], 15, kind="accident")

    def climax(
        copies: int,
        code: str,
        name: str,
        conditions: list[str],
        bonus: int,
        kind: str,
        extra: int | None = None,
    ) -> None:
        attributes: dict[str, Any] = {"conditions": conditions, "bonus": bonus, "climax_type": kind}
        if extra is not None:
            attributes["extra_bonus"] = extra
        add("main", copies, code, name, "climax", **attributes)

    climax(2, "G-X1", "Fall of the Fiend King", ["妖魔", "仇敵"], 60, "退治", 20)
    climax(1, "G-X2", "The Exorcism", ["妖魔"], 30, "退治")
    climax(1, "G-X3", "Rebuilding the Village", ["邑", "盟約"], 50, "救済", 20)
    climax(1, "G-X4", "The Hidden Treasure Found", ["宝貝", "秘境"], 60, "探求", 30)
    climax(2, "G-X5", "To the Ends of the Earth", ["旅立ち", "秘境"], 40, "探求")
    return SimDeck(
        game=GAME,
        cards=tuple(cards),
        zones={zone: tuple(lines) for zone, lines in zones.items()},
        draw_zone="main",
    )


GOLDEN_DECK = _deck()

GOLDEN_GAMES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("game0", 0, {}),
    ("no_hidden_success", 1, {"hidden_success": "never"}),
    ("substitute", 2, {"mirror_match": "lose"}),
    ("hold_to_deck_out", 3, {"climax_min_points": 400}),
    (
        "climaxes_together",
        4,
        {
            "climaxes_at_once": 3,
            "extra_bonus": True,
            "completed_stories_score": True,
            "reclaim": "none",
        },
    ),
    (
        "dice_off_all",
        5,
        {
            "mirror_match": "dice_off",
            "prerequisites": "all",
            "missions_need": "any",
            "hidden_success": "net_gain",
        },
    ),
)
