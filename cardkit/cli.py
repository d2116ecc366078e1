"""The ``cardkit`` command line: thin commands over the library.

This is the only module that prints or exits.  Every command takes ``--root``
(the project folder holding ``cards/`` and ``locales/``).  Errors cross one
boundary, :func:`main`, which turns a :class:`CardkitError` into one line per
problem on stderr and exit status 1.
"""

from __future__ import annotations

import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Iterable, Optional, Sequence, cast

import typer

from cardkit._compiled import engine_build
from cardkit.errors import CardkitError, Issue, Severity, sort_issues

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Card data, localization and print-and-play toolkit.")
l10n_app = typer.Typer(no_args_is_help=True, help="Extract, update and check translation catalogs.")
app.add_typer(l10n_app, name="l10n")
build_app = typer.Typer(help="Build print-and-play output (with no subcommand: every set and locale as A4 PDFs).",
                        invoke_without_command=True)
app.add_typer(build_app, name="build")
rules_app = typer.Typer(no_args_is_help=True, help="A game's rules engine: rule scenarios, a narrated game.")
app.add_typer(rules_app, name="rules")
# untranslated strings print in English: the build reports them as coverage, not as errors
UNTRANSLATED = frozenset({"T102", "T150"})

RootOpt = Annotated[Path, typer.Option("--root", help="Project folder holding cards/ and locales/.",
                                       file_okay=False, show_default="current directory")]


class Format(str, Enum):
    text = "text"
    json = "json"


def _echo_issues(issues: list[Issue]) -> None:
    for issue in sort_issues(issues):
        typer.echo(issue.format(), err=True)


class _Progress:
    """A rich progress bar on stderr while a long job runs on a terminal; nothing
    at all when stderr is piped or the output is JSON.  ``update(done)`` moves it."""

    def __init__(self, label: str, total: int, unit: str, enabled: bool) -> None:
        self.label, self.total, self.unit = label, total, unit
        self.enabled = enabled and total > 0 and sys.stderr.isatty()
        self._bar: object = None

    def __enter__(self) -> "_Progress":
        if self.enabled:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                                       TimeRemainingColumn)
            from rich.text import Text

            unit = self.unit

            class Rate(ProgressColumn):  # "1,234 games/s"
                def render(self, task):  # type: ignore[no-untyped-def]
                    return Text(f"{task.speed:,.0f} {unit}/s" if task.speed else f"- {unit}/s")

            bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), Rate(),
                           TextColumn("left"), TimeRemainingColumn(), console=Console(stderr=True), transient=True)
            bar.start()
            self._task = bar.add_task(self.label, total=self.total)
            self._bar = bar
        return self

    def update(self, done: int, label: str | None = None, total: int | None = None) -> None:
        if total is not None:
            self.total = total
        if self._bar is not None:
            extra: dict[str, object] = {"description": label} if label else {}
            if total is not None:
                extra["total"] = total
            self._bar.update(self._task, completed=done, **extra)  # type: ignore[attr-defined]

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()  # type: ignore[attr-defined]


def _load(root: Path):  # -> Project
    from cardkit.load.project import load_project

    if not root.is_dir():
        raise CardkitError(f"--root {root} is not a folder", code="P001")
    return load_project(root)


@app.command()
def init(folder: Annotated[Path, typer.Argument(help="the folder to create (it must not exist, or be empty)")],
         set_id: Annotated[Optional[str], typer.Option("--set-id", help="the set's id (default: made from the folder name)")] = None) -> None:
    """Write a starter game folder: a set with two kinds of card, faces, interface
    strings, four cards, Finnish and Korean catalogs and glossaries, and the
    schemas editors validate with.  It validates and builds at once."""
    from cardkit.scaffold import init_project

    result = init_project(folder, set_id)
    typer.echo(f"wrote {result.path} (set '{result.set_id}', {len(result.files)} files); next: "
               f"cardkit validate --root {result.path}")


@app.command()
def validate(root: RootOpt = Path("."),
             format: Annotated[Format, typer.Option("--format", help="text lines or one JSON document")] = Format.text,
             write_schemas: Annotated[bool, typer.Option("--write-schemas", help="(re)write each set's schemas/*.schema.json from its kinds.yaml, and cardkit's own schemas the project's files point at under schemas/")] = False) -> None:
    """Check every card file against the schema derived from its set's
    kinds.yaml and the game's rules of composition, and every catalog for an
    entry per card string."""
    from cardkit.i18n.catalogs import catalog_entry_issues, project_locales
    from cardkit.i18n.localize import UI_DOMAIN, keeps_ui_catalogs, ui_strings
    from cardkit.load.project import core_schemas, derived_schemas

    project = _load(root)
    issues = list(project.issues) + derived_schemas(project, write=write_schemas) + core_schemas(root, write=write_schemas)
    locales = project_locales(root)
    for loaded in project.sets.values():
        if loaded.set is not None:
            issues.extend(catalog_entry_issues(root, loaded.set.id, loaded.set.strings, locales))
            prefix = loaded.set.directory + "/"
            set_errors = any(i.severity is Severity.ERROR and i.file.startswith(prefix) for i in issues)
            issues.extend(_face_issues(root, loaded, quality=not set_errors))
    if keeps_ui_catalogs(root):  # else cardkit's shipped ui catalogs serve
        issues.extend(catalog_entry_issues(root, UI_DOMAIN, ui_strings(), locales))
    errors = [i for i in issues if i.severity is Severity.ERROR]
    sets = {sid: {"cards": ls.set.physical_count()} for sid, ls in sorted(project.sets.items()) if ls.set}
    if format is Format.json:
        typer.echo(json.dumps({"ok": not errors, "errors": [i.to_json() for i in sort_issues(issues)], "sets": sets},
                              ensure_ascii=False, indent=2))
    else:
        _echo_issues(issues)
        if not errors:
            parts = ", ".join(f"{sid} {info['cards']} cards" for sid, info in sets.items())
            strings = sum(len(ls.set.strings) for ls in project.sets.values() if ls.set)
            typer.echo(f"ok: {len(sets)} set(s) ({parts}); {strings} strings; catalogs: {', '.join(locales) or 'none'}")
        else:
            typer.echo(f"{len(errors)} error(s)", err=True)
    if errors:
        raise typer.Exit(1)


