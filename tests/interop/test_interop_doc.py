"""docs/engines.md section 7 runs: its training loop on Tidelights, with the example's engine registered
in-process (as `pip install ./examples/tidelights/engine` would register it)."""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import re
import sys
from collections.abc import Iterator

import pytest

from cardkit.plugins import register, unregister
from tests.conftest import REPO

DOC = (REPO / "docs" / "engines.md").read_text(encoding="utf-8")
SECTION = DOC[DOC.index("## 7. Research adapters"):]
BLOCKS = re.findall(r"```python\n(.*?)```", SECTION, re.DOTALL)


@pytest.fixture
def tidelights() -> Iterator[None]:
    path = str(REPO / "examples" / "tidelights" / "engine")
    sys.path.insert(0, path)
    register(importlib.import_module("tidelights_engine.plugin").PLUGIN)
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        yield
    finally:
        os.chdir(cwd)
        unregister("tidelights")
        sys.path.remove(path)


def test_the_training_loop_and_the_openspiel_check_run(tidelights: None) -> None:
    assert len(BLOCKS) == 2
    out = io.StringIO()
    for block in BLOCKS:
        with contextlib.redirect_stdout(out):
            exec(compile(block, "docs/engines.md", "exec"), {"__name__": "doc"})
    m = re.search(r"mean return after 20 games: ([+-]\d\.\d\d); (\d+) \(observation, action\) pairs seen", out.getvalue())
    assert m, out.getvalue()
    assert -1.0 <= float(m[1]) <= 1.0 and int(m[2]) > 20
