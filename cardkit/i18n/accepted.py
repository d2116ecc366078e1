"""Accepted findings: a translator's "this finding is right, and so is my
translation", kept in the catalog itself.

One finding (its code) on one entry is accepted by a translator comment on
that entry::

    # cardkit-accept: T160 3f2a91c0 -- "deiner" is German for "your", not Brother Deino
    msgctxt "gun_jam.text"
    msgid "..."

A translator comment (``#`` and a space) is the one part of an entry every PO
tool keeps as written: msgmerge, msgcat, msgattrib, Poedit, Weblate, Lokalize
and Babel (``l10n update``) carry it over.  A flag (``#, cardkit-accept-t160``)
would be kept too, but cannot hold a reason, and msgmerge reorders flags.

The eight hex digits are the entry's fingerprint when it was accepted
(:func:`fingerprint`: the English, its plural and every translated form): when
the English or the translation changes, the acceptance lapses and
``l10n check`` says so (T980, a warning) and reports the finding again.  Babel
wraps long comments at the catalog's width, so the reason may go on over the
next translator comment lines (until the next ``cardkit-accept:`` line);
put other comments above the acceptance.

A project-level rule is the ``accept:`` list of ``locales/<lang>/glossary.yaml``
(a term legitimately the same in the language, a list of names): a code, with
an ``msgctxt`` pattern (``fnmatch``), a ``text`` the English or the translation
holds as a whole word (or a list of them), or both, optional ``sets`` and a
``reason``.

An accepted finding stays in the report (``accepted[T160]`` in the text,
``"accepted": true`` and the reason in JSON, *accepted* on the review page)
with severity *info*, so ``l10n check`` and ``build`` pass.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cardkit.errors import CardkitError, Issue, Severity
from cardkit.i18n.catalogs import MAX_PO_BYTES, PoEntry, parse_catalog, po_path, rel
from cardkit.i18n.checks import Finding

PREFIX = "cardkit-accept:"
_LINE = re.compile(r"cardkit-accept:\s*(\S+)?\s*(\S+)?\s*(?:--\s*(.*))?$", re.S)
CODE = re.compile(r"[A-Z]\d{3}")
FINGERPRINT = re.compile(r"[0-9a-f]{8}")
MAX_REASON = 300
# findings that say an entry is missing, empty, unreviewed or stale: the cure is in the catalog, never an acceptance
NOT_ACCEPTABLE = frozenset({"T101", "T102", "T103", "T104", "T105", "T106", "T150", "T151", "T980", "T981", "T982"})


def fingerprint(msgid: str, plural: str | None, strings: tuple[str, ...] | list[str]) -> str:
    """Eight hex digits that change when the English (singular or plural) or
    any translated form of an entry changes.

    >>> fingerprint("Kill 2 goblins.", None, ("Tapa 2 peikkoa.",))
    'b48cb45f'
    """
    data = "\x00".join([msgid, plural or "", *strings]).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:8]


def entry_fingerprint(e: PoEntry) -> str:
    return fingerprint(e.id, e.plural, e.strings)


@dataclass(frozen=True)
class Acceptance:
    """One ``cardkit-accept:`` comment of a catalog entry."""

    code: str
    fingerprint: str
    reason: str
    current: bool  # the fingerprint is the entry's as it is now


@dataclass(frozen=True)
class Rule:
    """One project-level acceptance (``accept:`` in a locale's glossary)."""

    code: str
    reason: str
    msgctxt: str | None = None
    texts: tuple[str, ...] = ()  # any one of them, as a whole word
    sets: tuple[str, ...] = ()
    where: str = ""

    def matches(self, f: Finding, source: str, translation: str) -> bool:
        if f.check != self.code or (self.sets and f.set not in self.sets):
            return False
        if self.msgctxt is not None and not fnmatch.fnmatchcase(f.msgctxt, self.msgctxt):
            return False
        if self.texts:
            word = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(t) for t in self.texts) + r")(?!\w)")
            return bool(word.search(source) or word.search(translation))
        return True


@dataclass(frozen=True)
class AcceptedFinding(Finding):
    """A finding a translator (or the project's glossary) accepted: reported as
    *info*, with the severity it had, the reason and where it was accepted."""

    was: Severity = Severity.ERROR
    reason: str = ""
    accepted_at: str = ""

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out.update({"accepted": True, "accepted_severity": self.was.value, "reason": self.reason,
                    "accepted_at": self.accepted_at})
        return out


def accept(f: Finding, reason: str, where: str) -> AcceptedFinding:
    return AcceptedFinding(f.check, Severity.INFO, f.locale, f.set, f.msgctxt, f.file, f.line,
                           f"accepted ({reason}): {f.message}", was=f.severity, reason=reason, accepted_at=where)


