"""Benchmark of `cardkit preview`: from saving one card's text to the new face in the page.

    python bench/bench_preview.py [--set death-angel] [--edits 20]

Copies the set (alone, with the catalogs) to a temporary folder, starts the
preview server in this process and opens its page in headless Chromium
(playwright).  Then, `--edits` times, it rewrites the card file with one card's
name changed and measures, end to end, the time from the file write to the
moment the page holds the new image of that card, decoded (`img.complete` with a
new `src`).  Prints a row per edit (wall ms, the server's rebuild ms and how
many faces it redrew) and `median N ms`.  The goal is under 1000 ms on Death
Angel (128 cards).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardkit.preview import Preview, PreviewServer  # noqa: E402  (after the sys.path line above)

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _first_named_card(set_dir: Path) -> tuple[Path, str, str]:
    """A card file, a card id in it and that card's `name: "..."` line text."""
    for path in sorted(set_dir.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        m = re.search(r'^  - id: (\w+)\n    name: "([^"]+)"', text, re.MULTILINE)
        if m:
            return path, m.group(1), m.group(2)
    raise SystemExit(f"no card with a quoted name in {set_dir}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", default="death-angel")
    ap.add_argument("--edits", type=int, default=20)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(ROOT / "cards" / args.set, root / "cards" / args.set)
        for name in ("locales", "schemas"):
            shutil.copytree(ROOT / name, root / name)
        card_file, card_id, name = _first_named_card(root / "cards" / args.set)
        original = card_file.read_text(encoding="utf-8")
        preview = Preview(root, args.set)
        server = PreviewServer(preview)
        t = time.perf_counter()
        server.start()
        first = time.perf_counter() - t
        faces = len(preview.views["en"].faces)
        face_id = next(f.id for f in preview.views["en"].faces.values() if f.card == card_id)
        rows = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page()
            page.goto(server.url)
            sel = f'figure[data-id="{face_id}"] img'
            page.wait_for_selector(sel, timeout=60_000)
            page.wait_for_function(f"() => document.querySelector('{sel}').complete", timeout=60_000)
            for i in range(args.edits):
                old = page.get_attribute(sel, "src")
                text = original.replace(f'name: "{name}"', f'name: "{name} {i + 1}"', 1)
                t0 = time.perf_counter()
                card_file.write_text(text, encoding="utf-8")
                page.wait_for_function(
                    "([s, old]) => { const i = document.querySelector(s);"
                    " return i && i.getAttribute('src') !== old && i.complete && i.naturalWidth > 0; }",
                    arg=[sel, old], timeout=60_000, polling=10)
                wall = (time.perf_counter() - t0) * 1000
                rows.append((wall, preview.last_rebuild_ms, preview.views["en"].drawn))
                time.sleep(0.3)
            browser.close()
        server.close()
    print(f"cardkit preview: {args.set}, {faces} faces; first drawing {first:.1f} s; "
          f"{platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print(f"{'edit':>4}  {'save -> image ms':>16}  {'rebuild ms':>10}  {'faces redrawn':>13}")
    for i, (wall, rebuild, drawn) in enumerate(rows, 1):
        print(f"{i:>4}  {wall:>16.0f}  {rebuild:>10.0f}  {drawn:>13}")
    walls = [r[0] for r in rows]
    print(f"min {min(walls):.0f} ms, max {max(walls):.0f} ms, rebuild median {statistics.median(r[1] for r in rows):.0f} ms")
    print(f"median {statistics.median(walls):.0f} ms")


if __name__ == "__main__":
    main()
