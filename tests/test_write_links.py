"""No command writes outside the project folder or the ``--out`` it was given,
through any symlink (#29): every writer goes through :mod:`cardkit.fsutil`,
which resolves the target's folder before it makes anything.  A symlinked
folder out of the project gets one F006 line naming it, exit 1, and the folder
it points at stays empty."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from cardkit.errors import CardkitError
from cardkit.fsutil import allow_writes, atomic_write_bytes, check_write, write_scope

SET = "g"


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from cardkit.scaffold import init_project

    base = tmp_path_factory.mktemp("starter")
    init_project(base / "game", SET)
    return base / "game"


@pytest.fixture
def game(starter: Path, tmp_path: Path) -> Path:
    root = tmp_path / "game"
    shutil.copytree(starter, root, symlinks=True)
    return root


def _link_out(root: Path, rel: str, elsewhere: Path) -> None:
    """``root/rel`` as a symlink to ``elsewhere`` (whatever was there moved aside)."""
    link = root / rel
    if link.exists():
        shutil.rmtree(link)
    link.parent.mkdir(parents=True, exist_ok=True)
    elsewhere.mkdir(parents=True, exist_ok=True)
    os.symlink(elsewhere, link, target_is_directory=True)


WRITERS = [
    (("build",), "output"),
    (("build", "pdf"), "output"),
    (("build", "pdf", "--locale", "fi"), "output"),
    (("build", "png"), "output/png"),
    (("build", "png"), "output"),
    (("build", "tts"), "output/tts"),
    (("build", "shop"), "output"),
    (("build", "shop"), "output/shop/generic"),
    (("build", "pdf", "--out", "{root}/output/own.pdf"), "output"),
    (("l10n", "review"), "output"),
    (("validate", "--write-schemas"), f"cards/{SET}/schemas"),
    (("validate", "--write-schemas"), "schemas"),
    (("l10n", "update", "--locale", "sv", "--create"), "locales/sv"),
    (("l10n", "update", "--locale", "sv", "--create"), "locales/sv/LC_MESSAGES"),
    (("l10n", "init", "--locale", "sv"), "locales/sv"),
    (("l10n", "pseudo"), "locales/qps"),
    (("l10n", "extract"), "locales"),
    (("export", "--out", "{root}/output/cards.xlsx"), "output"),
    (("export", "--format", "csv", "--out", "{root}/output/sheets"), "output"),
]


@pytest.mark.parametrize("args, link", WRITERS, ids=[" ".join(a[:2]) + " " + lk for a, lk in WRITERS])
def test_a_symlinked_folder_out_of_the_project_is_refused(game: Path, tmp_path: Path, cli, args, link):
    elsewhere = tmp_path / "elsewhere"
    _link_out(game, link, elsewhere)
    if "validate" in args:  # the derived schemas are missing, so --write-schemas has something to write
        assert not any(elsewhere.iterdir())
    result = cli(*(a.format(root=game) for a in args), "--root", str(game))
    assert result.code == 1, (result.out, result.err)
    lines = [ln for ln in result.err.splitlines() if "error[" in ln]
    assert len(lines) == 1 and lines[0].startswith(f"{link}: error[F006]: is a symlink to a folder outside the "
                                                   "project folder"), result.err
    assert "Traceback" not in result.err and ".tmp" not in result.err
    assert list(elsewhere.rglob("*")) == []  # nothing written, no folder made, no temporary file left


def test_the_same_commands_write_once_the_link_is_gone(game: Path, cli):
    for args in (("build", "png"), ("validate", "--write-schemas"), ("l10n", "update", "--locale", "sv", "--create")):
        result = cli(*args, "--root", str(game))
        assert result.code == 0, result.err
    assert (game / "locales/sv/LC_MESSAGES" / f"{SET}.po").is_file()
    assert any((game / "output/png").rglob("*.png"))


def test_a_playtest_report_through_a_linked_output_is_refused(project: Path, tmp_path_factory, cli):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    _link_out(project, "output", elsewhere)
    result = cli("playtest", "--root", str(project), "--set", "death-angel", "--players", "1", "--games", "2",
                 "--agent", "random", "--jobs", "1", "--report", str(project / "output" / "r.pdf"))
    assert result.code == 1 and "output: error[F006]: " in result.err, result.err[-2000:]
    assert list(elsewhere.rglob("*")) == []


def test_an_out_the_user_named_outside_the_project_is_written(game: Path, tmp_path: Path, cli):
    """The user's own --out path is theirs, links and all; only the project's folders are distrusted."""
    mine = tmp_path / "mine"
    mine.mkdir()
    os.symlink(mine, tmp_path / "via")
    result = cli("build", "pdf", "--root", str(game), "--out", str(tmp_path / "via" / "cards.pdf"))
    assert result.code == 0, result.err
    assert (mine / "cards.pdf").read_bytes().startswith(b"%PDF")


def test_init_on_a_dangling_link_names_the_folder_not_a_temporary_one(tmp_path: Path, cli):
    os.symlink(tmp_path / "missing", tmp_path / "dangling")
    result = cli("init", str(tmp_path / "dangling"))
    assert result.code == 1
    assert result.err.splitlines() == [f"{(tmp_path / 'dangling').as_posix()}: error[P004]: cannot write the starter "
                                       "here: it is a symlink to a folder that does not exist (nothing was written)"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling"]


def test_export_to_a_folder_names_the_folder_not_a_temporary_file(game: Path, tmp_path: Path, cli):
    folder = tmp_path / "sheet.xlsx"
    folder.mkdir()
    result = cli("export", "--root", str(game), "--out", str(folder))
    assert result.code == 1
    lines = result.err.splitlines()
    assert len(lines) == 1 and "error[F003]" in lines[0] and f"{folder} is a folder" in lines[0], lines
    assert ".tmp" not in lines[0] and "tmp" not in lines[0].replace(str(tmp_path), ""), lines
    assert list(folder.iterdir()) == []


def test_the_writer_resolves_before_it_makes_a_folder(tmp_path: Path):
    root, elsewhere = tmp_path / "root", tmp_path / "elsewhere"
    root.mkdir()
    elsewhere.mkdir()
    os.symlink(elsewhere, root / "out")
    os.symlink(tmp_path / "nowhere", root / "dangling")
    with write_scope():
        allow_writes(root)
        atomic_write_bytes(root / "inside" / "a.txt", b"ok")  # inside: written
        for target in (root / "out" / "deep" / "x.txt", root / "dangling" / "x.txt", root / ".." / "x.txt",
                       tmp_path / "x.txt"):
            with pytest.raises(CardkitError) as caught:
                atomic_write_bytes(target, b"no")
            assert [i.code for i in caught.value.issues] == ["F006"], target
        assert check_write(root / "out") == root / "out"  # the link itself is replaced by a rename, not written through
    assert (root / "inside" / "a.txt").read_bytes() == b"ok"
    assert list(elsewhere.iterdir()) == [] and not (tmp_path / "nowhere").exists() and not (tmp_path / "x.txt").exists()
    atomic_write_bytes(root / "out" / "lib.txt", b"library callers decide")  # no scope: cardkit used as a library
    assert (elsewhere / "lib.txt").is_file()


def test_a_symlinked_output_file_is_replaced_never_written_through(game: Path, tmp_path_factory, cli):
    """``output/build-summary.txt -> ~/elsewhere/notes.txt``: the build replaces the link by its own file."""
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "notes.txt").write_text("mine\n", encoding="utf-8")
    (game / "output").mkdir()
    os.symlink(elsewhere / "notes.txt", game / "output" / "build-summary.txt")
    result = cli("build", "--root", str(game))
    assert result.code == 0, result.err
    summary = game / "output" / "build-summary.txt"
    assert not summary.is_symlink() and summary.read_text(encoding="utf-8") == result.out
    assert (elsewhere / "notes.txt").read_text(encoding="utf-8") == "mine\n"
