"""Engines mark their labels and "not modelled" lines with N_ (no Django in the engine core);
the project's makemessages tells xgettext about that keyword, so the translation check sees
them like any gettext string."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class

pytestmark = pytest.mark.skipif(not shutil.which("xgettext"), reason="needs gettext's xgettext")


def test_makemessages_is_the_simulators_and_extracts_n_marked_strings(tmp_path: Path) -> None:
    assert get_commands()["makemessages"] == "simulator"
    command = load_command_class("simulator", "makemessages")
    source = tmp_path / "engine.py"
    source.write_text(
        'from simulator.engine.i18n import N_\n\nLABEL = N_("Opponent hero HP")\n'
        'PLAIN = "not for translation"\n',
        encoding="utf-8",
    )

    extracted = subprocess.run(
        ["xgettext", "--language=Python", "--output=-", *command.xgettext_options, str(source)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout

    assert 'msgid "Opponent hero HP"' in extracted
    assert "not for translation" not in extracted
