from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from decklab.env import env_bool, env_list, env_str


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("Yes", True),
        ("on", True),
        ("0", False),
        ("false", False),
        ("no", False),
        ("", False),
    ],
)
def test_it_reads_boolean_words(monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool) -> None:
    monkeypatch.setenv("DECKLAB_FLAG", raw)
    assert env_bool("DECKLAB_FLAG", default=not expected) is expected


def test_it_refuses_a_word_that_is_not_boolean(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKLAB_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="DECKLAB_FLAG"):
        env_bool("DECKLAB_FLAG", default=False)


def test_it_uses_defaults_when_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DECKLAB_UNSET", raising=False)
    assert env_bool("DECKLAB_UNSET", default=True) is True
    assert env_list("DECKLAB_UNSET", ["a"]) == ["a"]
    assert env_str("DECKLAB_UNSET", "x") == "x"


def test_it_splits_lists_and_drops_blanks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKLAB_HOSTS", " a.example, ,b.example ")
    assert env_list("DECKLAB_HOSTS", []) == ["a.example", "b.example"]
