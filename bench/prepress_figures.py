"""The prepress figures of the bundled sets' print outputs: prints a table.

    python bench/prepress_figures.py [--locale en]

Builds every sheet kind of Death Angel, Deep Strike and the Tidelights example
(the default A4 grid, CMYK, Letter short-edge, shared-edge, gutterfold,
printer-friendly) into a scratch folder and runs the prepress check of the
test suite (``tests/print/prepress.py``) over every page: pages, the bleed of
each card size, the highest total ink of a CMYK file (the largest C+M+Y+K of
any colour it sets or any pixel of its images) and the number of problems.
docs/print.md ("Prepress check") records the table.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardkit.layout.units import MM  # noqa: E402
from cardkit.load.project import load_project  # noqa: E402
from cardkit.printing import build_pdf, composed_once  # noqa: E402
from cardkit.render.cmyk import ColourOptions  # noqa: E402
from tests.print.prepress import check_pdf  # noqa: E402

CMYK = ColourOptions("cmyk", 240.0)
KINDS = [("A4 grid", {}, "long-edge", 1), ("A4 CMYK", {"colours": CMYK}, "long-edge", 3),
         ("Letter short-edge", {"paper": "letter", "duplex": "short-edge"}, "short-edge", 1),
         ("A4 shared-edge", {"layout": "shared-edge"}, "long-edge", 1), ("A4 gutterfold", {"layout": "gutterfold"}, None, 1),
         ("A4 printer-friendly", {"variant": "printer-friendly"}, "long-edge", 1)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--locale", default="en")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, composed_once():
        for root in (ROOT, ROOT / "examples" / "tidelights"):
            project = load_project(root)
            for set_id in sorted(project.sets):
                card_set = project.card_set(set_id)
                for name, options, duplex, least in KINDS:
                    out = Path(tmp) / f"{set_id}-{name}.pdf"
                    result = build_pdf(root, card_set, args.locale, out=out, **options)
                    report = check_pdf(out, cmyk="colours" in options, min_bleed=least * MM, duplex=duplex)
                    sizes = "; ".join(f"{f.card_w / MM:g} x {f.card_h / MM:g}: {f.cols} x {f.rows}"
                                      f"{' L' if f.landscape else ''}, {f.bleed / MM:g} mm" for f in result.sheets)
                    ink = f"{report.max_ink:.0f} %" if "colours" in options else ""
                    rows.append((set_id, name, str(result.pages), sizes, ink, str(len(report.problems))))
    head = ("set", "output", "pages", "per card size: grid, bleed", "highest ink", "problems")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, tuple("-" * w for w in widths), *rows]:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")


if __name__ == "__main__":
    main()
