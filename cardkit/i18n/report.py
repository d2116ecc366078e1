"""``cardkit l10n check``: run every translation check over every catalog and
lay out every string in its real card box (the print code path), then report
findings grouped by card, coverage and the fit matrix."""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from babel.messages.catalog import Catalog

from cardkit.errors import CardkitError, Severity, neutral
from cardkit.i18n.accepted import AcceptedFinding, apply_acceptances
from cardkit.i18n.catalogs import lost_contexts, lost_message, plan_catalog, po_path, read_catalog, rel, template_for
from cardkit.i18n.budget import split_by_english, translation_domains
from cardkit.i18n.checks import Entry, Finding, load_glossary, run_entry_checks, run_locale_checks
from cardkit.strings.localize import UI_DOMAIN, form_example, plural_forms
from cardkit.layout.compose import FieldFit
from cardkit.layout.fonts import FontBook
from cardkit.layout.textfit import ColumnResult
from cardkit.load.project import Project, set_icon_names
from cardkit.model import SourceString


@dataclass
class FitRow:
    card: str
    field: str
    locale: str
    msgctxt: str
    status: str
    scale: float
    size: float
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "field": self.field, "locale": self.locale, "msgctxt": self.msgctxt,
                "status": self.status, "scale": round(self.scale, 3), "size": round(self.size, 2), "detail": self.detail}