def _face_issues(root: Path, loaded, quality: bool = True) -> list[Issue]:  # (LoadedSet)
    """Every problem of the set's ``faces.yaml``, when it has one and its cards
    are clean (a face is checked against the fields its kinds' cards have);
    then a warning per declared field no face shows (M006), and, when
    ``quality`` (validate: the set has no error so far), the print-quality
    checks of the composed faces."""
    from cardkit.layout.faces import FACE_FILE, load_faces

    from cardkit.layout.shown import unshown_issues

    if not loaded.schema_clean or loaded.faces_unreadable or not (root / loaded.set.directory / FACE_FILE).is_file():
        return []
    try:
        book = load_faces(root, loaded.set)
    except CardkitError as exc:
        return exc.issues
    found = _quality_issues(root, loaded, book) if quality else []
    if loaded.kinds is None or loaded.kinds.file not in loaded.docs:
        return found
    return unshown_issues(loaded.kinds, book, loaded.docs[loaded.kinds.file]) + found


def _quality_issues(root: Path, loaded, book) -> list[Issue]:  # (LoadedSet, FaceBook)
    """Print-quality warnings of the composed faces (Q001-Q003) and fonts that
    would not embed (Q004), see :mod:`cardkit.layout.quality`."""
    from cardkit.i18n.localize import Localizer
    from cardkit.layout.faces import FACE_FILE
    from cardkit.layout.quality import font_issues, quality_issues
    from cardkit.load.yamlsafe import read_yaml_file
    from cardkit.render.images import load_art

    fonts = font_issues()
    if fonts:
        return fonts
    card_set = loaded.set
    doc = book.doc or read_yaml_file(root / card_set.directory / FACE_FILE, book.file)
    art_of: dict[str, str] = {}  # art file -> the first card (by id) that names it, and the field
    fields: dict[str, str] = {}
    for c in sorted(card_set.cards.values(), key=lambda c: c.id):
        for name, value in [("art", c.art), *c.fields.items()]:
            if isinstance(value, str) and value and value not in art_of:
                art_of[value], fields[c.id + value] = c.id, name
    art_of = {a: cid for a, cid in art_of.items() if a.lower().endswith((".png", ".jpg", ".jpeg", ".webp"))}

    def card_issue(card_id: str, code: str, message: str) -> Issue:
        art = next((a for a, cid in art_of.items() if cid == card_id and a in message), "")
        return loaded.issue(code, message, card_set.cards[card_id].origin, fields.get(card_id + art, "art"))

    args = (card_set, Localizer(root, "en", card_set), book, None, lambda rel: load_art(root / rel, rel))
    try:
        return quality_issues(args, book, doc, card_issue, art_of)
    except CardkitError as exc:
        return exc.issues


SET_HELP = "card set id (default: the project's only set; with several, the first by id)"


def _set_id(project, set_id: str | None) -> str:  # (Project)
    """The set a command works on: the one named, else the project's only set
    (a starter from ``cardkit init``), else the first by id."""
    if set_id is not None:
        return set_id
    return min(project.sets) if project.sets else ""


def _clean_project(root: Path):
    project = _load(root)
    if project.issues:
        raise CardkitError(project.issues)
    return project


def _domains(project):  # -> list[(domain, strings, budgets)]
    from cardkit.i18n.budget import translation_domains

    return translation_domains(project)


@l10n_app.command("extract")
def l10n_extract(root: RootOpt = Path(".")) -> None:
    """Write locales/<set>.pot from the English strings of the cards."""
    from cardkit.i18n.catalogs import plan_update, write_plans

    project = _clean_project(root)
    for domain, strings, budgets in _domains(project):
        for p in write_plans(plan_update(root, domain, strings, [], budgets)[:1]):
            typer.echo(f"wrote {p.relative_to(root)}")


@l10n_app.command("update")
def l10n_update(root: RootOpt = Path("."),
                locale: Annotated[Optional[list[str]], typer.Option("--locale", help="also create catalogs for this locale")] = None,
                check: Annotated[bool, typer.Option("--check", help="write nothing; fail if any catalog is stale")] = False) -> None:
    """Extract the templates and merge them into every locale's catalogs; changed
    English sources mark their translations fuzzy."""
    from cardkit.i18n.catalogs import plan_update, project_locales, write_plans
    from cardkit.i18n.languages import checked_locales

    added = checked_locales(root, list(locale or [])) if root.is_dir() else []
    project = _clean_project(root)
    locales = sorted(set(project_locales(root)) | set(added))
    stale: list[Path] = []
    written = 0
    for domain, strings, budgets in _domains(project):
        plans = plan_update(root, domain, strings, locales, budgets)
        if check:
            stale.extend(p.path for p in plans if p.stale())
        else:
            by_path = {p.path: p for p in plans}
            for path in write_plans(plans):
                written += 1
                typer.echo(f"updated {path.relative_to(root)}: {by_path[path].summary()}")
    if not check and not written:
        typer.echo(f"ok: nothing to update, every catalog matches the cards ({', '.join(locales) or 'no locales'})")
    if check:
        if stale:
            raise CardkitError([Issue("L004", "catalog is stale against the cards (run: cardkit l10n update)",
                                      file=p.relative_to(root).as_posix()) for p in stale])
        typer.echo(f"ok: catalogs up to date ({', '.join(locales) or 'no locales'})")


