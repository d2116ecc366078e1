"""``cardkit l10n check``: run every translation check over every catalog and
lay out every string in its real card box (the print code path), then report
findings grouped by card, coverage and the fit matrix."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.errors import CardkitError, Severity
from cardkit.i18n.catalogs import plan_update, po_path, read_catalog, rel
from cardkit.i18n.budget import translation_domains
from cardkit.i18n.checks import Entry, Finding, load_glossary, run_entry_checks
from cardkit.i18n.localize import UI_DOMAIN
from cardkit.layout.compose import FieldFit
from cardkit.layout.fonts import FontBook
from cardkit.load.project import Project
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
             report: CheckReport, budgets: dict[str, int]) -> list[Entry]:
    path = po_path(root, locale, domain)
    file = rel(root, path)
    total = len(strings)
    report.coverage.setdefault(locale, {})[domain] = {"translated": 0, "total": total}
    if not path.exists():
        report.findings.append(Finding("T101", Severity.ERROR, locale, domain, "", file, 0,
                                       f"no catalog for '{domain}' (run: cardkit l10n update --locale {locale})"))
        return []
    try:
        loaded = read_catalog(path, file, locale)
    except CardkitError as exc:
        for i in exc.issues:
            report.findings.append(Finding(i.code, Severity.ERROR, locale, domain, "", i.file, i.line, i.message))
        return []
    cat = loaded.catalog
    by_ctx = {m.context: m for m in cat if m.id}
    entries = []
    translated = 0
    for s in strings:
        m = by_ctx.get(s.msgctxt)
        if m is None:
            report.findings.append(Finding("T101", Severity.ERROR, locale, domain, s.msgctxt, file, 0,
                                           "no catalog entry (run: cardkit l10n update)"))
            continue
        line = m.lineno or 0
        text = m.string if isinstance(m.string, str) else ""
        if not text:
            report.findings.append(Finding("T102", Severity.ERROR, locale, domain, s.msgctxt, file, line, "not translated"))
            continue
        if m.fuzzy:
            report.findings.append(Finding("T103", Severity.ERROR, locale, domain, s.msgctxt, file, line,
                                           "fuzzy: the English changed since this was translated; review and clear the flag"))
        else:
            translated += 1
        entries.append(Entry(locale, domain, s.msgctxt, s.text, text, file, line, m.fuzzy))
    report.coverage[locale][domain]["translated"] = translated
    for key, m in cat.obsolete.items():
        report.findings.append(Finding("T104", Severity.WARNING, locale, domain, str(m.context or key), file, m.lineno or 0,
                                       "obsolete entry: its card field no longer exists"))
    plans = plan_update(root, domain, strings, [locale], budgets)
    if any(p.stale() for p in plans[1:]):
        report.findings.append(Finding("T105", Severity.ERROR, locale, domain, "", file, 1,
                                       "catalog is stale against the cards (run: cardkit l10n update)"))
    return entries


def check_translations(root: Path, project: Project, locales: list[str], set_ids: list[str] | None = None,
                       fit: bool = True) -> CheckReport:
    report = CheckReport()
    book = FontBook()
    sets = [ls.set for sid, ls in sorted(project.sets.items()) if ls.set is not None and (not set_ids or sid in set_ids)]
    if set_ids:
        unknown = sorted(set(set_ids) - {s.id for s in sets})
        if unknown:
            raise CardkitError(f"unknown set(s): {', '.join(unknown)}", code="P002")
    wanted = {s.id for s in sets} | {UI_DOMAIN}
    domains = [d for d in translation_domains(project) if d[0] in wanted]
    for locale in locales:
        glossary, problems = load_glossary(root, locale)
        for p in problems:
            report.findings.append(Finding(p.code, Severity.ERROR, locale, "glossary", "", p.file, p.line, p.message))
        for domain, strings, budgets in domains:
            entries = _entries(root, domain, strings, locale, report, budgets)
            report.findings.extend(run_entry_checks(entries, glossary, book))
        # a catalog that cannot be read is reported with its lines; laying it out would only repeat that
        readable = not any(f.locale == locale and f.check in ("L001", "F001") for f in report.findings)
        if fit and readable:
            for s in sets:
                _fit(root, s, locale, report)
    report.findings.sort(key=lambda f: (f.locale, f.set, _card_of(f.msgctxt, f.set), f.msgctxt, f.check))
    return report


def _fit(root: Path, card_set: Any, locale: str, report: CheckReport) -> None:
    from cardkit.i18n.localize import Localizer
    from cardkit.printing import compose_set

    items, extras = compose_set(root, card_set, locale)
    loc = Localizer(root, locale, card_set)
    seen: set[tuple[str, str, str]] = set()
    fits: list[FieldFit] = []
    for item in items + extras:
        for face in (item.front, item.back):
            if face is None:
                continue
            for f in face.fits:
                k = (f.card, f.field, f.key)
                if k not in seen:
                    seen.add(k)
                    fits.append(f)
    for f in fits:
        key = f.key.split(",")[0]
        domain = UI_DOMAIN if key.startswith("ui:") else card_set.id
        msgctxt = key[3:] if key.startswith("ui:") else key
        row = FitRow(f.card, f.field, locale, msgctxt, f.result.status, f.result.scale, f.result.size, f.result.describe())
        report.fit.append(row)
        if f.result.status in ("below_min", "overflow"):
            file, line = (loc.where_ui(msgctxt) if domain == UI_DOMAIN else loc.where(msgctxt))
            report.findings.append(Finding("T950", Severity.ERROR, locale, domain, msgctxt, file, line,
                                           f"card '{f.card}', field '{f.field}': {f.result.describe()}"))


def render_text(report: CheckReport) -> str:
    """Findings grouped by card, then a summary per locale."""
    lines: list[str] = []
    groups: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for f in report.findings:
        groups[(f.set, _card_of(f.msgctxt, f.set))].append(f)
    for (domain, card), items in groups.items():
        lines.append(f"{domain} / {card}")
        for f in items:
            where = f"{f.file}:{f.line}" if f.line else f.file
            lines.append(f"  {where}: {f.severity.value}[{f.check}] {f.locale} {f.msgctxt}: {f.message}")
    summary = report.fit_summary()
    for loc, domains in sorted(report.coverage.items()):
        cov = ", ".join(f"{d} {c['translated']}/{c['total']}" for d, c in domains.items())
        sev = Counter(f.severity.value for f in report.findings if f.locale == loc)
        lines.append(f"{loc}: translated {cov}; {sev.get('error', 0)} error(s), {sev.get('warning', 0)} warning(s)")
        s = summary.get(loc)
        if s:
            worst = f"; worst shrink {s['worst']['scale']:.0%} ({s['worst']['msgctxt']}, {s['worst']['field']})" if s["worst"] else ""
            lines.append(f"{loc}: fit {s['strings']} strings: {s['full_size']} at full size, {s['shrunk']} shrunk, "
                         f"{s['below_min']} below the minimum size, {s['overflow']} overflowing{worst}")
    lines.append("ok" if report.ok else "failed: translation errors found")
    return "\n".join(lines)

