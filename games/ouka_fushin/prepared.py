"""What every game of a 央華封神 run shares: per-card integer tables (keywords are bit masks,
card identities bits, the winning die faces of every story at every destiny precomputed) and
the cleaned parameters, built once by ``OukaEngine.prepare`` (pure Python)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.ouka_fushin.constants import (
    ABILITIES,
    ANY,
    HIDDEN_ALWAYS,
    HIDDEN_NET,
    HIDDEN_SUCCESS_GIFT,
    K_ACCIDENT,
    K_CHARACTER,
    K_CLIMAX,
    K_OTHER,
    K_STORY,
    MATCH_ALL,
    MAX_DESTINY,
    MISSIONS_ZONE,
    NO_CHECK,
    PROTAGONIST_ZONE,
    RECLAIM_USEFUL,
    SPARES_ZONE,
    STACK_PREREQUISITE,
    SUBSTITUTE_ZONE,
)
from games.ouka_fushin.dice import hidden_faces, plain_faces
from games.ouka_fushin.metrics import mission_key
from simulator.engine.cards import SimCard, SimDeck


@dataclass(frozen=True, slots=True)
class Protagonist:
    """A protagonist's facts: its character id and (combat, exploration, negotiation) at each
    destiny level (index 0 unused), ouka-fushin.md:15-17."""

    card: int
    name: str
    character: int
    abilities: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class OukaPrepared:
    """Per-card integer tables indexed by card index, and the run's cleaned parameters."""

    deck: SimDeck
    names: tuple[str, ...]
    kind: tuple[int, ...]
    #: one bit per distinct card code: "the same card" (seed:275, 283)
    uid: tuple[int, ...]
    #: keyword bit masks: a story's keywords, its prerequisites; a climax's conditions
    kw: tuple[int, ...]
    pre: tuple[int, ...]
    cond: tuple[int, ...]
    target: tuple[int, ...]
    ability: tuple[int, ...]
    points: tuple[int, ...]
    #: a climax's bonus (+ its extra bonus when ``extra_bonus`` is on)
    bonus: tuple[int, ...]
    #: static_value[protagonist][card]: the policy's keep value of a story (100 + points; 0
    #: when that protagonist can never pass its check, see ``_passable``) or a climax
    #: (400 + bonus); others 0
    static_value: tuple[tuple[int, ...], ...]
    #: a climax's type as a bit (missions, ouka-fushin.md:19-20, 31)
    ctype: tuple[int, ...]
    character: tuple[int, ...]
    destiny: tuple[int, ...]
    keywords: tuple[str, ...]
    climax_types: tuple[str, ...]
    #: [0] our protagonist, [1] the substitute (absent: no substitute set)
    protagonists: tuple[Protagonist, ...]
    #: [0] the main deck; [1] the deck rebuilt for the substitute (ouka-fushin.md:44)
    piles: tuple[tuple[int, ...], ...]
    swapped: int
    #: need[protagonist][destiny][card]: the die face a story's check needs (NO_CHECK: none)
    need: tuple[tuple[tuple[int, ...], ...], ...]
    #: faces[protagonist][destiny][card]: winning faces of 6 as the policy counts them (with
    #: a hidden success when ``hidden_success`` would use it: always, or for "net_gain" the
    #: stories worth more than the gift; completing a climax is checked in play)
    faces: tuple[tuple[tuple[int, ...], ...], ...]
    #: the same with a hidden success, whatever the policy
    hidden: tuple[tuple[tuple[int, ...], ...], ...]
    #: (name, climax types mask, bonus) of each mission
    missions: tuple[tuple[str, int, int], ...]
    hidden_policy: str
    climax_min: int
    at_once: int
    stack: bool
    reclaim: bool
    mirror: str
    prereq_all: bool
    mission_all: bool
    completed_score: bool
    max_turns: int
    mission_keys: tuple[str, ...]
    #: the compiled kernel's integer arrays, built on its first batch and reused by every
    #: later batch of the run (``games/ouka_fushin/kernel.py``)
    kernel_cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


def _int(raw: Any) -> int:
    try:
        return int(raw or 0)
    except (TypeError, ValueError):
        return 0