@l10n_app.command("init")
def l10n_init(locale: Annotated[str, typer.Option("--locale", help="the language to add: a CLDR code (sv, de, pt_BR)")],
              root: RootOpt = Path(".")) -> None:
    """Add a language: empty catalogs for every set (and the interface strings the
    project keeps) with the language's plural forms from CLDR, and a glossary
    scaffold listing the game terms to fill."""
    from cardkit.i18n.languages import init_locale, new_locale

    if not root.is_dir():
        raise CardkitError(f"--root {root} is not a folder", code="P001")
    name = new_locale(root, locale)  # a mistyped name fails before the cards are read
    result = init_locale(root, _clean_project(root), name)
    for file, n in result.catalogs:
        typer.echo(f"wrote {file} ({n} strings to translate)")
    if result.glossary:
        typer.echo(f"wrote {result.glossary} ({result.terms} terms to fill)")
    typer.echo(f"{result.locale}: {result.name}, Plural-Forms from CLDR \"{result.plural_forms}\"; next: translate the "
               f"catalogs, then run: cardkit l10n check --locale {result.locale} --summary")


@l10n_app.command("pseudo")
def l10n_pseudo(root: RootOpt = Path(".")) -> None:
    """Write a pseudo-locale (qps): every string accented, about 40 % longer and
    bracketed, tokens and placeholders kept; then l10n check --locale qps and
    build pdf --locale qps show what does not fit before any translator starts."""
    from cardkit.i18n.pseudo import write_pseudo

    result = write_pseudo(root, _clean_project(root))
    for file, n in result.catalogs:
        typer.echo(f"wrote {file} ({n} strings)")
    typer.echo(f"next: cardkit l10n check --locale {result.locale} --summary, then cardkit build pdf --locale "
               f"{result.locale}; remove locales/{result.locale} when done")


@l10n_app.command("check")
def l10n_check(root: RootOpt = Path("."),
               locale: Annotated[Optional[list[str]], typer.Option("--locale", help="locales to check (default: all with catalogs)")] = None,
               set_id: Annotated[Optional[list[str]], typer.Option("--set", help="sets to check (default: all)")] = None,
               format: Annotated[Format, typer.Option("--format")] = Format.text,
               no_fit: Annotated[bool, typer.Option("--no-fit", help="skip laying strings out in the card templates")] = False,
               summary: Annotated[bool, typer.Option("--summary", help="one line per catalog: coverage and the number of findings per code")] = False) -> None:
    """Check every translation: completeness, tokens, numbers, terminology,
    Korean spacing and particles, typography, glyphs, and fit on the card."""
    from cardkit.i18n.catalogs import project_locales
    from cardkit.i18n.report import check_translations, render_summary, render_text

    project = _clean_project(root)
    locales = list(locale or project_locales(root))
    if not locales:
        raise CardkitError("no locales to check (locales/<lang>/LC_MESSAGES is empty)", code="L002")
    with _Progress("l10n check", 1, "items", enabled=format is Format.text) as bar:
        report = check_translations(root, project, locales, list(set_id or []), fit=not no_fit,
                                    progress=lambda done, total: bar.update(done, total=total))
    if format is Format.json:
        typer.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        typer.echo(render_summary(report) if summary else render_text(report))
    if not report.ok:
        raise typer.Exit(1)


@l10n_app.command("review")
def l10n_review(root: RootOpt = Path("."),
                out: Annotated[Optional[Path], typer.Option("--out", help="folder to write, replaced as a whole (default: output/review under --root)")] = None,
                locale: Annotated[Optional[list[str]], typer.Option("--locale", help="locales to review (default: all with catalogs)")] = None,
                set_id: Annotated[Optional[list[str]], typer.Option("--set", help="sets to review (default: all)")] = None,
                dpi: Annotated[int, typer.Option("--dpi", help="resolution of the card images")] = 120,
                jobs: Annotated[int, typer.Option("--jobs", help="worker processes rendering faces (0: one per core)", min=0, max=64)] = 0) -> None:
    """Write a static HTML review page per locale: every card face in English and
    the translation side by side, its catalog entries and its findings marked on
    the card (open OUT/index.html from disk in a browser)."""
    from cardkit.i18n.review import write_review

    project = _clean_project(root)
    result = write_review(root, project, out or root / "output" / "review", list(locale or []), list(set_id or []),
                          dpi=dpi, jobs=jobs)
    typer.echo(f"wrote {result.out / 'index.html'} ({len(result.pages)} locale page(s), {result.faces} faces, "
               f"{result.images} images)")


def _parse_bleed(bleed: str | None) -> float | None:
    from cardkit.layout.units import to_pt

    if bleed is None or bleed == "auto":
        return None
    return to_pt(bleed)


def _parse_margin(margin: str) -> float:
    """``--margin`` as points (a length such as 4mm)."""
    from cardkit.layout.units import to_pt

    return to_pt(margin)


COLOUR_HELP = "rgb (screen and home printers) or cmyk (a PDF/X-1a file in DeviceCMYK for print shops: docs/print.md)"
INK_HELP = "cmyk: the most ink on any spot, in per cent of one ink (100-400)"


def _colours(colour: str, ink_limit: float):  # -> ColourOptions
    """``--colour`` and ``--ink-limit`` checked together: every bad one in one run."""
    from cardkit.render.cmyk import COLOUR_SPACES, MAX_INK_LIMIT, MIN_INK_LIMIT, ColourOptions

    issues = []
    space = colour.lower()
    if space not in COLOUR_SPACES:
        issues.append(Issue("B050", f"unknown --colour '{colour}' (rgb or cmyk)"))
    if not MIN_INK_LIMIT <= ink_limit <= MAX_INK_LIMIT:
        issues.append(Issue("B051", f"--ink-limit {ink_limit:g} is outside {MIN_INK_LIMIT:g}-{MAX_INK_LIMIT:g} "
                                    "(per cent of total ink; print services ask for 240-300)"))
    if issues:
        raise CardkitError(issues)
    return ColourOptions(space, ink_limit)  # type: ignore[arg-type]


LAYOUT_HELP = "grid (each card with its own bleed), shared-edge (cards share cut lines) or gutterfold (fronts and backs on one side, folded)"
MARGIN_HELP = "the printer's unprintable margin: nothing is drawn within it"


