"""Every kind of /contribute/ page, with the proposals that make each one show what it shows:
for the Japanese-page check (tests/test_every_page_in_japanese.py) and the browser walk
(tests/browser/test_every_page.py).

The proposals are made from the game's own sheet template, so they pass the importer's
checks for any game: one waiting for review by another player (an editor's page with its
decision forms), one of the author's waiting (their proposal page), a card and a sheet sent
back for a change (the two resubmit pages) and a card approved by an editor (its review page
with the applied changes, and the card's page with its history).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from catalog.models import Card, CardSet, Game
from catalog.spec import GameSpec, all_games, get_game
from contributions.models import Proposal
from contributions.payload import bundle_to_data
from contributions.services import proposal_approve, proposal_ask, proposal_submit
from contributions.sheet import sheet_check, sheet_template

SOURCE = {"source_kind": "in_hand", "source_detail": "my copy of the first set"}


@dataclass(frozen=True)
class ContributePages:
    #: kind -> path, for the author of the proposals
    player: dict[str, str]
    #: kind -> path, for an editor who is not their author
    editor: dict[str, str]


def _payload(spec: GameSpec, set_code: str, first: int, last: int | None) -> dict[str, Any]:
    """The template's example cards ``[first:last]``, printed in ``set_code``."""
    result = sheet_check(sheet_template(spec.slug, set_code=set_code), game_slug=spec.slug)
    assert result.bundle is not None, result.problems
    data = bundle_to_data(result.bundle)
    data["cards"] = data["cards"][first:last]
    data["sets"], data["products"] = [], []
    return data


def _submit(author: Any, game: Game, kind: str, payload: dict[str, Any], title: str) -> Proposal:
    return proposal_submit(
        author=author, game=game, kind=kind, payload=payload, title=title, **SOURCE
    )


def form_pages(spec: GameSpec, *, every_type: bool) -> dict[str, str]:
    """A game's proposal forms: its card types, a card of each type (or the first), a set, the
    sheets; a correction of a card and the names of one lacking a name."""
    slug = spec.slug
    types = spec.card_types if every_type else spec.card_types[:1]
    pages = {
        f"{slug} propose a card: types": f"/contribute/{slug}/card/",
        **{f"{slug} propose a card: {t.code}": f"/contribute/{slug}/card/{t.code}/" for t in types},
        f"{slug} propose a set": f"/contribute/{slug}/set/",
        f"{slug} card sheet": f"/contribute/{slug}/sheet/",
        f"{slug} names sheet": f"/contribute/{slug}/names-sheet/",
    }
    cards = Card.objects.filter(game__slug=slug, owner=None).order_by("code")
    card = cards.first()
    if card is not None:
        pages[f"{slug} report a mistake"] = f"/contribute/{slug}/cards/{card.code}/correct/"
    unnamed = cards.filter(Q(name_en="") | Q(name_ja="")).first()
    if unnamed is not None:
        pages[f"{slug} add a name"] = f"/contribute/{slug}/cards/{unnamed.code}/names/"
    return pages


def contribute_pages(
    *, slug: str, author: Any, other: Any, decider: Any, every_game: bool = False
) -> ContributePages:
    """The pages, after making the proposals in game ``slug`` (its catalog imported):
    ``author``'s, ``other``'s, and ``decider`` (an editor) asking for changes and approving."""
    spec = get_game(slug)
    game = Game.objects.get(slug=slug)
    card_set = CardSet.objects.filter(game=game, owner=None).order_by("code").first()
    assert card_set is not None, f"{slug} has no set to propose cards in"

    waiting = _submit(author, game, "sheet", _payload(spec, card_set.code, 0, None), "All")
    others = _submit(other, game, "sheet", _payload(spec, card_set.code, 0, None), "Theirs")
    asked_card = _submit(author, game, "card", _payload(spec, card_set.code, 0, 1), "One")
    asked_sheet = _submit(author, game, "sheet", _payload(spec, card_set.code, 1, None), "Rest")
    approved = _submit(author, game, "card", _payload(spec, card_set.code, -1, None), "Last")
    for proposal in (asked_card, asked_sheet):
        proposal_ask(proposal=proposal, editor=decider, note="Which printing is it?")
    changes = proposal_approve(proposal=approved, editor=decider, note="Checked.")
    card_code = next(c.object_code for c in changes if c.object_kind == "card")

    games = all_games() if every_game else [spec]
    player = {"contribute (my proposals)": "/contribute/"}
    for each in games:
        player.update(form_pages(each, every_type=every_game))
    player.update(
        {
            "my proposal": f"/contribute/proposals/{waiting.pk}/",
            "my approved proposal": f"/contribute/proposals/{approved.pk}/",
            "change and send again": f"/contribute/proposals/{asked_card.pk}/resubmit/",
            "send a sheet again": f"/contribute/proposals/{asked_sheet.pk}/sheet/",
        }
    )
    editor = {
        "review": "/contribute/review/",
        "review queue": f"/contribute/review/{slug}/",
        "review a proposal": f"/contribute/review/proposals/{others.pk}/",
        "review an approved proposal": f"/contribute/review/proposals/{approved.pk}/",
        "card with its history": f"/games/{slug}/cards/{card_code}/",
        "card history page": f"/contribute/{slug}/cards/{card_code}/history/",
        "merge duplicate cards": f"/contribute/review/{slug}/merge/",
    }
    return ContributePages(player=player, editor=editor)
