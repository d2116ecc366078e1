#!/bin/bash
# Build every print output of a checkout and compare them with another's, byte for byte.
#
#   bash bench/print_outputs.sh CHECKOUT OUTDIR [REFERENCE_OUTDIR]
#
# Runs CHECKOUT's cardkit (with the active Python; its output/ folder is used and removed) for:
# `cardkit build`, `build --variant printer-friendly`, `build pdf` in gutterfold, shared-edge,
# CMYK and Letter short-edge for both bundled sets in en and ko, inserts, `build shop` (generic,
# RGB and CMYK), `build png` and the Tidelights PDF, into OUTDIR (435 files).  With
# REFERENCE_OUTDIR (the same run of another checkout), `cmp`s every file and says how many differ.
# Make the checkouts with `git worktree add /tmp/wt-X COMMIT`.
set -u
ROOT=$(cd "$1" && pwd); OUT=$2; REF=${3:-}
rm -rf "$OUT"; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
ck() { (cd "$ROOT" && python -c "import sys; sys.path.insert(0, '$ROOT'); from cardkit.cli import main; main()" "$@") \
  >>"$OUT/log.txt" 2>&1 || echo "FAIL: $*" | tee -a "$OUT/log.txt"; }
rm -rf "$ROOT/output"
ck build; mkdir -p "$OUT/build"; mv "$ROOT"/output/*.pdf "$OUT/build/"
ck build --variant printer-friendly; mkdir -p "$OUT/pf"; mv "$ROOT"/output/*.pdf "$OUT/pf/"
for s in death-angel deep-strike; do for l in en ko; do
  for lay in gutterfold shared-edge; do ck build pdf --set $s --locale $l --layout $lay --out "$OUT/$s-$l-$lay.pdf"; done
  ck build pdf --set $s --locale $l --colour cmyk --out "$OUT/$s-$l-cmyk.pdf"
  ck build pdf --set $s --locale $l --paper letter --duplex short-edge --out "$OUT/$s-$l-letter.pdf"
done; done
ck build pdf --set death-angel --locale fi --mode inserts --out "$OUT/da-fi-inserts.pdf"
ck build shop --set deep-strike --locale ko
ck build shop --set death-angel --locale fi --preset generic --colour cmyk
ck build png --set deep-strike --locale fi --dpi 100
ck build png --set death-angel --locale ko --dpi 72
ck build pdf --root examples/tidelights --locale en --out "$OUT/tidelights-en.pdf"
mv "$ROOT/output" "$OUT/rest"
if [ -n "$REF" ]; then
  n=0; bad=0
  for f in $(cd "$REF" && find . -type f ! -name log.txt ! -name build-summary.txt | sort); do
    n=$((n + 1)); cmp -s "$REF/$f" "$OUT/$f" || { echo "DIFF $f"; bad=$((bad + 1)); }
  done
  echo "$n files compared, $bad differ"
fi
