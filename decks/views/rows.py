"""The editor's entry rows, prepared in Python.

Every editor change redraws the whole list, so a row must be cheap: its URLs, labels and
select options are computed here once per request (URLs from one reversed pattern, aria
labels from one translated template each) and the template only prints them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from decks.game_rules import DeckRules
from decks.models import Deck, DeckEntry
from decks.templatetags.deck_ui import key_attributes, printing_name
from decks.views.panels import DeckPanels, ZoneGroup


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    selected: bool = False


@dataclass(frozen=True)
class EntryRow:
    entry: DeckEntry
    url: str
    card_url: str
    name: str
    detail: str
    has_problem: bool
    #: the zones it may move to (empty when it has nowhere else to go)
    zones: list[Option]
    #: its printings to pin (empty when there is only one and none is pinned)
    printings: list[Option]
    label_fewer: str
    label_more: str
    label_copies: str
    label_zone: str
    label_printing: str
    label_remove: str


@dataclass(frozen=True)
class ZoneRows:
    group: ZoneGroup
    types: str
    rows: list[EntryRow]


def _prefix(url: str, placeholder: str) -> str:
    """The part of a reversed URL before its last segment (the placeholder)."""
    return url[: -len(f"{placeholder}/")]


def _zone_options(entry: DeckEntry, group: ZoneGroup, rules: DeckRules) -> list[Option]:
    takes = [z for z in rules.zones if entry.card.card_type in z.card_types]
    misplaced = group.zone is None or entry.card.card_type not in group.zone.card_types
    if len(takes) <= 1 and not misplaced:
        return []
    options = []
    if misplaced:
        label = _("%(zone)s (does not take this card)") % {"zone": capfirst(group.label)}
        options.append(Option(group.code, label, True))
    options.extend(Option(z.code, capfirst(str(z.label)), z.code == group.code) for z in takes)
    return options


def _printing_options(entry: DeckEntry) -> list[Option]:
    printings = getattr(entry.card, "shown_printings", [])
    if len(printings) < 2 and entry.printing_id is None:
        return []
    options = [Option("", _("Any printing"), entry.printing_id is None)]
    options.extend(
        Option(str(p.pk), printing_name(p, entry.card), p.pk == entry.printing_id)
        for p in printings
    )
    return options


def editor_rows(deck: Deck, panels: DeckPanels) -> list[ZoneRows]:
    rules = panels.rules
    entry_prefix = _prefix(reverse("decks:edit-entry", args=[deck.public_id, 0]), "0")
    card_prefix = _prefix(reverse("catalog:card", args=[deck.game.slug, "_"]), "_")
    templates = {
        "fewer": _("One fewer %(name)s"),
        "more": _("One more %(name)s"),
        "copies": _("Copies of %(name)s"),
        "zone": _("Zone of %(name)s"),
        "printing": _("Printing of %(name)s"),
        "remove": _("Remove %(name)s"),
    }
    flagged = panels.problem_cards
    zones = []
    for group in panels.zones:
        rows = []
        for entry in group.entries:
            card = entry.card
            name = card.name
            labels = {key: text % {"name": name} for key, text in templates.items()}
            detail = " · ".join([card.type_label, *key_attributes(card)])
            rows.append(
                EntryRow(
                    entry=entry,
                    url=f"{entry_prefix}{entry.pk}/",
                    card_url=f"{card_prefix}{card.code}/",
                    name=name,
                    detail=detail,
                    has_problem=card.code in flagged,
                    zones=_zone_options(entry, group, rules),
                    printings=_printing_options(entry),
                    label_fewer=labels["fewer"],
                    label_more=labels["more"],
                    label_copies=labels["copies"],
                    label_zone=labels["zone"],
                    label_printing=labels["printing"],
                    label_remove=labels["remove"],
                )
            )
        types = ", ".join(rules.type_label(t) for t in group.zone.card_types) if group.zone else ""
        zones.append(ZoneRows(group=group, types=types, rows=rows))
    return zones