@dataclass
class CheckReport:
    findings: list[Finding] = field(default_factory=list)
    coverage: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    fit: list[FitRow] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "findings": [f.to_json() for f in self.findings], "coverage": self.coverage,
                "fit": [r.to_json() for r in self.fit], "fit_summary": self.fit_summary()}

    def fit_summary(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for loc in sorted({r.locale for r in self.fit}):
            rows = [r for r in self.fit if r.locale == loc]
            shrunk = [r for r in rows if r.status == "shrunk"]
            worst = min(shrunk, key=lambda r: r.scale) if shrunk else None
            out[loc] = {"strings": len(rows), "full_size": sum(r.status == "fits" for r in rows),
                        "shrunk": len(shrunk), "below_min": sum(r.status == "below_min" for r in rows),
                        "overflow": sum(r.status == "overflow" for r in rows),
                        "worst": {"msgctxt": worst.msgctxt, "card": worst.card, "field": worst.field,
                                  "scale": round(worst.scale, 3)} if worst else None}
        return out


def _card_of(msgctxt: str, domain: str) -> str:
    if domain == UI_DOMAIN:
        return "ui"
    return msgctxt.split(".")[0] if not msgctxt.startswith("set.") else "set"


def _entries(root: Path, domain: str, strings: tuple[SourceString, ...], locale: str,
             report: CheckReport, template: Catalog, icons: frozenset[str] = frozenset()) -> list[Entry]:
    """The translated entries of one catalog, with what it lacks (T101, T102,
    T151), its fuzzy (T103) and obsolete (T104) entries and whether it is stale
    against ``template``, the domain's ``.pot`` (T105), all from one reading."""
    path = po_path(root, locale, domain)
    file = rel(root, path)
    total = len(strings)
    report.coverage.setdefault(locale, {})[domain] = {"translated": 0, "total": total}
    if not os.path.lexists(path):
        report.findings.append(Finding("T101", Severity.ERROR, locale, domain, "", file, 0,
                                       f"no catalog for '{domain}' (run: cardkit l10n update --locale {locale})"))
        return []
    try:
        loaded = read_catalog(path, file, locale, root)
    except CardkitError as exc:
        for i in exc.issues:
            report.findings.append(Finding(i.code, Severity.ERROR, locale, domain, "", i.file, i.line, i.message))
        return []
    cat = loaded.catalog
    by_ctx = {m.context: m for m in cat if m.id}
    repair = lost_contexts(template, loaded)
    repaired = set(repair.restored.values())
    if repair.lost or repair.restored:
        report.findings.append(Finding("T106", Severity.ERROR, locale, domain, "", file, 1, lost_message(repair, locale)))
    entries = []
    translated = 0
    for s in strings:
        m = by_ctx.get(s.msgctxt)
        if m is None and s.msgctxt in repaired:
            continue  # said by T106
        if m is None:
            report.findings.append(Finding("T101", Severity.ERROR, locale, domain, s.msgctxt, file, 0,
                                           "no catalog entry (run: cardkit l10n update)"))
            continue
        line = m.lineno or 0
        if (s.plural is not None) != isinstance(m.id, (tuple, list)):
            report.findings.append(Finding("T151", Severity.ERROR, locale, domain, s.msgctxt, file, line,
                                           "the catalog entry has plural forms (msgid_plural) but the message has none"
                                           if s.plural is None else
                                           f"the message is plural (count {{{s.count}}}) but the catalog entry has no "
                                           "msgid_plural (run: cardkit l10n update)"))
            continue
        if s.plural is not None:
            forms = _plural_entries(s, m, locale, domain, file, line, report, icons)
            if forms:
                translated += not m.fuzzy and len(forms) == plural_forms(locale)
                entries.extend(forms)
            continue
        text = m.string if isinstance(m.string, str) else ""
        if not text:
            report.findings.append(Finding("T102", Severity.ERROR, locale, domain, s.msgctxt, file, line, "not translated"))
            continue
        if m.fuzzy:
            report.findings.append(Finding("T103", Severity.ERROR, locale, domain, s.msgctxt, file, line,
                                           fuzzy_message(m, s.text)))
        else:
            translated += 1
        entries.append(Entry(locale, domain, s.msgctxt, s.text, text, file, line, m.fuzzy, icons=icons))
    report.coverage[locale][domain]["translated"] = translated
    for key, m in cat.obsolete.items():
        report.findings.append(Finding("T104", Severity.WARNING, locale, domain, str(m.context or key), file, m.lineno or 0,
                                       "obsolete entry: its card field no longer exists"))
    if plan_catalog(root, template, locale, loaded).stale():
        report.findings.append(Finding("T105", Severity.ERROR, locale, domain, "", file, 1,
                                       "catalog is stale against the cards (run: cardkit l10n update)"))
    return entries


def _plural_entries(s: SourceString, m: Any, locale: str, domain: str, file: str, line: int,
                    report: CheckReport, icons: frozenset[str] = frozenset()) -> list[Entry]:
    """One :class:`Entry` per translated form of a plural message (each checked
    against the English form it stands for: the singular for ``msgstr[0]`` when
    the locale has more than one form, else the plural); T150 for each form left
    empty, T102 when none is translated."""
    n = plural_forms(locale)
    forms = list(m.string) if isinstance(m.string, (tuple, list)) else [m.string]
    forms = [f if isinstance(f, str) else "" for f in forms[:n]] + [""] * (n - len(forms))
    if not any(forms):
        report.findings.append(Finding("T102", Severity.ERROR, locale, domain, s.msgctxt, file, line, "not translated"))
        return []
    for i, f in enumerate(forms):
        if not f:
            report.findings.append(Finding("T150", Severity.ERROR, locale, domain, s.msgctxt, file, line,
                                           f"msgstr[{i}] (the form for {form_example(locale, i)}) is not translated"))
    if m.fuzzy:
        report.findings.append(Finding("T103", Severity.ERROR, locale, domain, s.msgctxt, file, line,
                                       fuzzy_message(m, s.text)))
    return [Entry(locale, domain, s.msgctxt, s.text if i == 0 and n > 1 else (s.plural or s.text), f, file, line,
                  m.fuzzy, form=i, icons=icons) for i, f in enumerate(forms) if f]


def word_diff(old: str, new: str) -> str:
    """The change from ``old`` to ``new`` word by word, as ``wdiff`` shows it.

    >>> word_diff("Kill 2 goblins in this cave.", "Kill 3 goblins in any cave.")
    'Kill [-2-] {+3+} goblins in [-this-] {+any+} cave.'
    """
    import difflib

    a, b = old.split(), new.split()
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            out.extend(a[i1:i2])
            continue
        if i2 > i1:
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out)


def fuzzy_message(m: Any, english: str) -> str:
    """T103's words: whether the English changed (with the word diff from the
    English the translation was made from, ``#| msgid``) or the flag was set
    by hand (no earlier English, or the same English)."""
    previous = list(m.previous_id or [])
    if previous and previous[0] != english:
        return (f"fuzzy: the English changed since this was translated: {word_diff(previous[0], english)}; "
                "review the translation and clear the flag")
    return "fuzzy: flagged by hand (the English is unchanged); review the translation and clear the flag"


