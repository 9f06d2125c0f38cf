"""Bad collection files are reported, never a 500: a huge cell, an unclosed quote, a price
that is no number, digits of other scripts, NUL characters; the preview refuses whatever the
commit would (field limits, the bound of copies), and every refusal of a commit has the
documented {detail, problems} shape."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from collection.imports import collection_import_commit_batch, collection_import_preview
from collection.interchange.read import read_collection_csv
from collection.models import MAX_QUANTITY, CollectionItem, ImportBatch
from tests.collection.conftest import Shelf, add

API = "/api/v1/collection"
HEAD = "Quantity,Name,Set,Price,Note,Binder\n"


def _problems(shelf: Shelf, text: str, **kwargs: Any) -> list[tuple[int, str]]:
    result = read_collection_csv(text, game=shelf.game, **kwargs)
    assert result.specs == [] or not result.problems
    return [(p.line, p.column) for p in result.problems]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (HEAD + "1,Tide Caller,MT1,,," + "x" * 131_073 + ",\n", [(2, "")]),
        (HEAD + '1,Tide Caller,MT1,,"never closed\n2,Flame Fox,MT1,,,\n', [(2, "")]),
        (HEAD + '1,Tide Caller,MT1,,"a"b,\n', [(2, "")]),
        (HEAD + "1,Tide Caller,MT1,NaN,,\n", [(2, "Price")]),
        (HEAD + "1,Tide Caller,MT1,inf,,\n", [(2, "Price")]),
        (HEAD + "1,Tide Caller,MT1,-Infinity,,\n", [(2, "Price")]),
        (HEAD + "1,Tide Caller,MT1,1e999999,,\n", [(2, "Price")]),
        (HEAD + "1,Tide Caller,MT1," + "9" * 5000 + ",,\n", [(2, "Price")]),
        (HEAD + "፩,Tide Caller,MT1,,,\n", [(2, "Quantity")]),
        (HEAD + "١,Tide Caller,MT1,,,\n", [(2, "Quantity")]),
        (HEAD + "9" * 5000 + ",Tide Caller,MT1,,,\n", [(2, "Quantity")]),
        (HEAD + "1,Tide\x00Caller,MT1,,,\n", [(2, "")]),
        (HEAD + "1,Tide Caller,MT1,," + "n" * 501 + ",\n", [(2, "Note")]),
        (HEAD + "1,Tide Caller,MT1,,," + "b" * 81 + "\n", [(2, "Binder")]),
        (HEAD + "1," + "y" * 5000 + ",MT1,,,\n", [(2, "Name")]),
    ],
)
def test_a_broken_file_is_a_problem_with_its_line_never_an_exception(
    shelf: Shelf, text: str, expected: list[tuple[int, str]]
) -> None:
    assert _problems(shelf, text) == expected


def test_a_nul_is_placed_by_line_and_character(shelf: Shelf) -> None:
    result = read_collection_csv(HEAD + "1,Tide\x00Caller,MT1,,,\n", game=shelf.game)
    assert [str(p) for p in result.problems] == [
        "line 2: The line has a NUL character (at character 7): a text file has none."
    ]


def test_a_typed_list_refuses_other_scripts_digits_and_nul(shelf: Shelf) -> None:
    for text in ("፩ Tide Caller\n", "1 Tide\x00Caller\n", "1 " + "a " * 400 + "\n"):
        result = read_collection_csv(text, game=shelf.game, dialect_code="list")
        assert result.specs == [] and [p.line for p in result.problems] == [1]


@pytest.mark.parametrize(
    "body",
    [
        HEAD + "1,Tide Caller,MT1,,," + "x" * 131_073 + ",\n",
        HEAD + '1,Tide Caller,MT1,,"never closed\n',
        HEAD + "1,Tide Caller,MT1,NaN,,\n",
        HEAD + "፩,Tide Caller,MT1,,,\n",
        HEAD + "1,Tide\x00Caller,MT1,,,\n",
        HEAD + "1,Tide Caller,MT1,," + "n" * 501 + ",\n",
    ],
)
def test_the_page_and_the_api_answer_a_broken_file_with_400(
    owner: Any, owner_client: Client, shelf: Shelf, body: str
) -> None:
    upload = SimpleUploadedFile("c.csv", body.encode(), content_type="text/csv")
    page = owner_client.post(reverse("collection:import"), {"game": "mattsan", "file": upload})
    assert page.status_code == 400
    assert 'id="import-problems"' in page.content.decode()
    api = owner_client.post(
        f"{API}/imports/", {"content": body, "game": "mattsan"}, content_type="application/json"
    )
    assert api.status_code == 400
    if "\x00" in body:
        # the API's JSON parser refuses a NUL anywhere in a body, before any reader
        assert "NUL" in api.json()["detail"]
    else:
        assert set(api.json()) >= {"detail", "problems"}
        assert api.json()["problems"][0]["line"] == 2
    assert not ImportBatch.objects.exists() and not CollectionItem.objects.exists()


def test_the_preview_refuses_what_would_go_beyond_the_bound_of_copies(
    owner: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[2], MAX_QUANTITY)
    text = "Quantity,Name,Set,Language\n1,Flame Fox,MT1,ja\n1,Tide Caller,MT1,ja\n"
    preview = collection_import_preview(owner=owner, content=text, game=shelf.game)
    assert preview.batch is None
    assert [(p.line, p.column) for p in preview.result.problems] == [(3, "Quantity")]
    assert "9999" in preview.result.problems[0].message


def test_a_commit_refused_after_a_clean_preview_says_the_same_with_its_line(
    owner: Any, owner_client: Client, shelf: Shelf
) -> None:
    text = "Quantity,Name,Set,Language\n5,Tide Caller,MT1,ja\n"
    preview = owner_client.post(
        f"{API}/imports/", {"content": text, "game": "mattsan"}, content_type="application/json"
    )
    assert preview.status_code == 201
    add(owner, shelf.base_printings[2], MAX_QUANTITY - 1)
    commit = owner_client.post(f"{API}/imports/{preview.json()['id']}/commit/")
    assert commit.status_code == 400
    body = commit.json()
    assert set(body) >= {"detail", "problems"}
    assert [(p["line"], p["column"]) for p in body["problems"]] == [(2, "Quantity")]
    assert CollectionItem.objects.get(owner=owner).quantity == MAX_QUANTITY - 1


def test_every_refusal_of_a_commit_has_the_documented_shape(
    owner: Any, owner_client: Client, shelf: Shelf
) -> None:
    text = "Quantity,Name,Set\n1,Tide Caller,MT1\n"
    preview = collection_import_preview(owner=owner, content=text, game=shelf.game)
    assert preview.batch is not None
    collection_import_commit_batch(batch=preview.batch)
    again = owner_client.post(f"{API}/imports/{preview.batch.pk}/commit/")
    assert again.status_code == 400
    assert again.json()["problems"][0]["column"] == "batch"
    assert set(again.json()) >= {"detail", "problems"}
