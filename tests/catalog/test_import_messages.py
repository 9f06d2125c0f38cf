"""The catalog importers' problems are translatable, and an upload is reported in its language.

Every problem message is built from a gettext template with named placeholders, so
``makemessages`` (xgettext) finds it and a translator can reorder it; the English text is the
template itself. A staff upload remembers the uploader's language and the worker renders the
problems in it. No fake catalogs: where Japanese is asserted, it comes from Django's own
Japanese catalog (form errors inside an attribute problem), and our own templates are compared
with ``gettext`` of the same template, which stays true once their translations are added.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext, ngettext
from pytest_django.fixtures import Settings as SettingsWrapper

import catalog.importers
from catalog.importers.bundle import CatalogBundle, CatalogImportError, ImportProblem
from catalog.importers.csv_cards import parse_csv
from catalog.importers.jobs import catalog_import_job_run
from catalog.importers.service import bundles_from_text, catalog_import_text
from catalog.importers.validate import did_you_mean, validate_bundle
from catalog.importers.write import game_sync
from catalog.models import Card, CardSet, CatalogImportJob
from games.unmatched import catalog_format
from games.unmatched.catalog_format import SqlSyntaxError, sql_insert_rows
from tests.catalog.conftest import wait_until_finished

IMPORTERS = Path(catalog.importers.__file__).resolve().parent
SOURCES = [*sorted(IMPORTERS.glob("*.py")), Path(catalog_format.__file__).resolve()]
UPLOAD_URL = "/catalog-imports/"

#: row 3 breaks the armour's defence (a form error Django translates), row 4 lacks cells
BAD_CSV = (
    "code,type,name_en,set,number,defence,cost\n"
    "demo-armor,armor,Demo Armor,mh-demo,1,3,2\n"
    "demo-broken,armor,Demo Broken,mh-demo,2,-1,2\n"
    "demo-short,armor,Demo Short,mh-demo\n"
)
MIN_VALUE = "Ensure this value is greater than or equal to %(limit_value)s."


# --- what makemessages finds ---------------------------------------------------------------


def extracted_templates() -> list[polib.POEntry]:
    """The importers' messages as ``makemessages`` extracts them (same xgettext keywords)."""
    if shutil.which("xgettext") is None:
        pytest.skip("needs GNU gettext (xgettext), as manage.py makemessages does")
    result = subprocess.run(
        [
            "xgettext",
            "--language=Python",
            "--keyword=gettext_noop",
            "--keyword=gettext_lazy",
            "--keyword=ngettext_lazy:1,2",
            "--keyword=pgettext:1c,2",
            "--from-code=UTF-8",
            "--add-comments=Translators",
            "--output=-",
            *map(str, SOURCES),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return [entry for entry in polib.pofile(result.stdout) if entry.msgid]


def test_makemessages_finds_the_importers_templates() -> None:
    entries = extracted_templates()
    singular = {entry.msgid for entry in entries}
    for template in (
        "unknown set '%(code)s'.",
        "Did you mean %(names)s?",
        "duplicate card code '%(code)s'",
        "attribute '%(key)s': %(messages)s",
        "quantity must be between 1 and %(max)d",
        "broken JSON: %(error)s (column %(column)d)",
        "unknown key",
        "not a catalog this importer knows: expected DeckLab catalog JSON, a CSV card list, or a "
        "file in one of the games' own catalog formats",
        "empty file: expected a header row (code,type,name_en,...)",
        "more than %(max)s rows; split the file and import the parts together",
        "unterminated quoted text",
        "The import stopped on an internal error; nothing was written.",
    ):
        assert template in singular
    plurals = {entry.msgid_plural for entry in entries if entry.msgid_plural}
    assert "'%(card)s' has %(count)d printings; name its set, number or variant" in plurals
    assert "%(count)d values for %(columns)d columns (%(names)s)" in plurals
    # named placeholders only, so a translation may put them in any order
    for entry in entries:
        for text in (entry.msgid, entry.msgid_plural):
            assert not re.search(r"%[sdr]|\{\w*\}", text), text


#: the calls that record a problem, and which argument is the message
SINKS = {"problem": 1, "add": 1, "fail": 1, "ImportProblem": 1, "SqlSyntaxError": 1}
GETTEXT = {"_", "gettext", "ngettext", "gettext_lazy"}


def _untranslated(node: ast.expr) -> Iterator[ast.expr]:
    """Literal text in a message expression that no gettext call wraps."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) in GETTEXT:
        return
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        yield from _untranslated(node.left)  # the right side is the placeholders' values
        return
    if isinstance(node, ast.JoinedStr):
        yield node
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip():
        yield node
        return
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr):
            yield from _untranslated(child)


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
def test_no_problem_is_recorded_with_literal_or_f_string_text(source: Path) -> None:
    found = []
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
        index = SINKS.get(name or "")
        if index is None or len(node.args) <= index:
            continue
        found += [f"{source.name}:{bad.lineno}" for bad in _untranslated(node.args[index])]
    assert found == []


# --- the English output is the template's ----------------------------------------------------


def _pattern(template: str) -> str:
    pattern = re.escape(template)
    pattern = re.sub(r"%\\\(\w+\\\)d", r"-?\\d+", pattern)
    return re.sub(r"%\\\(\w+\\\)s", r".*?", pattern)


def _problems_of_bad_inputs() -> list[ImportProblem]:
    """Many kinds of problem from every format: broken JSON, bad rows, bad references."""
    game_sync("monster-hunter")
    decklab = {
        "format": "decklab-catalog",
        "version": 2,
        "game": "monster-hunter",
        "colour": "red",
        "sets": [{"code": "t1", "kind": "bas", "official_size": -1}, {"code": "t1"}],
        "cards": [
            {"code": "T 001", "type": "monstr", "name_en": "A", "printings": [{"set": "t2"}]},
            {"code": "T-002", "type": "monster", "name_en": "B", "attributes": {"hp": "x"}},
            {"code": "T-002", "type": "hunter", "copy_limit": 0, "printings": "no"},
        ],
        "products": [
            {
                "code": "p",
                "kind": "box",
                "items": [{"card": "T-01", "quantity": 0, "zone": "Main Deck"}, {"card": 3}],
            }
        ],
    }
    csv_text = (
        "code,type,name_en,set,number,hp,boost,copy_limit,demo\n"
        "m1,monster,Wyvern,t1,1,5,,x,maybe\n"
        "m1,monster,Wyvern Two,t1,2,5,,,\n"
        ",monster,No Code,,,,,,\n"
        "m2,monster,Short\n"
    )
    deck = {"id": 7, "hero": {"name": "H", "hp": "15", "move": -1}, "cards": [{"type": "x"}, 1]}
    bundles: list[CatalogBundle] = [
        *bundles_from_text(json.dumps(decklab), name="cards.json"),
        *bundles_from_text(csv_text, name="cards.csv", game="monster-hunter"),
        *bundles_from_text("code,code\n", name="twice.csv"),
        *bundles_from_text("code,type\nm1,monster\n", name="no-game.csv"),
        *bundles_from_text("code,type\n", name="no-rows.csv", game="monster-hunter"),
        *bundles_from_text("\n\n", name="empty.csv", game="monster-hunter"),
        *bundles_from_text("{broken", name="broken.json"),
        *bundles_from_text("[]", name="list.json"),
        *bundles_from_text(json.dumps(deck), name="deck.json"),
        *bundles_from_text(json.dumps({**decklab, "game": "monster-hunt"}), name="game.json"),
    ]
    problems = [problem for bundle in bundles for problem in validate_bundle(bundle)]
    for sql in ("insert into sets(name, x) values ('a');", "insert into sets(name) values (x);"):
        with pytest.raises(SqlSyntaxError) as exc:
            sql_insert_rows(sql, "sets")
        problems.append(ImportProblem("V2__insert.sql", exc.value.message))
    return problems


@pytest.mark.django_db
def test_every_problem_is_a_rendered_template_in_plain_text() -> None:
    entries = extracted_templates()
    templates = [e.msgid for e in entries] + [e.msgid_plural for e in entries if e.msgid_plural]
    hint = f"(?: {_pattern('Did you mean %(names)s?')})?"
    known = re.compile("|".join(f"(?:{_pattern(t)}{hint})" for t in templates))
    with translation.override("en"):
        problems = _problems_of_bad_inputs()
    assert len(problems) > 40
    for problem in problems:
        assert type(problem.message) is str  # stored as JSON by the upload job: never lazy
        assert known.fullmatch(problem.message), problem
    messages = "\n".join(str(problem) for problem in problems)
    # the locations stay as they were: file names, JSON paths, physical lines
    for where in ("cards.json: sets[1]", "cards.csv:3", "broken.json:1", "deck.json: hero.hp"):
        assert where in messages


@pytest.mark.django_db
def test_the_english_messages_are_the_templates_rendered() -> None:
    game = game_sync("monster-hunter")
    CardSet.objects.create(game=game, code="base-1", name_en="Test")
    text = (
        "code,type,name_en,set,number,defence,cost\n"
        "T-001,armor,Mail,base-2,1,3,2\n"
        "T-001,armor,Mail,base-1,1,3,2\n"
    )
    bundle = parse_csv(text, "mail.csv", "monster-hunter")
    with translation.override("en"):
        problems = {p.where: p.message for p in validate_bundle(bundle)}
        unknown_set = gettext("unknown set '%(code)s'.") % {"code": "base-2"}
        hint = " " + gettext("Did you mean %(names)s?") % {"names": "'base-1'"}
        assert (
            problems["mail.csv:2"]
            == unknown_set + hint
            == "unknown set 'base-2'. Did you mean 'base-1'?"
        )
        assert did_you_mean("T-01", ["T-001"]) == " Did you mean 'T-001'?"
        assert did_you_mean("zzz", ["T-001"]) == ""

        line = parse_csv("code,type,name_en\nT-001,armor\n", "cut.csv", "monster-hunter")
        width = ngettext(
            "%(found)d cells but the header has %(expected)d columns: a missing column "
            '(or a comma inside a value that needs "quotes")',
            "%(found)d cells but the header has %(expected)d columns: a missing column "
            '(or a comma inside a value that needs "quotes")',
            2,
        ) % {"found": 2, "expected": 3}
        assert [str(p) for p in line.problems] == [f"cut.csv:2: {width}"]
        assert width.startswith("2 cells but the header has 3 columns: a missing column")

        with pytest.raises(CatalogImportError) as exc:
            catalog_import_text('{"cards": [}', name="bad.json")
        (broken,) = exc.value.problems
        assert broken.where == "bad.json:1"
        assert broken.message == gettext("broken JSON: %(error)s (column %(column)d)") % {
            "error": "Expecting value",
            "column": 12,
        }


@pytest.mark.django_db
def test_a_product_line_with_several_printings_uses_the_plural_template() -> None:
    data = {
        "format": "decklab-catalog",
        "game": "monster-hunter",
        "sets": [{"code": "t1", "kind": "base", "name_en": "Test"}],
        "cards": [
            {
                "code": "T-001",
                "type": "hunter",
                "name_en": "Hunter",
                "attributes": {"attack": 1, "movement": 2, "reach": 1, "item_icons": ["meat"]},
                "printings": [{"set": "t1", "number": "1"}, {"set": "t1", "number": "2"}],
            }
        ],
        "products": [
            {
                "code": "p",
                "kind": "starter",
                "name_en": "P",
                "items": [{"card": "T-001", "quantity": 1}],
            }
        ],
    }
    with translation.override("en"), pytest.raises(CatalogImportError) as exc:
        catalog_import_text(json.dumps(data), name="p.json")
    (problem,) = exc.value.problems
    expected = ngettext(
        "'%(card)s' has %(count)d printing; name its set, number or variant",
        "'%(card)s' has %(count)d printings; name its set, number or variant",
        2,
    ) % {"card": "T-001", "count": 2}
    assert problem.message == expected == "'T-001' has 2 printings; name its set, number or variant"
    assert problem.where == "p.json: products[0].items[0]"


# --- the upload job speaks its uploader's language --------------------------------------------


@pytest.fixture
def staff(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("curator", password="pw", is_staff=True)


@pytest.fixture
def staff_client(client: Client, staff: User) -> Client:
    client.force_login(staff)
    return client


@pytest.fixture
def mh_set() -> CardSet:
    return CardSet.objects.create(
        game=game_sync("monster-hunter"), code="mh-demo", name_en="Demo set"
    )


def csv_upload(text: str = BAD_CSV) -> SimpleUploadedFile:
    return SimpleUploadedFile("armor.csv", text.encode("utf-8"), content_type="text/csv")


def expected_bad_csv_problems(language: str) -> list[dict[str, str]]:
    """BAD_CSV's two problems, rendered from their templates in ``language``."""
    with translation.override(language):
        too_low = gettext(MIN_VALUE) % {"limit_value": 0}
        attribute = gettext("attribute '%(key)s': %(messages)s") % {
            "key": "defence",
            "messages": too_low,
        }
        width = ngettext(
            "%(found)d cells but the header has %(expected)d columns: a missing column "
            '(or a comma inside a value that needs "quotes")',
            "%(found)d cells but the header has %(expected)d columns: a missing column "
            '(or a comma inside a value that needs "quotes")',
            4,
        ) % {"found": 4, "expected": 7}
    return [
        {"where": "armor.csv:3", "message": attribute},
        {"where": "armor.csv:4", "message": width},
    ]


def test_django_translates_the_form_error_these_tests_lean_on() -> None:
    # Without Django's Japanese catalog the tests below could not tell the languages apart.
    english, japanese = (expected_bad_csv_problems(lang)[0]["message"] for lang in ("en", "ja"))
    assert english.endswith("Ensure this value is greater than or equal to 0.")
    assert english != japanese
    assert "0" in japanese


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("headers", "cookies", "language"),
    [
        ({"Accept-Language": "ja,en;q=0.5"}, {}, "ja"),
        ({}, {settings.LANGUAGE_COOKIE_NAME: "ja"}, "ja"),
        ({"Accept-Language": "en-GB"}, {}, "en"),
        ({}, {}, "en"),
    ],
)
def test_an_upload_records_the_uploaders_language(
    staff_client: Client,
    django_capture_on_commit_callbacks: Callable[..., Any],
    headers: dict[str, str],
    cookies: dict[str, str],
    language: str,
) -> None:
    for name, value in cookies.items():
        staff_client.cookies[name] = value
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = staff_client.post(
            UPLOAD_URL, {"file": csv_upload(), "game": "monster-hunter"}, headers=headers
        )
    assert response.status_code == 302
    assert CatalogImportJob.objects.get().language == language
    assert len(callbacks) == 1


@pytest.mark.django_db
def test_a_job_made_elsewhere_keeps_the_default_language() -> None:
    job = CatalogImportJob.objects.create(file_name="a.csv", content="code,type\n")
    assert job.language == "en" == settings.LANGUAGE_CODE


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ja", "en"])
def test_running_a_job_reports_its_problems_in_the_jobs_language(
    mh_set: CardSet, language: str
) -> None:
    job = CatalogImportJob.objects.create(
        file_name="armor.csv", content=BAD_CSV, game="monster-hunter", language=language
    )
    with translation.override("en"):
        catalog_import_job_run(job_id=job.pk)
        assert translation.get_language() == "en"  # the job's language did not leak out

    job.refresh_from_db()
    assert (job.status, job.language) == ("failed", language)
    assert job.problems == expected_bad_csv_problems(language)
    assert not Card.objects.exists()


@pytest.mark.django_db
def test_a_too_big_job_is_refused_in_the_jobs_language(settings: SettingsWrapper) -> None:
    settings.CATALOG_UPLOAD_MAX_BYTES = 10
    job = CatalogImportJob.objects.create(file_name="armor.csv", content=BAD_CSV, language="ja")
    catalog_import_job_run(job_id=job.pk)
    job.refresh_from_db()
    with translation.override("ja"):
        expected = gettext("The file is larger than the catalog import limit.")
    assert job.problems == [{"where": "armor.csv", "message": expected}]


# --- a real worker ------------------------------------------------------------------------------


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_reports_a_japanese_uploaders_problems_in_japanese(
    running_worker: None, staff_client: Client, mh_set: CardSet
) -> None:
    response = staff_client.post(
        UPLOAD_URL,
        {"file": csv_upload(), "game": "monster-hunter"},
        headers={"Accept-Language": "ja"},
    )
    assert response.status_code == 302

    job = wait_until_finished(CatalogImportJob.objects.get().pk)

    assert (job.status, job.language) == ("failed", "ja")
    assert job.problems == expected_bad_csv_problems("ja")
    assert job.problems != expected_bad_csv_problems("en")
    assert not Card.objects.exists()
