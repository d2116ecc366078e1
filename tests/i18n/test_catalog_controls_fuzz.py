"""Fuzz (#29): catalogs holding generated control and bidi characters (C0, C1,
DEL, ESC sequences, bidi embeddings, overrides and isolates, a lone surrogate's
bytes) in translations, contexts, comments and the header never crash
``l10n check``, ``validate`` or ``build pdf``: exit 0 or 1, every error one
located line, nothing printed live, and a translation holding one is an error
(T310).  ``CARDKIT_FUZZ_EXAMPLES=N`` runs more examples."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

LOCATED = re.compile(r"^\S+?(:\d+:\d+)?: (error|warning)\[[A-Z]\d{3}\]: \S")
LIVE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
PO = "locales/fi/LC_MESSAGES/g.po"
TRANSLATION = "Kun tämä sankari hyökkää, se saa +1 voimaa."
HOSTILE = "".join(map(chr, [*range(0x00, 0x09), 0x0B, 0x0C, 0x0D, *range(0x0E, 0x20), 0x7F, 0x85, 0x9B,
                            *range(0x202A, 0x202F), *range(0x2066, 0x206A)]))

hostile_text = st.lists(st.one_of(st.sampled_from(list(HOSTILE)), st.sampled_from(["\x1b[2J", "\x1b]0;x\x07", "1+",
                                                                                     "voimaa", " ", "ä"])),
                        min_size=1, max_size=8).map("".join)
where = st.sampled_from(["msgstr", "msgstr-escaped", "msgctxt", "comment", "header", "surrogate"])


def _poison(text: str, place: str, payload: str) -> tuple[bytes, bool]:
    """The catalog with ``payload`` put at ``place``; and whether a translation now holds a control character."""
    if place == "msgstr":
        out = text.replace(TRANSLATION, "saa " + payload + " voimaa", 1)
        return out.encode("utf-8"), True
    if place == "msgstr-escaped":  # written as PO's C escapes (\x1b, \033) as a translator's tool might
        escaped = "".join(f"\\x{ord(c):02x}" if ord(c) < 0x80 and (ord(c) < 0x20 or ord(c) == 0x7f) else c for c in payload)
        return text.replace(TRANSLATION, "saa " + escaped, 1).encode("utf-8"), True
    if place == "msgctxt":
        return text.replace('msgctxt "ember_knight.text"', f'msgctxt "ember_knight.text{payload}"', 1).encode(), False
    if place == "comment":
        return text.replace('msgctxt "ember_knight.text"', f"# {payload}\nmsgctxt \"ember_knight.text\"", 1).encode(), False
    if place == "header":
        return text.replace('"Language: fi\\n"', f'"Language: fi{payload}\\n"', 1).encode(), False
    return text.replace(TRANSLATION, "saa \ud800" + payload, 1).encode("utf-8", "surrogatepass"), False


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from cardkit.scaffold import init_project

    base = tmp_path_factory.mktemp("controls-fuzz")
    init_project(base / "game", "g")
    text = (base / "game" / PO).read_text(encoding="utf-8")
    assert TRANSLATION in text and '"Language: fi\\n"' in text and 'msgctxt "ember_knight.text"' in text
    return base / "game"


@settings(max_examples=int(os.environ.get("CARDKIT_FUZZ_EXAMPLES", "6")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(payload=hostile_text, place=where)
def test_catalogs_with_control_and_bidi_characters_get_located_lines(payload: str, place: str, starter: Path, cli):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "game"
        shutil.copytree(starter, root)
        data, in_translation = _poison((root / PO).read_text(encoding="utf-8"), place, payload)
        (root / PO).write_bytes(data)
        control_in_translation = in_translation and bool(LIVE.search(payload) and payload.strip("\n"))
        for args in (("l10n", "check", "--no-fit", "--locale", "fi"), ("validate",), ("build", "pdf", "--locale", "fi")):
            result = cli(*args, "--root", str(root))
            both = result.out + result.err
            assert result.code in (0, 1), (args, place, payload, both[-1500:])
            assert "Traceback" not in both and "internal error" not in both, (args, both[-1500:])
            assert not LIVE.search(both), (args, place, repr(both[-800:]))
            said = [ln for ln in both.splitlines() if "error[" in ln or "warning[" in ln]
            assert all(LOCATED.match(ln) for ln in said), (args, said[:5])
            if args[0] == "l10n" and control_in_translation:
                assert result.code == 1 and any(("error[T310]" in ln or "error[L001]" in ln) for ln in said), \
                    (place, repr(payload), said)
