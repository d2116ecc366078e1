"""The one door through which cardkit reads a file of a project.

A project folder is untrusted data.  Every file cardkit opens because the
project has it (``set.yaml``, ``kinds.yaml``, card files, ``faces.yaml``,
``strings.yaml``, catalogs, glossaries, SVG icons, artwork) goes through
:func:`read_project_file`, which

* resolves symlinks and refuses a file that lies outside the project folder
  (F004), without opening it: nothing of its content can reach a message;
* opens only regular files: a FIFO, a device or a folder is refused after a
  ``stat`` and before any ``open`` (F005), so a FIFO never blocks a run, and the
  open itself is non-blocking, with the type checked again on the open handle
  (a file swapped between the two looks);
* reads at most ``max_bytes`` (the caller's limit and code).

References made *inside* a file (a path in ``set.yaml``, an icon or artwork
path in ``faces.yaml`` or a card) are resolved by :func:`resolve_reference`,
which keeps them inside a base folder (F002, as before).

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> _ = (root / "a.yaml").write_text("x: 1")
>>> read_project_file(root / "a.yaml", "a.yaml", root=root)
b'x: 1'
>>> resolve_reference(root, root, "../x") is None
True
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from cardkit.errors import CardkitError, Issue


def inside(root: Path, path: Path) -> bool:
    """Whether ``path``, symlinks resolved, lies inside ``root`` (also resolved)."""
    try:
        Path(path).resolve().relative_to(Path(root).resolve())
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop
        return False
    return True


def guard_for(root: Path, path: Path) -> Path | None:
    """``root`` when ``path`` is named inside it (lexically: a project file,
    whatever its symlinks point at), else None (a file cardkit ships)."""
    a, b = os.path.abspath(root), os.path.abspath(path)
    return Path(root) if b == a or b.startswith(a.rstrip(os.sep) + os.sep) else None


def project_rel(root: Path, path: Path) -> str:
    """``path`` as messages name it: relative to the project folder ``root``, with ``/``
    (``cards/my-set/set.yaml``); a file that is a symlink out of the project is named by
    where it stands in the project, and a file outside it (one cardkit ships) by its own path.

    >>> project_rel(Path("/p"), Path("/p/cards/set.yaml"))
    'cards/set.yaml'
    """
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):  # a symlink out of the project: name it as the project does
        if guard_for(root, path) is not None:
            return Path(os.path.relpath(path, root)).as_posix()
        return path.as_posix()


def resolve_reference(root: Path, base: Path, reference: str) -> Path | None:
    """``base / reference`` (symlinks resolved) when it stays inside both
    ``base`` and ``root``; None for an absolute path, a drive, ``..`` out of
    ``base`` or a symlink out."""
    if not reference or reference.startswith(("/", "\\")) or ":" in reference.split("/")[0] or "\x00" in reference:
        return None
    try:
        base_resolved = Path(base).resolve()
        target = (base_resolved / reference).resolve()
        target.relative_to(base_resolved)
    except (ValueError, OSError, RuntimeError):
        return None
    return target if inside(root, target) else None


def _refuse(code: str, message: str, rel: str) -> CardkitError:
    return CardkitError(Issue(code, message, file=rel, line=1, column=1))


def check_project_file(path: Path, rel: str, root: Path | None) -> os.stat_result:
    """The ``stat`` of a file cardkit may open: inside ``root`` (when given) and
    regular; else raise F004/F005 (or F001 when it does not exist)."""
    if root is not None and not inside(root, path):
        raise _refuse("F004", "is a symlink to a file outside the project folder; not read", rel)
    try:
        st = os.stat(path)
    except OSError as exc:
        raise _refuse("F001", f"cannot read file: {exc.strerror or 'not found'}", rel) from None
    if not stat.S_ISREG(st.st_mode):
        raise _refuse("F005", f"is {_kind(st.st_mode)}, not a regular file; not opened", rel)
    return st


def read_project_file(path: Path, rel: str, *, root: Path | None, max_bytes: int = 1 << 20,
                      too_large: str = "Y009") -> bytes:
    """The bytes of one project file (see the module docstring); ``rel`` names
    it in messages, ``too_large`` is the code for a file over ``max_bytes``."""
    st = check_project_file(path, rel, root)
    if st.st_size > max_bytes:
        raise _refuse(too_large, f"file is {st.st_size} bytes; the limit is {max_bytes}", rel)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise _refuse("F001", f"cannot read file: {exc.strerror or errno.errorcode.get(exc.errno or 0, '')}", rel) from None
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode):  # swapped for a FIFO or device after the first look
            raise _refuse("F005", f"is {_kind(now.st_mode)}, not a regular file; not opened", rel)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            raw = fh.read(max_bytes + 1)
    except OSError as exc:
        raise _refuse("F001", f"cannot read file: {exc.strerror or exc}", rel) from None
    finally:
        os.close(fd)
    if len(raw) > max_bytes:  # grew while we looked
        raise _refuse(too_large, f"file exceeds {max_bytes} bytes", rel)
    return raw


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"
