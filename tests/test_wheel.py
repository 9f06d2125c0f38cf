"""`pip install .` ships every package of the project: the wheel is built and imported alone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Top-level folders that are not part of the installed application.
NOT_SHIPPED = {"tests"}


def _project_packages() -> set[str]:
    return {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in NOT_SHIPPED
    }


@pytest.fixture(scope="module")
def wheel_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a copy of the sources (the checkout gets no build/ folder), unpacked."""
    source = tmp_path_factory.mktemp("source")
    shutil.copy(ROOT / "pyproject.toml", source)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in _project_packages():
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    built = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(built), "."],
        cwd=source,
        check=True,
        timeout=300,
    )
    (wheel,) = built.glob("decklab-*.whl")
    unpacked = tmp_path_factory.mktemp("unpacked")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(unpacked)
    return unpacked


def test_the_wheel_holds_every_package_of_the_project(wheel_dir: Path) -> None:
    shipped = {path.parent.name for path in wheel_dir.glob("*/__init__.py")}
    assert shipped == _project_packages()
    assert {"accounts", "collection"} <= shipped


def test_the_wheel_holds_every_data_file_of_the_packages(wheel_dir: Path) -> None:
    """Catalogs, official decks, golden data, game templates: whatever sits beside the modules."""
    in_sources = {
        str(path.relative_to(ROOT))
        for name in _project_packages()
        for path in (ROOT / name).rglob("*")
        if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts
    }
    assert "games/unmatched/catalog.json" in in_sources
    missing = sorted(p for p in in_sources if not (wheel_dir / p).is_file())
    assert missing == []


def test_every_app_imports_from_the_wheel_alone(wheel_dir: Path, tmp_path: Path) -> None:
    """A clean interpreter (-I: no working directory, no PYTHONPATH) sees only the wheel."""
    program = f"""
import importlib, pkgutil, sys
sys.path[:0] = [{str(wheel_dir)!r}]
import django
django.setup()
from django.apps import apps
wheel = {str(wheel_dir)!r}
for config in apps.get_app_configs():
    if config.name.split(".")[0] in {sorted(_project_packages())!r}:
        assert config.path.startswith(wheel), (config.name, config.path)
for name in {sorted(_project_packages())!r}:
    package = importlib.import_module(name)
    for module in pkgutil.walk_packages(package.__path__, name + "."):
        if ".migrations." in module.name or module.name.startswith("decklab.wsgi"):
            continue
        imported = importlib.import_module(module.name)
        assert imported.__file__.startswith(wheel), (module.name, imported.__file__)
print("imported")
"""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "decklab.settings",
        "DEBUG": "1",
        "SECRET_KEY": "wheel-test",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DECKLAB_VAR_DIR": str(tmp_path),
    }
    # the interpreter's own site-packages hold the dependencies; the project is left out
    site = sysconfig.get_paths()["purelib"]
    done = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.append({site!r})\n{program}"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "imported"
