"""Hostile project folders: files that point out of the project, FIFOs, SVG
icons that name other files or blow their budgets, ids that would name files
out of ``output/``.

Each case is a folder under ``tests/fixtures/hostile``: a ``case.yaml`` saying
which project it starts from (``starter``: ``cardkit init``; ``starter-icon``: the
same with one SVG icon declared; ``tidelights``: the example game), what it changes (``replace`` files with the case's own,
``edit`` a text, ``symlink`` a file to one outside the project, make a
``fifo``), and the one error expected.  Every case runs through ``validate``,
``l10n check``, ``build``, ``build png`` and ``l10n review`` (or the
``commands`` it names, when the others rightly do not read what it breaks):
each exits 1 with exactly one located ``error[CODE]`` line and no traceback,
within 10 s; nothing outside the project is read (a canary file whose text never
appears, and whose access time does not move) and nothing is written outside the
project's ``output/``.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import struct
import time
import uuid
import zlib
from pathlib import Path

import pytest
import yaml

from tests.conftest import FIXTURES, REPO
from tests.peakmem import run_measured

HOSTILE = FIXTURES / "hostile"
CASES = sorted(p.name for p in HOSTILE.iterdir() if (p / "case.yaml").is_file())
LOCATED = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>[A-Z]\d{3})\]: .+$")
COMMANDS = {
    "validate": ["validate"],
    "l10n check": ["l10n", "check", "--locale", "fi"],
    "build": ["build"],
    "build png": ["build", "png", "--locale", "fi", "--dpi", "72"],
    "l10n review": ["l10n", "review", "--locale", "fi", "--dpi", "72", "--jobs", "1"],
}
OLD = 946_684_800  # 2000-01-01: any read moves a file's access time past this (relatime)


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The two projects the cases start from, made once."""
    from cardkit.scaffold import init_project

    d = tmp_path_factory.mktemp("bases")
    init_project(d / "starter", "starter")
    shutil.copytree(REPO / "examples" / "tidelights", d / "tidelights", ignore=shutil.ignore_patterns("output"))
    # the starter with one SVG icon (Tidelights' lamp) declared, for the SVG cases: it loads in a fraction of the time
    shutil.copytree(d / "starter", d / "starter-icon")
    (d / "starter-icon" / "cards" / "starter" / "icons").mkdir()
    shutil.copy(REPO / "examples" / "tidelights" / "cards" / "tidelights" / "icons" / "lamp.svg",
                d / "starter-icon" / "cards" / "starter" / "icons")
    faces = d / "starter-icon" / "cards" / "starter" / "faces.yaml"
    faces.write_text(faces.read_text(encoding="utf-8").replace("groups:\n", "icons:\n  lamp: icons/lamp.svg\n\ngroups:\n", 1),
                     encoding="utf-8")
    return {"starter": d / "starter", "tidelights": d / "tidelights", "starter-icon": d / "starter-icon"}


def _png(text: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 0, 0, 0, 0))
            + chunk(b"tEXt", b"Comment\x00" + text) + chunk(b"IDAT", zlib.compress(b"\x00\x00\x00" * 2)) + chunk(b"IEND", b""))


def _outside(folder: Path, canary: str) -> None:
    """Files next to the project that a hostile project points at, each holding the canary."""
    folder.mkdir()
    (folder / "canary.yaml").write_text(f"{canary}: 1\nkind: kinds\n", encoding="utf-8")
    (folder / "canary.po").write_text(f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                                      f'msgctxt "{canary}"\nmsgid "{canary}"\nmsgstr "{canary}"\n', encoding="utf-8")
    (folder / "y.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><g id="a"><text>{canary}</text>'
                                  '<rect width="9" height="9"/></g></svg>\n', encoding="utf-8")
    (folder / "s.css").write_text(f"/* {canary} */ rect {{ fill: red }}\n", encoding="utf-8")
    (folder / "x.png").write_bytes(_png(canary.encode()))
    for p in folder.iterdir():
        os.utime(p, (OLD, p.stat().st_mtime))


def _make(case: dict, case_dir: Path, bases: dict[str, Path], tmp: Path) -> tuple[Path, Path, str]:
    canary = f"canary_{uuid.uuid4().hex}"
    root, outside = tmp / "project", tmp / "outside"
    shutil.copytree(bases[case["base"]], root)
    _outside(outside, canary)
    for target, source in (case.get("replace") or {}).items():
        text = (case_dir / source).read_text(encoding="utf-8").replace("@OUTSIDE@", str(outside))
        repeats = case.get("repeat") or []
        for r in repeats if isinstance(repeats, list) else [repeats]:
            text = text.replace(r["marker"], r["text"] * r["times"])
        (root / target).write_text(text, encoding="utf-8")
    for e in case.get("edit") or []:
        path = root / e["file"]
        text = path.read_text(encoding="utf-8")
        assert e["find"] in text, f"{case_dir.name}: '{e['find']}' not in {e['file']}"
        path.write_text(text.replace(e["find"], e["replace"], 1), encoding="utf-8")
    for target, name in (case.get("symlink") or {}).items():
        (root / target).unlink()
        (root / target).symlink_to(outside / name)
    for target in case.get("fifo") or []:
        (root / target).unlink()
        os.mkfifo(root / target)
    return root, outside, canary


