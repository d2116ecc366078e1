"""What compound-aware hyphenation costs: loading a pyphen dictionary's compound
level (once per process and language), ranking the seams of a word, and breaking
a German paragraph into lines at several widths (the breaker tries ranked seams
before syllables).  Each line of the table is CPU time of one process.

    python bench/bench_hyphen.py [--repeat 200]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WORDS = ("Flammenwerferangriff Symbiontenstapel Verteidigungswurf Spielerreihenfolge Ventilationsschacht "
         "Genräuberinfektion Schiffsmannschaft Lebenspunkte Sturmbolterfeuer Nahkampfangriff Bewegungsphase "
         "Ereigniskarte Geländekarte Ausrüstungskarte Schadensmarker Lebensenergie").split()
PARAGRAPH = ("Nach dem Flammenwerferangriff legt jeder Spieler seinen Symbiontenstapel neben die "
             "Geländekarte; die Spielerreihenfolge bleibt, bis die Bewegungsphase endet und der "
             "Verteidigungswurf der Schiffsmannschaft misslingt.")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    from cardkit.layout.fonts import FontBook
    from cardkit.layout.hyphen import _lexicon, _ranks, seam_ranks
    from cardkit.layout.textfit import Style, _break_lines

    rows = []
    t = time.process_time()
    size = len(_lexicon("de"))
    rows.append((f"load the German compound level ({size:,} parts)", time.process_time() - t, 1))
    t = time.process_time()
    for _ in range(args.repeat):
        _ranks.cache_clear()
        for w in WORDS:
            seam_ranks(w, "de")
    rows.append(("rank the seams of a word (uncached)", time.process_time() - t, args.repeat * len(WORDS)))
    book = FontBook()
    widths = (90.0, 120.0, 160.0)
    for locale in ("de", "sv"):
        _break_lines(PARAGRAPH, Style(locale), 9, widths[0], book, frozenset())  # (the dictionary loads once)
        t = time.process_time()
        for _ in range(args.repeat):
            for w in widths:
                _break_lines(PARAGRAPH, Style(locale), 9, w, book, frozenset())
        rows.append((f"break a {len(PARAGRAPH)}-character paragraph as {locale} (memo off)",
                     time.process_time() - t, args.repeat * len(widths)))
    print(f"| {'step':<60} | {'CPU ms each':>11} |")
    print(f"|{'-' * 62}|{'-' * 13}|")
    for name, cpu, n in rows:
        print(f"| {name:<60} | {cpu * 1000 / n:>11.3f} |")


if __name__ == "__main__":
    main()