MinCoverageOpt = Annotated[float | None, typer.Option(
    "--min-coverage", min=0.0, max=1.0,
    help="fail (L009, nothing written) when a set's catalog has less than this share translated, e.g. 0.9")]


def _coverage_lines(root: Path, project, set_ids: list[str], locales: list[str],  # (Project)
                    minimum: float | None) -> list[str]:
    """Per set and locale with strings left in English, how much is translated
    and that the rest prints in English; with ``minimum``, one L009 line per set catalog below it (raised,
    before anything is written)."""
    from cardkit.i18n import localize as lz
    from cardkit.i18n.languages import catalog_coverage, coverage_issue, coverage_line

    lines: list[str] = []
    problems: list[Issue] = []
    for loc in locales:
        if loc == lz.SOURCE_LOCALE:
            continue
        for sid in set_ids:
            lz.require_locale(root, loc, sid)
            c = catalog_coverage(root, loc, sid, project.card_set(sid).strings)
            if c.english:
                lines.append(coverage_line(c))
            problem = coverage_issue(c, minimum) if minimum is not None else None
            if problem is not None:
                problems.append(problem)
        if lz.keeps_ui_catalogs(root):
            c = catalog_coverage(root, loc, lz.UI_DOMAIN, lz.ui_strings())
            if c.english:
                lines.append(coverage_line(c))
        elif lz.ui_catalog(root, loc) is None:
            lines.append(f"{loc}: ui: cardkit ships no {loc} catalog for its own interface strings (sheet notes, "
                         "build summary): they print in English")
    if problems:
        raise CardkitError(problems)
    return lines


@build_app.callback()
def build_all(ctx: typer.Context, root: RootOpt = Path("."),
              locale: Annotated[str, typer.Option("--locale", help="language of the build summary")] = "en",
              layout: Annotated[str, typer.Option("--layout", help=LAYOUT_HELP)] = "grid",
              margin: Annotated[str, typer.Option("--margin", help=MARGIN_HELP)] = "4mm",
              colour: Annotated[str, typer.Option("--colour", help=COLOUR_HELP)] = "rgb",
              ink_limit: Annotated[float, typer.Option("--ink-limit", help=INK_HELP)] = 240.0,
              min_coverage: MinCoverageOpt = None) -> None:
    """The main job: validate, check the translations, and write
    output/<set>-<locale>-a4.pdf for every set in English and every locale with
    catalogs, with a summary in output/build-summary.txt (in the --locale
    language).  Untranslated strings print in English: the build says how many
    per set (--min-coverage makes too few an error); any other translation
    error stops it."""
    if ctx.invoked_subcommand is not None:
        return
    import time

    from cardkit import buildsummary as bs
    from cardkit.fsutil import atomic_write_bytes
    from cardkit.i18n.catalogs import project_locales
    from cardkit.i18n.localize import Localizer
    from cardkit.i18n.report import check_translations
    from cardkit.printing import build_pdf

    started = time.perf_counter()
    margin_pt = _parse_margin(margin)
    colours = _colours(colour, ink_limit)
    project = _clean_project(root)
    summary_loc = Localizer(root, locale)  # an unknown locale fails here, before anything is written
    sets = tuple((sid, ls.set.physical_count()) for sid, ls in sorted(project.sets.items()) if ls.set)
    locales = project_locales(root)
    coverage = _coverage_lines(root, project, [sid for sid, _ in sets], locales, min_coverage)
    report = check_translations(root, project, locales)
    blocking = [f.issue() for f in report.findings if f.severity is Severity.ERROR and f.check not in UNTRANSLATED]
    if blocking:
        raise CardkitError(blocking)
    translations = []
    for loc, fs in sorted(report.fit_summary().items()):
        cov = report.coverage.get(loc, {})
        translations.append(bs.TranslationFacts(loc, sum(c["translated"] for c in cov.values()),
                                                sum(c["total"] for c in cov.values()), fs["strings"],
                                                fs["full_size"], fs["shrunk"]))
    cards = 0
    pdfs = []
    pdf_locales = list(dict.fromkeys(["en", *locales]))  # English and every locale with catalogs
    jobs = [(set_id, pdf_locale) for set_id in sorted(project.sets) for pdf_locale in pdf_locales]
    with _Progress("PDFs", len(jobs), "PDFs", enabled=True) as bar:
        for n, (set_id, pdf_locale) in enumerate(jobs):
            bar.update(n, f"PDF {set_id} {pdf_locale}")
            result = build_pdf(root, project.card_set(set_id), pdf_locale, layout=layout, margin=margin_pt,
                               colours=colours)
            cards += result.cards
            rel_path = result.path.relative_to(root) if result.path.is_relative_to(root) else result.path
            pdfs.append(bs.PdfFacts(str(rel_path), result.cards, result.pages))
    from cardkit.games import plugin_for

    playability: list[bs.Playability] = []
    for set_id, loaded in sorted(project.sets.items()):
        assert loaded.set is not None
        plugin = plugin_for(loaded.set.game)
        if plugin is not None and plugin.playability is not None:
            playability.append(plugin.playability(root, loaded.set))
        else:
            playability.append(bs.NoEngine(set_id))
    facts = bs.BuildFacts(sets, tuple(translations), tuple(pdfs), tuple(playability), cards,
                          time.perf_counter() - started)
    set_locs = {sid: Localizer(root, locale, ls.set, strict=False) for sid, ls in project.sets.items() if ls.set}
    text = bs.render_summary(facts, summary_loc, set_locs)
    atomic_write_bytes(root / "output" / "build-summary.txt", text.encode("utf-8"))
    typer.echo(text, nl=False)
    for line in coverage:
        typer.echo(line)


