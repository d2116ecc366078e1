"""gettext catalogs of card strings: read, merged and written.

One template per set (``locales/<set>.pot``) and one catalog per locale and set
(``locales/<lang>/LC_MESSAGES/<set>.po``).  Every entry's ``msgctxt`` is the
card ID plus field (``gun_jam.text``), so translations follow the card, not
the English wording.

Reading is cardkit's own strict PO reader (:func:`parse_po`): every syntax or
structure problem is one located issue, escapes are gettext's, plural entries
(``msgid_plural``/``msgstr[n]``) and the previous source of a fuzzy entry
(``#| msgctxt``/``#| msgid``/``#| msgid_plural``, which Babel cannot read back)
are kept exactly.  The result is handed on as a Babel :class:`Catalog` (plural
ids and strings as tuples, as Babel has them).

Merging is by context, as ``msgmerge --previous`` does by msgid: when the
English of an entry changes, the translation is kept, marked fuzzy, and the
English it was made from is recorded as ``#| msgid``; a second change keeps
that first English.  Writing is Babel's ``write_po`` plus the ``#|`` lines and
the translator's own header fields and header comment, which Babel would drop.
Output is deterministic (fixed dates, template order).

Staleness is semantic (:meth:`LoadedCatalog.semantic`): a catalog is stale when
an entry differs from what ``l10n update`` would write (ids, contexts, plural
forms, translations, flags, previous source, source comments, references,
obsolete entries), not when a PO editor wrapped lines differently or changed
translator headers (Last-Translator, Language-Team, PO-Revision-Date,
X-Generator, ...).  ``l10n update`` rewrites only stale catalogs.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Union

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import escape, normalize, write_po

from cardkit.errors import CardkitError, Issue
from cardkit.fsutil import atomic_write_bytes
from cardkit.model import SourceString
from cardkit.strings.locales import (LONG_FACTOR, LONG_FLOOR, MAX_PO_BYTES, PSEUDO, babel_locale,  # noqa: F401 (read from here too)
                                     bytes_issues, charset_issues, length_issue)
from cardkit.text import placeholders

# Fixed header dates keep catalogs byte-stable between runs (no churn in diffs).
EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)
MAX_ISSUES = 100  # per catalog file; a binary file would otherwise give one per line
PROJECT = "cardkit"
WIDTH = 78
MAX_PLURALS = 6  # no language has more (Arabic)

# Header fields cardkit derives from the template and the locale.  Every other
# field belongs to the translator and its tools and is kept as found.
MANAGED_HEADERS = frozenset({"project-id-version", "report-msgid-bugs-to", "pot-creation-date", "language",
                             "plural-forms", "mime-version", "content-type", "content-transfer-encoding",
                             "generated-by"})
BABEL_HEADERS = frozenset({"po-revision-date", "last-translator", "language-team"})  # written by Babel itself

MsgId = Union[str, tuple[str, str]]


def pot_path(root: Path, set_id: str) -> Path:
    return root / "locales" / f"{set_id}.pot"


def po_path(root: Path, locale: str, set_id: str) -> Path:
    return root / "locales" / locale / "LC_MESSAGES" / f"{set_id}.po"


def rel(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def project_locales(root: Path) -> list[str]:
    """Locales that have a catalog folder under ``locales/``."""
    base = root / "locales"
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if (p / "LC_MESSAGES").is_dir())


# set manifest strings that nothing prints (no face, sheet, token page, report or narration): a set
# glossary's explanation of a rule, for the set's authors and translators; its name prints in the
# special-rules line of the cards that list the rule.  A face that prints one (``string:``) gives it a
# length budget and a fit check like any other string, and then the note is not written.
UNPRINTED = re.compile(r"set\.glossary\.[^.]+\.text")
NOT_PRINTED = ("Not printed: a set glossary text explains the rule to authors and translators; no card, "
               "sheet or report prints it, so no length budget applies")


def template_for(domain: str, strings: tuple[SourceString, ...], budgets: dict[str, int] | None = None) -> Catalog:
    """The ``.pot`` catalog of a domain (a set, or ``ui``): one entry per string,
    with a translator comment saying where it is printed and its length budget."""
    cat = Catalog(project=PROJECT, version="1", domain=domain, creation_date=EPOCH,
                  revision_date=EPOCH, fuzzy=False, charset="utf-8", copyright_holder="cardkit contributors",
                  msgid_bugs_address="", last_translator="", language_team="")
    for s in strings:
        flags = ["python-brace-format"] if placeholders(s.text) or placeholders(s.plural or "") else []
        comments = [s.comment]
        if budgets and s.msgctxt in budgets:
            comments.append(f"Length budget: about {budgets[s.msgctxt]} characters at full size (English: {len(s.text)}); "
                            "longer text shrinks, `cardkit l10n check` says whether it still fits")
        elif budgets is not None and UNPRINTED.fullmatch(s.msgctxt):
            comments.append(NOT_PRINTED)
        msgid: str | tuple[str, str] = s.text
        if s.plural is not None:
            msgid = (s.text, s.plural)
            comments.append(f"Plural message: {{{s.count}}} is the number that chooses the form")
        cat.add(msgid, "", locations=[(s.file, s.line)], auto_comments=comments, flags=flags, context=s.msgctxt)
    return cat


# --------------------------------------------------------------------------- reading

@dataclass(frozen=True)
class Previous:
    """The source a fuzzy translation was made from (the ``#|`` lines)."""

    context: str | None
    id: str
    plural: str | None = None

    @property
    def ids(self) -> list[str]:
        """Babel's ``Message.previous_id`` form."""
        return [self.id] if self.plural is None else [self.id, self.plural]


@dataclass(frozen=True)
class PoEntry:
    """One entry of a PO file as written (``strings``: ``msgstr``, or ``msgstr[0..]``)."""

    line: int  # the msgid line, as Babel numbers messages
    context: str | None
    id: str
    plural: str | None
    strings: tuple[str, ...]
    flags: tuple[str, ...] = ()
    auto_comments: tuple[str, ...] = ()
    user_comments: tuple[str, ...] = ()
    locations: tuple[tuple[str, int | None], ...] = ()
    previous: Previous | None = None
    obsolete: bool = False

    @property
    def msgid(self) -> MsgId:
        return self.id if self.plural is None else (self.id, self.plural)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return any(self.strings)

    def babel_string(self, nplurals: int) -> str | tuple[str, ...]:
        if self.plural is None:
            return self.strings[0] if self.strings else ""
        return tuple((self.strings + ("",) * nplurals)[:nplurals])


_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr\[(\d+)\]|msgstr)(?![\w\[])\s*(.*)$")
_STRING = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"\s*$')  # (unrolled: one backtracking frame per escape, not per character)
_ESCAPE = re.compile(r"\\(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|(.))")
_C_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
              "\\": "\\", '"': '"', "'": "'", "?": "?"}