def check_translations(root: Path, project: Project, locales: list[str], set_ids: list[str] | None = None,
                       fit: bool = True, progress: Callable[[int, int], None] | None = None,
                       papers: tuple[str, ...] = ()) -> CheckReport:
    """Every check of every locale; ``progress(done, total)`` is called as the
    strings of each catalog are checked and each set is laid out.  The page
    furniture is fitted on every named paper and on the custom ``papers`` (``WxH``)
    a build or the user asks for."""
    report = CheckReport()
    book = FontBook()
    sets = [ls.set for sid, ls in sorted(project.sets.items()) if ls.set is not None and (not set_ids or sid in set_ids)]
    if set_ids:
        unknown = sorted(set(set_ids) - {s.id for s in sets})
        if unknown:
            raise CardkitError(f"unknown set(s): {', '.join(unknown)}", code="P002")
    wanted = {s.id for s in sets} | {UI_DOMAIN}
    domains = [d for d in translation_domains(project) if d[0] in wanted]
    steps = [sum(len(strings) for _, strings, _ in domains), sum(len(st.cards) for st in sets) if fit else 0]
    total, done = len(locales) * sum(steps), 0
    templates = {domain: template_for(domain, strings, budgets) for domain, strings, budgets in domains}  # one per domain
    checked: list[tuple[str, str]] = []  # (locale, domain) of every catalog checked
    texts: dict[tuple[str, str, str], tuple[str, str]] = {}  # (locale, domain, msgctxt) -> (English, translation)
    for locale in locales:
        glossary, problems = load_glossary(root, locale)
        for p in problems:
            report.findings.append(Finding(p.code, Severity.ERROR, locale, "glossary", "", p.file, p.line, p.message))
        everything: list[Entry] = []
        for domain, strings, _ in domains:
            checked.append((locale, domain))
            ls = project.sets.get(domain)
            entries = _entries(root, domain, strings, locale, report, templates[domain],
                               ls.icons if ls is not None else frozenset())
            report.findings.extend(run_entry_checks(entries, glossary, book))
            everything.extend(entries)
            done += len(strings)
            if progress:
                progress(done, total)
        texts.update({(e.locale, e.domain, e.msgctxt): (e.source, e.translation) for e in everything})
        report.findings.extend(run_locale_checks(everything, glossary))
        # a catalog that cannot be read is reported with its lines; laying it out would only repeat that
        readable = not any(f.locale == locale and f.check in ("L001", "F001") for f in report.findings)
        if fit and readable:
            by_key = {(e.domain, e.msgctxt): e for e in everything}
            for s in sets:
                _fit(root, s, locale, report, by_key, papers)
                done += len(s.cards)
                if progress:
                    progress(done, total)
        done = (locales.index(locale) + 1) * sum(steps)
    report.findings = apply_acceptances(root, report.findings, texts, checked, fit)
    report.findings.sort(key=lambda f: (f.locale, f.set, _card_of(f.msgctxt, f.set), f.msgctxt, f.check))
    return report


