"""A tuning's move applied, as the page's message and the API's answer say it: the move in
words, the deck's new revision and the copies of the added card the player lacks.

The copies are counted by the collection app's own report of the deck (``collection.selectors``,
two queries), imported when a move is applied: the one place the simulator asks the collection
anything, and it reads no collection table itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from decks.models import Deck
from simulator.models import TuningJob
from simulator.tuning.report import CardName, tuning_report
from simulator.tuning.services import tuning_apply


def move_text(cut: CardName | None, add: CardName | None) -> str:
    """ "cut A → add B", "one more B" or "one fewer A", in the request's language."""
    if cut is not None and add is not None:
        return _("cut %(cut)s → add %(add)s") % {"cut": cut.name, "add": add.name}
    if add is not None:
        return _("one more %(card)s") % {"card": add.name}
    if cut is not None:
        return _("one fewer %(card)s") % {"card": cut.name}
    return _("no change")


@dataclass(frozen=True)
class Outcome:
    deck: Deck
    revision: int | None
    move: str
    #: copies of the added card the deck now needs that the player's collection lacks
    missing: int
    #: the sentence saying so ("" when the move adds no card)
    note: str

    @property
    def message(self) -> str:
        text = _("Applied “%(move)s”: the deck is now at revision %(number)s.") % {
            "move": self.move,
            "number": self.revision,
        }
        return f"{text} {self.note}".strip()


def _missing(deck: Deck, card: CardName, zone: str, user: Any) -> int:
    from collection.selectors import deck_collection_report

    report = deck_collection_report(deck=deck, viewer=user)
    return sum(
        e.missing for e in report.entries.values() if e.card_code == card.code and e.zone == zone
    )


def missing_note(card: CardName | None, missing: int) -> str:
    if card is None:
        return ""
    if not missing:
        return _("Your collection has every copy of %(card)s the deck needs.") % {"card": card.name}
    return ngettext(
        "Your collection lacks %(count)s copy of %(card)s.",
        "Your collection lacks %(count)s copies of %(card)s.",
        missing,
    ) % {"count": missing, "card": card.name}


def tuning_apply_outcome(*, job: TuningJob, index: Any, user: Any) -> Outcome:
    """Apply move ``index`` (``tuning_apply``: a RunError when it cannot be) and say what it
    did. The caller has checked the user owns the deck."""
    deck = tuning_apply(job=job, index=index, user=user)
    row = next(r for r in tuning_report(job).rows if r.index == index)
    revision = deck.revisions.order_by("-number").values_list("number", flat=True).first()
    zone = str(job.deck_data["baseline"]["draw_zone"])
    missing = _missing(deck, row.add, zone, user) if row.add is not None else 0
    return Outcome(
        deck=deck,
        revision=revision,
        move=move_text(row.cut, row.add),
        missing=missing,
        note=missing_note(row.add, missing),
    )