_SHAPE = "an entry is [msgctxt] msgid [msgid_plural] then msgstr, or msgstr[0], msgstr[1], ..."


@dataclass
class _Draft:
    """An entry being read."""

    comments_line: int
    user: list[str] = field(default_factory=list)
    auto: list[str] = field(default_factory=list)
    locations: list[tuple[str, int | None]] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    prev: dict[str, list[str]] = field(default_factory=dict)
    prev_open: str | None = None
    fields: dict[str, list[str]] = field(default_factory=dict)  # msgctxt, msgid, msgid_plural, msgstr, 0, 1, ...
    lines: dict[str, int] = field(default_factory=dict)
    open: str | None = None
    obsolete: bool | None = None
    broken: bool = False  # a structure problem was reported; say nothing more about it

    @property
    def started(self) -> bool:
        return bool(self.fields)

    @property
    def forms(self) -> list[str]:
        return [k for k in self.fields if k.isdigit()]

    @property
    def complete(self) -> bool:
        return "msgstr" in self.fields or bool(self.forms)


class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file
        self.issues: list[Issue] = []
        self.entries: list[PoEntry] = []
        self.header: PoEntry | None = None
        self.header_comment: tuple[str, ...] = ()
        self.header_line = 0
        self.draft = _Draft(1)

    def issue(self, line: int, column: int, message: str) -> None:
        self.issues.append(Issue("L001", f"catalog syntax error: {message}", file=self.file, line=line, column=column))

    def string(self, text: str, n: int, col: int) -> str | None:
        """The value of a quoted PO string starting at column ``col`` (0-based)."""
        m = _STRING.match(text)
        if not m:
            what = "unterminated string" if text.startswith('"') else "expected a quoted string"
            self.issue(n, col + 1, f"{what}: {text[:40]!r}")
            return None
        bad: list[int] = []

        def unescape(e: re.Match[str]) -> str:
            if e.group(1):
                value = int(e.group(1), 8)
            elif e.group(2):
                value = int(e.group(2), 16)
            elif e.group(3) in _C_ESCAPES:
                return _C_ESCAPES[e.group(3)]
            else:
                bad.append(e.start())
                return e.group(3)
            if value == 0:
                bad.append(e.start())
            return chr(value)

        value = _ESCAPE.sub(unescape, m.group(1))
        for at in bad:
            self.issue(n, col + 2 + at, f"invalid escape '{m.group(1)[at:at + 2]}' (PO strings allow \\n \\t \\\" \\\\ "
                                         "and C escapes)")
        return value

    def finish(self) -> None:
        d, self.draft = self.draft, _Draft(0)
        if not d.started or d.broken:
            return  # comments alone at the end of a file are dropped, as gettext does
        first = d.lines.get("msgctxt") or d.lines.get("msgid") or d.comments_line
        if "msgid" not in d.fields:
            self.issue(first, 1, f"entry without msgid ({_SHAPE})")
            return
        if not d.complete:
            self.issue(d.lines["msgid"], 1, f"msgid without msgstr ({_SHAPE})")
            return
        join = "".join
        context = join(d.fields["msgctxt"]) if "msgctxt" in d.fields else None
        plural = join(d.fields["msgid_plural"]) if "msgid_plural" in d.fields else None
        strings = (join(d.fields["msgstr"]),) if "msgstr" in d.fields else tuple(join(d.fields[k]) for k in d.forms)
        previous = None
        if d.prev:
            if "msgid" not in d.prev:
                self.issue(d.lines["prev"], 1, "'#|' lines without '#| msgid'")
                return
            previous = Previous(join(d.prev["msgctxt"]) if "msgctxt" in d.prev else None, join(d.prev["msgid"]),
                                join(d.prev["msgid_plural"]) if "msgid_plural" in d.prev else None)
        entry = PoEntry(d.lines["msgid"], context, join(d.fields["msgid"]), plural, strings,
                        tuple(f for f in d.flags if f), tuple(d.auto), tuple(d.user), tuple(d.locations), previous,
                        bool(d.obsolete))
        if entry.id == "" and context is None and not entry.obsolete and not self.entries and self.header is None:
            self.header, self.header_comment, self.header_line = entry, tuple(d.user), d.lines["msgid"]
        elif entry.id == "":
            self.issue(entry.line, 1, "empty msgid (only the header entry at the top of a catalog has one)")
        else:
            self.entries.append(entry)

    def keyword(self, n: int, col: int, kw: str, index: str | None, rest: str, rest_col: int, obsolete: bool) -> None:
        """A keyword line; ``col``/``rest_col``: 0-based columns of the keyword and its string."""
        d = self.draft
        if kw in ("msgctxt", "msgid") and d.started:
            if d.complete or d.broken:
                self.finish()
            elif kw == "msgctxt" or "msgid" in d.fields:
                self.issue(n, col + 1, f"unexpected {kw} ({_SHAPE})")
                d.broken = True
                self.finish()
            d = self.draft
        if not d.comments_line:
            d.comments_line = n
        if not d.started:
            d.obsolete = obsolete
        problem = None
        if d.obsolete != obsolete:
            problem = "an entry mixes obsolete (#~) and active lines"
        elif kw == "msgid_plural" and ("msgid" not in d.fields or "msgid_plural" in d.fields or d.complete):
            problem = "msgid_plural must follow msgid"
        elif kw == "msgstr" and index is None and ("msgid" not in d.fields or d.complete):
            problem = "msgstr must follow msgid"
        elif kw == "msgstr" and index is None and "msgid_plural" in d.fields:
            problem = "a plural entry (msgid_plural) takes msgstr[0], msgstr[1], ..., not msgstr"
        elif index is not None and ("msgid" not in d.fields or "msgstr" in d.fields):
            problem = f"msgstr[{index}] must follow msgid_plural"
        elif index is not None and "msgid_plural" not in d.fields:
            problem = f"msgstr[{index}] in an entry without msgid_plural (use msgstr)"
        elif index is not None and int(index) != len(d.forms):
            problem = f"msgstr[{index}] out of order (expected msgstr[{len(d.forms)}])"
        if problem and not d.broken:
            self.issue(n, col + 1, problem)
        value = self.string(rest, n, rest_col)
        if problem:
            d.broken = True
            d.open = None
            return
        key = "msgstr" if index is None and kw == "msgstr" else (str(int(index)) if index is not None else kw)
        d.fields[key] = [value or ""]
        d.lines[key] = n
        d.open = key

    def line(self, n: int, raw: str) -> None:
        s = raw.rstrip()
        body = s.lstrip()
        if not body:
            return
        col = len(s) - len(body)
        obsolete = False
        if body.startswith("#~"):
            obsolete = True
            rest = body[2:]
            if rest.startswith("|"):
                self.previous_line(n, col + 3, rest[1:].strip())
                return
            col += 2 + len(rest) - len(rest.lstrip())
            body = rest.strip()
            if not body:
                return
            if body.startswith("#"):
                self.issue(n, col + 1, f"cannot parse {body[:40]!r}")
                return
        elif body.startswith("#"):
            self.comment(n, body)
            return
        if body.startswith('"'):
            d = self.draft
            if d.open is None:
                if not d.broken:
                    self.issue(n, col + 1, f"a string outside msgctxt, msgid or msgstr: {body[:40]!r}")
                return
            value = self.string(body, n, col)
            d.fields[d.open].append(value or "")
            return
        m = _KEYWORD.match(body)
        if not m:
            self.issue(n, col + 1, f"cannot parse {body[:40]!r}")
            return
        kw = "msgstr" if m.group(2) is not None else m.group(1)
        self.keyword(n, col, kw, m.group(2), m.group(3), col + m.start(3), obsolete)

    def previous_line(self, n: int, col: int, s: str) -> None:
        d = self.draft
        if d.started:
            self.finish()
            d = self.draft
            d.comments_line = n
        d.lines.setdefault("prev", n)
        if s.startswith('"'):
            if d.prev_open is None:
                self.issue(n, col + 1, f"a '#|' string outside '#| msgctxt' or '#| msgid': {s[:40]!r}")
                return
            d.prev[d.prev_open].append(self.string(s, n, col) or "")
            return
        m = _KEYWORD.match(s)
        if not m or m.group(1) not in ("msgctxt", "msgid", "msgid_plural"):
            self.issue(n, col + 1, f"cannot parse '#|' line {s[:40]!r}")
            d.prev_open = None
            return
        kw = m.group(1)
        if kw in d.prev:
            self.issue(n, col + 1, f"second '#| {kw}' in one entry")
            d.prev_open = None
            return
        d.prev[kw] = [self.string(m.group(3), n, col + m.start(3)) or ""]
        d.prev_open = kw

    def comment(self, n: int, s: str) -> None:
        d = self.draft
        if d.started:
            self.finish()
            d = self.draft
        if not d.comments_line:
            d.comments_line = n
        kind = s[1:2]
        if kind != "|":
            d.prev_open = None
        if kind == "|":
            self.previous_line(n, 3, s[2:].strip())
        elif kind == ",":
            d.flags.extend(f.strip() for f in s[2:].split(","))
        elif kind == ".":
            if s[2:].strip():
                d.auto.append(s[2:].strip())
        elif kind == ":":
            for token in s[2:].split():
                file, colon, line = token.rpartition(":")
                d.locations.append((file, int(line)) if colon and line.isdigit() else (token, None))
        else:
            d.user.append(s[1:].strip())


