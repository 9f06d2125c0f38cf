"""What the deck page and the editor show beside the list: entries grouped by zone, the
legality panel and the statistics, built once per request in a fixed number of queries.

Queries: the entries (cards, games and pinned printings joined), every printing of those
cards (for the printing selects and the faces), and the printings the checker reads. The
rest is computed in Python, so the count stays the same however many entries a deck has.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from django.db.models import Prefetch
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from catalog.models import Printing
from decks.game_rules import DeckRules, Zone, deck_rules
from decks.legality.check import check_deck
from decks.legality.facts import CardFacts, DeckFacts
from decks.legality.problems import Problem, Severity
from decks.models import Deck, DeckEntry
from decks.selectors import deck_entries, deck_facts
from decks.stats import ChartData, deck_statistics, render_chart

SEVERITY_STYLE = {
    Severity.ERROR: ("danger", "✖", _("Error")),
    Severity.WARNING: ("warning", "⚠", _("Warning")),
    Severity.INFO: ("info", "ℹ", _("Note")),
}


@dataclass(frozen=True)
class CardLink:
    code: str
    name: str
    url: str


@dataclass(frozen=True)
class ProblemView:
    """A problem as the panel shows it, in the page's language."""

    code: str
    severity: str
    style: str
    icon: str
    label: str
    message: str
    fix: str
    cite: str
    zone: str
    cards: list[CardLink]


@dataclass
class ZoneGroup:
    zone: Zone | None
    code: str
    label: str
    entries: list[DeckEntry] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(e.quantity for e in self.entries)

    @property
    def is_deck(self) -> bool:
        return bool(self.zone and self.zone.is_deck)


@dataclass(frozen=True)
class ChartView:
    key: str
    title: str
    svg: SafeString


@dataclass
class DeckPanels:
    deck: Deck
    rules: DeckRules
    facts: DeckFacts
    zones: list[ZoneGroup]
    problems: list[ProblemView]
    charts: list[ChartView] = field(default_factory=list)

    @property
    def errors(self) -> list[ProblemView]:
        return [p for p in self.problems if p.severity == Severity.ERROR]

    @property
    def is_legal(self) -> bool:
        return not self.errors

    @property
    def error_count(self) -> int:
        return len(self.errors)

    @property
    def other_count(self) -> int:
        return len(self.problems) - self.error_count

    @property
    def entry_count(self) -> int:
        return sum(len(z.entries) for z in self.zones)

    @property
    def problem_cards(self) -> set[str]:
        """Codes of the cards an error names: the editor marks their rows."""
        return {c.code for p in self.errors for c in p.cards}


def _card_link(game: str, card: CardFacts, language: str) -> CardLink:
    return CardLink(
        code=card.code,
        name=card.name(language),
        url=reverse("catalog:card", args=[game, card.code]),
    )


def problem_views(problems: list[Problem], rules: DeckRules) -> list[ProblemView]:
    language = get_language() or "en"
    views = []
    for problem in problems:
        style, icon, label = SEVERITY_STYLE[problem.severity]
        views.append(
            ProblemView(
                code=problem.code,
                severity=str(problem.severity),
                style=style,
                icon=icon,
                label=str(label),
                message=problem.message.render(language),
                fix=problem.fix.render(language) if problem.fix else "",
                cite=str(problem.cite),
                zone=rules.zone_label(problem.zone) if problem.zone else "",
                cards=[_card_link(rules.game, c, language) for c in problem.cards],
            )
        )
    return views


def _attach_printings(entries: list[DeckEntry]) -> None:
    """Every printing of the entries' cards, as ``card.shown_printings`` (one query): the
    faces draw an unpinned card as its first printing, the editor offers them all to pin."""
    cards = {e.card_id: e.card for e in entries}
    found: dict[int, list[Printing]] = defaultdict(list)
    printings = (
        Printing.objects.filter(card_id__in=cards)
        .select_related("card_set")
        .order_by("card_set__release_date", "card_set__code", "variant", "collector_number")
    )
    for printing in printings:
        printing.card = cards[printing.card_id]  # spares a query in Printing.is_demo
        found[printing.card_id].append(printing)
    for card in cards.values():
        card.shown_printings = found[card.pk]  # type: ignore[attr-defined]


def _group(entries: list[DeckEntry], rules: DeckRules) -> list[ZoneGroup]:
    groups = {z.code: ZoneGroup(zone=z, code=z.code, label=str(z.label)) for z in rules.zones}
    for entry in entries:
        if entry.zone not in groups:
            # a zone the rules no longer declare: still shown, so the player can move it
            groups[entry.zone] = ZoneGroup(zone=None, code=entry.zone, label=entry.zone)
        groups[entry.zone].entries.append(entry)
    return list(groups.values())


def deck_panels(deck: Deck, *, charts: bool = True) -> DeckPanels:
    """The entries by zone, every legality problem and (optionally) the charts of ``deck``."""
    rules = deck_rules(deck.game.slug)
    computed = deck.computed
    if computed is not None and computed.version == deck.version:
        # the write that answers this request has just read and checked the deck
        entries, facts, problems = computed.entries, computed.facts, computed.problems
    else:
        entries = deck_entries(deck=deck)
        facts = deck_facts(deck=deck, entries=entries)
        problems = check_deck(facts)
    _attach_printings(entries)
    panels = DeckPanels(
        deck=deck,
        rules=rules,
        facts=facts,
        zones=_group(entries, rules),
        problems=problem_views(problems, rules),
    )
    if charts:
        panels.charts = [
            # render_chart escapes card data and embeds no script (decks/stats.py)
            ChartView(key=c.key, title=c.title, svg=mark_safe(_chart_svg(*_chart_key(c))))
            for c in deck_statistics(facts, rules)
        ]
    return panels


ChartKey = tuple[str, str, tuple[str, ...], tuple[tuple[str, tuple[int, ...]], ...]]


def _chart_key(chart: ChartData) -> ChartKey:
    series = tuple((name, tuple(values)) for name, values in chart.series)
    return chart.key, chart.title, tuple(chart.labels), series


@lru_cache(maxsize=512)
def _chart_svg(
    key: str,
    title: str,
    labels: tuple[str, ...],
    series: tuple[tuple[str, tuple[int, ...]], ...],
) -> str:
    """A chart drawn once per distinct content: drawing takes pygal milliseconds per chart,
    and an editor change usually leaves most of a deck's charts as they were. The titles and
    labels are already in the page's language, so the key covers the language too."""
    data = ChartData(key, title, list(labels), [(name, list(values)) for name, values in series])
    return render_chart(data)


# The editor's search results carry their printings the same way as the entries' cards.
PRINTINGS_PREFETCH = Prefetch(
    "printings",
    queryset=Printing.objects.select_related("card_set").order_by(
        "card_set__release_date", "card_set__code", "variant", "collector_number"
    ),
    to_attr="shown_printings",
)
