"""gettext catalogs of card strings, read and written with Babel.

One template per set (``locales/<set>.pot``) and one catalog per locale and set
(``locales/<lang>/LC_MESSAGES/<set>.po``).  Every entry's ``msgctxt`` is the
card ID plus field (``gun_jam.text``), so translations follow the card, not
the English wording.

Merging is by context: when the English source of an entry changes, the old
translation is kept, marked fuzzy, and the old source is recorded as
``#| msgid`` for the translator.  Output is deterministic (fixed dates, source
order), so ``update --check`` can compare bytes.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, read_po, write_po

from cardkit.errors import CardkitError, Issue
from cardkit.fsutil import atomic_write_bytes
from cardkit.model import SourceString
from cardkit.text import placeholders

# Fixed header dates keep catalogs byte-stable between runs (no churn in diffs).
EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)
MAX_PO_BYTES = 4 << 20
PROJECT = "cardkit"


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
        msgid: str | tuple[str, str] = s.text
        if s.plural is not None:
            msgid = (s.text, s.plural)
            comments.append(f"Plural message: {{{s.count}}} is the number that chooses the form")
        cat.add(msgid, "", locations=[(s.file, s.line)], auto_comments=comments, flags=flags, context=s.msgctxt)
    return cat


def render(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, width=78, sort_output=False, sort_by_file=False, include_previous=True)
    # The Babel version in the header would make catalogs differ between machines.
    return re.sub(rb'"Generated-By: [^"]*"\n', b"", buf.getvalue())


@dataclass
class LoadedCatalog:
    path: str
    catalog: Catalog
    text: str


def lint_po(text: str, file: str) -> list[Issue]:
    """Line-level syntax check Babel's lenient parser skips (unterminated strings,
    stray words).  One issue per bad line."""
    issues = []
    keyword = re.compile(r'^(?:#~\s*)?(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+"(?:[^"\\]|\\.)*"\s*$')
    string = re.compile(r'^(?:#~\s*)?"(?:[^"\\]|\\.)*"\s*$')
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#") and not s.startswith("#~"):
            continue
        if not (keyword.match(s) or string.match(s)):
            issues.append(Issue("L001", f"catalog syntax error: cannot parse {s[:40]!r}", file=file, line=n, column=1))
    return issues


def read_catalog(path: Path, file: str, locale: str | None = None) -> LoadedCatalog:
    """Read and parse a ``.po``/``.pot`` file; raise :class:`CardkitError` with one
    issue per syntax problem."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CardkitError(Issue("F001", f"cannot read catalog: {exc.strerror}", file=file)) from None
    if len(raw) > MAX_PO_BYTES:
        raise CardkitError(Issue("L001", f"catalog is larger than {MAX_PO_BYTES} bytes", file=file, line=1, column=1))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CardkitError(Issue("L001", "catalog is not valid UTF-8", file=file, line=line, column=1)) from None
    problems = lint_po(text, file)
    if problems:
        raise CardkitError(problems)
    try:
        cat = read_po(io.StringIO(text), locale=locale, abort_invalid=True)
    except PoFileError as exc:
        raise CardkitError(Issue("L001", f"catalog syntax error: {str(exc).rsplit(' on ', 1)[0]}",
                                 file=file, line=exc.lineno + 1, column=1)) from None
    except (ValueError, IndexError, KeyError) as exc:
        raise CardkitError(Issue("L001", f"catalog cannot be read: {exc}", file=file, line=1, column=1)) from None
    previous = _previous_ids(text)
    for m in cat:
        # Babel reads "#|" lines as user comments starting with "|": they are previous ids
        m.user_comments = [c for c in m.user_comments if not c.startswith("|")]
        if m.id and m.context in previous:
            m.previous_id = [previous[m.context]]
    return LoadedCatalog(file, cat, text)


def _unquote(s: str) -> str:
    body = s.strip()[1:-1]
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def _previous_ids(text: str) -> dict[str, str]:
    """``#| msgid`` comments by the context of the entry they precede (Babel
    writes them but does not read them back)."""
    out: dict[str, str] = {}
    pending: list[str] | None = None
    for line in text.splitlines():
        s = line.strip()
        if not s:
            pending = None
        elif s.startswith("#| msgid "):
            pending = [_unquote(s[len("#| msgid "):])]
        elif s.startswith('#| "') and pending is not None:
            pending.append(_unquote(s[3:]))
        elif s.startswith("msgctxt ") and pending is not None:
            out[_unquote(s[len("msgctxt "):])] = "".join(pending)
            pending = None
    return out