def parse_acceptances(comments: tuple[str, ...], fp: str) -> tuple[list[Acceptance], list[str]]:
    """The acceptances among an entry's translator comments (``fp``: the
    entry's fingerprint now), and a message for each malformed one."""
    found: list[Acceptance] = []
    problems: list[str] = []
    current: list[Any] | None = None  # [code, fingerprint, reason parts] of the acceptance being read
    parsed: list[list[Any]] = []
    for c in comments:
        text = c.strip()
        if text.startswith(PREFIX):
            m = _LINE.match(text)
            code, hexes, reason = (m.group(1), m.group(2), m.group(3)) if m else (None, None, None)
            if code and CODE.fullmatch(code) and (hexes is None or not FINGERPRINT.fullmatch(hexes)):
                problems.append(f"the acceptance of {code} has no fingerprint: write '# {PREFIX} {code} {fp} -- reason' "
                                "(the entry's fingerprint now), or run cardkit l10n accept")
                current = None
                continue
            if not code or not CODE.fullmatch(code) or not hexes or not FINGERPRINT.fullmatch(hexes) or reason is None:
                problems.append(f"cannot read the acceptance '{text[:80]}' (write: # cardkit-accept: CODE FINGERPRINT -- "
                                "reason; `cardkit l10n accept` writes it)")
                current = None
                continue
            if code in NOT_ACCEPTABLE:
                problems.append(f"{code} cannot be accepted: translate, review or update the entry instead")
                current = None
                continue
            current = [code, hexes, [reason.strip()]]
            parsed.append(current)
        elif current is not None and text:
            current[2].append(text)
    for code, hexes, parts in parsed:
        reason = " ".join(" ".join(parts).split())
        if not reason:
            problems.append(f"the acceptance of {code} gives no reason (after '--')")
            continue
        found.append(Acceptance(code, hexes, reason, hexes == fp))
    return found, problems


def load_rules(root: Path, locale: str) -> list[Rule]:
    """The ``accept:`` rules of the locale's glossary (none when it has none,
    or when the glossary is invalid: ``l10n check`` reports that already)."""
    from cardkit.load.schema import validate_doc
    from cardkit.load.yamlsafe import YamlError, read_yaml_file

    path = root / "locales" / locale / "glossary.yaml"
    file = f"locales/{locale}/glossary.yaml"
    if not os.path.lexists(path):
        return []
    try:
        doc = read_yaml_file(path, file, root=root)
    except YamlError:
        return []
    if validate_doc(doc, "glossary.schema.json") or not isinstance(doc.data, dict):
        return []
    rules = []
    for i, r in enumerate(doc.data.get("accept", []) or []):
        text = r.get("text", ())
        rules.append(Rule(r["code"], " ".join(r["reason"].split()), r.get("msgctxt"),
                          (text,) if isinstance(text, str) else tuple(text), tuple(r.get("sets", ())),
                          f"{file} accept[{i}]"))
    return rules


def apply_acceptances(root: Path, findings: list[Finding], texts: dict[tuple[str, str, str], tuple[str, str]],
                      catalogs: list[tuple[str, str]], fit: bool = True) -> list[Finding]:
    """``findings`` with every accepted one replaced by an
    :class:`AcceptedFinding`, and the acceptances' own findings added: T980
    (lapsed: the entry changed since), T981 (nothing to accept any more), T982
    (cannot be read).  ``texts``: (locale, domain, msgctxt) -> (English,
    translation) of the checked entries; ``catalogs``: the (locale, domain)
    pairs checked; ``fit``: whether the fit check ran (else an acceptance of
    T950 is not said to accept nothing)."""
    from cardkit.load.files import read_project_file

    out = list(findings)
    index: dict[tuple[str, str, str, str], list[int]] = {}
    for i, f in enumerate(out):
        index.setdefault((f.locale, f.set, f.msgctxt, f.check), []).append(i)
    added: list[Finding] = []
    for locale, domain in catalogs:
        path = po_path(root, locale, domain)
        file = rel(root, path)
        if not os.path.lexists(path):
            continue
        try:
            raw = read_project_file(path, file, root=root, max_bytes=MAX_PO_BYTES, too_large="L001")
            if PREFIX.encode() not in raw:
                continue  # most catalogs accept nothing: not parsed a second time
            loaded = parse_catalog(raw, file, locale)
        except CardkitError:
            continue  # reported by the check itself
        for e in loaded.active:
            if e.context is None or not any(c.strip().startswith(PREFIX) for c in e.user_comments):
                continue
            fp = entry_fingerprint(e)
            accepted, problems = parse_acceptances(e.user_comments, fp)
            for p in problems:
                added.append(Finding("T982", Severity.ERROR, locale, domain, e.context, file, e.line, p))
            for a in accepted:
                hits = index.get((locale, domain, e.context, a.code), [])
                if not a.current:
                    added.append(Finding(
                        "T980", Severity.WARNING, locale, domain, e.context, file, e.line,
                        f"the acceptance of {a.code} lapsed: the English or the translation changed since it was accepted "
                        f"({a.fingerprint}, now {fp}; reason was: {a.reason}); review the entry, then accept again "
                        f"(cardkit l10n accept --locale {locale} --set {domain} --entry {e.context} --code {a.code} "
                        "--reason ...) or remove the comment"))
                    continue
                if not hits and (fit or a.code != "T950"):
                    added.append(Finding("T981", Severity.WARNING, locale, domain, e.context, file, e.line,
                                         f"the acceptance of {a.code} accepts nothing: the check finds no {a.code} on "
                                         "this entry now; remove the comment"))
                    continue
                for i in hits:  # every finding of that code on the entry (each form of a plural, each box)
                    if not isinstance(out[i], AcceptedFinding):
                        out[i] = accept(out[i], a.reason, f"{file}:{e.line}")
    by_locale: dict[str, list[Rule]] = {}
    for i, f in enumerate(out):
        if isinstance(f, AcceptedFinding) or f.check in NOT_ACCEPTABLE or not f.msgctxt:
            continue
        if f.locale not in by_locale:
            by_locale[f.locale] = load_rules(root, f.locale)
        source, translation = texts.get((f.locale, f.set, f.msgctxt), ("", ""))
        for r in by_locale[f.locale]:
            if r.matches(f, source, translation):
                out[i] = accept(f, r.reason, r.where)
                break
    return out + added


