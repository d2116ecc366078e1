"""Every ``l10n`` command codes a bad ``--locale`` alike (docs/errors.md): ``L003`` for a name
that is not a locale's (``../x``), ``L005`` for a locale name without catalogs here (``xx``,
``zz_QQ``, or English, the source).  ``l10n review`` gave L003 for ``xx``, ``l10n check`` gave
L005 for ``../x``."""

from __future__ import annotations

from pathlib import Path

import pytest

COMMANDS = {
    "check": ["l10n", "check", "--no-fit"],
    "review": ["l10n", "review", "--dpi", "72"],
    "update": ["l10n", "update"],
    "accept": ["l10n", "accept", "--entry", "x.text", "--code", "T160", "--reason", "r"],
    "import": ["l10n", "import", "IMPORT"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("name", "code"), [("../x", "L003"), ("xx", "L005"), ("zz_QQ", "L005"), ("en", "L005")])
def test_a_bad_locale_has_one_code_in_every_l10n_command(project: Path, cli, command: str, name: str,
                                                         code: str) -> None:
    (project / "in.csv").write_text("msgctxt,translation\nx.text,y\n", encoding="utf-8")
    args = [str(project / "in.csv") if a == "IMPORT" else a for a in COMMANDS[command]]
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    r = cli(*args, "--root", str(project), "--locale", name)
    assert r.code == 1, (command, name, r.out, r.err)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and f"error[{code}]" in lines[0], (command, name, r.err)
    assert "Traceback" not in r.err
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before


def test_review_reports_every_bad_locale_with_the_codes_of_check(project: Path, cli) -> None:
    names = ["../x", "xx", "sv"]
    codes = []
    for command in ("check", "review"):
        r = cli(*COMMANDS[command], "--root", str(project), *[a for n in names for a in ("--locale", n)])
        assert r.code == 1
        codes.append(sorted(line.split("error[")[1][:4] for line in r.err.strip().splitlines()))
    assert codes[0] == codes[1] == ["L003", "L005", "L005"]