def _fit(root: Path, card_set: Any, locale: str, report: CheckReport, entries: dict[tuple[str, str], Entry],
         papers: tuple[str, ...] = ()) -> None:
    from cardkit.strings.localize import Localizer
    from cardkit.printing import compose_set

    from cardkit.layout.faces import load_faces

    items, extras = compose_set(root, card_set, locale)
    loc = Localizer(root, locale, card_set)
    book = load_faces(root, card_set).font_book()  # the fonts the set prints with (its game's own first)
    seen: set[tuple[str, str, str]] = set()
    fits: list[FieldFit] = []
    boxes: dict[tuple[str, str, str], Any] = {}  # the template field of each laid-out text
    for item in items + extras:
        for face in (item.front, item.back):
            if face is None:
                continue
            for f in face.fits:
                k = (f.card, f.field, f.key)
                if k not in seen:
                    seen.add(k)
                    fits.append(f)
                    boxes[k] = face.template.fields.get(f.field)
    _fit_plural_forms(fits, boxes, loc, card_set.id, locale, report, set_icon_names(root / card_set.directory, root),
                      book)
    _fit_furniture(root, items + extras, card_set, loc, locale, report, entries, book, papers)

    def where(domain: str, msgctxt: str) -> tuple[str, int]:
        return loc.where_ui(msgctxt) if domain == UI_DOMAIN else loc.where(msgctxt)

    for f in fits:
        keys = [_split_key(k, card_set) for k in f.key.split(",")]
        blamed = blame(f, keys, entries) if len(keys) > 1 and f.result.status != "fits" else []
        if blamed:
            domain, msgctxt = blamed[0].entry.domain, blamed[0].entry.msgctxt
        else:
            domain, msgctxt = keys[0]
        row = FitRow(f.card, f.field, locale, msgctxt, f.result.status, f.result.scale, f.result.size, f.result.describe())
        report.fit.append(row)
        if f.result.status not in ("below_min", "overflow"):
            continue
        head = f"card '{f.card}', field '{f.field}': {f.result.describe()}"
        if not blamed:
            file, line = where(domain, msgctxt)
            report.findings.append(Finding("T950", Severity.ERROR, locale, domain, msgctxt, file, line, head))
            continue
        for rank, b in enumerate(blamed, 1):
            e = b.entry
            file, line = where(e.domain, e.msgctxt)
            report.findings.append(Finding(
                "T950", Severity.ERROR, locale, e.domain, e.msgctxt, file or e.file, line or e.line,
                f"{head}; of the {len(set(keys))} strings sharing this box, this one grew {_ORDINAL.get(rank, f'{rank}th')}most "
                f"over its share: {len(e.translation)} characters against about {b.share} (English {len(e.source)})"))


_ORDINAL = {1: "", 2: "second ", 3: "third "}


def _fit_furniture(root: Path, items: list[Any], card_set: Any, loc: Any, locale: str, report: CheckReport,
                   entries: dict[tuple[str, str], Entry], book: FontBook, papers: tuple[str, ...] = ()) -> None:
    """The texts printed beside the cards, as the furniture modules report their fits
    (:func:`cardkit.printing.furniture.furniture_fits`: every named paper and custom
    ``papers`` asked for, orientation, layout and duplex mode): the calibration help box, whose strings share one box (T950
    on the one that grew most over its share), the slot labels, the token page's texts
    and the page footers.  A text is the translation's to fix on a sheet where its
    English fits (a paper too small for the English is the paper's limit, not the
    translator's).  T950 on each string's own entry, once, naming the first sheet
    where it does not fit (the default A4 grid first; the interface strings are shared by
    every set, so a string already reported is not reported again)."""
    from cardkit.printing import size_groups
    from cardkit.printing.furniture import furniture_fits
    from cardkit.strings.localize import Localizer

    done = {(f.locale, f.set, f.msgctxt, f.check) for f in report.findings}

    def add(key: str, message: str) -> bool:
        ui = key.startswith("ui:")
        msgctxt = key.removeprefix("ui:")
        domain = loc.ui_domain(msgctxt) if ui else card_set.id
        if (locale, domain, msgctxt, "T950") in done:
            return False
        done.add((locale, domain, msgctxt, "T950"))
        file, line = loc.where_ui(msgctxt) if ui else loc.where(msgctxt)
        report.findings.append(Finding("T950", Severity.ERROR, locale, domain, msgctxt, file, line, message))
        return True

    groups = [(g[0].front.template.width, g[0].front.template.height, len(g)) for g in size_groups(items)]
    english = furniture_fits(card_set, Localizer(root, "en", card_set), book, groups, papers)
    fits_in_english = {(f.place, f.sheet, f.keys) for f in english if f.ok}
    title_left_out = False
    for fit in furniture_fits(card_set, loc, book, groups, papers):
        if fit.ok or not fit.keys or (fit.place, fit.sheet, fit.keys) not in fits_in_english:
            continue
        if fit.box is not None and len(fit.keys) > 1:  # the help box: blame the string that grew most
            keys = [k.removeprefix("ui:") for k in fit.keys]
            head = f"{fit.place}: {fit.detail}"
            blamed = blame(fit.box, [(loc.ui_domain(k), k) for k in keys], entries)
            for rank, b in enumerate(blamed, 1):
                e = b.entry
                add(f"ui:{e.msgctxt}", f"{head}; of the {len(keys)} strings sharing this box, this one grew "
                                       f"{_ORDINAL.get(rank, f'{rank}th')}most over its share: {len(e.translation)} "
                                       f"characters against about {b.share} (English {len(e.source)}) ({fit.sheet})")
            if not blamed:
                add("ui:calibration.help", fit.message())
            continue
        if fit.place == "token page footer" and title_left_out:  # said once, on set.title
            continue
        if fit.place == "page footer":
            title_left_out = True
        add(fit.keys[0], fit.message())


