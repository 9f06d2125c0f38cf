"""Issue 21, "Done when", end to end through the site and the API, on the real database with
real commits (so the catalog version moves and cached pages refresh as in production):

a player proposes a new set, then its 120 cards by filling the game's sheet template; an editor
reviews the sheet row by row and asks for one row to be corrected; the player uploads the
corrected sheet; the editor approves it. At once the cards are in the catalog's search (and a
set page), in the deck editor (another player adds one to a deck) and in the
collection (and adds one there); their history (card page and API) shows the proposal, the
approval and the source. Then the editor reverts the proposal: the cards are gone from search,
from the visitor's cached set page and from the deck editor; the two that a deck and a
collection hold are withdrawn rather than deleted, so the deck says so plainly (its page, its
legality, the API) and the collection keeps its item, marked.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils.html import escape

from catalog.models import Card, CardSet, Game, Printing
from collection.models import CollectionItem
from contributions.history import WITHDRAWN_BY_PROPOSAL
from contributions.models import CatalogChange, Proposal, ProposalEvent
from decks.models import Deck, DeckEntry
from tests.conftest import _client_for
from tests.contributions.test_pages_propose_sheet import confirmation

# real commits: the on-commit hooks (the catalog version) run as they do in production
pytestmark = pytest.mark.django_db(transaction=True)

GAME = "monster-hunter"
SET = "MHX"
ROWS = 120
#: the row the editor asks to correct: its English name was mistyped (line 58 of the sheet)
WRONG = 56
WRONG_NAME, RIGHT_NAME, RIGHT_NAME_JA = "Rathalso Plate", "Rathalos Plate", "リオレウスの鎧"
#: the card the second player puts in a deck, and the one they add to their collection
DECK_CARD, OWNED_CARD = "MHX-005", f"MHX-{WRONG + 1:03d}"
SOURCE = {
    "source_kind": "publisher_page",
    "source_detail": "The official MHX card list",
    "source_url": "https://example.com/mhx/cards",
}
SOURCE_TEXT = "The official MHX card list — https://example.com/mhx/cards"
WORDS = ("Iron", "Bone", "Wyvern", "Flame", "Frost", "Thunder", "Dragon", "Storm", "Shadow")
THINGS = ("Blade", "Hammer", "Lance", "Bow", "Mail", "Helm", "Potion", "Bomb", "Fang", "Claw")


def _code(i: int) -> str:
    return f"{SET}-{i + 1:03d}"


def _name(i: int, *, corrected: bool) -> tuple[str, str]:
    if i == WRONG:
        return (RIGHT_NAME if corrected else WRONG_NAME), RIGHT_NAME_JA
    return f"{WORDS[i % 9]} {THINGS[(i // 9) % 10]} {i}", f"遠征のカード{i}"


def filled_sheet(template: str, *, corrected: bool) -> str:
    """The template as a player fills it: one row per card, each copying the template's
    example row of its type (every type in turn), the example rows themselves replaced."""
    examples = list(csv.DictReader(io.StringIO(template.removeprefix("\ufeff"))))
    assert [row["type"] for row in examples] == ["hunter", "monster", "weapon", "armor", "item"]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(examples[0]), lineterminator="\r\n")
    writer.writeheader()
    for i in range(ROWS):
        name_en, name_ja = _name(i, corrected=corrected)
        row = dict(examples[i % len(examples)])
        row.update(code=_code(i), name_en=name_en, name_ja=name_ja, number=f"{i + 1:03d}")
        writer.writerow(row)
    return "\ufeff" + out.getvalue()


def upload(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("mhx.csv", text.encode("utf-8"), content_type="text/csv")


def found_codes(html: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', html))


@pytest.fixture
def editor_client(editor: Any) -> Client:
    return _client_for(editor)


def test_a_120_card_set_goes_from_a_players_sheet_to_search_decks_and_collections_and_back(
    game: Game,
    owner: Any,
    editor: Any,
    stranger: Any,
    owner_client: Client,
    stranger_client: Client,
    editor_client: Client,
) -> None:
    visitor = Client()

    # --- the set first: a sheet's cards are printed in a set the catalog already has ---------
    sent = owner_client.post(
        f"/contribute/{GAME}/set/",
        {
            "code": SET,
            "name_en": "Hunters' Expedition",
            "name_ja": "狩人の遠征",
            "kind": "expansion",
            "release_precision": "day",
            **SOURCE,
        },
    )
    assert sent.status_code == 302, sent.content.decode()[-2000:]
    set_proposal = Proposal.objects.get(kind="set")
    assert (
        editor_client.post(f"/contribute/review/proposals/{set_proposal.pk}/approve/").status_code
        == 302
    )
    set_page = f"/games/{GAME}/sets/{SET}/"
    assert found_codes(visitor.get(set_page).content.decode()) == set()

    # --- the player downloads the template and fills it in a spreadsheet --------------------
    template = owner_client.get(f"/contribute/{GAME}/sheet/template.csv?set={SET}")
    assert template.status_code == 200
    sheet = filled_sheet(template.content.decode("utf-8"), corrected=False)
    preview = owner_client.post(
        f"/contribute/{GAME}/sheet/",
        {"step": "check", "file": upload(sheet), "title": "Hunters' Expedition, all 120", **SOURCE},
    )
    assert preview.status_code == 200
    assert 'id="sheet-problems"' not in preview.content.decode()
    assert not Proposal.objects.filter(kind="sheet").exists()  # a preview proposes nothing
    confirmed = owner_client.post(f"/contribute/{GAME}/sheet/", confirmation(preview))
    proposal = Proposal.objects.get(kind="sheet")
    assert confirmed["Location"] == f"/contribute/proposals/{proposal.pk}/"
    assert len(proposal.payload["cards"]) == ROWS

    # --- the editor reviews it row by row and asks for one row to be corrected --------------
    queue = editor_client.get(f"/contribute/review/{GAME}/").content.decode()
    assert f'data-proposal="{proposal.pk}"' in queue
    review = f"/contribute/review/proposals/{proposal.pk}/"
    # a new card and its printing per row, 100 diff rows to a page
    pages = [editor_client.get(f"{review}?page={n}").content.decode() for n in (1, 2, 3)]
    assert [p.count('class="card mb-2 diff-row"') for p in pages] == [100, 100, 40]
    assert WRONG_NAME in "".join(pages)
    assert 'class="list-unstyled payload-problems"' not in pages[0]  # the checks pass
    assert 'id="duplicates-title"' not in pages[0]
    note = f"Line {WRONG + 2}: the card is “{RIGHT_NAME}”, as on the publisher's list."
    asked = editor_client.post(f"{review}ask/", {"note": note})
    assert asked.status_code == 302
    assert not Card.objects.filter(code__startswith=f"{SET}-").exists()

    # --- the player reads the note, corrects the row and sends the sheet again --------------
    mine = owner_client.get(f"/contribute/proposals/{proposal.pk}/").content.decode()
    assert escape(note) in mine and 'id="resubmit-link"' in mine
    again_url = owner_client.get(f"/contribute/proposals/{proposal.pk}/resubmit/")["Location"]
    corrected = filled_sheet(template.content.decode("utf-8"), corrected=True)
    again = owner_client.post(again_url, {"step": "check", "file": upload(corrected)})
    assert again.status_code == 200 and 'id="sheet-confirm"' in again.content.decode()
    resent = owner_client.post(again_url, {**confirmation(again), "note": "Line 58 corrected."})
    assert resent["Location"] == f"/contribute/proposals/{proposal.pk}/"

    # --- the editor approves: every row, one action --------------------------------------------
    assert RIGHT_NAME in editor_client.get(review).content.decode()
    approved = editor_client.post(f"{review}approve/", {"note": "Checked against the list."})
    assert approved.status_code == 302
    proposal.refresh_from_db()
    assert (proposal.state, proposal.decided_by) == (Proposal.State.APPROVED, editor)
    assert list(proposal.events.order_by("pk").values_list("action", "actor__username")) == [
        (ProposalEvent.Action.SUBMITTED, "owner"),
        (ProposalEvent.Action.ASKED, "editor"),
        (ProposalEvent.Action.RESUBMITTED, "owner"),
        (ProposalEvent.Action.APPROVED, "editor"),
    ]
    mhx = CardSet.objects.get(game=game, code=SET)
    cards = {
        c.code: (c.card_type, c.name_en, c.name_ja)
        for c in Card.objects.filter(game=game, code__startswith=f"{SET}-")
    }
    types = ("hunter", "monster", "weapon", "armor", "item")
    assert cards == {_code(i): (types[i % 5], *_name(i, corrected=True)) for i in range(ROWS)}
    assert sorted(
        Printing.objects.filter(card_set=mhx).values_list("card__code", "collector_number")
    ) == [(_code(i), f"{i + 1:03d}") for i in range(ROWS)]
    assert CatalogChange.objects.filter(proposal=proposal).count() == 2 * ROWS

    # --- at once: the catalog's search, the set page (a visitor's grid is cached from now on,
    # by the catalog version: the revert below must move it) ------------------------------------
    assert {DECK_CARD, _code(0)} <= found_codes(visitor.get(set_page).content.decode())
    search = f"/games/{GAME}/?q="
    assert found_codes(visitor.get(search + "Rathalos").content.decode()) == {OWNED_CARD}
    assert found_codes(visitor.get(search + RIGHT_NAME_JA).content.decode()) == {OWNED_CARD}

    # --- at once: the deck editor finds a card and adds it ----------------------------------
    made = stranger_client.post(
        "/decks/new/", {"game": GAME, "name": "Expedition", "visibility": "private"}
    )
    assert made.status_code == 302, made.content.decode()[-2000:]
    deck = Deck.objects.get(owner=stranger)
    deck_name = Card.objects.get(code=DECK_CARD).name_en
    results = stranger_client.get(
        f"/decks/{deck.public_id}/edit/search/?q={deck_name}", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert DECK_CARD in found_codes(results) and 'data-add-to="main"' in results
    found_in_editor = found_codes(results)
    found_in_catalog = found_codes(visitor.get(search + deck_name).content.decode())
    assert DECK_CARD in found_in_catalog
    added = stranger_client.post(
        f"/decks/{deck.public_id}/edit/add/",
        {"version": deck.version, "card": DECK_CARD, "zone": "main"},
        HTTP_HX_REQUEST="true",
    )
    assert added.status_code == 200, added.content.decode()[-2000:]
    assert list(
        DeckEntry.objects.filter(deck=deck).values_list("card__code", "zone", "quantity")
    ) == [(DECK_CARD, "main", 1)]

    # --- at once: the collection adds a printing of one -------------------------------------
    owned = Printing.objects.get(card__code=OWNED_CARD)
    kept = stranger_client.post(
        "/collection/add/",
        {"printing": owned.pk, "quantity": "2", "condition": "near_mint", "finish": "normal",
         "language": "ja", "binder": ""},
    )  # fmt: skip
    assert kept.status_code == 302, kept.content.decode()[-2000:]
    assert list(
        CollectionItem.objects.filter(owner=stranger).values_list("card__code", "quantity")
    ) == [(OWNED_CARD, 2)]

    # --- the history: the card page and the API ----------------------------------------------
    card_page = visitor.get(f"/games/{GAME}/cards/{OWNED_CARD}/").content.decode()
    change = CatalogChange.objects.get(object_kind="card", object_code=OWNED_CARD)
    # the change's entry: up to the next change's, or the end of the history
    entry = re.search(
        rf'data-change="{change.pk}">(.*?)(?:data-change=|</section>)', card_page, re.S
    )
    assert entry, card_page[-4000:]
    said = re.sub(r"\s+", " ", entry.group(1))
    assert "Proposed by owner" in said and "approved by editor" in said
    assert f"Source: {escape(SOURCE_TEXT)}" in said
    history = visitor.get(f"/api/v1/games/{GAME}/cards/{OWNED_CARD}/history/").json()
    assert [
        (c["object_kind"], c["object_code"], c["proposal"], c["proposed_by"], c["approved_by"],
         c["source"], c["before"], c["reverted_by"])
        for c in history["results"]
    ] == [
        ("printing", f"{OWNED_CARD}/{SET}/{WRONG + 1:03d}", proposal.pk, "owner", "editor",
         SOURCE_TEXT, None, None),
        ("card", OWNED_CARD, proposal.pk, "owner", "editor", SOURCE_TEXT, None, None),
    ]  # fmt: skip

    # --- the editor reverts the proposal: every card leaves the catalog ---------------------
    reverted = editor_client.post(f"{review}revert/")
    assert reverted.status_code == 302, reverted.content.decode()[-2000:]
    assert CatalogChange.objects.filter(reverts__proposal=proposal).count() == 2 * ROWS
    # the two cards a deck and a collection hold are withdrawn, kept for them; the rest deleted
    note = str(WITHDRAWN_BY_PROPOSAL % {"number": proposal.pk})
    left = Card.objects.filter(code__startswith=f"{SET}-").order_by("code")
    assert [(c.code, c.withdrawn_at is not None, c.withdrawn_note) for c in left] == [
        (DECK_CARD, True, note),
        (OWNED_CARD, True, note),
    ]
    assert Printing.objects.filter(card__code__startswith=f"{SET}-").count() == 2

    # --- gone from search, the visitor's cached set page and the deck editor ----------------
    assert found_codes(visitor.get(set_page).content.decode()) == set()
    assert found_codes(visitor.get(search + "Rathalos").content.decode()) == set()
    assert found_codes(visitor.get(search + RIGHT_NAME_JA).content.decode()) == set()
    after = found_codes(visitor.get(search + deck_name).content.decode())
    assert after == {c for c in found_in_catalog if not c.startswith(f"{SET}-")}
    results = stranger_client.get(
        f"/decks/{deck.public_id}/edit/search/?q={deck_name}", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert found_codes(results) == {c for c in found_in_editor if not c.startswith(f"{SET}-")}
    # a deleted card's page is gone; a withdrawn one's says why
    assert visitor.get(f"/games/{GAME}/cards/{_code(0)}/").status_code == 404
    withdrawn_page = visitor.get(f"/games/{GAME}/cards/{DECK_CARD}/")
    assert withdrawn_page.status_code == 410
    assert escape(note) in withdrawn_page.content.decode()

    # --- the deck that used one says so plainly: its page, its legality, the API ------------
    assert list(
        DeckEntry.objects.filter(deck=deck).values_list("card__code", "zone", "quantity")
    ) == [(DECK_CARD, "main", 1)]
    deck.refresh_from_db()
    assert deck.is_legal is False  # the stored verdict, recomputed by the revert
    deck_page = stranger_client.get(f"/decks/{deck.public_id}/").content.decode()
    assert f'data-withdrawn="{DECK_CARD}"' in deck_page
    problem = re.search(r'data-problem="withdrawn-card".*?</li>', deck_page, re.S)
    assert problem, deck_page[-4000:]
    said = re.sub(r"\s+", " ", problem.group(0))
    assert f"{escape(deck_name)} was withdrawn from the catalog: {escape(note)}" in said
    assert f"Replace {escape(deck_name)} with a card of the catalog." in said
    api = stranger_client.get(f"/api/v1/decks/{deck.public_id}/").json()["legality"]
    assert api["legal"] is False
    [withdrawn] = [p for p in api["problems"] if p["code"] == "withdrawn-card"]
    assert withdrawn["message"]["en"] == f"{deck_name} was withdrawn from the catalog: {note}"
    assert [c["code"] for c in withdrawn["cards"]] == [DECK_CARD]

    # --- the collection keeps its item, marked ------------------------------------------------
    assert list(
        CollectionItem.objects.filter(owner=stranger).values_list("card__code", "quantity")
    ) == [(OWNED_CARD, 2)]
    binder = stranger_client.get(f"/collection/{GAME}/").content.decode()
    assert f'data-withdrawn="{OWNED_CARD}"' in binder

    # --- the revert is recorded, each row with its source -----------------------------------
    deck_change = CatalogChange.objects.get(
        object_kind="card", object_code=DECK_CARD, proposal=proposal
    )
    revert = CatalogChange.objects.get(reverts=deck_change)
    assert (revert.before, revert.after, revert.approved_by, revert.source) == (
        deck_change.after,
        None,
        editor,
        SOURCE_TEXT,
    )
