"""Write cardkit/i18n/quotes.json: the quotation marks of every CLDR locale.

Babel carries no CLDR delimiters, so they are taken once from the CLDR JSON
package (``npm pack cldr-misc-full@48.2.0``, unpacked) and kept as data:

    python tools/cldr_quotes.py /tmp/cldrmisc/package

Each locale maps to [quotationStart, quotationEnd, alternateQuotationStart,
alternateQuotationEnd]; a regional locale is kept only where it differs from its
language.  CLDR data: Unicode License v3 (https://www.unicode.org/license.txt).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

KEYS = ("quotationStart", "quotationEnd", "alternateQuotationStart", "alternateQuotationEnd")


def main(package: Path) -> None:
    marks: dict[str, list[str]] = {}
    version = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
    for path in sorted((package / "main").glob("*/delimiters.json")):
        name = path.parent.name.replace("-", "_")
        data = json.loads(path.read_text(encoding="utf-8"))["main"]
        marks[name] = [next(iter(data.values()))["delimiters"][k] for k in KEYS]
    out = {k: v for k, v in marks.items() if "_" not in k or marks.get(k.split("_")[0]) != v}
    doc = {"_source": f"CLDR {version} delimiters (cldr-misc-full), Unicode License v3", "locales": out}
    target = Path(__file__).resolve().parents[1] / "cardkit" / "i18n" / "quotes.json"
    target.write_text(json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n",
                      encoding="utf-8")
    print(f"wrote {target} ({len(out)} locales)")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