@build_app.command("pdf")
def build_pdf_cmd(root: RootOpt = Path("."),
                  set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
                  locale: Annotated[str, typer.Option("--locale", help="en, fi or ko (any locale with catalogs)")] = "en",
                  paper: Annotated[str, typer.Option("--paper", help="a4 or letter")] = "a4",
                  duplex: Annotated[str, typer.Option("--duplex", help="long-edge, short-edge or none (fronts only)")] = "long-edge",
                  bleed: Annotated[Optional[str], typer.Option("--bleed", help="e.g. 3mm; default: the largest up to 3 mm that leaves room for crop marks")] = None,
                  mode: Annotated[str, typer.Option("--mode", help="cards, or inserts (text overlays)")] = "cards",
                  units: Annotated[str, typer.Option("--units", help="inch or cm: distances on table maps")] = "inch",
                  layout: Annotated[str, typer.Option("--layout", help=LAYOUT_HELP)] = "grid",
                  margin: Annotated[str, typer.Option("--margin", help=MARGIN_HELP)] = "4mm",
                  colour: Annotated[str, typer.Option("--colour", help=COLOUR_HELP)] = "rgb",
                  ink_limit: Annotated[float, typer.Option("--ink-limit", help=INK_HELP)] = 240.0,
                  out: Annotated[Optional[Path], typer.Option("--out", help="output file (default output/<set>-<locale>-<paper>[-<layout>].pdf)")] = None,
                  min_coverage: MinCoverageOpt = None) -> None:
    """Write one localized print-and-play PDF; says how much of the set is
    translated (the rest prints in English)."""
    from cardkit.printing import build_pdf

    colours = _colours(colour, ink_limit)
    project = _clean_project(root)
    sid = _set_id(project, set_id)
    coverage = _coverage_lines(root, project, [sid], [locale], min_coverage) if sid in project.sets else []
    result = build_pdf(root, project.card_set(sid), locale, paper=paper.lower(), duplex=duplex,
                       bleed=_parse_bleed(bleed), mode=mode, out=out, units=units, layout=layout,
                       margin=_parse_margin(margin), colours=colours)
    for line in coverage:
        typer.echo(line)
    typer.echo(f"wrote {result.path} ({result.cards} cards, {result.pages} pages)")


@build_app.command("png")
def build_png_cmd(root: RootOpt = Path("."),
                  set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
                  locale: Annotated[str, typer.Option("--locale")] = "en",
                  dpi: Annotated[int, typer.Option("--dpi", help="resolution")] = 300,
                  bleed: Annotated[str, typer.Option("--bleed")] = "3mm") -> None:
    """Write one PNG per card face (with bleed) to output/png/<set>-<locale>/."""
    from cardkit.printing import build_png

    project = _clean_project(root)
    paths = build_png(root, project.card_set(_set_id(project, set_id)), locale, dpi=dpi, bleed=_parse_bleed(bleed) or 0.0)
    typer.echo(f"wrote {len(paths)} PNG files to {paths[0].parent if paths else 'nowhere'}")


@build_app.command("shop")
def build_shop_cmd(root: RootOpt = Path("."),
                   preset: Annotated[str, typer.Option("--preset", help="generic, thegamecrafter or drivethrucards (docs/print.md)")] = "generic",
                   set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
                   locale: Annotated[str, typer.Option("--locale")] = "en",
                   colour: Annotated[str, typer.Option("--colour", help=COLOUR_HELP + "; the PNGs stay sRGB")] = "rgb",
                   ink_limit: Annotated[float, typer.Option("--ink-limit", help=INK_HELP)] = 240.0) -> None:
    """Write a print service's files (one-card-per-page PDF, per-card PNGs) to output/shop/<preset>/<set>-<locale>/."""
    from cardkit.print.presets import preset as find_preset
    from cardkit.print.shop import build_shop

    chosen = find_preset(preset)
    colours = _colours(colour, ink_limit)
    project = _clean_project(root)
    result = build_shop(root, project.card_set(_set_id(project, set_id)), locale, chosen, colours=colours)
    typer.echo(f"wrote {len(result.pdfs)} PDF and {len(result.pngs)} PNG files ({result.cards} cards) to {result.folder}")


@build_app.command("tts")
def build_tts_cmd(root: RootOpt = Path("."),
                  set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
                  locale: Annotated[str, typer.Option("--locale")] = "en") -> None:
    """Write Tabletop Simulator deck sheets (at most 10 x 7 cards, 4096 px wide) to output/tts/<set>-<locale>/."""
    from cardkit.printing import build_tts

    project = _clean_project(root)
    paths = build_tts(root, project.card_set(_set_id(project, set_id)), locale)
    typer.echo(f"wrote {len(paths)} deck images to {paths[0].parent if paths else 'nowhere'}")


@rules_app.command("scenario")
def rules_scenario(files: Annotated[list[Path], typer.Argument(help="rule scenario files or folders")],
                   root: RootOpt = Path("."),
                   set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None) -> None:
    """Run rule scenarios: set up an exact situation, play the script with forced
    dice, and compare the result; a readable diff for every mismatch."""
    from cardkit.games import engine_for
    from cardkit.rules.protocol import Scenarios

    project = _clean_project(root)
    card_set = project.card_set(_set_id(project, set_id))
    engine = engine_for(card_set.game, "rules scenario")
    if not isinstance(engine, Scenarios):
        raise CardkitError(f"the rules engine of game '{card_set.game}' has no rule scenarios", code="G010")
    paths: list[Path] = []
    for f in files:
        paths.extend(sorted(f.rglob("*.yaml")) if f.is_dir() else [f])
    if not paths:
        raise CardkitError("no scenario files given", code="R004")
    text, problems, passed = engine.run_scenarios(card_set, paths)
    typer.echo(text)
    if problems:
        raise CardkitError([p for p in problems if isinstance(p, Issue)])
    if not passed:
        raise typer.Exit(1)


def _player_count(engine, card_set, counts: list[int]) -> None:  # (Engine, CardSet)
    """Every player count inside the game's declared range (G011)."""
    info = engine.info(card_set)
    bad = [n for n in counts if not info.min_players <= n <= info.max_players]
    if bad:
        raise CardkitError(f"--players {', '.join(map(str, bad[:3]))}: the game plays {info.min_players}-{info.max_players}",
                           code="G011")


