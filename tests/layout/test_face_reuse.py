"""Reuse in face files on the real Deep Strike faces: named variants built
and measured by Ghostscript's ink coverage, include of shared files (the
same PDF, byte for byte), parameterised groups and conditional values drawn
as their plain form, and every refusal located.  The bundled faces use all
of these; their PDFs staying identical to main's is the regression check the
lead runs with ``cardkit build``."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import yaml

from cardkit.layout.ops import Text
from cardkit.load.project import load_project
from cardkit.printing import compose_set
from tests.conftest import FIXTURES

DS = Path("cards") / "deep-strike"
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):\d+: error\[(?P<code>[A-Z]\d{3})\]: .+$")


def _ink(pdf: Path) -> float:
    """Mean total ink (C+M+Y+K, percent) per page, as Ghostscript's inkcov device measures it."""
    out = subprocess.run(["gs", "-q", "-o", "-", "-sDEVICE=inkcov", str(pdf)], capture_output=True, text=True,
                         check=True).stdout
    pages = [sum(float(v) for v in ln.split()[:4]) for ln in out.splitlines() if ln.strip().endswith("OK")]
    assert pages
    return 100 * sum(pages) / len(pages)


def _edit(project: Path, old: str, new: str) -> None:
    path = project / DS / "faces.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _errors(text: str) -> list[tuple[str, int, str]]:
    found = [LINE.match(ln) for ln in text.splitlines() if ln and not ln.endswith("error(s)")]
    assert all(found), text
    return [(m["file"], int(m["line"]), m["code"]) for m in found if m]


def test_printer_friendly_variant_halves_the_ink(project: Path, cli):
    plain = cli("build", "pdf", "--root", str(project), "--set", "deep-strike")
    light = cli("build", "pdf", "--root", str(project), "--set", "deep-strike", "--variant", "printer-friendly")
    assert plain.code == 0 and light.code == 0, plain.err + light.err
    default, variant = project / "output" / "deep-strike-en-a4.pdf", project / "output" / "deep-strike-en-a4-printer-friendly.pdf"
    assert f"wrote {variant}" in light.out
    assert _ink(variant) <= _ink(default) / 2, (_ink(default), _ink(variant))


def test_variant_changes_style_colours_and_an_unknown_one_is_refused(project: Path, cli):
    loaded = load_project(project).sets["deep-strike"].set
    assert loaded is not None

    def title_colours(variant: str | None) -> set[str]:
        items, _ = compose_set(project, loaded, "en", variant=variant)
        return {op.colour for it in items for op in it.front.ops if isinstance(op, Text) and op.role == "title"}

    assert title_colours(None) == {"#ffffff"}
    assert title_colours("printer-friendly") == {"#2f3b2a"}  # the style's colour, overridden by the variant
    bad = cli("build", "pdf", "--root", str(project), "--set", "deep-strike", "--variant", "printer-frendly")
    assert bad.code == 1 and "Traceback" not in bad.err
    assert _errors(bad.err)[0][::2] == ("cards/deep-strike/faces.yaml", "M080")
    assert "unknown variant 'printer-frendly' (the face file has printer-friendly)" in bad.err
    assert not (project / "output" / "deep-strike-en-a4-printer-frendly.pdf").exists()


def test_a_broken_variant_is_found_by_validate(project: Path, cli):
    case = yaml.safe_load((FIXTURES / "variants" / "unknown-face" / "case.yaml").read_text())
    for target, source in case["replace"].items():
        shutil.copy(FIXTURES / "variants" / "unknown-face" / source, project / target)
    result = cli("validate", "--root", str(project))
    assert result.code == 1
    want = case["expect"][0]
    assert (want["file"], want["line"], want["code"]) in _errors(result.err)


def test_included_palette_draws_the_same_pdf(project: Path, cli):
    """Deep Strike's palette moved to a shared file it includes: the (printer-friendly)
    PDF is the same, byte for byte; a mistake in the shared file is located there."""
    assert cli("build", "pdf", "--root", str(project), "--set", "deep-strike", "--variant", "printer-friendly").code == 0
    before = (project / "output" / "deep-strike-en-a4-printer-friendly.pdf").read_bytes()
    shared = project / "cards" / "shared.yaml"
    shared.write_text('palette: {paper: "#f6f1e4", ink: "#1d1b18", white: "#ffffff", gold: "#c9a227", card: "#000000"}\n'
                      "styles:\n  name: {role: body, size: 5pt}\n", encoding="utf-8")
    _edit(project, '''palette:
  paper: "#f6f1e4"
  ink: "#1d1b18"
  white: "#ffffff"
  gold: "#c9a227"
  card: "#2f3b2a"''', 'include: [../shared.yaml]\npalette:\n  card: "#2f3b2a"')  # (its own card and name style win)
    result = cli("build", "pdf", "--root", str(project), "--set", "deep-strike", "--variant", "printer-friendly")
    assert result.code == 0, result.err
    assert (project / "output" / "deep-strike-en-a4-printer-friendly.pdf").read_bytes() == before
    shared.write_text('palette: {paper: "#f6f1e4", ink: "#1d1b18", white: "#ffffff", gold: nope}\n', encoding="utf-8")
    bad = cli("validate", "--root", str(project))
    assert _errors(bad.err) == [("cards/shared.yaml", 1, "S007")], bad.err
    assert "cards/shared.yaml:1:69:" in bad.err  # (the column of `nope`)


def test_includes_nested_too_deep_are_refused(project: Path, cli):
    d = project / DS
    for n in range(6):
        (d / f"inc{n}.yaml").write_text(f"include: [inc{n + 1}.yaml]\n" if n < 5 else "palette: {}\n", encoding="utf-8")
    _edit(project, "palette:\n", "include: [inc0.yaml]\npalette:\n")
    result = cli("validate", "--root", str(project))
    assert result.code == 1
    assert ("cards/deep-strike/inc3.yaml", 1, "M085") in _errors(result.err)


def test_parameterised_group_and_conditional_value_draw_their_plain_form(project: Path, cli):
    loaded = load_project(project).sets["deep-strike"].set
    assert loaded is not None

    def fronts() -> list[list[object]]:
        items, _ = compose_set(project, loaded, "en")
        return [it.front.ops for it in items]

    _edit(project, "      - {type: text, name: name, style: name, box: [6mm, 121mm, 70mm, 9mm], field: name}\n",
          "      - {type: text, name: name, style: name, box: [6mm, 121mm, 70mm, 9mm], field: name, colour: gold}\n")
    plain = fronts()
    _edit(project, "  frame:\n", "  framed:\n    - {type: frame, inset: $inset, stroke: {colour: card, lighten: 0.35}, "
                                 "lw: 0.8, r: $r}\n  frame:\n")
    _edit(project, "      - {type: use, group: frame}\n", "      - {type: use, group: framed, with: {inset: 3.2mm, r: 2.5mm}}\n")
    _edit(project, "field: name, colour: gold}", "field: name, colour: {if: number, then: gold, else: white}}")
    assert fronts() == plain  # every scenario has a number: the `then` value
    _edit(project, "{if: number, then: gold, else: white}", "{unless: number, then: gold, else: white}")
    assert [op.colour for ops in fronts() for op in ops if isinstance(op, Text) and op.role == "title"] == ["#ffffff"] * 6
