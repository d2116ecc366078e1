"""Run a command in a fresh process and read back its own peak memory.

Linux keeps a process's peak resident size across ``exec``: a child forked
from the test process (hundreds of MB after a long suite) reports at least the
test process's peak, whatever it used itself.  :func:`run_measured` starts a
small Python process that forks the command and reads the command's own peak
with ``wait4``, so the number is the command's, and sets an address-space limit
in it first (a regression fails in the child instead of filling the machine).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

_WRAPPER = r"""
import json, os, resource, sys
out, limit, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
pid = os.fork()
if pid == 0:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(out, "w") as fh:
    json.dump({"status": os.waitstatus_to_exitcode(status), "maxrss_kib": usage.ru_maxrss}, fh)
"""


@dataclass(frozen=True)
class Measured:
    returncode: int
    stdout: str
    stderr: str
    peak_mb: float


def run_measured(argv: list[str], *, timeout: float, address_limit: int = 2 << 30) -> Measured:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "usage.json"
        proc = subprocess.run([sys.executable, "-c", _WRAPPER, str(out), str(address_limit), *argv],
                              capture_output=True, text=True, check=False, timeout=timeout)
        usage = json.loads(out.read_text())
    return Measured(usage["status"], proc.stdout, proc.stderr, usage["maxrss_kib"] / 1024)