@rules_app.command("play")
def rules_play(root: RootOpt = Path("."),
               set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
               players: Annotated[int, typer.Option("--players", min=1, max=64)] = 1,
               seed: Annotated[int, typer.Option("--seed")] = 1,
               agent: Annotated[str, typer.Option("--agent", help="an agent of the game (random, heuristic, ...)")] = "heuristic",
               locale: Annotated[str, typer.Option("--locale")] = "en") -> None:
    """Play one game and tell it as a story in the chosen language (a game without
    narration: its decisions and its result)."""
    from cardkit.games import engine_for
    from cardkit.i18n.localize import Localizer
    from cardkit.playtest.agents import agents_for
    from cardkit.rules.protocol import Narrated

    project = _clean_project(root)
    card_set = project.card_set(_set_id(project, set_id))
    engine = engine_for(card_set.game, "rules play")
    agents = agents_for(engine, card_set, [agent])
    if agent not in agents:
        from cardkit.rules.agents import parse_agent

        parse_agent(agent, engine, card_set)  # raises: G002 an unknown name, G031 a bad budget
    _player_count(engine, card_set, [players])
    loc = Localizer(root, locale, card_set)
    st = engine.new_game(card_set, players).new_state(seed)
    choose = agents[agent](seed)
    decisions = []
    while (d := st.decision) is not None:
        opt = choose(st, d)
        decisions.append(f"{d.player}: {d.kind} {opt.text()}")
        st.apply(opt)
    if isinstance(engine, Narrated):
        for line in engine.narrate(st, loc, players, seed):
            typer.echo(line)
    else:
        for line in decisions:
            typer.echo(line)
        r = st.result()
        if r is not None:
            typer.echo(f"{r.end.value} ({r.reason}) after {r.rounds} rounds: "
                       + ", ".join(f"seat {i + 1} {s.result.value} {s.score:g}" for i, s in enumerate(r.seats)))


def _default_agents(agents: Iterable[str]) -> list[str]:
    """Random play and the game's own first agent (a heuristic when it has one), the two a verdict needs."""
    names = list(agents)
    own = next((a for a in ("heuristic", "mcts") if a in names), next((a for a in names if a != "random"), None))
    return [a for a in ("random", own) if a is not None and (a in names or a == "random")]


@rules_app.command("conformance")
def rules_conformance(root: RootOpt = Path("."),
                      set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
                      players: Annotated[Optional[str], typer.Option("--players", help="e.g. 1-4 or 2,3 (default: the engine's range)")] = None,
                      games: Annotated[int, typer.Option("--games", min=1, max=100_000, help="games per player count")] = 20,
                      seed: Annotated[int, typer.Option("--seed")] = 1) -> None:
    """Check that the set's rules engine keeps the engine protocol: play seeded
    random games and test clones, text forms, determinism, outcomes, chance and
    determinizations (docs/engines.md); one line per finding, exit 1 on any."""
    from cardkit.rules.conformance import engine_of, run, summary

    project = _clean_project(root)
    card_set = project.card_set(_set_id(project, set_id))
    engine = engine_of(card_set.game, "rules conformance")
    result = run(engine, card_set, _players(players) if players else None, games, seed)
    for issue in result.issues:
        typer.echo(issue.format(), err=True)
    typer.echo(summary(result, card_set.game))
    if result.findings:
        raise typer.Exit(1)


LARGE_SWEEP = 20_000  # games: from here on the compiled engine saves a user real minutes


def _compiled_engine() -> bool:
    return engine_build().startswith("compiled")


def _players(spec: str) -> list[int]:
    try:
        if "-" in spec:
            a, b = spec.split("-", 1)
            out = list(range(int(a), int(b) + 1))
        else:
            out = [int(x) for x in spec.split(",")]
    except ValueError:
        raise CardkitError(f"--players {spec!r}: use a range such as 1-6 or a list such as 1,3,6", code="G001") from None
    if not out:
        raise CardkitError(f"--players {spec!r} names no player count", code="G001")
    return out


