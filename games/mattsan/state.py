"""The Mattsan goldfish game's state: the state API (legal_actions/apply), the policy's
helpers and the mechanics (draw, soul charge, placing, trumps, the damage processing of
mattsan.md:30-36) that the state API and the fast loop share (pure Python)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.mattsan.constants import (
    ATTACK,
    BENCH_SLOTS,
    DUMMY,
    END,
    K_TRUMP,
    K_UNIT,
    P_MAIN,
    P_OVER,
    P_START,
    PLACE,
    START,
    T_ALL,
    T_BATTLEFIELD,
    T_NONE,
    TRUMP,
    US,
    Action,
)
from games.mattsan.metrics import (
    M_LOSS_DECK_OUT,
    M_LOSS_NO_UNIT,
    M_TURN_LIMIT,
    M_WIN_DECK_OUT,
    M_WIN_LINE_UP,
)
from simulator.engine.engine import GameState

if TYPE_CHECKING:
    from games.mattsan.prepared import MattsanPrepared


class MattsanState(GameState):
    """One goldfish game. The state API (legal_actions/apply) and the fast loop both run the
    mechanics below, so they play the same game; only the fast loop skips checks and text."""

    def __init__(self, prepared: MattsanPrepared, deck: list[int]) -> None:
        p = prepared
        self.prepared = p
        self.deck = deck  # never changed after the shuffle: copies may share it
        self.pos = min(p.opening, len(deck))  # the next card to draw
        self.hand = deck[: self.pos]
        self.turn = 0
        self.phase = P_START
        self.field = -1  # our battlefield unit (card index), -1: empty
        self.field_hp = 0
        self.bench: list[int] = []  # our bench units (card indexes)
        self.bench_hp: list[int] = []
        self.soul = 0  # soul charge cards in the area
        self.spent = 0  # of which turned sideways
        self.stood = False  # a unit of ours has stood on the battlefield
        # the dummy's line-up: index 0 is its battlefield unit, then its bench in order
        self.d_ids = [i + 1 for i, hp in enumerate(p.dummy_line_up) if hp > 0]
        self.d_hp = [hp for hp in p.dummy_line_up if hp > 0]
        self.d_deck = p.dummy_deck
        self.outcome = ""
        self.simultaneous = False
        self.drawn = self.pos
        self.soul_drawn = 0
        self.trumps_cast = 0
        self.first_trump = 0
        self.dummy_defeated = 0
        self.souls: list[int] = []  # soul charge at the end of each turn
        self.casts: list[int] = []  # trumps cast by the end of each turn
        self.no_unit_turns: list[int] = []  # turns whose main phase had no unit in hand

    def copy(self) -> MattsanState:
        clone = object.__new__(MattsanState)
        clone.__dict__.update(self.__dict__)
        for name in ("hand", "bench", "bench_hp", "d_ids", "d_hp", "souls", "casts"):
            setattr(clone, name, list(getattr(self, name)))
        clone.no_unit_turns = list(self.no_unit_turns)
        return clone

    # --- the state API ---------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == P_OVER

    def legal_actions(self) -> list[Action]:
        if self.phase == P_OVER:
            return []
        if self.phase == P_START:
            return [(START, -1)]
        p = self.prepared
        kind = p.kind
        units = sorted({c for c in self.hand if kind[c] == K_UNIT})
        if self.field < 0 and units:
            # the battlefield must hold a unit while one can be put there (mattsan.md:17)
            return [(PLACE, c) for c in units]
        actions: list[Action] = []
        if len(self.bench) < BENCH_SLOTS:  # mattsan.md:14
            actions.extend((PLACE, c) for c in units)
        free = self.soul - self.spent
        cost = p.cost
        actions.extend(
            (TRUMP, c)
            for c in sorted({c for c in self.hand if kind[c] == K_TRUMP})
            if cost[c] <= free
        )
        actions.append((ATTACK, -1) if self.field >= 0 else (END, -1))
        return actions

    def apply(self, action: Action) -> str:
        if action not in self.legal_actions():
            raise ValueError(f"not a legal action now: {action!r}")
        what, card = action
        if what == START:
            return self.start_turn(True)
        if what == PLACE:
            return self.place(card, True)
        if what == TRUMP:
            return self.cast(card, True)
        return self.end_turn(True)

    # --- policy helpers (the engine's choose and the fast loop) ----------------------------

    def best_unit(self) -> int:
        """The unit in hand the policy places next (-1: none)."""
        rank = self.prepared.unit_rank
        best, top = -1, 0
        for c in self.hand:
            r = rank[c]
            if r > top:
                best, top = c, r
        return best

    def best_trump(self) -> int:
        """The trump in hand the policy casts next: the most expensive it can pay for."""
        p = self.prepared
        rank, cost = p.trump_rank, p.cost
        free = self.soul - self.spent
        best, top = -1, 0
        for c in self.hand:
            r = rank[c]
            if r > top and cost[c] <= free:
                best, top = c, r
        return best

    # --- the mechanics ---------------------------------------------------------------------

    def start_turn(self, log: bool) -> str:
        """Draw, soul charge and the check that a unit can stand (mattsan.md:17-19)."""
        p = self.prepared
        self.turn = turn = self.turn + 1
        names = p.names
        if p.soul_untaps:
            self.spent = 0  # assumption: spent soul stands up at our turn start
        deck = self.deck
        if self.pos >= len(deck):
            # mattsan.md:17-18, seed:340: drawing from an empty deck loses
            self._finish(M_LOSS_DECK_OUT)
            return f"T{turn} draw: the deck is empty → LOSS (deck-out)" if log else ""
        card = deck[self.pos]
        self.pos += 1
        self.drawn += 1
        self.hand.append(card)
        charged = self._soul_charge()  # mattsan.md:19: soul charge follows the draw
        line = ""
        if log:
            line = f"T{turn} draw {names[card]}"
            if charged:
                line += "; soul charge " + ", ".join(names[c] for c in charged)
            line += f" (soul {self.soul - self.spent}/{self.soul})"
        kind = p.kind
        if not any(kind[c] == K_UNIT for c in self.hand):
            self.no_unit_turns.append(turn)
            if self.field < 0 and (self.stood or not p.wait_for_unit):
                # mattsan.md:17: no unit can be put on our battlefield
                self._finish(M_LOSS_NO_UNIT)
                return line + " → no unit to put on the battlefield: LOSS" if log else ""
        self.phase = P_MAIN
        if log:
            line += " | hand: " + (", ".join(names[c] for c in self.hand) or "-")
        return line

    def _soul_charge(self) -> list[int]:
        """Move the turn's soul charge cards to the soul charge area; returns them."""
        p = self.prepared
        n = p.soul_charge
        if not n:
            return []
        if not p.charge_from_hand:
            # from the top of the deck; an empty deck charges nothing (not a draw)
            got = self.deck[self.pos : self.pos + n]
            self.pos += len(got)
            self.soul += len(got)
            return got
        hand, rank = self.hand, p.charge_rank
        got = []
        for _ in range(n):
            best, low = -1, 1 << 30
            for c in hand:
                r = rank[c]
                if 0 < r < low:
                    best, low = c, r
            if best < 0:
                break  # only units left: the policy never charges a unit
            hand.remove(best)
            got.append(best)
        self.soul += len(got)
        return got

    def place(self, card: int, log: bool) -> str:
        """A unit from hand, face up: to the battlefield if empty, else the bench."""
        p = self.prepared
        self.hand.remove(card)
        if self.field < 0:
            self.field, self.field_hp, self.stood = card, p.hp[card], True
            return (
                f"T{self.turn} place {p.names[card]} on the battlefield (HP {p.hp[card]})"
                if log
                else ""
            )
        self.bench.append(card)
        self.bench_hp.append(p.hp[card])
        if not log:
            return ""
        return (
            f"T{self.turn} place {p.names[card]} on the bench "
            f"(HP {p.hp[card]}, {len(self.bench)}/{BENCH_SLOTS})"
        )

    def cast(self, card: int, log: bool) -> str:
        """A trump, paid by turning soul charge cards sideways (mattsan.md:15-16)."""
        p = self.prepared
        self.hand.remove(card)
        self.spent += p.cost[card]
        self.trumps_cast += 1
        if not self.first_trump:
            self.first_trump = self.turn
        parts: list[str] | None = None
        if log:
            parts = [
                f"T{self.turn} cast {p.names[card]} (cost {p.cost[card]}, "
                f"soul {self.soul - self.spent}/{self.soul})"
            ]
        if p.trump_damage:
            self._process(US, p.trump_on_dummy, p.trump_on_us, p.trump_damage, parts)
        return "".join(parts) if parts is not None else ""

    def end_turn(self, log: bool) -> str:
        """The turn-ending action (mattsan.md:21), then the dummy's turn."""
        p = self.prepared
        parts: list[str] | None = [] if log else None
        if self.field >= 0:
            if parts is not None:
                parts.append(f"T{self.turn} attack with {p.names[self.field]}")
            self._process(US, T_BATTLEFIELD, T_NONE, p.attack_damage, parts)
        elif parts is not None:
            parts.append(f"T{self.turn} end the turn: no unit on the battlefield")
        if self.phase != P_OVER:
            self._close_turn()
            if self.turn >= p.max_turns:
                self._finish(M_TURN_LIMIT)
                if parts is not None:
                    parts.append(f" → turn limit ({p.max_turns})")
            else:
                self._dummy_turn(parts)
                if self.phase != P_OVER:
                    self.phase = P_START
        return "".join(parts) if parts is not None else ""

    def _dummy_turn(self, parts: list[str] | None) -> None:
        """The goldfish's turn: a draw (mattsan.md:19) and, if set, one attack."""
        p = self.prepared
        if self.d_deck <= 0:
            self._finish(M_WIN_DECK_OUT)  # mattsan.md:17-18
            if parts is not None:
                parts.append(" | dummy draw: its deck is empty → WIN (dummy deck-out)")
            return
        self.d_deck -= 1
        if parts is not None:
            parts.append(f" | dummy draws (deck {self.d_deck})")
        if p.dummy_damage and self.field >= 0:
            if parts is not None:
                parts.append(f" and attacks {p.names[self.field]}")
            self._process(DUMMY, T_NONE, T_BATTLEFIELD, p.dummy_damage, parts)

    def _process(
        self, origin: int, on_dummy: int, on_us: int, amount: int, parts: list[str] | None
    ) -> None:
        """One damage processing (mattsan.md:30-36): damage to every target at once, defeats
        one by one, soul draws together, re-placing; then the loss conditions are judged."""
        p = self.prepared
        names = p.names
        d_hp, d_ids = self.d_hp, self.d_ids
        # 1. all the damage at once (mattsan.md:34, seed:499)
        n_dummy = len(d_hp) if on_dummy == T_ALL else min(on_dummy, len(d_hp))
        for i in range(n_dummy):
            d_hp[i] -= amount
        ours_hit = on_us != T_NONE and self.field >= 0
        if ours_hit:
            self.field_hp -= amount
        n_bench = len(self.bench_hp) if on_us == T_ALL else 0
        for i in range(n_bench):
            self.bench_hp[i] -= amount
        if parts is not None:
            hit = [f"D{d_ids[i]} {d_hp[i] + amount}→{max(d_hp[i], 0)}" for i in range(n_dummy)]
            if ours_hit:
                hit.append(f"{names[self.field]} {self.field_hp + amount}→{max(self.field_hp, 0)}")
            hit.extend(
                f"{names[self.bench[i]]} {self.bench_hp[i] + amount}→{max(self.bench_hp[i], 0)}"
                for i in range(n_bench)
            )
            parts.append(f": {amount} damage to " + ", ".join(hit))
        # 2. defeats at 0 HP or less (mattsan.md:37), in the order of mattsan.md:34
        d_gone = [i for i in range(n_dummy) if d_hp[i] <= 0]
        field_gone = ours_hit and self.field_hp <= 0
        b_gone = [i for i in range(n_bench) if self.bench_hp[i] <= 0]
        if not d_gone and not field_gone and not b_gone:
            return
        if parts is not None:
            parts.append(
                "; defeated: " + ", ".join(self._defeat_order(origin, d_gone, field_gone, b_gone))
            )
        soul = p.soul
        our_draw = 0
        if field_gone:
            our_draw += soul[self.field]
            self.field = -1
        for i in reversed(b_gone):
            our_draw += soul[self.bench[i]]
            del self.bench[i], self.bench_hp[i]
        for i in reversed(d_gone):
            del d_hp[i], d_ids[i]
        self.dummy_defeated += len(d_gone)
        # the soul value decides the draw (mattsan.md:31); how exactly is a parameter (23)
        our_draw *= p.soul_draw
        dummy_draw = len(d_gone) * p.dummy_soul * p.soul_draw
        # 3. soul draws together, the originator first (mattsan.md:35, seed:503)
        we_out = dummy_out = False
        for side in (origin, 1 - origin):
            if side == US and our_draw:
                we_out = self._soul_draw_us(our_draw, parts)
            elif side == DUMMY and dummy_draw:
                dummy_out = dummy_draw > self.d_deck  # seed:340: a draw from 0 cards loses
                self.d_deck = max(self.d_deck - dummy_draw, 0)
                if parts is not None:
                    parts.append(
                        f"; dummy soul draw {dummy_draw}"
                        + (": deck-out" if dummy_out else f" (deck {self.d_deck})")
                    )
        # 4. re-placing on each emptied battlefield, the originator first (mattsan.md:36)
        we_stuck = dummy_stuck = False
        for side in (origin, 1 - origin):
            if side == US and field_gone:
                we_stuck = not self._replace(parts)
            elif side == DUMMY and d_gone and d_gone[0] == 0:
                if d_hp:
                    if parts is not None:
                        parts.append(f"; D{d_ids[0]} onto the battlefield (HP {d_hp[0]})")
                else:
                    dummy_stuck = True
        # 5. the loss conditions (mattsan.md:17-18); both at once: the originator loses (35-36)
        we_lose = we_out or we_stuck
        dummy_loses = dummy_out or dummy_stuck
        if we_lose and dummy_loses:
            self.simultaneous = origin == US
            if parts is not None:
                parts.append(" → both players meet a loss condition: the originator loses")
            if origin == US:
                dummy_loses = False
            else:
                we_lose = False
        if we_lose:
            self._finish(M_LOSS_DECK_OUT if we_out else M_LOSS_NO_UNIT)
            if parts is not None:
                why = "deck-out" if we_out else "no unit to put on the battlefield"
                parts.append(f" → LOSS ({why})")
        elif dummy_loses:
            self._finish(M_WIN_LINE_UP if dummy_stuck else M_WIN_DECK_OUT)
            if parts is not None:
                why = "the dummy line-up is defeated" if dummy_stuck else "dummy deck-out"
                parts.append(f" → WIN ({why}, turn {self.turn})")

    def _defeat_order(
        self, origin: int, d_gone: list[int], field_gone: bool, b_gone: list[int]
    ) -> list[str]:
        """The defeated units' names in the order of mattsan.md:34 (for the transcript):
        enemy battlefield → own battlefield → enemy bench → own bench, benches alternating."""
        names = self.prepared.names
        dummy_field = [f"D{self.d_ids[0]}"] if d_gone and d_gone[0] == 0 else []
        dummy_bench = [f"D{self.d_ids[i]}" for i in d_gone if i > 0]
        our_field = [names[self.field]] if field_gone else []
        our_bench = [names[self.bench[i]] for i in b_gone]
        if origin == US:
            first, second = (dummy_field, dummy_bench), (our_field, our_bench)
        else:
            first, second = (our_field, our_bench), (dummy_field, dummy_bench)
        order = [*first[0], *second[0]]
        for i in range(max(len(first[1]), len(second[1]))):
            order.extend(bench[i] for bench in (first[1], second[1]) if i < len(bench))
        return order

    def _soul_draw_us(self, n: int, parts: list[str] | None) -> bool:
        """Our soul draw of ``n`` cards; True when a draw found the deck empty (seed:340)."""
        deck = self.deck
        got = deck[self.pos : self.pos + n]
        self.pos += len(got)
        self.hand.extend(got)
        self.drawn += len(got)
        self.soul_drawn += len(got)
        out = len(got) < n
        if parts is not None:
            shown = ", ".join(self.prepared.names[c] for c in got) or "-"
            parts.append(f"; our soul draw {n}: {shown}" + (": deck-out" if out else ""))
        return out

    def _replace(self, parts: list[str] | None) -> bool:
        """Re-place a unit on our emptied battlefield (bench or hand first, ``replace_from``);
        False when there is none (mattsan.md:17)."""
        p = self.prepared
        rank = p.unit_rank
        sources = ("bench", "hand") if p.replace_from_bench else ("hand", "bench")
        for source in sources:
            if source == "bench" and self.bench:
                i = max(range(len(self.bench)), key=lambda j: rank[self.bench[j]])
                self.field, self.field_hp = self.bench.pop(i), self.bench_hp.pop(i)
            elif source == "hand":
                card = self.best_unit()
                if card < 0:
                    continue
                self.hand.remove(card)
                self.field, self.field_hp = card, p.hp[card]
            else:
                continue
            if parts is not None:
                parts.append(
                    f"; {p.names[self.field]} from the {source} onto the battlefield "
                    f"(HP {self.field_hp})"
                )
            return True
        return False

    def _close_turn(self) -> None:
        """The per-turn values at the end of a turn (once per turn)."""
        if len(self.souls) < self.turn:
            self.souls.append(self.soul)
            self.casts.append(self.trumps_cast)

    def _finish(self, outcome: str) -> None:
        self._close_turn()
        self.outcome = outcome
        self.phase = P_OVER
