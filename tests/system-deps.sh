#!/bin/sh
# System tools the test suite uses beside Python packages, installed from the
# distribution when missing (Debian/Ubuntu; elsewhere it says what to install):
#   gettext  - msgfmt, msgattrib and msgcat read cardkit's catalogs back (tests/i18n)
#   chromium - the translator review page is tested in a headless browser
#   ghostscript, qpdf - independent readers of the CMYK / PDF/X output (tests/print/test_cmyk.py):
#                Ghostscript renders it to CMYK separations, qpdf checks its structure
set -eu
need=""
command -v msgattrib >/dev/null 2>&1 || need="$need gettext"
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || need="$need chromium"
command -v gs >/dev/null 2>&1 || need="$need ghostscript"
command -v qpdf >/dev/null 2>&1 || need="$need qpdf"
[ -z "$need" ] && exit 0
if command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "installing:$need"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq $need >/dev/null
else
  echo "please install:$need (the tests use them)" >&2
  exit 1
fi
