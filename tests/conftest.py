"""Shared fixtures: a scratch copy of the real project, and an in-process CLI runner."""

from __future__ import annotations

import io
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from tests.watchdog import pytest_runtest_protocol  # noqa: F401  (a hanging test fails: tests/watchdog.py)

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def set_translation(project: Path, locale: str, domain: str, msgctxt: str, text: str) -> None:
    """Give the message ``msgctxt`` of ``locales/<locale>/LC_MESSAGES/<domain>.po`` under
    ``project`` the translation ``text``, written back with Babel as a translator's tool would."""
    path = project / "locales" / locale / "LC_MESSAGES" / f"{domain}.po"
    cat = read_po(io.BytesIO(path.read_bytes()), locale=locale)
    next(m for m in cat if m.context == msgctxt).string = text
    buf = io.BytesIO()
    write_po(buf, cat, width=76)
    path.write_bytes(buf.getvalue())


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the shipped cards/, locales/ and schemas/ (which the files' modelines point at) that a test may break."""
    for name in ("cards", "locales", "schemas"):
        shutil.copytree(REPO / name, tmp_path / name)
    return tmp_path


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture(scope="session")
def starter_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `cardkit init` starter game (set id ``g``), made once per test process: read it, never change it."""
    from cardkit.scaffold import init_project

    base = tmp_path_factory.mktemp("starter")
    init_project(base / "game", "g")
    return base / "game"


@pytest.fixture
def starter_game(starter_project: Path, tmp_path: Path) -> Path:
    """A copy of the starter game of one's own, to change."""
    shutil.copytree(starter_project, tmp_path / "game")
    return tmp_path / "game"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    """Run ``cardkit ARGS`` through the real entry point (exception boundary included)."""
    from cardkit.cli import main

    def run(*args: str) -> Result:
        monkeypatch.setattr(sys, "argv", ["cardkit", *args])
        capsys.readouterr()
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return Result(code, out, err)

    return run
