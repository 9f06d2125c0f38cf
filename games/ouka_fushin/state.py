"""The 央華封神 goldfish game's state: the set-up (``deal``), the state API, the policy's
choice in the phase the state waits in (``settle``) and the steps, which the state API and the
fast ``play`` share (pure Python)."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.ouka_fushin.constants import (
    ABILITIES,
    ANY,
    CHARACTER_ACTIONS,
    DECK_OUT_PENALTY,
    DRAW_PER_TURN,
    HAND_LIMIT,
    HIDDEN_ALWAYS,
    HIDDEN_NET,
    HIDDEN_NEVER,
    HIDDEN_SUCCESS_GIFT,
    IMMORTAL_SLOTS,
    K_CHARACTER,
    K_CLIMAX,
    K_STORY,
    MIRROR_DICE,
    MIRROR_LOSE,
    NEW_SLOT,
    NO_CHECK,
    OPENING_HAND,
    P_CLIMAX,
    P_END,
    P_HIDDEN,
    P_IMMORTAL,
    P_OVER,
    P_RESET,
    P_RESET_DISCARD,
    P_START,
    P_STORY,
    ROUNDS,
    STORY_SLOTS,
    SUB_CANNOT,
    SUB_DONE,
    SUB_NONE,
    SUBSTITUTE_BONUS,
    Action,
)
from games.ouka_fushin.dice import Dice, roll, shuffle
from games.ouka_fushin.policy import assign_climaxes, keep_key, worst_card
from simulator.engine.engine import GameState

if TYPE_CHECKING:
    from games.ouka_fushin.prepared import OukaPrepared


# --- transcript lines -------------------------------------------------------------------------


def card_names(p: OukaPrepared, cards: Sequence[int]) -> str:
    return ", ".join(p.names[c] for c in cards) or "-"


def keyword_names(p: OukaPrepared, mask: int) -> str:
    return "/".join(k for i, k in enumerate(p.keywords) if mask >> i & 1) or "-"


# --- the state ------------------------------------------------------------------------------


class OukaState(GameState):
    """One goldfish game step by step: conformance tests, transcripts, test hands, and (through
    ``_step`` without the legality check) the engine's own loop."""

    def __init__(
        self,
        prepared: OukaPrepared,
        dice: Dice,
        deck: list[int],
        prot: int,
        substitution: int,
        note: str = "",
    ) -> None:
        p = prepared
        self.prepared = p
        self.dice = dice
        self.deck = deck  # never changed after the set-up: copies may share it
        self.pos = min(OPENING_HAND, len(deck))
        self.hand = deck[: self.pos]  # ouka-fushin.md:45
        self.discard: list[int] = []
        self.groups: list[list[int]] = []  # open story groups, bottom card first
        self.gmask: list[int] = []
        self.gpts: list[int] = []
        self.kw_open = 0
        self.completed = 0  # story slots taken by climaxes
        self.completed_points = 0
        self.onfield = 0  # uid bits of the stories and climaxes on the field
        self.types = 0  # climax types on the field (missions)
        self.prot = prot
        self.prot_char = p.protagonists[prot].character if p.protagonists else -1
        # the opponent's protagonist when it is ours (we substituted): never an immortal of ours
        self.blocked = p.protagonists[0].character if prot == 1 else -1
        self.level = 1  # destiny, seed:219
        self.immortals: dict[int, int] = {}
        self.round = 1
        self.turn = 0
        self.phase = P_START
        self.over = False
        self.substitution = substitution
        self.note = note
        self.round_points = [0] * ROUNDS
        self.climax_turns = [0] * ROUNDS
        self.rounds_scored = 0
        self.climaxes = 0
        self.opponent_points = 0
        self.hidden_uses = 0
        self.attempted = 0
        self.succeeded = 0
        self.checks = 0
        self.checks_passed = 0
        self.deck_out_turn = 0
        self.deck_out_penalty = 0
        self.turn_limit = False
        self.end_draws = 0
        self.reset_draws = 0
        self.used_counts = [0] * (HAND_LIMIT + DRAW_PER_TURN + 1)
        self.used_now = 0
        self.mission_done: list[bool] = []
        self.mission_points = 0
        # the story waiting for the hidden-success decision: card, group, roll, need
        self.pending = (-1, -1, 0, 0)
        self.plan: Action = ("pass",)  # the policy's choice in the phase the state waits in
        self.lines = True

    # -- GameState API ----------------------------------------------------------------------

    def copy(self) -> OukaState:
        clone = object.__new__(OukaState)
        clone.__dict__.update(self.__dict__)
        clone.dice = copy.deepcopy(self.dice)
        clone.hand = list(self.hand)
        clone.discard = list(self.discard)
        clone.groups = [list(g) for g in self.groups]
        clone.gmask = list(self.gmask)
        clone.gpts = list(self.gpts)
        clone.immortals = dict(self.immortals)
        clone.round_points = list(self.round_points)
        clone.climax_turns = list(self.climax_turns)
        clone.used_counts = list(self.used_counts)
        clone.mission_done = list(self.mission_done)
        return clone

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == P_OVER:
            return []
        if phase == P_START:
            return [("start",)]
        if phase == P_IMMORTAL:
            found = sorted(set(self._character_options()))
            return [*((CHARACTER_ACTIONS[k], c) for k, c in found), ("pass",)]
        if phase == P_STORY:
            return [*self._story_options(True)[0], ("pass",)]
        if phase == P_HIDDEN:
            return [("hidden",), ("accept",)]
        if phase == P_CLIMAX:
            return [*self._climax_combos(), ("pass",)]
        if phase in (P_END, P_RESET_DISCARD):
            if len(self.hand) > HAND_LIMIT:
                return [("discard", c) for c in sorted(set(self.hand))]
            return [("end",)]
        # P_RESET: take back any card of the discard pile (seed:170), or be done
        return [*(("reclaim", c) for c in sorted(set(self.discard))), ("done",)]

    def apply(self, action: Action) -> str:
        if action not in self.legal_actions():
            raise ValueError(f"not a legal action now: {action!r}")
        self.lines = True
        return self._step(action)

    # -- the policy -------------------------------------------------------------------------

    def policy(self) -> Action:
        """The goldfish's action in this state (see the engine's module docstring)."""
        phase = self.phase
        if phase == P_START:
            return ("start",)
        if phase in (P_IMMORTAL, P_STORY, P_CLIMAX):
            return self.plan  # chosen when the state settled in the phase
        if phase == P_HIDDEN:
            return ("hidden",) if self._would_hide() else ("accept",)
        if phase in (P_END, P_RESET_DISCARD):
            if len(self.hand) > HAND_LIMIT:
                return ("discard", worst_card(self))
            return ("end",)
        if phase == P_RESET:
            return self._reclaim_choice()
        raise ValueError("the game is over")

    def _would_hide(self) -> bool:
        card = self.pending[0]
        policy = self.prepared.hidden_policy
        if policy == HIDDEN_ALWAYS:
            return True
        if policy == HIDDEN_NEVER:
            return False
        return self.prepared.points[card] > HIDDEN_SUCCESS_GIFT or self._completes(card)

    def _completes(self, card: int) -> bool:
        """Whether placing this story makes a climax in hand playable that was not."""
        p = self.prepared
        have = self.kw_open
        after = have | p.kw[card]
        for c in self.hand:
            if p.kind[c] == K_CLIMAX and not p.uid[c] & self.onfield:
                cond = p.cond[c]
                if cond & ~have and not cond & ~after:
                    return True
        return False

    def _reclaim_choice(self) -> Action:
        """Take back the most useful discarded card while it beats the hand's sixth best
        (ouka-fushin.md:73): the hand ends as the 6 most useful of hand + pile."""
        if not self.prepared.reclaim or not self.discard:
            return ("done",)
        best = -1
        high = 0
        for c in set(self.discard):
            key = keep_key(self, c)
            if best < 0 or key > high:
                best, high = c, key
        if high <= 0:  # its value is 0: nothing worth taking back
            return ("done",)
        if len(self.hand) < HAND_LIMIT:
            return ("reclaim", best)
        sixth = sorted((keep_key(self, c) for c in self.hand), reverse=True)[HAND_LIMIT - 1]
        return ("reclaim", best) if high > sixth else ("done",)

    # -- options of the phase the state waits in --------------------------------------------

    def _character_options(self) -> list[tuple[int, int]]:
        """Legal immortal-phase actions as (priority, card), the policy's order being the
        lowest first (ouka-fushin.md:57-59, seed:89-95): 0 grow the protagonist, 1 grow an
        immortal, 2 place an immortal (``CHARACTER_ACTIONS``)."""
        p = self.prepared
        kinds = p.kind
        found: list[tuple[int, int]] = []
        level = self.level
        immortals = self.immortals
        for c in self.hand:
            if kinds[c] != K_CHARACTER:
                continue
            character = p.character[c]
            d = p.destiny[c]
            if character == self.prot_char:
                if d == level + 1:  # seed:90: same character, destiny one higher
                    found.append((0, c))
            elif character in immortals:
                if d == immortals[character] + 1:  # seed:95
                    found.append((1, c))
            elif d == 1 and character != self.blocked and len(immortals) < IMMORTAL_SLOTS:
                found.append((2, c))  # seed:92, 186: destiny 1, an empty slot, unique character
        return found

    def _story_options(self, full: bool = False) -> tuple[list[Action], Action, bool]:
        """The story phase (ouka-fushin.md:60, seed:97-102, 267-275): the legal plays (only
        when ``full``), the policy's pick, and whether any play is legal."""
        p = self.prepared
        kinds = p.kind
        uids = p.uid
        prereqs = p.pre
        faces_row = p.faces[self.prot][self.level]
        onfield = self.onfield
        free = STORY_SLOTS - self.completed - len(self.groups)
        have = self.kw_open
        opts: list[Action] = []
        best: tuple[int, int, int, int] | None = None
        plan: Action = ("pass",)
        climaxes: list[int] | None = None
        seen = 0
        legal = False
        for c in self.hand:
            if kinds[c] != K_STORY or uids[c] & (onfield | seen):
                continue
            seen |= uids[c]  # one option per card, whatever the copies in hand
            pre = prereqs[c]
            if pre:
                # the prerequisite keywords on the field: all of them, or any one (a parameter)
                if (pre & ~have) if p.prereq_all else not (pre & have):
                    continue
                # on top of the own story used as the prerequisite (seed:273), or an empty slot;
                # the policy's pick first: the latest such group, or the slot (``stacking``)
                stacked = [g for g, mask in enumerate(self.gmask) if mask & pre]
                stacked.reverse()
                if free > 0:
                    if p.stack:
                        stacked.append(-1)
                    else:
                        stacked.insert(0, -1)
                if not stacked:
                    continue
                places: Sequence[int] = stacked
            elif free > 0:
                places = NEW_SLOT
            else:
                continue
            legal = True
            if full:
                opts.extend(("story", c, g) for g in places)
            faces = faces_row[c]
            if climaxes is None:
                climaxes = [
                    p.cond[x]
                    for x in self.hand
                    if kinds[x] == K_CLIMAX and not uids[x] & onfield and p.cond[x] & ~have
                ]
            completes = 0
            if climaxes:
                after = have | p.kw[c]
                for cond in climaxes:
                    if not cond & ~after:
                        completes = 1
                        if p.hidden_policy == HIDDEN_NET:
                            faces = p.hidden[self.prot][self.level][c]
                        break
            if not faces:
                continue
            key = (completes, faces * p.points[c], faces, -c)
            if best is None or key > best:
                best = key
                plan = ("story", c, places[0])
        opts.sort()
        return opts, plan, legal

    def _playable(self) -> list[int]:
        """Climaxes in hand whose keywords our open stories hold (ouka-fushin.md:70,
        seed:280), not used before (seed:283), the highest bonus first."""
        p = self.prepared
        kinds = p.kind
        have = self.kw_open
        found: list[int] = []
        for c in self.hand:
            if kinds[c] == K_CLIMAX and not p.cond[c] & ~have and not p.uid[c] & self.onfield:
                found.append(c)
        if not found:
            return found
        if STORY_SLOTS - self.completed - len(self.groups) <= 0:
            found = [c for c in found if p.cond[c]]  # no conditions: it needs a free slot
        bonus = p.bonus
        return sorted(set(found), key=lambda c: (-bonus[c], c))

    def _climax_plan(self, playable: list[int]) -> Action:
        """The policy's climaxes now, or a pass (hold) until the round is worth enough."""
        p = self.prepared
        free = STORY_SLOTS - self.completed - len(self.groups)
        first = playable[0]  # playable alone: its keywords are on the field
        combo = [first]
        seen = p.uid[first]
        for c in playable[1:]:
            if len(combo) >= p.at_once:
                break
            if p.uid[c] & seen:
                continue  # two copies of a climax: only one may be used (seed:283)
            if assign_climaxes(p, [*combo, c], self.gmask, self.gpts, free) is not None:
                combo.append(c)
                seen |= p.uid[c]
        if (
            p.climax_min <= 0
            or self._round_value(combo) >= p.climax_min
            or self.pos >= len(self.deck)
            or free <= 0
        ):
            return ("climax", tuple(sorted(combo)))  # the same set as the legal actions name it
        return ("pass",)

    def _round_value(self, combo: Sequence[int]) -> int:
        p = self.prepared
        stories = sum(self.gpts) + (self.completed_points if p.completed_score else 0)
        return stories + sum(p.bonus[c] for c in combo)

    def _climax_combos(self) -> list[Action]:
        """Every set of distinct playable climaxes that fit on the field together."""
        p = self.prepared
        playable = sorted(self._playable())
        free = STORY_SLOTS - self.completed - len(self.groups)
        combos: list[Action] = []
        for subset in range(1, 1 << len(playable)):
            combo = tuple(c for i, c in enumerate(playable) if subset >> i & 1)
            uids = [p.uid[c] for c in combo]
            if len(set(uids)) < len(uids):
                continue
            if assign_climaxes(p, combo, self.gmask, self.gpts, free) is not None:
                combos.append(("climax", combo))
        return combos

    def settle(self) -> None:
        """Move past phases that offer nothing to choose (the immortal phase without a usable
        character, the story phase without a playable story, no playable climax), and keep
        the policy's choice in the phase it stops at."""
        while True:
            phase = self.phase
            if phase == P_IMMORTAL:
                found = self._character_options()
                if found:
                    kind, card = min(found)
                    self.plan = (CHARACTER_ACTIONS[kind], card)
                    return
                self.phase = P_STORY
            elif phase == P_STORY:
                _opts, plan, legal = self._story_options()
                if legal:
                    self.plan = plan
                    return
                self.phase = P_CLIMAX
            elif phase == P_CLIMAX:
                playable = self._playable()
                if playable:
                    self.plan = self._climax_plan(playable)
                    return
                self.phase = P_END
            else:
                return

    # -- steps ------------------------------------------------------------------------------

    def _step(self, action: Action) -> str:
        """Play one action (legal by the caller's word); the transcript line if ``lines``."""
        kind = action[0]
        if kind == "start":
            line = self._start()
        elif kind in ("grow", "grow_immortal", "place"):
            line = self._character(kind, action[1])
        elif kind == "story":
            line = self._story(action[1], action[2])
        elif kind == "hidden" or kind == "accept":
            line = self._hidden(kind == "hidden")
        elif kind == "climax":
            line = self._climax(action[1])
        elif kind == "discard":
            line = self._discard(action[1])
        elif kind == "end":
            line = self._end()
        elif kind == "reclaim":
            line = self._reclaim(action[1])
        elif kind == "done":
            line = self._reset_done()
        elif kind == "pass":
            line = self._pass()
        else:
            raise ValueError(f"unknown action {action!r}")
        self.settle()
        return line

    def _start(self) -> str:
        p = self.prepared
        note, self.note = self.note, ""
        if self.substitution == SUB_CANNOT:  # ouka-fushin.md:40, 52
            self._finish()
            return note
        if self.turn >= p.max_turns:
            self.turn_limit = True
            self._finish()
            return f"{note}T{self.turn} turn limit reached: the game stops" if self.lines else ""
        self.turn += 1
        self.used_now = 0
        if self.pos >= len(self.deck):
            # ouka-fushin.md:56, 72: deck-out ends the game; the round scores nothing and
            # costs d6 x 10 (seed:163-165)
            face = self.dice.roll()
            self.deck_out_turn = self.turn
            self.deck_out_penalty = DECK_OUT_PENALTY * face
            self.round_points[self.round - 1] = -self.deck_out_penalty
            self.rounds_scored = self.round
            self._finish()
            if not self.lines:
                return ""
            return (
                f"{note}T{self.turn} R{self.round} deck empty at the start of the turn: deck-out,"
                f" the round scores nothing, penalty -{self.deck_out_penalty} (d6 = {face})"
            )
        drawn = self.deck[self.pos : self.pos + DRAW_PER_TURN]  # ouka-fushin.md:56
        self.pos += len(drawn)
        self.hand.extend(drawn)
        self.phase = P_IMMORTAL
        if not self.lines:
            return ""
        return (
            f"{note}T{self.turn} R{self.round} draw {card_names(p, drawn)} (deck"
            f" {len(self.deck) - self.pos}) | hand: {card_names(p, self.hand)}"
        )

    def _character(self, kind: str, card: int) -> str:
        p = self.prepared
        self.hand.remove(card)
        self.used_now += 1
        character = p.character[card]
        if kind == "grow":
            self.level = p.destiny[card]  # seed:90: discarded, destiny + 1
            self.discard.append(card)
            what = f"grow {p.protagonists[self.prot].name} to destiny {self.level}"
        elif kind == "grow_immortal":
            self.immortals[character] = p.destiny[card]  # seed:95: stacked on it
            what = f"grow an immortal to destiny {p.destiny[card]}"
        else:
            self.immortals[character] = 1  # seed:92
            what = "place an immortal (destiny 1)"
        self.phase = P_STORY
        return f"T{self.turn} immortal: {what} with {p.names[card]}" if self.lines else ""

    def _story(self, card: int, group: int) -> str:
        p = self.prepared
        self.hand.remove(card)
        self.used_now += 1
        self.attempted += 1
        need = p.need[self.prot][self.level][card]
        head = ""
        if self.lines:
            where = " (new slot)" if group < 0 else f" (on {p.names[self.groups[group][-1]]})"
            head = f"T{self.turn} story: {p.names[card]} [{keyword_names(p, p.kw[card])}]{where}"
        if need == NO_CHECK:  # seed:131: no target, placed without a roll
            self._place(card, group)
            self.phase = P_CLIMAX
            return f"{head} no check → placed (+{p.points[card]})" if self.lines else ""
        face = self.dice.roll()  # ouka-fushin.md:62
        self.checks += 1
        check = ""
        if self.lines:
            ability = p.ability[card]
            name = "best ability" if ability == ANY else ABILITIES[ability]
            check = f" target {p.target[card]}, d6 + {name} needs {max(need, 1)}+: rolled {face}"
        if face >= need:
            self.checks_passed += 1
            self._place(card, group)
            self.phase = P_CLIMAX
            return f"{head}{check} → success (+{p.points[card]})" if self.lines else ""
        if face <= 3 and 7 - face >= need:  # a hidden success would pass (seed:200-204)
            self.pending = (card, group, face, need)
            self.phase = P_HIDDEN
            if not self.lines:
                return ""
            return f"{head}{check} → failed; a hidden success would make it {7 - face}"
        self.discard.append(card)  # seed:140
        self.phase = P_CLIMAX
        return f"{head}{check} → failed, discarded" if self.lines else ""

    def _hidden(self, use: bool) -> str:
        p = self.prepared
        card, group, face, _need = self.pending
        self.pending = (-1, -1, 0, 0)
        self.phase = P_CLIMAX
        if use:
            self.hidden_uses += 1
            self.opponent_points += HIDDEN_SUCCESS_GIFT  # seed:199
            self._place(card, group)
            if not self.lines:
                return ""
            return (
                f"T{self.turn} hidden success: {face} → {7 - face}, {p.names[card]} placed"
                f" (+{p.points[card]}); the opponent gains {HIDDEN_SUCCESS_GIFT}"
            )
        self.discard.append(card)
        return f"T{self.turn} no hidden success: {p.names[card]} discarded" if self.lines else ""

    def _place(self, card: int, group: int) -> None:
        p = self.prepared
        self.succeeded += 1
        if group < 0:
            self.groups.append([card])
            self.gmask.append(p.kw[card])
            self.gpts.append(p.points[card])
        else:  # seed:273-274: stacked; the cards below still count
            self.groups[group].append(card)
            self.gmask[group] |= p.kw[card]
            self.gpts[group] += p.points[card]
        self.kw_open |= p.kw[card]
        self.onfield |= p.uid[card]

    def _climax(self, combo: tuple[int, ...]) -> str:
        p = self.prepared
        free = STORY_SLOTS - self.completed - len(self.groups)
        masks = assign_climaxes(p, combo, self.gmask, self.gpts, free)
        if masks is None:
            raise ValueError(f"these climaxes do not fit on the field: {combo!r}")
        r = self.round
        stories = sum(self.gpts) + (self.completed_points if p.completed_score else 0)
        bonus = sum(p.bonus[c] for c in combo)
        self.round_points[r - 1] = stories + bonus  # ouka-fushin.md:71, seed:162
        self.climax_turns[r - 1] = self.turn
        self.rounds_scored = r
        self.climaxes += len(combo)
        taken = 0
        for c, mask in zip(combo, masks, strict=True):
            self.hand.remove(c)
            self.onfield |= p.uid[c]
            self.types |= p.ctype[c]
            taken |= mask
        # seed:166, 285-287: the climax sits on a condition slot, its stories under it
        consumed = [self.groups[g] for g in range(len(self.groups)) if taken >> g & 1]
        keep = [g for g in range(len(self.groups)) if not taken >> g & 1]
        self.completed += len(combo)
        self.completed_points += sum(self.gpts[g] for g in range(len(self.gpts)) if taken >> g & 1)
        self.groups = [self.groups[g] for g in keep]
        self.gmask = [self.gmask[g] for g in keep]
        self.gpts = [self.gpts[g] for g in keep]
        kw = 0
        for mask in self.gmask:
            kw |= mask
        self.kw_open = kw
        line = ""
        if self.lines:
            under = card_names(p, [c for g in consumed for c in g])
            line = (
                f"T{self.turn} climax: {card_names(p, combo)} on {under} → round {r} scores"
                f" {stories + bonus} (stories {stories} + climax {bonus})"
            )
        if r >= ROUNDS:  # ouka-fushin.md:50-51
            self._finish()
        else:
            self.phase = P_RESET  # seed:167-172
        return line

    def _pass(self) -> str:
        phase = self.phase
        if phase == P_IMMORTAL:
            self.phase = P_STORY
            return f"T{self.turn} immortal: pass" if self.lines else ""
        if phase == P_STORY:
            self.phase = P_CLIMAX
            return f"T{self.turn} story: pass" if self.lines else ""
        self.phase = P_END
        if not self.lines:
            return ""
        p = self.prepared
        held = self._playable()
        return (
            f"T{self.turn} climax: hold {card_names(p, held)} (the round is worth"
            f" {self._round_value(held[:1])}, waiting for {p.climax_min})"
        )

    def _discard(self, card: int) -> str:
        self.hand.remove(card)
        self.discard.append(card)
        label = f"T{self.turn} end" if self.phase == P_END else f"R{self.round} end"
        line = f"{label}: discard {self.prepared.names[card]}" if self.lines else ""
        if len(self.hand) == HAND_LIMIT:
            if self.phase == P_END:
                self._end_turn()
            else:
                self._next_round()
        return line

    def _end(self) -> str:
        """Draw up to exactly 6, as far as the deck goes: the end phase (ouka-fushin.md:68,
        seed:157-158) or a round's reset (ouka-fushin.md:73, seed:171)."""
        drawn = self._refill()
        if self.phase == P_END:
            self.end_draws += len(drawn)
            prefix = f"T{self.turn} end"
            self._end_turn()
        else:
            self.reset_draws += len(drawn)
            prefix = f"R{self.round} end"
            self._next_round()
        if not self.lines:
            return ""
        return (
            f"{prefix}: draw {card_names(self.prepared, drawn)}" if drawn else f"{prefix}: hand 6"
        )

    def _refill(self) -> list[int]:
        want = HAND_LIMIT - len(self.hand)
        drawn = self.deck[self.pos : self.pos + want] if want > 0 else []
        self.pos += len(drawn)
        self.hand.extend(drawn)
        return drawn

    def _end_turn(self) -> None:
        self.used_counts[self.used_now] += 1
        self.phase = P_START

    def _reclaim(self, card: int) -> str:
        self.discard.remove(card)  # seed:170
        self.hand.append(card)
        return f"R{self.round} end: take back {self.prepared.names[card]}" if self.lines else ""

    def _reset_done(self) -> str:
        if len(self.hand) > HAND_LIMIT:
            self.phase = P_RESET_DISCARD
            return f"R{self.round} end: hand {len(self.hand)}, discard to 6" if self.lines else ""
        return self._end()  # seed:171: draw up to 6

    def _next_round(self) -> None:
        """seed:173: the climax player's opponent starts the next round; the goldfish's turn
        does nothing, so ours comes next."""
        self.round += 1
        self.phase = P_START

    def _finish(self) -> None:
        """The game ends: missions are scored (ouka-fushin.md:19-20, seed:176, 234)."""
        p = self.prepared
        self.over = True
        self.phase = P_OVER
        self.mission_done = []
        self.mission_points = 0
        if self.substitution == SUB_CANNOT:
            self.mission_done = [False] * len(p.missions)
            return
        for _name, types, bonus in p.missions:
            if p.mission_all:
                done = bool(types) and not types & ~self.types
            else:
                done = bool(types & self.types)
            self.mission_done.append(done)
            self.mission_points += bonus if done else 0

    # -- results ----------------------------------------------------------------------------

    def total(self) -> int:
        """Our points: rounds, the substitute's 50 and the missions (ouka-fushin.md:52)."""
        bonus = SUBSTITUTE_BONUS if self.substitution == SUB_DONE else 0
        return sum(self.round_points) + bonus + self.mission_points