def _split_lines(text: str) -> list[str]:
    # gettext reads lines split at "\n" only: U+2028 and friends may sit inside a string
    return text.split("\n")


@dataclass
class LoadedCatalog:
    """A catalog file read: Babel's catalog for the checks, and what cardkit
    keeps that Babel does not (previous source, header fields, header comment)."""

    path: str
    catalog: Catalog
    text: str
    entries: tuple[PoEntry, ...] = ()
    headers: tuple[tuple[str, str], ...] = ()
    header_comment: tuple[str, ...] | None = None

    @property
    def active(self) -> list[PoEntry]:
        return [e for e in self.entries if not e.obsolete]

    @property
    def obsolete(self) -> list[PoEntry]:
        return [e for e in self.entries if e.obsolete]

    def header(self, name: str) -> str | None:
        found = [v for k, v in self.headers if k.lower() == name.lower()]
        return found[-1] if found else None

    def semantic(self) -> tuple[Any, ...]:
        """What makes two catalogs the same for cardkit: entries (ids, contexts,
        plural forms, translations, flags, previous source, comments and
        references), obsolete entries, language and plural rule; not line
        wrapping, entry order or the translator's header fields."""
        def words(items: tuple[str, ...]) -> str:
            return " ".join(" ".join(items).split())

        def prev(p: Previous | None) -> tuple[str, ...]:
            return () if p is None else (p.context or "", p.id, p.plural or "")

        active = sorted((e.context or "", e.id, e.plural or "", e.strings,
                         tuple(sorted(set(e.flags) - {"python-format"})),  # Babel's guess; see render()
                         words(e.auto_comments), words(e.user_comments), e.locations, prev(e.previous))
                        for e in self.active)
        obsolete = sorted((e.context or "", e.id, e.plural or "", e.strings) for e in self.obsolete)
        language = (self.header("Language") or "").replace("-", "_")
        plural_forms = re.sub(r"\s+", "", self.header("Plural-Forms") or "").rstrip(";")
        return (language, plural_forms, tuple(active), tuple(obsolete))


