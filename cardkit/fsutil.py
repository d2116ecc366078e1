"""The one writer of every file cardkit writes: a temporary file beside the
target, then a rename, and only where the user allowed.

A crash or an error half-way never leaves a truncated file where a good one was
expected.  :func:`output_path` is the one place that turns an id from the
data (a card, face, deck or set id) into a file name under an output folder.

Where a write may land (:func:`write_scope`, :func:`allow_writes`): a command
names its bases (the project folder ``--root``, an ``--out`` the user named,
the folder ``cardkit init`` makes); every target's folder is resolved
(symlinks followed) before anything is made, and a target that resolves
outside every base is refused with F006, the twin of F004 which reads use:
``output/`` as a symlink to a folder elsewhere gets one located line and
nothing is written there.  Outside a scope (cardkit used as a library) the
caller decides where it writes.

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
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from cardkit.errors import CardkitError, Issue

_BASES: list[_Base] | None = None  # where the active write scope lets cardkit write; None: no scope

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


@dataclass(frozen=True)
class _Base:
    named: str  # absolute, as the user named it
    resolved: str  # every symlink on the way followed
    out: bool  # an --out the user named (else a project folder)


@contextlib.contextmanager
def write_scope() -> Iterator[None]:
    """Within the block, writes land only inside the bases named with
    :func:`allow_writes` (the CLI opens one around every command)."""
    global _BASES
    before = _BASES
    _BASES = []
    try:
        yield
    finally:
        _BASES = before


def allow_writes(base: Path | str, out: bool = False) -> None:
    """Let the active write scope write at or under ``base``: a project folder
    (``--root``, the folder ``cardkit init`` makes), or, with ``out``, a file or
    folder the user named (``--out``).  Under a project folder no folder on the
    way may be a symlink out of it; an ``--out`` outside every project folder is
    the user's own path, links and all.  No scope: nothing to do."""
    if _BASES is None:
        return
    named = os.path.abspath(base)
    entry = _Base(named, os.path.realpath(named), out)
    if entry not in _BASES:
        _BASES.append(entry)


def _real(path: str) -> str:
    """``path`` with its folder resolved and its last part kept: a link there is
    replaced by a rename, never written through."""
    head, tail = os.path.split(os.path.abspath(path))
    return os.path.join(os.path.realpath(head), tail)


def _within(path: str, base: str) -> bool:
    return path == base or path.startswith(base.rstrip(os.sep) + os.sep)


def check_write(target: Path | str) -> Path:
    """``target`` if the active write scope allows a write there, else raise
    F006 naming the first folder on the way that is a symlink out of the
    project (or, for a target outside every base, the target).  Called before
    any folder is made, so nothing is made outside either."""
    target = Path(target)
    if not _BASES:
        return target
    named, real = os.path.abspath(target), _real(str(target))
    roots = [b for b in _BASES if not b.out]
    outs = [b for b in _BASES if b.out and not any(_within(b.named, r.named) for r in roots)]
    if any(_within(real, b.resolved) or real == _real(b.named) for b in roots) or any(
            _within(named, b.named) and (_within(real, b.resolved) or real == _real(b.named)) for b in outs):
        return target
    for base in roots:
        if not _within(named, base.named) or named == base.named:
            continue
        walk = base.named
        for part in os.path.relpath(named, base.named).split(os.sep)[:-1]:
            walk = os.path.join(walk, part)
            if os.path.islink(walk) and not _within(os.path.realpath(walk), base.resolved):
                raise CardkitError(Issue("F006", "is a symlink to a folder outside the project folder; nothing is "
                                                 f"written through it ({os.path.relpath(named, walk)} was to go there)",
                                         file=Path(os.path.relpath(walk, base.named)).as_posix()))
    raise CardkitError(Issue("F006", "is outside the project folder and the --out named; nothing is written",
                             file=target.as_posix()))


@contextlib.contextmanager
def atomic_output(target: Path | str) -> Iterator[IO[bytes]]:
    """Open a temporary file for writing; on success it replaces ``target``,
    on any exception it is removed and ``target`` is left untouched.  The
    target's folder is checked first (:func:`check_write`)."""
    target = check_write(target)
    if target.is_dir() and not target.is_symlink():
        raise CardkitError(f"cannot write {target}: it is a folder (name a file)", code="F003")
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
        try:
            os.replace(tmp, target)
        except OSError as exc:  # named as the user knows it, never by the temporary file's name
            raise CardkitError(f"cannot write {target}: {exc.strerror or exc}", code="F003") from None
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
