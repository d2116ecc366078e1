"""Atomic output keeps the permissions a plain write would give (POSIX permission bits)."""

from __future__ import annotations

import os
import stat

import pytest

from cardkit.fsutil import atomic_output, atomic_write_bytes


def test_a_new_file_gets_the_umask_default_not_a_private_mode(tmp_path):
    old = os.umask(0o027)
    try:
        atomic_write_bytes(tmp_path / "out.pdf", b"%PDF")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "out.pdf").stat().st_mode) == 0o640


def test_a_replaced_file_keeps_its_permissions_and_a_failed_write_leaves_it(tmp_path):
    target = tmp_path / "summary.txt"
    target.write_bytes(b"old")
    target.chmod(0o604)
    atomic_write_bytes(target, b"new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o604
    assert target.read_bytes() == b"new"
    with pytest.raises(RuntimeError), atomic_output(target) as fh:
        fh.write(b"half")
        raise RuntimeError("stop")
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.txt"]  # no temporary file left