def lint_po(text: str, file: str) -> list[Issue]:
    """Every syntax and structure problem of a PO text, one issue per bad line
    (what Babel's lenient parser skips or gets wrong)."""
    return _read(text, file, None)[0]


def _read(text: str, file: str, locale: str | None) -> tuple[list[Issue], LoadedCatalog | None]:
    reader = _Reader(file)
    for n, raw in enumerate(_split_lines(text), 1):
        reader.line(n, raw)
    reader.finish()
    issues = reader.issues
    headers: list[tuple[str, str]] = []
    if reader.header is not None:
        for piece in reader.header.strings[0].split("\n"):
            if not piece.strip():
                continue
            name, colon, value = piece.partition(":")
            if not colon or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name.strip()):
                issues.append(Issue("L001", f"catalog header line is not 'Name: value': {piece[:40]!r}", file=file,
                                    line=reader.header_line, column=1))
                continue
            headers.append((name.strip(), value.strip()))
    issues.extend(charset_issues(headers, text, file, reader.header_line))
    nplurals: int | None = None
    plural_forms = next((v for k, v in reversed(headers) if k.lower() == "plural-forms"), None)
    if plural_forms is not None:
        m = re.search(r"nplurals\s*=\s*(\d+)", plural_forms)
        if m and 1 <= int(m.group(1)) <= MAX_PLURALS and re.search(r"plural\s*=\s*[^;\s]", plural_forms):
            nplurals = int(m.group(1))
        else:
            issues.append(Issue("L001", f"catalog header Plural-Forms is not 'nplurals=N; plural=EXPR;' with N from 1 "
                                        f"to {MAX_PLURALS}: {plural_forms[:60]!r}", file=file, line=reader.header_line,
                                column=1))
    try:
        cat = Catalog(locale=babel_locale(locale) if locale else locale, charset="utf-8",
                      fuzzy=reader.header is not None and reader.header.fuzzy)
    except (ValueError, UnknownLocaleError):
        raise CardkitError(Issue("L003", f"unknown locale '{locale}' (the name of the catalog's folder)", file=file)) from None
    if nplurals is not None and plural_forms is not None:
        cat.mime_headers = [("Plural-Forms", plural_forms)]
    n = cat.num_plurals
    seen: dict[tuple[bool, str | None, str | None], int] = {}
    for e in reader.entries:
        issues.extend(length_issues(e, file))
        if e.plural is not None and len(e.strings) > n:
            issues.append(Issue("L001", f"catalog syntax error: {len(e.strings)} plural forms but the catalog has "
                                        f"nplurals={n} (Plural-Forms)", file=file, line=e.line, column=1))
        key = (e.obsolete, e.context, e.id if e.context is None else None)
        if key in seen and not e.obsolete:
            what = f"msgctxt {e.context!r}" if e.context is not None else f"msgid {e.id[:40]!r} without msgctxt"
            hint = "" if e.context is not None else ("; if a tool dropped the msgctxt, bring the translations back from a "
                                                     "copy that has it: cardkit l10n import OLD.po --locale LL --overwrite")
            issues.append(Issue("L001", f"duplicate entry for {what} (first at line {seen[key]}){hint}", file=file,
                                line=e.line, column=1))
        seen.setdefault(key, e.line)
    if issues:
        return issues, None
    for i, e in enumerate(reader.entries):
        msg = Message(e.msgid, e.babel_string(n), locations=list(e.locations), flags=e.flags,  # type: ignore[arg-type]  # Babel takes a None line number
                      auto_comments=list(e.auto_comments), user_comments=list(e.user_comments),
                      previous_id=e.previous.ids if e.previous else (), lineno=e.line, context=e.context)
        if e.obsolete:
            cat.obsolete[(e.context or "", str(i))] = msg  # type: ignore[index]
        else:
            cat[e.msgid] = msg
    header_comment = reader.header_comment if reader.header is not None else None
    return [], LoadedCatalog(file, cat, text, tuple(reader.entries), tuple(headers), header_comment)


def length_issues(e: PoEntry, file: str) -> list[Issue]:
    """L011 for an entry of a catalog being read (:func:`length_issue`)."""
    found = length_issue(e.context, e.msgid, e.strings, file, e.line)
    return [found] if found is not None else []