def _listing(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Every entry under ``folder`` (never opened, links not followed): type, size, modification time."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            out[os.path.relpath(p, folder)] = (stat.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns)
    return out


def _atime_works(tmp: Path) -> bool:
    probe = tmp / "probe"
    probe.write_text("x")
    os.utime(probe, (OLD, probe.stat().st_mtime))
    probe.read_text()
    return probe.stat().st_atime != OLD


def test_there_are_cases_for_every_failure_class():
    codes = {yaml.safe_load((HOSTILE / c / "case.yaml").read_text())["expect"]["code"] for c in CASES}
    assert codes >= {"F002", "F004", "F005", "M050", "M051", "M052", "M053", "M054", "M055", "I003", "I004", "P006"}


@pytest.mark.parametrize("name", CASES)
def test_a_hostile_project_gets_one_located_error(name: str, bases: dict[str, Path], tmp_path: Path, cli):
    case_dir = HOSTILE / name
    case = yaml.safe_load((case_dir / "case.yaml").read_text(encoding="utf-8"))
    root, outside, canary = _make(case, case_dir, bases, tmp_path)
    want = case["expect"]
    before = _listing(tmp_path)
    atimes = {p.name: p.stat().st_atime for p in outside.iterdir()}
    for command in case.get("commands", list(COMMANDS)):
        args = COMMANDS[command] + ["--root", str(root)]
        if command == "l10n review":
            args += ["--out", str(root / "output" / "review")]
        start = time.monotonic()
        result = cli(*args)
        took = time.monotonic() - start
        said = result.out + result.err
        where = f"{name}: cardkit {command}"
        assert result.code == 1, f"{where} exited {result.code}\n{said[-1500:]}"
        assert "Traceback" not in said and "internal error" not in said, f"{where}\n{said[-1500:]}"
        assert canary not in said, f"{where} shows the content of a file outside the project"
        errors = list(dict.fromkeys(ln for ln in said.splitlines() if "error[" in ln))
        assert len(errors) == 1, f"{where}: {len(errors)} error lines:\n" + "\n".join(errors[:10])
        m = LOCATED.match(errors[0])
        assert m, f"{where}: not a located error line: {errors[0]}"
        assert (m["code"], m["file"]) == (want["code"], want["file"]), f"{where}: {errors[0]}"
        if "line" in want:
            assert int(m["line"]) == want["line"], f"{where}: {errors[0]}"
        assert len(errors[0]) < 200, errors[0]
        assert took < 10, f"{where} took {took:.1f} s"
    after = _listing(tmp_path)
    changed = sorted(p for p in after if p not in before or (before[p] != after[p] and after[p][0] != stat.S_IFDIR))
    changed += sorted(p for p in before if p not in after)
    assert all(p == os.path.join("project", "output") or p.startswith(os.path.join("project", "output") + os.sep)
               for p in changed), changed
    assert not [p for p in after if p.endswith(".tmp")]
    if _atime_works(tmp_path):
        assert {p.name: p.stat().st_atime for p in outside.iterdir()} == atimes, "a file outside the project was read"


def test_the_slow_and_the_bomb_svg_are_refused_quickly_in_little_memory(bases: dict[str, Path], tmp_path: Path):
    """The two pictures that took 81 s and 513 MB, and 1.8 GB, before: 100,000
    elements in 800 KB, and a PNG of 50,000 x 50,000 pixels inside an SVG.  A
    fresh process reads them (``cardkit validate``) in under 10 s and 300 MB."""
    import sys

    root = tmp_path / "project"
    shutil.copytree(bases["starter-icon"], root)
    icons = root / "cards" / "starter" / "icons"
    (icons / "lamp.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n'
                                    + "<rect/>\n" * 100_000 + "</svg>\n", encoding="utf-8")
    shutil.copy(HOSTILE / "svg-png-bomb" / "lamp.svg", icons / "bomb.svg")
    faces = root / "cards" / "starter" / "faces.yaml"
    faces.write_text(faces.read_text(encoding="utf-8").replace("  lamp: icons/lamp.svg\n", "  lamp: icons/lamp.svg\n  bomb: icons/bomb.svg\n"),
                     encoding="utf-8")
    script = "import sys\nfrom cardkit.cli import main\nsys.argv = ['cardkit', 'validate', '--root', sys.argv[1]]\nmain()\n"
    start = time.monotonic()
    result = run_measured([sys.executable, "-c", script, str(root)], timeout=120)
    took = time.monotonic() - start
    errors = [ln for ln in result.stderr.splitlines() if "error[" in ln]
    assert [LOCATED.match(ln)["code"] for ln in errors] == ["I004", "M052"], result.stderr[-2000:]  # type: ignore[index]
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    assert result.peak_mb < 300, f"{result.peak_mb:.0f} MB"
    assert took < 10, f"{took:.1f} s"