# --------------------------------------------------------------------------- writing one

@dataclass(frozen=True)
class Written:
    file: str
    line: int
    fingerprint: str
    replaced: bool  # an earlier acceptance of the same code on the entry was replaced


def add_acceptance(raw: bytes, file: str, locale: str, msgctxt: str, code: str, reason: str) -> tuple[bytes, Written]:
    """The catalog ``raw`` with a ``# cardkit-accept:`` comment for ``code`` on
    the entry ``msgctxt`` (an earlier acceptance of that code on it replaced);
    every other byte as it was.  Raises :class:`CardkitError` (L001 for an
    unreadable catalog, T982 for what cannot be accepted)."""
    reason = " ".join(reason.split())
    problems = []
    if not CODE.fullmatch(code):
        problems.append(f"--code {code!r} is not a check code (T160, T401 ...)")
    elif code in NOT_ACCEPTABLE:
        problems.append(f"{code} cannot be accepted: translate, review or update the entry instead")
    if not reason:
        problems.append("--reason is empty: say why the translation is right")
    elif len(reason) > MAX_REASON:
        problems.append(f"--reason is longer than {MAX_REASON} characters")
    if problems:
        raise CardkitError([Issue("T982", p, file=file) for p in problems])
    loaded = parse_catalog(raw, file, locale)
    entry = next((e for e in loaded.active if e.context == msgctxt), None)
    if entry is None:
        raise CardkitError(Issue("T982", f"no entry '{msgctxt}' in {file}", file=file))
    if not entry.translated:
        raise CardkitError(Issue("T982", f"'{msgctxt}' is not translated: there is nothing to accept",
                                 file=file, line=entry.line, column=1))
    fp = entry_fingerprint(entry)
    text = loaded.text
    lines = text.split("\n")
    # the entry's lines: back from its msgid line over msgctxt, '#|' and comment lines
    first = entry.line - 1
    while first > 0 and lines[first - 1].strip() and (lines[first - 1].startswith(("#", "msgctxt", '"'))):
        first -= 1
    block_end = entry.line - 1
    while block_end < len(lines) and lines[block_end].strip():
        block_end += 1
    kept: list[str] = []
    replaced = False
    inside = False  # reading an earlier acceptance of this code (and its continuation lines)
    for ln in lines[first:entry.line - 1]:
        body = ln[1:].strip() if _translator_comment(ln) else None
        if body is not None and body.startswith(PREFIX):
            m = _LINE.match(body)
            inside = bool(m and m.group(1) == code)
            replaced = replaced or inside
            if inside:
                continue
        elif body is not None and inside:
            continue
        else:
            inside = False
        kept.append(ln)
    at = 0
    while at < len(kept) and _translator_comment(kept[at]):
        at += 1
    kept.insert(at, f"# {PREFIX} {code} {fp} -- {reason}")
    new_lines = lines[:first] + kept + lines[entry.line - 1:]
    data = "\n".join(new_lines).encode("utf-8")
    check = parse_catalog(data, file, locale)  # never write a catalog cardkit cannot read back
    def bare(entries: tuple[PoEntry, ...]) -> list[PoEntry]:
        return [replace(e, line=0, user_comments=()) if e.context == msgctxt and not e.obsolete else replace(e, line=0)
                for e in entries]

    if bare(check.entries) != bare(loaded.entries) or check.headers != loaded.headers:
        raise CardkitError(Issue("T982", f"cannot add a comment to '{msgctxt}' without changing other lines; add "
                                         f"'# {PREFIX} {code} {fp} -- {reason}' above its msgctxt by hand",
                                 file=file, line=entry.line, column=1))
    again = next(e for e in check.active if e.context == msgctxt)
    return data, Written(file, again.line, fp, replaced)


def _translator_comment(line: str) -> bool:
    return line == "#" or line.startswith("# ") or (line.startswith("#") and line[1:2] not in ",.:|~")