def _strings(raw: Any) -> list[str]:
    if isinstance(raw, str):
        return [raw] if raw else []
    return [str(x) for x in raw or () if str(x)]


def build_prepared(deck: SimDeck, values: dict[str, Any]) -> OukaPrepared:
    """The tables of ``deck`` (which has one protagonist) under the cleaned parameters
    ``values``."""
    cards = deck.cards
    keywords: dict[str, int] = {}
    types: dict[str, int] = {}
    characters: dict[str, int] = {}
    codes: dict[str, int] = {}

    def mask(words: Any, table: dict[str, int]) -> int:
        bits = 0
        for word in _strings(words):
            bits |= 1 << table.setdefault(word, len(table))
        return bits

    def character_of(card: SimCard) -> int:
        name = str(card.attributes.get("character") or card.name or card.code)
        return characters.setdefault(name, len(characters))

    kind, uid, kw, pre, cond, target, ability, points, bonus, ctype = ([] for _ in range(10))
    character, destiny = [], []
    extra = bool(values["extra_bonus"])
    for card in cards:
        a = card.attributes
        k = K_OTHER
        if card.card_type == "character":
            k = K_CHARACTER
        elif card.card_type == "story":
            k = K_ACCIDENT if a.get("story_kind") == "accident" else K_STORY
        elif card.card_type == "climax":
            k = K_CLIMAX
        kind.append(k)
        uid.append(1 << codes.setdefault(card.code, len(codes)))
        kw.append(mask(a.get("keywords"), keywords) if k in (K_STORY, K_ACCIDENT) else 0)
        pre.append(mask(a.get("prerequisites"), keywords) if k == K_STORY else 0)
        cond.append(mask(a.get("conditions"), keywords) if k == K_CLIMAX else 0)
        target.append(_int(a.get("target")) if k == K_STORY else 0)
        name = str(a.get("ability") or "")
        ability.append(ABILITIES.index(name) if name in ABILITIES else ANY)
        points.append(_int(a.get("points")))
        bonus.append(_int(a.get("bonus")) + (_int(a.get("extra_bonus")) if extra else 0))
        climax_type = a.get("climax_type") if k == K_CLIMAX else None
        ctype.append(mask([climax_type], types) if climax_type else 0)
        is_person = card.card_type in ("character", "protagonist")
        character.append(character_of(card) if is_person else -1)
        destiny.append(min(max(_int(a.get("destiny")), 1), MAX_DESTINY) if is_person else 0)
    missions = tuple(
        (
            cards[i].name,
            mask(cards[i].attributes.get("climax_types"), types),
            _int(cards[i].attributes.get("bonus")),
        )
        for i, n in deck.zones.get(MISSIONS_ZONE, ())
        for _ in range(n)
    )

    def protagonist(index: int) -> Protagonist:
        a = cards[index].attributes
        table = [(0, 0, 0)]
        for d in range(1, MAX_DESTINY + 1):
            combat, exploration, negotiation = (_int(a.get(f"{k}_{d}")) for k in ABILITIES)
            table.append((combat, exploration, negotiation))
        return Protagonist(index, cards[index].name, character[index], tuple(table))

    (main_hero,) = (i for i, _n in deck.zones[PROTAGONIST_ZONE])
    heroes = [protagonist(main_hero)]
    substitutes = [i for i, _n in deck.zones.get(SUBSTITUTE_ZONE, ())]
    pile = tuple(deck.pile(deck.draw_zone))
    piles = [pile]
    swapped = 0
    if substitutes:
        heroes.append(protagonist(substitutes[0]))
        rebuilt, swapped = _rebuild(deck, pile, heroes[0], heroes[1], character, destiny)
        piles.append(rebuilt)

    def needs(hero: Protagonist, d: int) -> tuple[int, ...]:
        """The die face each story's check needs at destiny d: target - ability
        (ouka-fushin.md:62; "any": the best, seed:103)."""
        row = []
        for c in range(len(cards)):
            if kind[c] != K_STORY or not target[c]:
                row.append(NO_CHECK)  # seed:131: no check
                continue
            abilities = hero.abilities[d]
            value = max(abilities) if ability[c] == ANY else abilities[ability[c]]
            row.append(target[c] - value)
        return tuple(row)

    need = tuple(tuple(needs(hero, d) for d in range(MAX_DESTINY + 1)) for hero in heroes)
    policy = str(values["hidden_success"])

    def counted(need: int, card: int) -> int:
        if policy == HIDDEN_ALWAYS or (policy == HIDDEN_NET and points[card] > HIDDEN_SUCCESS_GIFT):
            return hidden_faces(need)
        return plain_faces(need)

    faces = tuple(
        tuple(tuple(counted(n, c) for c, n in enumerate(row)) for row in rows) for rows in need
    )
    hidden = tuple(tuple(tuple(hidden_faces(n) for n in row) for row in rows) for rows in need)
    return OukaPrepared(
        deck=deck,
        names=tuple(c.name for c in cards),
        kind=tuple(kind),
        uid=tuple(uid),
        kw=tuple(kw),
        pre=tuple(pre),
        cond=tuple(cond),
        target=tuple(target),
        ability=tuple(ability),
        points=tuple(points),
        bonus=tuple(bonus),
        static_value=tuple(
            tuple(
                (100 + points[c] if _passable(rows, c) else 0)
                if k == K_STORY
                else 400 + bonus[c]
                if k == K_CLIMAX
                else 0
                for c, k in enumerate(kind)
            )
            for rows in need
        ),
        ctype=tuple(ctype),
        character=tuple(character),
        destiny=tuple(destiny),
        keywords=tuple(keywords),
        climax_types=tuple(types),
        protagonists=tuple(heroes),
        piles=tuple(piles),
        swapped=swapped,
        need=need,
        faces=faces,
        hidden=hidden,
        missions=missions,
        hidden_policy=str(values["hidden_success"]),
        climax_min=int(values["climax_min_points"]),
        at_once=int(values["climaxes_at_once"]),
        stack=values["stacking"] == STACK_PREREQUISITE,
        reclaim=values["reclaim"] == RECLAIM_USEFUL,
        mirror=str(values["mirror_match"]),
        prereq_all=values["prerequisites"] == MATCH_ALL,
        mission_all=values["missions_need"] == MATCH_ALL,
        completed_score=bool(values["completed_stories_score"]),
        max_turns=int(values["max_turns"]),
        mission_keys=tuple(mission_key(i + 1) for i in range(len(missions))),
    )