def parse_catalog(raw: bytes, file: str, locale: str | None = None) -> LoadedCatalog:
    """Parse the bytes of a ``.po``/``.pot`` file; raise :class:`CardkitError`
    with one issue per problem."""
    if len(raw) > MAX_PO_BYTES:
        raise CardkitError(Issue("L001", f"catalog is larger than {MAX_PO_BYTES} bytes", file=file, line=1, column=1))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CardkitError(Issue("L001", "catalog is not valid UTF-8", file=file, line=line, column=1)) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    issues, loaded = _read(text, file, locale)
    if issues:
        shown = sorted(issues, key=lambda i: (i.line, i.column))[:MAX_ISSUES]
        if len(issues) > MAX_ISSUES:
            last = shown[-1]
            shown.append(Issue("L001", f"{len(issues) - MAX_ISSUES} more problems in this catalog not shown",
                               file=file, line=last.line, column=last.column))
        raise CardkitError(shown)
    assert loaded is not None
    return loaded


def read_catalog(path: Path, file: str, locale: str | None = None, root: Path | None = None) -> LoadedCatalog:
    """Read and parse a ``.po``/``.pot`` file; raise :class:`CardkitError` with
    one issue per problem.  With ``root`` (the project folder) a catalog that
    resolves outside it is refused unread, and only a regular file is opened
    (:func:`cardkit.load.files.read_project_file`)."""
    from cardkit.load.files import read_project_file

    raw = read_project_file(path, file, root=root, max_bytes=MAX_PO_BYTES, too_large="L001")
    return parse_catalog(raw, file, locale)


# --------------------------------------------------------------------------- merging and writing

@dataclass
class Document:
    """A catalog as cardkit writes it: Babel's catalog plus what Babel's writer
    cannot carry (the previous source by context, the translator's header
    fields and header comment)."""

    catalog: Catalog
    previous: dict[str | None, Previous] = field(default_factory=dict)
    extra_headers: tuple[tuple[str, str], ...] = ()
    header_comment: tuple[str, ...] | None = None
    stats: dict[str, int] = field(default_factory=dict)  # what the merge did: new, fuzzy, obsolete, unchanged
    repair: ContextRepair | None = None  # entries that had lost their msgctxt


def _as_id(msgid: Any) -> MsgId:
    return msgid if isinstance(msgid, str) else (msgid[0], msgid[1])


def _forms(old: PoEntry, plural: bool, nplurals: int) -> str | tuple[str, ...]:
    """The old translation in the shape of the new entry (as msgmerge: a
    singular translation fills every plural form, a plural one gives its first
    form to a singular entry)."""
    if not plural:
        return old.strings[0]
    if old.plural is None:
        return (old.strings[0],) * nplurals
    return tuple((old.strings + ("",) * nplurals)[:nplurals])


def merge(template: Catalog, old: LoadedCatalog | None, locale: str) -> Document:
    """A catalog for ``locale`` with the template's entries, in template order,
    carrying translations from ``old`` by context.  Obsolete entries stay (and
    come back when their context does); the translator's header fields and
    header comment are kept."""
    def kept(name: str, default: Any) -> Any:
        value = old.header(name) if old is not None else None
        return default if value is None else value

    new = Catalog(locale=Locale.parse(babel_locale(locale)), project=PROJECT, version="1", domain=template.domain,
                  creation_date=EPOCH, revision_date=kept("PO-Revision-Date", EPOCH), fuzzy=False,
                  charset="utf-8", copyright_holder="cardkit contributors", msgid_bugs_address="",
                  last_translator=kept("Last-Translator", ""), language_team=kept("Language-Team", ""))
    n = new.num_plurals
    repair = lost_contexts(template, old) if old is not None else ContextRepair()
    active = {e.context: e for e in old.active if e.context is not None and id(e) not in repair.restored} \
        if old is not None else {}
    for e in old.entries if old is not None else ():  # a msgctxt a PO tool dropped, found again by the English
        if id(e) in repair.restored:
            active[repair.restored[id(e)]] = replace(e, context=repair.restored[id(e)], obsolete=False)
    loose = [e for e in old.active if e.context is None and id(e) not in repair.restored] \
        if old is not None else []  # no card field to follow
    retired: dict[str | None, PoEntry] = {}
    for e in old.obsolete if old is not None else []:
        retired.setdefault(e.context, e)
    revived: set[int] = set()
    previous: dict[str | None, Previous] = {}
    stats = {"new": 0, "fuzzy": 0, "obsolete": 0, "unchanged": 0}
    for m in template:
        if not m.id:
            continue
        msgid = _as_id(m.id)
        prev = active.pop(m.context, None) if m.context is not None else None
        if prev is None and m.context in retired:
            prev = retired[m.context]
            revived.add(id(prev))
        plural = not isinstance(msgid, str)
        flags = set(m.flags)
        string: str | tuple[str, ...] = ("",) * n if plural else ""
        before: Previous | None = None
        if prev is None:
            stats["new"] += 1
        elif prev.translated and prev.msgid != msgid and not prev.fuzzy:
            stats["fuzzy"] += 1
        else:
            stats["unchanged"] += 1
        if prev is not None and prev.translated:
            string = _forms(prev, plural, n)
            if prev.msgid != msgid:
                flags.add("fuzzy")
                # the English the translation was made from survives later changes
                before = prev.previous if prev.fuzzy and prev.previous else Previous(prev.context, prev.id, prev.plural)
            elif prev.fuzzy:
                flags.add("fuzzy")
                before = prev.previous
        new.add(msgid, string, locations=m.locations, auto_comments=m.auto_comments,
                user_comments=list(prev.user_comments) if prev is not None else [], flags=sorted(flags),
                previous_id=before.ids if before else (), context=m.context)
        if before is not None:
            previous[m.context] = before
    # entries whose card field disappeared stay as obsolete (#~) for the translator
    gone = [e for e in (old.obsolete if old is not None else []) if id(e) not in revived and id(e) not in repair.restored]
    gone += [e for e in list(active.values()) + loose if e.translated]
    stats["obsolete"] = len(gone)
    for i, e in enumerate(gone):
        new.obsolete[(e.context or "", str(i))] = Message(  # type: ignore[index]
            e.msgid, e.babel_string(n), user_comments=list(e.user_comments), context=e.context)
    extra = tuple((k, v) for k, v in (old.headers if old is not None else ())
                  if k.lower() not in MANAGED_HEADERS | BABEL_HEADERS)
    if repair.restored:
        stats["restored"] = len(repair.restored)
    return Document(new, previous, extra, old.header_comment if old is not None else None, stats, repair)