@app.command()
def playtest(root: RootOpt = Path("."),
             set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
             players: Annotated[str, typer.Option("--players", help="e.g. 1-6 or 1,3,6")] = "1-6",
             games: Annotated[int, typer.Option("--games", min=1, max=1_000_000)] = 200,
             seed: Annotated[int, typer.Option("--seed")] = 1,
             agent: Annotated[Optional[list[str]], typer.Option("--agent", help="an agent name (repeatable; default: random and the game's heuristic); see the list in docs/playtest.md")] = None,
             jobs: Annotated[int, typer.Option("--jobs", min=0, max=64, help="worker processes (0: one per usable core)")] = 0,
             backend: Annotated[str, typer.Option("--backend", help="local or dask")] = "local",
             scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="dask scheduler address (default: a local cluster)")] = None,
             compare: Annotated[Optional[Path], typer.Option("--compare", help="another project folder: same seeds, win-rate difference")] = None,
             band: Annotated[str, typer.Option("--band", help="the strongest agent's win rate must lie inside (lo, hi); see docs/playtest.md")] = "0.03,0.80",
             certify_every: Annotated[int, typer.Option("--certify-every", help="check invariants after every step in one batch of N")] = 4,
             impact: Annotated[bool, typer.Option("--impact", help="also play every seed once per ability card with its ability switched off: what each card is worth")] = False,
             report: Annotated[Optional[Path], typer.Option("--report", help="also write a PDF report (charts) here")] = None,
             locale: Annotated[str, typer.Option("--locale", help="language of the PDF report")] = "en",
             format: Annotated[Format, typer.Option("--format")] = Format.text) -> None:
    """Audit every setup, play seeded games per player count and agent, and
    judge whether the card set yields playable, complete games."""
    import time
    from dataclasses import replace

    from cardkit.games import engine_for
    from cardkit.playtest.agents import agents_for, ceilings
    from cardkit.playtest import tables
    from cardkit.playtest.ladder import ladder_table
    from cardkit.playtest.report import compare as compare_runs, table
    from cardkit.playtest.sweep import Batch, Variant, plan, plan_matchups, run_sweep, summarize
    from cardkit.rules.protocol import Audited, Cooperation, Referenced

    started = time.perf_counter()
    project = _clean_project(root)
    set_id = _set_id(project, set_id)
    card_set = project.card_set(set_id)
    engine = engine_for(card_set.game, "playtest")
    AGENTS = agents_for(engine, card_set, agent or ["random", "mcts"])  # the generic ones named, or the defaults
    counts = _players(players)
    agents = list(dict.fromkeys(agent or _default_agents(AGENTS)))
    unknown = [a for a in agents if a not in AGENTS]
    if unknown:
        from cardkit.rules.agents import parse_agents

        parse_agents(unknown, engine, card_set)  # raises: G002 an unknown name, G031 a bad budget, a line each
    _player_count(engine, card_set, counts)
    if backend not in ("local", "dask"):
        raise CardkitError(f"unknown --backend '{backend}' (local or dask)", code="G003")
    try:
        lo, hi = (float(x) for x in band.split(","))
    except ValueError:
        raise CardkitError(f"--band {band!r}: use two rates such as 0,1 or 0.2,0.8", code="G004") from None
    if not 0 <= lo < hi <= 1:
        raise CardkitError(f"--band {band!r}: use two rates with 0 <= low < high <= 1", code="G004")
    if compare is not None:  # checked before the first sweep, not minutes later
        if not compare.is_dir():
            raise CardkitError(f"--compare {compare} is not a folder", code="G005")
        _clean_project(compare).card_set(set_id)
    report_loc = None
    if report is not None:  # an unknown locale fails now, not after the sweep
        from cardkit.i18n.localize import Localizer

        report_loc = Localizer(root, locale, card_set)
    if isinstance(engine, Audited):
        problems = [p for p in engine.audit(card_set, counts) if isinstance(p, Issue)]
        if problems:
            _echo_issues(problems)
            raise typer.Exit(1)
    variants = (Variant("compare", str(compare.resolve())),) if compare is not None else ()
    if impact:
        from cardkit.playtest.impact import (impact_cards, impact_rows, impact_table, plan_impact, team_table,
                                             team_tables, unswitchable_note)

        ablatable, unablatable = impact_cards(engine, card_set, counts)
        judged = [a for a in agents if a != "random"] or agents  # random play wins too rarely to weigh a card
        batches: Sequence[Batch] = plan_impact(root.resolve(), set_id, counts, judged, games, seed, ablatable,
                                               certify_every)
        batches = [replace(b, variants=variants + b.variants) if b.count_base else b for b in batches]
        batches += plan(root.resolve(), set_id, counts, [a for a in agents if a not in judged], games, seed,
                        certify_every, variants)
    else:
        batches = plan(root.resolve(), set_id, counts, agents, games, seed, certify_every, variants)
    info = engine.info(card_set)
    if info.cooperation is Cooperation.COMPETITIVE and len(agents) > 1:  # agents against each other, both seatings
        batches = list(batches) + plan_matchups(root.resolve(), set_id, counts, agents, games, seed, certify_every)
    games_total = sum((b.seeds[1] - b.seeds[0]) * (2 if b.matchup else 1) for b in batches)
    if games_total >= LARGE_SWEEP and not _compiled_engine():
        typer.echo(f"note: {games_total:,} games on the pure-Python engine; the compiled engine plays them about "
                   "5x faster: CARDKIT_COMPILE=1 pip install -e . (see README)", err=True)
    with _Progress("playtest", games_total, "games", enabled=format is Format.text) as bar:
        sweep = run_sweep(batches, jobs=jobs, backend=backend, scheduler=scheduler,
                          progress=lambda done, total: bar.update(done * games_total // total))
    summary = summarize(sweep, (lo, hi), engine.abilities(card_set, counts), ceilings(AGENTS))
    reference = dict(engine.reference(card_set, min(counts))) if isinstance(engine, Referenced) else {}
    summary["reference"] = reference
    result: dict[str, object] = {"set": set_id, "seed": seed, "agents": agents, **summary, "band": [lo, hi]}
    if compare is not None:
        result["compare"] = compare_runs(sweep)
    if impact:
        summary["impact"] = result["impact"] = impact_rows(sweep, card_set, ablatable, unablatable,
                                                           unswitchable_note(engine))
        summary["teams"] = result["teams"] = team_tables(sweep)
    if report is not None and report_loc is not None:
        from cardkit.playtest.pdfreport import write_report

        labels = {m.name: m.label for m in info.metrics if m.label}
        write_report(report, summary, report_loc, report_loc.card("set.title"), games, seed, agents, labels,
                     tables.Tables.of(sweep, info, ceilings(AGENTS)))
    result["elapsed_s"] = round(time.perf_counter() - started, 2)
    result["engine"] = engine_build()  # compiled or pure Python: it explains the elapsed time
    if format is Format.json:
        typer.echo(json.dumps(result, indent=2))
    else:
        typer.echo(table(summary))
        typer.echo(ladder_table(summary["ladder"], reference))
        typed = tables.Tables.of(sweep, info, ceilings(AGENTS))
        if typed.seats:
            typer.echo(tables.seat_text(typed.seats, info.seats))
        if typed.matchups:
            typer.echo(tables.matchup_text(typed.matchups))
        if typed.metrics:
            typer.echo(tables.metric_text(typed.declared, typed.metrics))
        if impact:
            typer.echo(impact_table(summary["impact"]))
            typer.echo(team_table(summary["teams"]))
        for c in cast(list[dict[str, Any]], result.get("compare", [])):
            lo_, hi_ = c["difference_ci95"]
            typer.echo(f"compare {c['players']}p {c['agent']}: {c['win_rate_a']:.1%} -> {c['win_rate_b']:.1%} "
                       f"({c['difference']:+.1%}, 95% CI [{lo_:+.1%}, {hi_:+.1%}])")
        typer.echo(f"elapsed {result['elapsed_s']} s; rules engine {result['engine']}")
    if any(s["verdict"] != "playable" for s in summary["setups"]):
        raise typer.Exit(1)


class SheetFormatOpt(str, Enum):
    xlsx = "xlsx"
    ods = "ods"
    csv = "csv"


def _loaded_set(root: Path, set_id: str | None):  # -> LoadedSet
    """A set whose files all load without error (warnings are fine)."""
    project = _load(root)
    errors = [i for i in project.issues if i.severity is Severity.ERROR]
    if errors:
        raise CardkitError(errors)
    sid = _set_id(project, set_id)
    project.card_set(sid)  # P002 for an unknown set
    return project.sets[sid]


@app.command("export")
def export_cmd(out: Annotated[Path, typer.Option("--out", help="the workbook to write (csv: a folder of <file_kind>.csv files)")],
               format: Annotated[SheetFormatOpt, typer.Option("--format", help="xlsx, ods or csv")] = SheetFormatOpt.xlsx,
               set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
               root: RootOpt = Path(".")) -> None:
    """Write a set's cards as a spreadsheet: a sheet per kind, a row per card,
    a column per field (docs/authoring.md, "Cards in a spreadsheet").  It reads
    back to the same cards; the same cards give the same bytes."""
    from cardkit.sheetio import SheetFormat, export_set

    loaded = _loaded_set(root, set_id)
    written = export_set(loaded, SheetFormat(format.value), out)
    typer.echo(f"wrote {', '.join(str(p) for p in written)} ({len(loaded.set.cards)} cards)")


@app.command("import")
def import_cmd(file: Annotated[Path, typer.Argument(help="a .xlsx, .ods or .csv file of cards")],
               set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
               root: RootOpt = Path(".")) -> None:
    """Write the cards of a spreadsheet into the set's YAML card files (one per
    kind, with the editor modeline).  Every card is checked first, with the
    same located cell errors as validate; nothing is written unless all pass."""
    from cardkit.load.sheets import is_sheet
    from cardkit.sheetio import import_sheet

    if not is_sheet(file.name):
        raise CardkitError(Issue("W001", "not a spreadsheet: import reads .xlsx, .ods and .csv files", file=str(file)))
    project = _load(root)
    sid = _set_id(project, set_id)
    project.card_set(sid)
    loaded = project.sets[sid]
    if loaded.kinds is None:
        raise CardkitError([i for i in project.issues if i.severity is Severity.ERROR])
    done, warnings = import_sheet(root, loaded, file)
    _echo_issues(warnings)
    for item in done:
        typer.echo(f"wrote {item.path} ({item.cards} {item.kind} card entries)")


@app.command("preview")
def preview_cmd(root: RootOpt = Path("."),
                set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
                locale: Annotated[str, typer.Option("--locale", help="the locale the page opens in (it can switch)")] = "en",
                port: Annotated[int, typer.Option("--port", help="port on 127.0.0.1 (default: a free one)")] = 0,
                dpi: Annotated[int, typer.Option("--dpi", help="resolution of the face images")] = 110,
                no_open: Annotated[bool, typer.Option("--no-open", help="do not open the page in the browser")] = False) -> None:
    """A local page with every face of a set that redraws the faces a saved
    change touches (card files, faces.yaml, icons, catalogs), with the
    change's errors and fit findings; the last good faces stay while a file is
    broken.  Ctrl-C stops it."""
    import webbrowser

    from cardkit.preview import Preview, PreviewServer

    if not root.is_dir():
        raise CardkitError(f"--root {root} is not a folder", code="P001")
    if not 72 <= dpi <= 600:
        raise CardkitError(f"--dpi {dpi} is outside 72-600", code="B005")
    preview = Preview(root, set_id, dpi)
    if locale not in preview.locales():
        raise CardkitError(f"no catalogs for locale '{locale}' (locales: {', '.join(preview.locales())})", code="L005")
    server = PreviewServer(preview, port)
    server.start(locale)
    url = f"{server.url}?locale={locale}"
    typer.echo(f"preview of {preview.set_id or '(no set)'} at {url} (Ctrl-C stops it)")
    if not no_open:
        webbrowser.open(url)
    try:
        server.stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


def _mount_game_commands() -> None:
    """Each game plugin's own command group (``cardkit deepstrike ...``), through the registry."""
    from cardkit.games import plugins

    for _, plugin in sorted(plugins().items()):
        if plugin.commands is not None:
            name, group = plugin.commands()
            if isinstance(group, typer.Typer):
                app.add_typer(group, name=name)


_mount_game_commands()


def main() -> None:
    """Console entry point and the single exception boundary: a usage mistake
    prints the usage message (exit 2), a cardkit error its located lines (exit
    1), an interrupt exits 130; no traceback unless ``CARDKIT_DEBUG=1``."""
    try:
        code = app(standalone_mode=False)  # a command's typer.Exit comes back as its code
        if code == 130:  # Typer's word for Ctrl-C
            typer.echo("interrupted", err=True)
        sys.exit(code if isinstance(code, int) else 0)
    except CardkitError as exc:
        _echo_issues(exc.issues)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):  # Ctrl-C outside Typer's own handling
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:
        if hasattr(exc, "show") and isinstance(getattr(exc, "exit_code", None), int):
            # a usage error of the command-line parser (Typer's own click): bad
            # option value, unknown command, missing argument
            exc.show()  # type: ignore[attr-defined]
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        if os.environ.get("CARDKIT_DEBUG", "") not in ("", "0"):
            raise
        if isinstance(exc, OSError):  # the machine refused: a full disk, a folder that cannot be written
            where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            typer.echo(f"cardkit: error[F003]: {where}{exc.strerror or exc}", err=True)
            sys.exit(1)
        typer.echo(f"internal error: {type(exc).__name__}: {exc} (set CARDKIT_DEBUG=1 for a traceback)", err=True)
        sys.exit(70)