def _passable(rows: Sequence[Sequence[int]], card: int) -> bool:
    """Whether the protagonist whose needs are ``rows`` ([destiny][card]) can ever pass the
    check of story ``card``: at some destiny (1-3, ouka-fushin.md:16, seed:217-222) the die
    face it needs is at most 6. d6 + ability >= target (ouka-fushin.md:62, seed:124-125); the
    die shows at most 6 and a hidden success turns only 1-3 into 6-4, never above 6
    (ouka-fushin.md:63, seed:200-204); the goldfish opponent never lowers a target
    (ouka-fushin.md:77). A story without a target has no check (seed:131)."""
    return any(rows[d][card] <= 6 for d in range(1, MAX_DESTINY + 1))


def _rebuild(
    deck: SimDeck,
    pile: tuple[int, ...],
    old: Protagonist,
    new: Protagonist,
    character: Sequence[int],
    destiny: Sequence[int],
) -> tuple[tuple[int, ...], int]:
    """The deck rebuilt for the substitute (ouka-fushin.md:44, seed:65): each character card
    of the old protagonist is swapped for a spare, the substitute's own first, lower destiny
    first, as far as the spares go (any number may be swapped; this swaps all it can)."""
    spares = sorted(
        deck.pile(SPARES_ZONE),
        key=lambda c: (character[c] != new.character, destiny[c], c),
    )
    old_cards = sorted(
        (i for i, c in enumerate(pile) if character[c] == old.character and c != old.card),
        key=lambda i: (destiny[pile[i]], i),
    )
    rebuilt = list(pile)
    swapped = 0
    for position, spare in zip(old_cards, spares, strict=False):
        rebuilt[position] = spare
        swapped += 1
    return tuple(rebuilt), swapped