@dataclass
class ContextRepair:
    """What :func:`lost_contexts` found: the entries whose ``msgctxt`` a PO
    tool dropped, by ``id()`` of the entry, and the msgctxt each gets back;
    and those that match several card strings (entry, their msgctxts)."""

    restored: dict[int, str] = field(default_factory=dict)
    ambiguous: list[tuple[PoEntry, tuple[str, ...]]] = field(default_factory=list)
    lost: int = 0  # entries without a msgctxt of the template


def lost_message(repair: ContextRepair, locale: str) -> str:
    """What :func:`lost_contexts` found, and how to repair it (T106, L012)."""
    restorable = sum(1 for _ in repair.restored)
    text = (f"{repair.lost} entries have no msgctxt (a PO editor or an XLIFF round trip, such as translate-toolkit's "
            f"po2xliff/xliff2po, dropped it); {restorable} translations without msgctxt match a card string by their "
            "English")
    if restorable:
        text += f" (`cardkit l10n update --locale {locale}` gives them back their msgctxt)"
    if repair.ambiguous:
        shown = "; ".join(f"line {e.line} {e.id[:30]!r}: {', '.join(c[:3])}{' ...' if len(c) > 3 else ''}"
                          for e, c in repair.ambiguous[:3])
        text += (f"; {len(repair.ambiguous)} match several card strings ({shown}): restore them from a copy that has "
                 f"msgctxt (cardkit l10n import OLD.po --locale {locale} --overwrite) or write each msgctxt by hand")
    return text


# translate-toolkit's xliff2po writes an entry's source reference as its msgctxt where msgids repeat
_REFERENCE_CONTEXT = re.compile(r"\S+:\d+")


def lost_contexts(template: Catalog, old: LoadedCatalog) -> ContextRepair:
    """The entries of ``old`` that lost their msgctxt (none, or their source
    reference ``file:line`` as translate-toolkit's XLIFF round trip writes it)
    matched to the template's entries by their English (``msgid`` and
    ``msgid_plural``), and where the English is the source of several card
    strings, by the entry's source references (``#:``) too.  A card string
    that already has a translated entry is not matched again."""
    contexts = {m.context for m in template if m.id}
    present = {e.context for e in old.active if e.context in contexts and e.translated}  # an empty entry may be filled
    candidates = [e for e in old.active if e.context is None or (
        e.context not in contexts and _REFERENCE_CONTEXT.fullmatch(e.context))]
    out = ContextRepair(lost=len(candidates))
    # translations an earlier update made obsolete for want of a msgctxt come back the same way
    candidates += [e for e in old.obsolete if e.context is None and e.translated]
    if not candidates:
        return out
    by_source: dict[MsgId, list[Message]] = {}
    for m in template:
        if m.id and m.context not in present:
            by_source.setdefault(_as_id(m.id), []).append(m)
    taken: set[str] = set()
    for e in candidates:
        options = by_source.get(e.msgid, [])
        if len(options) > 1:
            mine: set[tuple[str, int | None]] = {(f, ln) for f, ln in e.locations}
            if e.context is not None:  # the reference translate-toolkit put in its place
                file, _, line = e.context.rpartition(":")
                mine.add((file, int(line)))
            narrowed = [m for m in options if mine & {(f, ln) for f, ln in m.locations}]
            options = narrowed if len(narrowed) == 1 else options
        if len(options) == 1 and str(options[0].context) not in taken:
            out.restored[id(e)] = str(options[0].context)
            taken.add(str(options[0].context))
        elif options and e.translated and not e.obsolete:
            out.ambiguous.append((e, tuple(str(m.context) for m in options)))
    return out


def _previous_lines(p: Previous) -> list[str]:
    """``#|`` lines as msgmerge writes them: PO strings, wrapped like msgids."""
    def field_(kw: str, value: str) -> str:
        # Babel counts a prefix once per word; wrapping 3 columns narrower gives lines of the usual width
        return f"#| {kw} " + normalize(value, width=WIDTH - 3).replace("\n", "\n#| ")

    out = [field_("msgctxt", p.context)] if p.context is not None else []
    out.append(field_("msgid", p.id))
    if p.plural is not None:
        out.append(field_("msgid_plural", p.plural))
    return "\n".join(out).split("\n")


