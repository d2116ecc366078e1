"""Ink coverage of the bundled sets, default and each variant: prints a table.

    python bench/inkcov.py [--locale en]

Builds each set's A4 PDF (Death Angel, Deep Strike, and the Tidelights
example) into a scratch folder, once as the face file is written and once per
variant it declares, and measures each with Ghostscript's ``inkcov`` device
(``gs -o - -sDEVICE=inkcov``), a reader cardkit did not write: the mean over
the pages of C+M+Y+K, in per cent of the page area.  docs/authoring.md
("Variants") records the numbers.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardkit.layout.faces import load_faces  # noqa: E402
from cardkit.load.project import load_project  # noqa: E402
from cardkit.printing import build_pdf  # noqa: E402


def ink(pdf: Path) -> tuple[int, float]:
    """(pages, mean C+M+Y+K per page in per cent)."""
    out = subprocess.run(["gs", "-q", "-o", "-", "-sDEVICE=inkcov", str(pdf)], capture_output=True, text=True, check=True)
    pages = [sum(float(v) for v in ln.split()[:4]) for ln in out.stdout.splitlines() if ln.strip().endswith("OK")]
    return len(pages), 100 * sum(pages) / max(1, len(pages))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--locale", default="en")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for root in (ROOT, ROOT / "examples" / "tidelights"):
            project = load_project(root)
            for set_id in sorted(project.sets):
                card_set = project.card_set(set_id)
                base = None
                for variant in [None, *load_faces(root, card_set).variants]:
                    out = Path(tmp) / f"{set_id}-{variant or 'default'}.pdf"
                    build_pdf(root, card_set, args.locale, out=out, variant=variant)
                    pages, cov = ink(out)
                    base = cov if variant is None else base
                    cut = "" if variant is None or not base else f"{100 * (1 - cov / base):.0f} %"
                    rows.append((set_id, variant or "(default)", str(pages), f"{cov:.1f} %", cut))
    head = ("set", "variant", "pages", "C+M+Y+K per page", "cut")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, tuple("-" * w for w in widths), *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))


if __name__ == "__main__":
    main()