def _split_key(key: str, card_set: Any) -> tuple[str, str]:
    """(domain, msgctxt) of a layout key (``ui:<id>`` is an interface string:
    the set's own when its ``strings.yaml`` defines it, else cardkit's)."""
    if key.startswith("ui:"):
        return (card_set.id if key[3:] in card_set.ui_ids else UI_DOMAIN), key[3:]
    return card_set.id, key


@dataclass(frozen=True)
class Blame:
    entry: Entry
    share: int  # characters of the box at full size due to it, by its English length
    excess: int  # characters over that share


def blame(f: FieldFit, keys: list[tuple[str, str]], entries: dict[tuple[str, str], Entry]) -> list[Blame]:
    """The entries to name when a box several catalog strings share does not
    fit (for a box that fits after shrinking: the one that grew most).

    The box's capacity at full size is measured by the real layout of the
    translation (the part of the text it holds, scaled from the size used to
    the nominal size by area) and split into shares by English length: each
    string's length budget in that box.  The strings are ranked by how many
    characters they have over their share; the fewest of them, largest first,
    whose excess covers the characters that must go are named (what did not
    fit; for a box that fits only below the minimum size, what must go to fit
    one size step, 0.25 pt, larger)."""
    known = [entries[k] for k in dict.fromkeys(keys) if k in entries]
    if not known:
        return []
    r = f.result
    total = sum(len(e.translation) for e in known)
    held = 1.0  # the part of the text the box holds at r.size
    if r.status == "overflow":
        if isinstance(r, ColumnResult):
            held = f.box[3] / (f.box[3] + r.overflow_height) if r.overflow_height > 0 else 1.0
        elif r.lines:
            held = max(0, len(r.lines) - r.overflow_lines) / len(r.lines)
    capacity = total * held * (r.size / r.nominal) ** 2 if r.nominal else total
    shares = split_by_english(capacity, {(e.domain, e.msgctxt): len(e.source) for e in known})
    ranked = sorted((Blame(e, shares[(e.domain, e.msgctxt)], len(e.translation) - shares[(e.domain, e.msgctxt)]) for e in known),
                    key=lambda b: (-b.excess, b.entry.msgctxt))
    if r.status == "overflow":
        need = total * (1 - held)
    elif r.status == "below_min":
        need = total * (1 - (r.size / (r.size + 0.25)) ** 2)
    else:
        return ranked[:1]
    out: list[Blame] = []
    covered = 0.0
    for b in ranked:
        if out and (covered >= need or b.excess <= 0):
            break
        out.append(b)
        covered += max(b.excess, 0)
    return out


def _fit_plural_forms(fits: list[FieldFit], boxes: dict[tuple[str, str, str], Any], loc: Any, set_id: str,
                      locale: str, report: CheckReport, icons: frozenset[str] = frozenset(),
                      book: FontBook | None = None) -> None:
    """Lay out every form of each plural message printed on a card in the box
    and style its printed form got (the count filled with the smallest number
    that selects the form); T950 for each form that does not fit."""
    from cardkit.strings.localize import fill, form_example
    from cardkit.layout.textfit import FitResult, Style, fit

    book = book or FontBook()
    for f in fits:
        field = boxes.get((f.card, f.field, f.key))
        if field is None or "," in f.key or not isinstance(f.result, FitResult):
            continue  # several strings flowed in one column: fitted as printed only
        ui = f.key.startswith("ui:")
        msgctxt = f.key[3:] if ui else f.key
        table, src = (loc.ui_lookup(msgctxt)[:2]) if ui else (loc.table, loc.plurals.get(msgctxt))
        entry = table.get(msgctxt)
        if src is None or src.count is None:
            continue
        forms = entry[0] if entry is not None and isinstance(entry[0], tuple) else (src.text, src.plural)
        style = Style(locale, field.role, field.leading, field.align, field.max_lines)
        for i, form in enumerate(forms):
            n = form_example(locale, i) if entry is not None else (1 if i == 0 else 2)
            result = fit(fill(form, **{src.count: n}), style, f.box[2], f.box[3], field.size, field.min, book, icons=icons)
            if result.status in ("below_min", "overflow"):
                domain = loc.ui_domain(msgctxt) if ui else set_id
                file, line = loc.where_ui(msgctxt) if ui else loc.where(msgctxt)
                report.findings.append(Finding("T950", Severity.ERROR, locale, domain, msgctxt, file, line,
                                               f"card '{f.card}', field '{f.field}', msgstr[{i}] (for {n}): "
                                               f"{result.describe()}"))