def merge(template: Catalog, old: Catalog | None, locale: str) -> Catalog:
    """A catalog for ``locale`` with the template's entries, in template order,
    carrying translations from ``old`` by context."""
    new = Catalog(locale=Locale.parse(locale), project=PROJECT, version="1", domain=template.domain,
                  creation_date=EPOCH, revision_date=old.revision_date if old else EPOCH, fuzzy=False,
                  charset="utf-8", copyright_holder="cardkit contributors", msgid_bugs_address="",
                  last_translator=old.last_translator if old else "", language_team=old.language_team if old else "")
    by_ctx: dict[str | None, Message] = {}
    if old is not None:
        for m in old:
            if m.id:
                by_ctx[m.context] = m
    for m in template:
        if not m.id:
            continue
        prev = by_ctx.pop(m.context, None)
        string = _reshape(prev.string, m.pluralizable, new.num_plurals) if prev is not None else ""
        flags = set(m.flags)
        previous_id: list[str] = []
        if prev is not None and _translated(prev.string):
            if prev.id != m.id:
                flags.add("fuzzy")
                previous_id = [prev.id] if isinstance(prev.id, str) else list(prev.id)
            elif prev.fuzzy:
                flags.add("fuzzy")
                previous_id = list(prev.previous_id)
        new.add(m.id, string, locations=m.locations, auto_comments=m.auto_comments,
                user_comments=prev.user_comments if prev is not None else [], flags=sorted(flags),
                previous_id=previous_id, context=m.context)
    # entries whose card field disappeared stay as obsolete (#~) for the translator
    for ctx, m in by_ctx.items():
        if _translated(m.string):
            new.obsolete[(m.id, ctx)] = m  # type: ignore[index]
    return new


def _translated(string: str | tuple[str, ...] | list[str] | None) -> bool:
    """Whether an entry holds any translation (a plural one: in any form)."""
    return any(string) if isinstance(string, (tuple, list)) else bool(string)


def _reshape(string: str | tuple[str, ...] | list[str] | None, plural: bool, nplurals: int) -> str | tuple[str, ...]:
    """An old translation in the shape of the new entry: a plain message that
    became plural offers its text for every form, a plural one that became plain
    keeps its first form (the entry is fuzzy either way: its msgid changed)."""
    if plural:
        forms = tuple(string) if isinstance(string, (tuple, list)) else (string or "",) * nplurals
        return forms[:nplurals] + ("",) * (nplurals - len(forms))
    return string if isinstance(string, str) else (string[0] if string else "")  # None: untranslated


@dataclass
class Planned:
    path: Path
    data: bytes

    def stale(self) -> bool:
        try:
            return self.path.read_bytes() != self.data
        except OSError:
            return True


def plan_update(root: Path, domain: str, strings: tuple[SourceString, ...], locales: list[str],
                budgets: dict[str, int] | None = None) -> list[Planned]:
    """The bytes that ``extract`` + ``update`` would write for one domain."""
    template = template_for(domain, strings, budgets)
    plans = [Planned(pot_path(root, domain), render(template))]
    for loc in locales:
        path = po_path(root, loc, domain)
        old = read_catalog(path, rel(root, path), loc).catalog if path.exists() else None
        plans.append(Planned(path, render(merge(template, old, loc))))
    return plans


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
        if not path.exists():
            issues.append(Issue("L002", f"no {loc} catalog for '{domain}' (run: cardkit l10n update)",
                                file=rel(root, path)))
            continue
        try:
            cat = read_catalog(path, rel(root, path), loc).catalog
        except CardkitError as exc:
            issues.extend(exc.issues)
            continue
        contexts = {m.context for m in cat if m.id}
        for s in strings:
            if s.msgctxt not in contexts:
                issues.append(Issue("L010", f"'{s.msgctxt}' has no entry in the {loc} catalog {rel(root, path)} (run: cardkit l10n update)",
                                    file=s.file, line=s.line, column=s.column))
    return issues