def _width_of(old: LoadedCatalog | None) -> int:
    """The wrapping width a catalog was written at, so that an update keeps it:
    0 when no entry is wrapped though some string line is longer than any tool
    wraps at (``msgcat --no-wrap``), msgcat's and Poedit's 79 when a wrapped
    line reaches it, else cardkit's 78."""
    if old is None:
        return WIDTH
    body = old.text.split("\n\n", 1)[-1]  # the header entry is always wrapped
    lines = body.splitlines()
    continued = [ln for ln in lines if ln.startswith('"')]
    if not continued:
        longest = max((len(ln) for ln in lines if ln.startswith(("msgid", "msgstr"))), default=0)
        return 0 if longest > 80 else WIDTH
    return 79 if max(len(ln) for ln in continued) == 79 else WIDTH


def render(doc: Catalog | Document, width: int = WIDTH) -> bytes:
    """The PO bytes of a catalog: Babel's writer at ``width`` (78 unless the
    catalog was written at another), then the ``#|`` previous source, the
    translator's header fields and header comment."""
    if isinstance(doc, Catalog):
        doc = Document(doc)
    for m in list(doc.catalog) + list(doc.catalog.obsolete.values()):
        # cardkit formats with {braces} only; Babel guesses python-format from a "%" before a
        # letter ("95 % interval"), and msgfmt --check then rejects the translation
        m.flags.discard("python-format")
    buf = io.BytesIO()
    write_po(buf, doc.catalog, width=width or 10 ** 6, sort_output=False, sort_by_file=False, include_previous=False)
    blocks = buf.getvalue().decode("utf-8").split("\n\n")
    messages = [m for m in doc.catalog if m.id]
    if len(blocks) != len(messages) + len(doc.catalog.obsolete) + 2 or blocks[-1] != "":
        raise AssertionError("Babel wrote a catalog cardkit cannot split into entries")
    head = blocks[0].split("\n")
    start = head.index('msgid ""')
    comment = [ln for ln in head[:start] if not ln.startswith("#,")]
    if doc.header_comment is not None:
        comment = [f"# {c}".rstrip() if c else "#" for c in doc.header_comment]
    body = head[start:]
    extra = [escape(f"{k}: {v}\n") for k, v in doc.extra_headers]
    at = next((i for i, ln in enumerate(body) if ln.startswith('"Generated-By:')), len(body))
    blocks[0] = "\n".join(comment + [ln for ln in head[:start] if ln.startswith("#,")] + body[:at] + extra + body[at:])
    for i, m in enumerate(messages, 1):
        p = doc.previous.get(m.context)
        if p is not None:
            lines = blocks[i].split("\n")
            k = next(j for j, ln in enumerate(lines) if not ln.startswith("#"))
            blocks[i] = "\n".join(lines[:k] + _previous_lines(p) + lines[k:])
    data = "\n\n".join(blocks).encode("utf-8")
    # The Babel version in the header would make catalogs differ between machines.
    return re.sub(rb'"Generated-By: [^"]*"\n', b"", data)


@dataclass
class Planned:
    """What ``extract`` + ``update`` would write to one file."""

    path: Path
    data: bytes
    locale: str | None = None
    _stale: bool | None = None
    stats: dict[str, int] = field(default_factory=dict)
    repair: ContextRepair | None = None  # entries that had lost their msgctxt, found again or not

    def summary(self) -> str:
        """What an update does to this catalog, e.g. "1 new, 1 fuzzy, 0 obsolete, 436 unchanged"."""
        s = self.stats
        if not s:
            return "template"
        restored = f", {s['restored']} msgctxt restored" if s.get("restored") else ""
        return f"{s['new']} new, {s['fuzzy']} fuzzy, {s['obsolete']} obsolete, {s['unchanged']} unchanged{restored}"

    def stale(self) -> bool:
        """Whether the file on disk differs in meaning from :attr:`data`
        (missing, unreadable, or an entry differs; wrapping and translator
        headers do not count)."""
        if self._stale is None:
            self._stale = self._compare()
        return self._stale

    def _compare(self) -> bool:
        try:
            current = self.path.read_bytes()
        except OSError:
            return True
        if current == self.data:
            return False
        try:
            now = parse_catalog(current, self.path.name, self.locale)
        except CardkitError:
            return True
        return now.semantic() != parse_catalog(self.data, self.path.name, self.locale).semantic()


def plan_update(root: Path, domain: str, strings: tuple[SourceString, ...], locales: list[str],
                budgets: dict[str, int] | None = None) -> list[Planned]:
    """The bytes that ``extract`` + ``update`` would write for one domain; every
    unreadable catalog of the domain is reported at once."""
    template = template_for(domain, strings, budgets)
    plans = [Planned(pot_path(root, domain), render(template))]
    issues: list[Issue] = []
    for loc in locales:
        path = po_path(root, loc, domain)
        try:
            old = read_catalog(path, rel(root, path), loc, root) if os.path.lexists(path) else None
        except CardkitError as exc:
            issues.extend(exc.issues)
            continue
        plans.append(plan_catalog(root, template, loc, old))
    if issues:
        raise CardkitError(issues)
    return plans


def plan_catalog(root: Path, template: Catalog, locale: str, old: LoadedCatalog | None) -> Planned:
    """What ``update`` would write for one locale's catalog of the template's
    domain, from the catalog as already read (``None``: there is none); the
    template is not changed, so one serves every locale."""
    path = po_path(root, locale, str(template.domain))
    doc = merge(template, old, locale)
    data = render(doc, _width_of(old))
    return Planned(path, keep_unchanged(old, data, rel(root, path), locale) if old is not None else data, locale,
                   stats=doc.stats, repair=doc.repair)


def _blocks(text: str) -> list[str]:
    return [b.strip("\n") for b in re.split(r"\n[ \t]*\n", text.strip("\n")) if b.strip()]


