"""The saved-hashes table of ``bench/game_hashes.py`` and ``bench/engine_hashes.py``: write the
cells (``agent/players`` -> SHA-256) to a JSON file, or compare them with a saved one."""

from __future__ import annotations

import json
from pathlib import Path


def save_or_compare(result: dict[str, str], save: Path | None, against: Path | None) -> int:
    """Write ``result`` to ``save``; compare it with ``against``: a line per differing cell and a
    count, 1 on any difference (a cell the saved file lacks is a difference too, and said so)."""
    if save:
        save.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    if not against:
        return 0
    want = json.loads(against.read_text())
    bad = [k for k, v in result.items() if want.get(k) != v]
    missing = [k for k in result if k not in want]
    for k in bad:
        print(f"DIFFERENT {k}: {result[k][:16]} != {str(want.get(k))[:16]}")
    print(f"{len(result) - len(bad)} of {len(result)} cells equal"
          + (f" ({len(missing)} not saved)" if missing else ""))
    return 1 if bad else 0