def render_text(report: CheckReport) -> str:
    """Findings grouped by card, then a summary per locale."""
    lines: list[str] = []
    groups: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for f in report.findings:
        groups[(f.set, _card_of(f.msgctxt, f.set))].append(f)
    for (domain, card), items in groups.items():
        lines.append(f"{domain} / {card}")
        for f in items:  # the documented line, as build and validate write it: path:line:col: error[CODE]: message
            line = f.issue().format()
            if isinstance(f, AcceptedFinding):  # an accepted finding says so where the severity stands
                line = line.replace(f": {f.severity.value}[{f.check}]: ", f": accepted[{f.check}]: ", 1)
            lines.append(line)
    summary = report.fit_summary()
    for loc, domains in sorted(report.coverage.items()):
        cov = ", ".join(f"{d} {c['translated']}/{c['total']}" for d, c in domains.items())
        sev = Counter("accepted" if isinstance(f, AcceptedFinding) else f.severity.value
                      for f in report.findings if f.locale == loc)
        accepted = f", {sev['accepted']} accepted" if sev.get("accepted") else ""
        lines.append(f"{loc}: translated {cov}; {sev.get('error', 0)} error(s), {sev.get('warning', 0)} warning(s)"
                     f"{accepted}")
        s = summary.get(loc)
        if s:
            worst = f"; worst shrink {s['worst']['scale']:.0%} ({s['worst']['msgctxt']}, {s['worst']['field']})" if s["worst"] else ""
            lines.append(f"{loc}: fit {s['strings']} strings: {s['full_size']} at full size, {s['shrunk']} shrunk, "
                         f"{s['below_min']} below the minimum size, {s['overflow']} overflowing{worst}")
    lines.append("ok" if report.ok else "failed: translation errors found")
    return "\n".join(neutral(line) for line in lines)



def render_summary(report: CheckReport) -> str:
    """``l10n check --summary``: one line per catalog (coverage, then the number
    of findings per code), a line for findings outside the catalogs (a
    glossary), and the verdict."""
    lines: list[str] = []
    counts: dict[tuple[str, str], Counter[tuple[str, str]]] = defaultdict(Counter)
    files: dict[tuple[str, str], str] = {}
    for f in report.findings:
        counts[(f.locale, f.set)][("accepted" if isinstance(f, AcceptedFinding) else f.severity.value, f.check)] += 1
        if f.set != "glossary" and f.file.endswith(".po"):
            files.setdefault((f.locale, f.set), f.file)

    def tally(c: Counter[tuple[str, str]]) -> str:
        parts = []
        for sev in ("error", "warning", "accepted"):
            codes = sorted((code, n) for (s, code), n in c.items() if s == sev)
            if codes:
                total = sum(n for _, n in codes)
                noun = "accepted" if sev == "accepted" else f"{sev}(s)"
                parts.append(f"{total} {noun} (" + ", ".join(f"{code} {n}" for code, n in codes) + ")")
        return "; ".join(parts) or "no findings"

    for loc, domains in sorted(report.coverage.items()):
        for domain, c in domains.items():
            pct = int(100 * c["translated"] / c["total"]) if c["total"] else 100
            file = files.get((loc, domain), f"locales/{loc}/LC_MESSAGES/{domain}.po")
            lines.append(f"{file}: {loc} {domain}: {c['translated']}/{c['total']} translated ({pct} %); "
                         f"{tally(counts.pop((loc, domain), Counter()))}")
    for (loc, domain), rest in sorted(counts.items()):
        lines.append(f"{loc} {domain}: {tally(rest)}")
    lines.append("ok" if report.ok else "failed: translation errors found")
    return "\n".join(neutral(line) for line in lines)