def _block_entry(block: str, file: str, locale: str | None) -> PoEntry | None:
    """The one entry a block of a catalog holds, its line aside (None for the header or a block that is not one entry)."""
    reader = _Reader(file)
    for n, raw in enumerate(_split_lines(block), 1):
        reader.line(n, raw)
    reader.finish()
    if reader.issues or len(reader.entries) != 1:
        return None
    e = reader.entries[0]
    def joined(comments: tuple[str, ...]) -> tuple[str, ...]:  # a comment wrapped or not is the same comment
        return (" ".join(" ".join(comments).split()),)

    return PoEntry(0, e.context, e.id, e.plural, e.strings, tuple(sorted(e.flags)), joined(e.auto_comments),
                   joined(e.user_comments), tuple(sorted(e.locations, key=str)), e.previous, e.obsolete)


def _header_parts(block: str) -> tuple[list[str], list[str], list[tuple[str, list[str]]]] | None:
    """A header entry's lines: those before ``msgid ""`` (comments, flags),
    ``msgid ""``/``msgstr ""``, and each field as (lower-case name, its PO
    lines); None for a header cardkit cannot split into fields."""
    lines = block.split("\n")
    try:
        start = lines.index('msgid ""')
    except ValueError:
        return None
    if lines[start + 1:start + 2] != ['msgstr ""']:
        return None
    fields: list[tuple[str, list[str]]] = []
    group: list[str] = []
    for ln in lines[start + 2:]:
        if not (ln.startswith('"') and ln.endswith('"')):
            return None
        group.append(ln)
        if ln.endswith('\\n"'):
            name = "".join(g[1:-1] for g in group).split(":", 1)[0].strip().lower()
            fields.append((name, group))
            group = []
    if group:
        fields.append(("", group))
    return lines[:start], lines[start:start + 2], fields


def _keep_header(old: str, new: str) -> str:
    """The header entry an update writes: the old file's fields in the old
    order, each as the old file wrote it unless its value changed (then as
    cardkit writes it), a field cardkit no longer writes dropped unless it is
    the translator's, new fields at the end; the Generated-By line and the X-
    headers of a PO editor stay where they were."""
    a, b = _header_parts(old), _header_parts(new)
    if a is None or b is None:
        return new
    (old_pre, _, old_fields), (new_pre, ids, new_fields) = a, b
    fresh = dict(new_fields)
    out: list[str] = []
    for name, lines in old_fields:
        if name in fresh:
            out += lines if "".join(lines) == "".join(fresh[name]) or \
                _unquote(lines) == _unquote(fresh[name]) else fresh[name]
        elif name == "generated-by" or (name not in MANAGED_HEADERS and name not in BABEL_HEADERS):
            out += lines
    seen = {name for name, _ in old_fields}
    for name, lines in new_fields:
        if name not in seen:
            out += lines
    same_pre = [ln for ln in old_pre if ln.startswith("#,")] == [ln for ln in new_pre if ln.startswith("#,")] and \
        [ln for ln in old_pre if not ln.startswith("#,")] == [ln for ln in new_pre if not ln.startswith("#,")]
    return "\n".join((old_pre if same_pre else new_pre) + ids + out)


def _unquote(lines: list[str]) -> str:
    return "".join(ln[1:-1] for ln in lines)


def keep_unchanged(old: LoadedCatalog, data: bytes, file: str, locale: str | None) -> bytes:
    """``data`` (a merged catalog as cardkit writes it) with every entry that
    the merge left as it was written exactly as the old file has it (its
    wrapping by Poedit, msgcat or Babel at any width), and the old header
    entry when its fields are the same: an update touches only the entries
    that change."""
    new_text = data.decode("utf-8")
    olds: dict[PoEntry, str] = {}
    old_blocks = _blocks(old.text)
    for b in old_blocks[1:]:
        e = _block_entry(b, file, locale)
        if e is not None:
            olds.setdefault(e, b)
    out = []
    new_blocks = _blocks(new_text)
    for i, b in enumerate(new_blocks):
        if i == 0:
            try:
                same = parse_catalog(data, file, locale).headers == old.headers
            except CardkitError:
                same = False
            out.append(old_blocks[0] if same and old_blocks else _keep_header(old_blocks[0], b) if old_blocks else b)
            continue
        e = _block_entry(b, file, locale)
        out.append(olds.get(e, b) if e is not None else b)
    ending = old.text[len(old.text.rstrip("\n")):] or "\n"  # Babel ends with a blank line, msgcat does not
    return ("\n\n".join(out) + ending).encode("utf-8")


def write_plans(plans: list[Planned]) -> list[Path]:
    written = []
    for p in plans:
        if p.stale():
            atomic_write_bytes(p.path, p.data)
            written.append(p.path)
    return written


def catalog_entry_issues(root: Path, domain: str, strings: tuple[SourceString, ...], locales: list[str]) -> list[Issue]:
    """Every string needs an entry in every locale's catalog; a catalog that
    cannot be parsed is reported with its line."""
    issues: list[Issue] = []
    for loc in locales:
        path = po_path(root, loc, domain)
        if not os.path.lexists(path):
            issues.append(Issue("L002", f"no {loc} catalog for '{domain}' (run: cardkit l10n update)",
                                file=rel(root, path)))
            continue
        try:
            cat = read_catalog(path, rel(root, path), loc, root).catalog
        except CardkitError as exc:
            issues.extend(exc.issues)
            continue
        contexts = {m.context for m in cat if m.id}
        for s in strings:
            if s.msgctxt not in contexts:
                issues.append(Issue("L010", f"'{s.msgctxt}' has no entry in the {loc} catalog {rel(root, path)} (run: cardkit l10n update)",
                                    file=s.file, line=s.line, column=s.column))
    return issues
