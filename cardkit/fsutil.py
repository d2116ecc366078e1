"""Atomic file output: write a temporary file beside the target, then rename.

A crash or an error half-way never leaves a truncated file where a good one was
expected.  :func:`output_path` is the one place that turns an id from the
data (a card, face, deck or set id) into a file name under an output folder.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_bytes(d / "a" / "x.txt", b"hi")
>>> (d / "a" / "x.txt").read_bytes()
b'hi'
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from cardkit.errors import CardkitError, Issue

MAX_NAME = 120  # characters of one file name made from an id
_WINDOWS_RESERVED = frozenset({"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)), *(f"LPT{i}" for i in range(10))})
_FORBIDDEN = set('/\\<>:"|?*')


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be one file name on any system cardkit runs on, or None.

    >>> [name_problem(n) for n in ("fireball-2.png", "../x", ".hidden", "CON.png", "a/b")]
    [None, 'holds a path separator or one of <>:"|?*', 'starts with a dot', "is a reserved name on Windows ('CON')", 'holds a path separator or one of <>:"|?*']
    """
    if not name:
        return "is empty"
    if len(name) > MAX_NAME:
        return f"is {len(name)} characters long; at most {MAX_NAME}"
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        return "holds a control character"
    if any(ch in _FORBIDDEN for ch in name):
        return 'holds a path separator or one of <>:"|?*'
    if name.startswith("."):
        return "starts with a dot"
    if ".." in name:
        return "holds '..'"
    if name.endswith((" ", ".")):
        return "ends with a space or a dot"
    stem = name.split(".")[0].upper()
    if stem in _WINDOWS_RESERVED:
        return f"is a reserved name on Windows ('{stem}')"
    return None


def face_file_stem(face_id: str) -> str:
    """The file name stem of a face id, as ``build png`` and ``l10n review`` name
    the face's image (``:`` and ``#`` are not portable in file names).

    >>> face_file_stem("back:spell:2A"), face_file_stem("fireball#2")
    ('back_spell_2A', 'fireball-2')
    """
    return face_id.replace(":", "_").replace("#", "-")


def output_path(folder: Path | str, name: str, what: str = "an id") -> Path:
    """``folder / name`` for a ``name`` made from the data; raise P006 unless it
    is one safe file name (:func:`name_problem`) that stays directly in ``folder``."""
    folder = Path(folder)
    problem = name_problem(name)
    shown = "".join(ch if ch.isprintable() else "?" for ch in name[:60])
    if problem is None and os.path.dirname(os.path.normpath(folder / name)) != os.path.normpath(folder):
        problem = "would leave the output folder"  # (cannot happen for a name that passed; kept as the last guard)
    if problem is not None:
        raise CardkitError(Issue("P006", f"the file name '{shown}' made from {what} {problem}; nothing is written",
                                 file=str(folder)))
    return folder / name


@contextlib.contextmanager
def atomic_output(target: Path | str) -> Iterator[IO[bytes]]:
    """Open a temporary file for writing; on success it replaces ``target``,
    on any exception it is removed and ``target`` is left untouched."""
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:  # a folder that cannot be made or written: say which, as the user named it
        why = next((f"{p} is not a folder" for p in target.parents if p.exists() and not p.is_dir()), exc.strerror or str(exc))
        raise CardkitError(f"cannot write {target}: {why}", code="F003") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _mode_for(target))  # mkstemp makes it private (0600)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _mode_for(target: Path) -> int:
    """The permissions a plain ``open(target, "wb")`` would give: those of the
    file being replaced, else read-write for all as the umask allows."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def atomic_write_bytes(target: Path | str, data: bytes) -> None:
    with atomic_output(target) as fh:
        fh.write(data)
