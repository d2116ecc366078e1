"""The prepress figures of the bundled sets' print outputs: prints a table.

    python bench/prepress_figures.py [--locale en] [--papers]

Builds every sheet kind of Death Angel, Deep Strike, the Tidelights example
and the three-size test game (the sheet kinds of
``tests/print/test_prepress_outputs.py``: A4 grid, CMYK, Letter short-edge,
shared-edge, gutterfold, A3 landscape CMYK, printer-friendly, inserts) and
the print services' one-card-per-page PDFs into a scratch folder and runs the
prepress check of the test suite (``tests/print/prepress.py``) over every page: pages, the bleed of
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

from cardkit.layout.faces import load_faces  # noqa: E402
from cardkit.layout.units import MM  # noqa: E402
from cardkit.load.project import load_project  # noqa: E402
from cardkit.printing import build_pdf, composed_once  # noqa: E402
from cardkit.render.cmyk import ColourOptions  # noqa: E402
from tests.print.prepress import check_pdf  # noqa: E402

CMYK = ColourOptions("cmyk", 240.0)
RGB = ColourOptions("rgb", 240.0)
LABELS = {"grid": "A4 grid", "cmyk": "A4 CMYK", "letter-short-edge": "Letter short-edge", "shared-edge": "A4 shared-edge",
          "gutterfold": "A4 gutterfold", "a3-landscape-cmyk": "A3 landscape CMYK",
          "printer-friendly": "A4 printer-friendly", "inserts": "A4 inserts"}
SERVICES = [("generic", RGB), ("generic", CMYK), ("thegamecrafter", RGB), ("drivethrucards", CMYK)]


def _games(tmp: Path) -> list[tuple[Path, str]]:
    from tests.print.threesizes import three_size_project

    sizes = three_size_project(tmp / "sizes")
    out = []
    for root in (ROOT, ROOT / "examples" / "tidelights", sizes):
        out += [(root, set_id) for set_id in sorted(load_project(root).sets)]
    return out


def main() -> None:
    from cardkit.errors import CardkitError
    from cardkit.print import shop
    from cardkit.print.presets import PRESETS
    from tests.print.test_prepress_outputs import KINDS  # the test's sheet kinds: one list

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--locale", default="en")
    ap.add_argument("--papers", action="store_true",
                    help="instead: pages per paper and layout of the bundled sets (auto orientation), every page checked")
    args = ap.parse_args()
    if args.papers:
        papers(args.locale)
        return
    rows = []
    shop.face_png = lambda face, preset, fit=None: b""  # (the PDFs only: the PNGs are no prepress matter)
    with tempfile.TemporaryDirectory() as tmp, composed_once():
        for root, set_id in _games(Path(tmp)):
            card_set = load_project(root).card_set(set_id)
            variants = load_faces(root, card_set).variants
            for kind, options, duplex, least in KINDS:
                if "variant" in options and options["variant"] not in variants:
                    continue
                out = Path(tmp) / f"{set_id}-{kind}.pdf"
                result = build_pdf(root, card_set, args.locale, out=out, **options)
                report = check_pdf(out, cmyk="colours" in options, min_bleed=least,
                                   duplex=duplex if kind != "inserts" else None)
                sizes = "; ".join(f"{f.card_w / MM:g} x {f.card_h / MM:g}: {f.cols} x {f.rows}"
                                  f"{' L' if f.landscape else ''}, {f.bleed / MM:g} mm" for f in result.sheets)
                ink = f"{report.max_ink:.0f} %" if "colours" in options else ""
                rows.append((set_id, LABELS.get(kind, kind), str(result.pages), sizes, ink, str(len(report.problems))))
            for name, colours in SERVICES:
                preset = PRESETS[name]
                try:
                    made = shop.build_shop(root, card_set, args.locale, preset, out_dir=Path(tmp) / f"s-{set_id}-{name}",
                                           colours=colours, fit="scale")
                except CardkitError as exc:
                    rows.append((set_id, f"{name} {colours.space}", "-", "refused: " + ", ".join(
                        sorted({i.code for i in exc.issues})), "", "-"))
                    continue
                pages = problems = 0
                ink_max = 0.0
                for pdf in made.pdfs:
                    report = check_pdf(pdf, margin=0, min_bleed=preset.bleed, cmyk=colours.space == "cmyk",
                                       card_pages=False)
                    pages += len(report.pages)
                    problems += len(report.problems)
                    ink_max = max(ink_max, report.max_ink)
                sizes = f"{len(made.pdfs)} PDF, {made.cards} cards, bleed {preset.bleed / MM:g} mm" if made.pdfs else \
                    f"PNGs only ({made.cards} cards)"
                rows.append((set_id, f"{name} {colours.space}", str(pages) if made.pdfs else "-", sizes,
                             f"{ink_max:.0f} %" if colours.space == "cmyk" and made.pdfs else "",
                             str(problems) if made.pdfs else "-"))
    head = ("set", "output", "pages", "per card size: grid, bleed", "highest ink", "problems")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, tuple("-" * w for w in widths), *rows]:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")


PAPERS = ("a3", "a4", "a5", "letter", "legal", "tabloid")
LAYOUTS = ("grid", "shared-edge", "gutterfold")


def papers(locale: str) -> None:
    """Per bundled set, paper and layout: pages, grid and bleed (L: landscape), and the prepress
    problems of every page (0 expected)."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp, composed_once():
        for root in (ROOT, ROOT / "examples" / "tidelights"):
            project = load_project(root)
            for set_id in sorted(project.sets):
                card_set = project.card_set(set_id)
                for layout in LAYOUTS:
                    cells = []
                    for paper in PAPERS:
                        out = Path(tmp) / f"{set_id}-{paper}-{layout}.pdf"
                        result = build_pdf(root, card_set, locale, paper=paper, layout=layout, out=out)
                        report = check_pdf(out, min_bleed=1 * MM, duplex=None if layout == "gutterfold" else "long-edge")
                        f = result.sheets[0]
                        bad = f" ({len(report.problems)} problems)" if report.problems else ""
                        cells.append(f"{result.pages}: {f.cols} x {f.rows}{' L' if f.landscape else ''}, "
                                     f"{f.bleed / MM:g} mm{bad}")
                    rows.append((set_id, layout, *cells))
    head = ("set", "layout", *PAPERS)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, tuple("-" * w for w in widths), *rows]:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")


if __name__ == "__main__":
    main()