# --- set-up --------------------------------------------------------------------------------


def deal(p: OukaPrepared, rng: random.Random) -> OukaState:
    """The set-up (ouka-fushin.md:43-45): the dice-off when ``mirror_match`` says the opponent
    brought our protagonist, the substitution and rebuild (or the loss without a substitute),
    then the shuffle and the opening hand."""
    dice = Dice(rng)
    lose = p.mirror == MIRROR_LOSE
    note = ""
    if p.mirror == MIRROR_DICE:
        while True:  # a tie is rolled again (assumption: the digest says only "dice-off")
            ours, theirs = roll(rng), roll(rng)
            if ours != theirs:
                break
        lose = ours < theirs
        note = f"dice-off {ours} vs {theirs}: "
    if lose and len(p.protagonists) < 2:
        state = OukaState(p, dice, [], 0, SUB_CANNOT)
        state.note = f"{note}no substitute protagonist: the game is lost"
        return state
    prot = 1 if lose else 0
    deck = list(p.piles[prot])
    shuffle(deck, rng)  # the game's shuffle
    if lose:
        note += (
            f"substitute {p.protagonists[1].name}, {p.swapped} character cards swapped,"
            f" +{SUBSTITUTE_BONUS} | "
        )
    elif note:
        note += "the opponent substitutes | "
    return OukaState(p, dice, deck, prot, SUB_DONE if lose else SUB_NONE, note)
