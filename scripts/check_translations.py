#!/usr/bin/env python3
"""Check that every user-facing string has a Japanese translation.

1. ``manage.py makemessages -l ja --no-location --no-obsolete``: strings added to the code since
   the last run appear in locale/ja/LC_MESSAGES/django.po as untranslated entries, and strings
   that left the code leave the file.
2. Every untranslated or fuzzy entry is listed (with the source file that uses it, where one
   can be found) and the check fails.
3. ``manage.py compilemessages`` builds the .mo files either way, so the pages use whatever is
   translated.

Run by scripts/test; on its own: ``.venv/bin/python scripts/check_translations.py``.
Exit status: 0 all translated, 1 something to translate or a step failed, 2 gettext missing.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PO_FILE = ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po"
# Folders that hold no strings of ours (collected static files, runtime data, the venv).
IGNORED = ["var", "staticfiles", "node_modules", "test-results", "bench", "tests", "docs"]
SOURCE_SUFFIXES = {".py", ".html", ".txt"}
# How a translated string starts in Python and in templates, tried before any quoted string.
CALL_PREFIXES = ["_(", "gettext(", "gettext_lazy(", "pgettext(", "translate ", "trans "]
# makemessages rewrites this header line on every run, even when nothing else changed.
VOLATILE_HEADER = re.compile(r'^"POT-Creation-Date: .*\\n"\n', re.MULTILINE)


@dataclass(frozen=True)
class Missing:
    kind: str  # "untranslated" or "fuzzy"
    msgid: str
    msgid_plural: str
    msgctxt: str
    where: str


def _setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()


def _without_volatile_header(text: str) -> str:
    return VOLATILE_HEADER.sub("", text)


def make_messages() -> None:
    """Refresh the Japanese catalog; keep the file untouched when only its date would change."""
    from django.core.management import call_command

    before = PO_FILE.read_text(encoding="utf-8") if PO_FILE.exists() else None
    call_command(
        "makemessages",
        locale=["ja"],
        no_location=True,
        no_obsolete=True,
        ignore_patterns=IGNORED,
        verbosity=0,
    )
    after = PO_FILE.read_text(encoding="utf-8")
    if before is not None and _without_volatile_header(before) == _without_volatile_header(after):
        PO_FILE.write_text(before, encoding="utf-8")


def _source_index() -> list[tuple[Path, list[str]]]:
    files: list[tuple[Path, list[str]]] = []
    for base in sorted(ROOT.iterdir()):
        if not base.is_dir() or base.name.startswith(".") or base.name in IGNORED:
            continue
        for path in sorted(base.rglob("*")):
            if path.suffix in SOURCE_SUFFIXES and "migrations" not in path.parts:
                try:
                    files.append((path, path.read_text(encoding="utf-8").splitlines()))
                except (OSError, UnicodeDecodeError):
                    continue
    return files


def _needle(msgid: str) -> str:
    """A piece of the msgid that appears verbatim in the source: up to a placeholder or line."""
    first = msgid.split("\n", 1)[0]
    first = re.split(r"%\(|%s|%d|\{", first, maxsplit=1)[0]
    return first[:60].strip()


def _where(msgid: str, sources: list[tuple[Path, list[str]]]) -> str:
    needle = _needle(msgid)
    if not needle:
        return ""
    # A quoted string first (gettext calls, {% translate %}); bare text (blocktranslate
    # bodies) only for needles long enough not to match ordinary words by chance.
    calls = [f"{call}{q}{needle}" for call in CALL_PREFIXES for q in "\"'"]
    quoted = [f'"{needle}', f"'{needle}", '"' + needle.replace('"', '\\"')]
    for candidates in (calls, quoted, [needle] if len(needle) >= 12 else []):
        for path, lines in sources:
            for number, line in enumerate(lines, start=1):
                if any(c in line for c in candidates):
                    return f"{path.relative_to(ROOT)}:{number}"
    return ""


def find_missing(po_path: Path = PO_FILE) -> tuple[list[Missing], bool, int]:
    """Untranslated and fuzzy entries, whether the header is fuzzy, and the entry count."""
    import polib

    catalog: Any = polib.pofile(str(po_path))
    sources = _source_index()
    missing: list[Missing] = []
    for kind, entries in (
        ("untranslated", catalog.untranslated_entries()),
        ("fuzzy", catalog.fuzzy_entries()),
    ):
        for entry in entries:
            missing.append(
                Missing(
                    kind=kind,
                    msgid=entry.msgid,
                    msgid_plural=entry.msgid_plural or "",
                    msgctxt=entry.msgctxt or "",
                    where=_where(entry.msgid, sources),
                )
            )
    total = len([e for e in catalog if not e.obsolete])
    return missing, bool(catalog.metadata_is_fuzzy), total


def compile_messages() -> None:
    from django.core.management import call_command

    call_command("compilemessages", locale=["ja"], ignore_patterns=[".venv", *IGNORED], verbosity=0)


def _show(text: str) -> str:
    return text.replace("\n", "\\n")


def main() -> int:
    if shutil.which("msgfmt") is None or shutil.which("xgettext") is None:
        print(
            "check_translations: GNU gettext (msgfmt, xgettext) is not installed.", file=sys.stderr
        )
        return 2
    os.chdir(ROOT)
    _setup_django()

    make_messages()
    missing, header_fuzzy, total = find_missing()
    rel = PO_FILE.relative_to(ROOT)
    if header_fuzzy:
        print(f"{rel}: the header is marked fuzzy; remove the '#, fuzzy' line above msgid \"\".")
    if missing:
        counts = {kind: sum(m.kind == kind for m in missing) for kind in ("untranslated", "fuzzy")}
        print(
            f"{rel}: {counts['untranslated']} untranslated and {counts['fuzzy']} fuzzy "
            f"of {total} entries:"
        )
        for item in missing:
            line = f'  {item.kind:<12} "{_show(item.msgid)}"'
            if item.msgid_plural:
                line += f' / "{_show(item.msgid_plural)}"'
            if item.msgctxt:
                line += f"  [context: {item.msgctxt}]"
            if item.where:
                line += f"  ({item.where})"
            print(line)

    compile_messages()
    if missing or header_fuzzy:
        return 1
    print(f"{rel}: all {total} entries translated.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
