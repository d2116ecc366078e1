"""Atomic file output: write a temporary file beside the target, then rename.

A crash or an error half-way never leaves a truncated file where a good one was
expected.

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
from pathlib import Path
from typing import IO, Iterator

from cardkit.errors import CardkitError


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
