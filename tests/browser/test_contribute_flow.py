"""Propose → review → approve, in Japanese, in Chromium.

A Japanese player signs in, proposes a new Monster Hunter hunter through the form generated
from the game's declaration, and sees it waiting; an editor (a member of the catalog-editors
group, not staff) opens the game's queue, reads the proposal as a diff against the catalog,
and approves it; the card is then found by its Japanese name in the catalog search, its page
records the change with who proposed it, who approved it and the source, and the player's
proposal page says it was approved.

Every page of both people is watched as the every-page walk watches it (test_every_page.Watch):
a console error, a Content Security Policy report or a same-site request answered 4xx/5xx (or
failing) fails the test, with every problem listed. DECKLAB_SHOTS=<folder> saves a screenshot
of each step, named ``flow-ja-<step>.png``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command

from catalog.models import Card
from contributions.models import EDITORS_GROUP, CatalogChange, Proposal
from games import registry
from tests.browser.test_every_page import Watch, check_text

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME = "monster-hunter"
SET_CODE = "mh-base"
PLAYER, EDITOR, PASSWORD = "hana", "kenji", "a-long-contributing-test-passphrase"
NAME_JA = "蒼の狩人アオイ"
NAME_EN = "Aoi, Azure Hunter"
NUMBER = "901"
SOURCE_DETAIL = "手元の基本セット、カード番号901"
APPROVAL_NOTE = "手元のカードで確認しました"
SHOTS = os.environ.get("DECKLAB_SHOTS", "")


@pytest.fixture
def site(live_server: Any) -> str:
    call_command("import_catalog", str(registry.get(GAME).catalog_file), verbosity=0)
    users = get_user_model().objects
    users.create_user(PLAYER, f"{PLAYER}@example.test", PASSWORD)
    editor = users.create_user(EDITOR, f"{EDITOR}@example.test", PASSWORD)
    # the migration's group is gone after an earlier transactional test's flush: made again
    editor.groups.add(Group.objects.get_or_create(name=EDITORS_GROUP)[0])
    return str(live_server.url)


@pytest.fixture
def watched(browser: Browser, site: str) -> Iterator[tuple[Watch, Callable[[], Page]]]:
    """Japanese browser tabs, each in its own context (its own sign-in), all under one watch."""
    watch = Watch(site=site)
    contexts = []

    def open_tab() -> Page:
        context = browser.new_context(locale="ja-JP", viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15_000)
        watch.attach(context)
        contexts.append(context)
        tab = context.new_page()
        tab.on("console", watch.console)
        tab.on("pageerror", watch.page_error)
        tab.on("response", watch.response)
        tab.on("requestfailed", watch.request_failed)
        return tab

    try:
        yield watch, open_tab
    finally:
        for context in contexts:
            context.close()


def sign_in(page: Page, site: str, username: str) -> None:
    page.goto(f"{site}/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(rf"/accounts/({username}|me)/$"))


def going(watch: Watch, name: str) -> None:
    """What the watch files the next problems under: the step whose page is being opened (its
    requests start before the page is there)."""
    watch.where = f"ja {name}"


def step(page: Page, watch: Watch, name: str) -> None:
    """The page of one step, settled, in Japanese, checked and (with DECKLAB_SHOTS) drawn."""
    from playwright.sync_api import expect

    watch.where = f"ja {name} {page.url.removeprefix(watch.site)}"
    page.wait_for_load_state("networkidle")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    check_text(page, watch)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"flow-ja-{name}.png"), full_page=True)


def test_a_japanese_player_proposes_a_card_an_editor_approves_it_and_search_finds_it(
    site: str, watched: tuple[Watch, Callable[[], Page]]
) -> None:
    from playwright.sync_api import expect

    watch, open_tab = watched

    # --- the player proposes a hunter -----------------------------------------------------
    player = open_tab()
    watch.where = "ja player signing in"
    sign_in(player, site, PLAYER)
    going(watch, "1-contribute")
    player.goto(f"{site}/contribute/")
    step(player, watch, "1-contribute")
    going(watch, "2-card-types")
    player.locator(f'[data-game="{GAME}"] a[href$="/{GAME}/card/"]').click()
    player.wait_for_url(f"{site}/contribute/{GAME}/card/")
    step(player, watch, "2-card-types")
    hunter = player.locator('#card-types a[data-type="hunter"]')
    expect(hunter).to_have_text("ハンター")
    going(watch, "3-card-form")
    hunter.click()
    player.wait_for_url(f"{site}/contribute/{GAME}/card/hunter/")
    step(player, watch, "3-card-form")
    form = player.locator("#proposal-form")
    # the generated form, labelled in Japanese as the declaration's attributes are
    expect(form.locator('label[for="id_attr_attack"]')).to_contain_text("攻撃力")
    expect(form.locator('label[for="id_name_ja"]')).to_contain_text("日本語名")
    form.locator("#id_name_en").fill(NAME_EN)
    form.locator("#id_name_ja").fill(NAME_JA)
    form.locator("#id_set").select_option(SET_CODE)
    form.locator("#id_number").fill(NUMBER)
    form.locator("#id_attr_attack").fill("2")
    form.locator("#id_attr_movement").fill("1")
    form.locator("#id_attr_reach").fill("1")
    for icon in ("meat", "ball"):  # several choices: a box each
        form.locator(f'#id_attr_item_icons input[value="{icon}"]').check()
    form.locator("#id_source_kind").select_option("in_hand")
    form.locator("#id_source_detail").fill(SOURCE_DETAIL)
    going(watch, "4-proposal-sent")
    form.locator("#proposal-submit").click()
    player.wait_for_url(re.compile(r"/contribute/proposals/\d+/$"))
    step(player, watch, "4-proposal-sent")
    proposal = Proposal.objects.get()
    assert (proposal.author.username, proposal.state) == (PLAYER, Proposal.State.OPEN)
    expect(player.locator("h1 [data-state]")).to_have_attribute("data-state", "open")
    expect(player.locator("#proposal-facts")).to_contain_text(SOURCE_DETAIL)

    # --- the editor finds it in the game's queue and reads the diff -----------------------
    editor = open_tab()
    watch.where = "ja editor signing in"
    sign_in(editor, site, EDITOR)
    going(watch, "5-review")
    editor.goto(f"{site}/contribute/review/")
    step(editor, watch, "5-review")
    waiting = editor.locator(f'.review-games [data-game="{GAME}"]')
    expect(waiting.locator("[data-waiting]")).to_have_text("1")
    going(watch, "6-queue")
    waiting.locator("a").click()
    editor.wait_for_url(f"{site}/contribute/review/{GAME}/")
    step(editor, watch, "6-queue")
    going(watch, "7-diff")
    editor.locator(f'.review-queue tr[data-proposal="{proposal.pk}"] a').click()
    editor.wait_for_url(f"{site}/contribute/review/proposals/{proposal.pk}/")
    step(editor, watch, "7-diff")
    card_row = editor.locator('.diff-row[data-kind="card"]')
    expect(card_row.locator("[data-new]")).to_be_visible()  # a new card, marked so
    expect(card_row.locator('tr[data-field="name_ja"]')).to_contain_text(NAME_JA)
    expect(editor.locator('.diff-row[data-kind="printing"]')).to_contain_text(SET_CODE)
    expect(editor.locator(".payload-clean")).to_be_visible()  # the importer's checks pass
    code = card_row.get_attribute("data-code")
    assert code, "the diff names the new card's code"
    assert not Card.objects.filter(game__slug=GAME, code=code).exists()

    # --- approved: in the catalog at once ----------------------------------------------------
    editor.locator("#approve-note").fill(APPROVAL_NOTE)
    going(watch, "8-approved")
    editor.locator(
        f'form[action$="/review/proposals/{proposal.pk}/approve/"] button[type=submit]'
    ).click()
    editor.wait_for_url(f"{site}/contribute/review/proposals/{proposal.pk}/")
    step(editor, watch, "8-approved")
    expect(editor.locator(".applied-changes")).to_contain_text(code)
    proposal.refresh_from_db()
    assert proposal.state == Proposal.State.APPROVED
    assert proposal.decided_by is not None and proposal.decided_by.username == EDITOR

    going(watch, "9-search")
    editor.goto(f"{site}/games/{GAME}/?q={NAME_JA[:4]}")
    step(editor, watch, "9-search")
    found = editor.locator(f'a[data-card="{code}"]')
    expect(found).to_contain_text(NAME_JA)
    going(watch, "10-card-history")
    found.click()
    editor.wait_for_url(f"{site}/games/{GAME}/cards/{code}/")
    step(editor, watch, "10-card-history")
    history = editor.locator(".card-history")
    change = CatalogChange.objects.get(game__slug=GAME, object_kind="card", object_code=code)
    entry = history.locator(f'[data-change="{change.pk}"]')
    expect(entry).to_contain_text(PLAYER)
    expect(entry).to_contain_text(EDITOR)
    expect(entry).to_contain_text(SOURCE_DETAIL)

    # --- the player sees the decision ---------------------------------------------------------
    going(watch, "11-my-proposals")
    player.goto(f"{site}/contribute/")
    step(player, watch, "11-my-proposals")
    mine = player.locator(f'#my-proposals tr[data-proposal="{proposal.pk}"]')
    expect(mine).to_have_attribute("data-state", "approved")
    expect(mine).to_contain_text(APPROVAL_NOTE)
    going(watch, "12-proposal-approved")
    mine.locator("a").first.click()
    player.wait_for_url(f"{site}/contribute/proposals/{proposal.pk}/")
    step(player, watch, "12-proposal-approved")
    expect(player.locator('#proposal-events [data-action="approved"]')).to_contain_text(EDITOR)

    assert not watch.problems, f"{len(watch.problems)} problems:\n" + "\n".join(watch.problems)
