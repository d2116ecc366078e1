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
from typing import Annotated, Iterable, Optional

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
rules_app = typer.Typer(no_args_is_help=True, help="The Death Angel rules engine: rule scenarios.")
app.add_typer(rules_app, name="rules")
ds_app = typer.Typer(no_args_is_help=True, help="Deep Strike scenarios: deployment feasibility and scoring.")
app.add_typer(ds_app, name="deepstrike")
LOCALES = ("en", "fi", "ko")

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

    if not loaded.schema_clean or not (root / loaded.set.directory / FACE_FILE).is_file():
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
    (a starter from ``cardkit init``), else the first by id (death-angel here)."""
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
    from babel import Locale, UnknownLocaleError

    from cardkit.i18n.catalogs import plan_update, project_locales, write_plans

    project = _clean_project(root)
    locales = sorted(set(project_locales(root)) | set(locale or []))
    for loc in locale or []:
        try:
            Locale.parse(loc)
        except (UnknownLocaleError, ValueError):
            raise CardkitError(f"unknown locale '{loc}'", code="L003") from None
    stale: list[Path] = []
    for domain, strings, budgets in _domains(project):
        plans = plan_update(root, domain, strings, locales, budgets)
        if check:
            stale.extend(p.path for p in plans if p.stale())
        else:
            for p in write_plans(plans):
                typer.echo(f"updated {p.relative_to(root)}")
    if check:
        if stale:
            raise CardkitError([Issue("L004", "catalog is stale against the cards (run: cardkit l10n update)",
                                      file=p.relative_to(root).as_posix()) for p in stale])
        typer.echo(f"ok: catalogs up to date ({', '.join(locales) or 'no locales'})")


@l10n_app.command("check")
def l10n_check(root: RootOpt = Path("."),
               locale: Annotated[Optional[list[str]], typer.Option("--locale", help="locales to check (default: all with catalogs)")] = None,
               set_id: Annotated[Optional[list[str]], typer.Option("--set", help="sets to check (default: all)")] = None,
               format: Annotated[Format, typer.Option("--format")] = Format.text,
               no_fit: Annotated[bool, typer.Option("--no-fit", help="skip laying strings out in the card templates")] = False) -> None:
    """Check every translation: completeness, tokens, numbers, terminology,
    Korean spacing and particles, typography, glyphs, and fit on the card."""
    from cardkit.i18n.catalogs import project_locales
    from cardkit.i18n.report import check_translations, render_text

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
        typer.echo(render_text(report))
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


LAYOUT_HELP = "grid (each card with its own bleed), shared-edge (cards share cut lines) or gutterfold (fronts and backs on one side, folded)"
MARGIN_HELP = "the printer's unprintable margin: nothing is drawn within it"


@build_app.callback()
def build_all(ctx: typer.Context, root: RootOpt = Path("."),
              locale: Annotated[str, typer.Option("--locale", help="language of the build summary")] = "en",
              layout: Annotated[str, typer.Option("--layout", help=LAYOUT_HELP)] = "grid",
              margin: Annotated[str, typer.Option("--margin", help=MARGIN_HELP)] = "4mm") -> None:
    """The main job: validate, check the translations, and write
    output/<set>-<locale>-a4.pdf for every set in en, fi and ko, with a summary
    in output/build-summary.txt (in the --locale language)."""
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
    project = _clean_project(root)
    summary_loc = Localizer(root, locale)  # an unknown locale fails here, before anything is written
    sets = tuple((sid, ls.set.physical_count()) for sid, ls in sorted(project.sets.items()) if ls.set)
    locales = project_locales(root)
    report = check_translations(root, project, locales)
    if not report.ok:
        raise CardkitError([f.issue() for f in report.findings if f.severity is Severity.ERROR])
    translations = []
    for loc, fs in sorted(report.fit_summary().items()):
        cov = report.coverage.get(loc, {})
        translations.append(bs.TranslationFacts(loc, sum(c["translated"] for c in cov.values()),
                                                sum(c["total"] for c in cov.values()), fs["strings"],
                                                fs["full_size"], fs["shrunk"]))
    cards = 0
    pdfs = []
    jobs = [(set_id, pdf_locale) for set_id in sorted(project.sets) for pdf_locale in LOCALES]
    with _Progress("PDFs", len(jobs), "PDFs", enabled=True) as bar:
        for n, (set_id, pdf_locale) in enumerate(jobs):
            bar.update(n, f"PDF {set_id} {pdf_locale}")
            result = build_pdf(root, project.card_set(set_id), pdf_locale, layout=layout, margin=margin_pt)
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
    facts = bs.BuildFacts(sets, tuple(translations), tuple(pdfs), tuple(playability), cards,
                          time.perf_counter() - started)
    set_locs = {sid: Localizer(root, locale, ls.set, strict=False) for sid, ls in project.sets.items() if ls.set}
    text = bs.render_summary(facts, summary_loc, set_locs)
    atomic_write_bytes(root / "output" / "build-summary.txt", text.encode("utf-8"))
    typer.echo(text, nl=False)


@build_app.command("pdf")
def build_pdf_cmd(root: RootOpt = Path("."),
                  set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
                  locale: Annotated[str, typer.Option("--locale", help="en, fi or ko (any locale with catalogs)")] = "en",
                  paper: Annotated[str, typer.Option("--paper", help="a4 or letter")] = "a4",
                  duplex: Annotated[str, typer.Option("--duplex", help="long-edge, short-edge or none (fronts only)")] = "long-edge",
                  bleed: Annotated[Optional[str], typer.Option("--bleed", help="e.g. 3mm; default: the largest up to 3 mm that leaves room for crop marks")] = None,
                  mode: Annotated[str, typer.Option("--mode", help="cards, or inserts (text overlays)")] = "cards",
                  units: Annotated[str, typer.Option("--units", help="inch or cm: distances on Deep Strike maps")] = "inch",
                  layout: Annotated[str, typer.Option("--layout", help=LAYOUT_HELP)] = "grid",
                  margin: Annotated[str, typer.Option("--margin", help=MARGIN_HELP)] = "4mm",
                  out: Annotated[Optional[Path], typer.Option("--out", help="output file (default output/<set>-<locale>-<paper>[-<layout>].pdf)")] = None) -> None:
    """Write one localized print-and-play PDF."""
    from cardkit.printing import build_pdf

    project = _clean_project(root)
    result = build_pdf(root, project.card_set(_set_id(project, set_id)), locale, paper=paper.lower(), duplex=duplex,
                       bleed=_parse_bleed(bleed), mode=mode, out=out, units=units, layout=layout,
                       margin=_parse_margin(margin))
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
                   locale: Annotated[str, typer.Option("--locale")] = "en") -> None:
    """Write a print service's files (one-card-per-page PDF, per-card PNGs) to output/shop/<preset>/<set>-<locale>/."""
    from cardkit.print.presets import preset as find_preset
    from cardkit.print.shop import build_shop

    chosen = find_preset(preset)
    project = _clean_project(root)
    result = build_shop(root, project.card_set(_set_id(project, set_id)), locale, chosen)
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


@ds_app.command("check")
def ds_check(root: RootOpt = Path("."),
             set_id: Annotated[str, typer.Option("--set")] = "deep-strike",
             units: Annotated[int, typer.Option("--units", help="units per side", min=1, max=40)] = 8,
             radius: Annotated[float, typer.Option("--radius", help="unit footprint radius in inches", min=0.5, max=12)] = 2.5,
             width: Annotated[Optional[float], typer.Option("--width", help="table width in inches (default: the scenario's)", min=24, max=200)] = None,
             depth: Annotated[Optional[float], typer.Option("--depth", help="table depth in inches", min=24, max=200)] = None,
             format: Annotated[Format, typer.Option("--format")] = Format.text) -> None:
    """Check every scenario's rules and prove both armies can deploy."""
    from cardkit.games.deep_strike.check import check_set, render_check

    project = _clean_project(root)
    results = check_set(project.card_set(set_id), units, radius, width, depth)
    if format is Format.json:
        typer.echo(json.dumps({"ok": not any(n.severity is Severity.ERROR for r in results for n in r.notes),
                               "units": units, "radius": radius, "scenarios": [r.to_json() for r in results]}, indent=2))
    else:
        typer.echo(render_check(results, radius, units))
    if any(n.severity is Severity.ERROR for r in results for n in r.notes):
        raise typer.Exit(1)


@ds_app.command("score")
def ds_score(scenario: Annotated[Optional[str], typer.Argument(help="scenario id (default: the one named in the state file)")] = None,
             state: Annotated[Path, typer.Option("--state", help="end-of-game state (YAML)", dir_okay=False)] = Path("state.yaml"),
             root: RootOpt = Path("."),
             set_id: Annotated[str, typer.Option("--set")] = "deep-strike",
             locale: Annotated[str, typer.Option("--locale")] = "en",
             format: Annotated[Format, typer.Option("--format")] = Format.text) -> None:
    """Score a finished game: each side's points, with the reason for every line."""
    from cardkit.games.deep_strike.report import line_text, render_score
    from cardkit.games.deep_strike.score import load_state, score
    from cardkit.i18n.localize import Localizer

    project = _clean_project(root)
    card_set = project.card_set(set_id)
    rel = state.as_posix()
    doc, units = load_state(state, rel)
    if scenario is not None and scenario != doc.data["scenario"]:
        raise CardkitError(doc.issue("D404", f"the state is for '{doc.data['scenario']}', not '{scenario}'", ("scenario",)))
    result = score(card_set, doc, units)
    loc = Localizer(root, locale, card_set)
    if format is Format.json:
        typer.echo(json.dumps({"scenario": result.scenario, "totals": result.totals, "winner": result.winner,
                               "lines": [{"side": ln.side, "points": ln.points, "rule": ln.rule, "key": ln.key,
                                          "values": dict(ln.values), "text": line_text(loc, ln.key, dict(ln.values))}
                                         for ln in result.lines]}, ensure_ascii=False, indent=2))
    else:
        typer.echo(render_score(result, loc))


@rules_app.command("scenario")
def rules_scenario(files: Annotated[list[Path], typer.Argument(help="rule scenario files or folders")],
                   root: RootOpt = Path("."),
                   set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None) -> None:
    """Run rule scenarios: set up an exact situation, play the script with forced
    dice, and compare the result; a readable diff for every mismatch."""
    from cardkit.games import engine_for
    from cardkit.games.death_angel.scenario import render, run_scenario

    project = _clean_project(root)
    card_set = project.card_set(_set_id(project, set_id))
    engine_for(card_set.game, "rules scenario")
    paths: list[Path] = []
    for f in files:
        paths.extend(sorted(f.rglob("*.yaml")) if f.is_dir() else [f])
    if not paths:
        raise CardkitError("no scenario files given", code="R004")
    results, problems = [], []
    for p in paths:
        try:
            results.append(run_scenario(card_set, p, p.as_posix()))
        except CardkitError as exc:
            problems.extend(exc.issues)
    typer.echo(render(results))
    if problems:
        raise CardkitError(problems)
    if any(not r.passed for r in results):
        raise typer.Exit(1)


@rules_app.command("play")
def rules_play(root: RootOpt = Path("."),
               set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
               players: Annotated[int, typer.Option("--players", min=1, max=6)] = 1,
               seed: Annotated[int, typer.Option("--seed")] = 1,
               agent: Annotated[str, typer.Option("--agent", help="random, passive or heuristic")] = "heuristic",
               locale: Annotated[str, typer.Option("--locale")] = "en") -> None:
    """Play one game and tell it as a story in the chosen language."""
    from cardkit.games import engine_for
    from cardkit.games.death_angel.agents import play
    from cardkit.games.death_angel.narrate import Narrator
    from cardkit.i18n.localize import Localizer

    project = _clean_project(root)
    card_set = project.card_set(_set_id(project, set_id))
    Game, AGENTS = engine_for(card_set.game, "rules play")
    if agent not in AGENTS:
        raise CardkitError(f"unknown agent '{agent[:40]}' (agents: {_agent_names(AGENTS)})", code="G002")
    narrator = Narrator(Localizer(root, locale, card_set))
    st = Game(card_set, players).new_state(seed)
    play(st, AGENTS[agent](seed))
    typer.echo(narrator.loc.ui("play.title", players=narrator.num(players), seed=seed))
    for line in narrator.story(st.events):
        typer.echo(line)


def _agent_names(agents: Iterable[str]) -> str:
    """The agents a user may name, budgets folded: ``search[:4|16]`` for search, search:4, search:16."""
    names = list(agents)
    out = []
    for base in dict.fromkeys(n.split(":", 1)[0] for n in names):
        budgets = [n.split(":", 1)[1] for n in names if n.startswith(base + ":")]
        out.append(f"{base}[:{'|'.join(budgets)}]" if budgets else base)
    return ", ".join(out)


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
             agent: Annotated[Optional[list[str]], typer.Option("--agent", help="an agent name (repeatable; default: random and heuristic); see the list in docs/playtest.md")] = None,
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
    from cardkit.playtest.audit import audit
    from cardkit.playtest.ladder import REFERENCE, ladder_table
    from cardkit.playtest.report import compare as compare_runs, table
    from cardkit.playtest.sweep import Variant, ability_cards, plan, run_sweep, summarize

    started = time.perf_counter()
    project = _clean_project(root)
    set_id = _set_id(project, set_id)
    card_set = project.card_set(set_id)
    _, AGENTS = engine_for(card_set.game, "playtest")
    counts = _players(players)
    agents = list(dict.fromkeys(agent or ["random", "heuristic"]))
    unknown = [a for a in agents if a not in AGENTS]
    if unknown:
        raise CardkitError(f"unknown agent(s) {', '.join(a[:40] for a in unknown[:3])} (agents: {_agent_names(AGENTS)})",
                          code="G002")
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
    problems = audit(card_set, counts)
    if problems:
        for p in problems:
            typer.echo(f"{card_set.directory}: error[{p.code}]: {p.card}: {p.message}"
                       + (f" ({p.players} players)" if p.players else ""), err=True)
        raise typer.Exit(1)
    variants = (Variant("compare", str(compare.resolve())),) if compare is not None else ()
    if impact:
        from cardkit.playtest.impact import (impact_cards, impact_rows, impact_table, plan_impact, team_table,
                                             team_tables)

        ablatable, unablatable = impact_cards(card_set, counts)
        judged = [a for a in agents if a != "random"] or agents  # random play wins too rarely to weigh a card
        batches = plan_impact(root.resolve(), set_id, counts, judged, games, seed, ablatable, certify_every)
        batches = [replace(b, variants=variants + b.variants) if b.count_base else b for b in batches]
        batches += plan(root.resolve(), set_id, counts, [a for a in agents if a not in judged], games, seed,
                        certify_every, variants)
    else:
        batches = plan(root.resolve(), set_id, counts, agents, games, seed, certify_every, variants)
    games_total = sum(b.seeds[1] - b.seeds[0] for b in batches)
    if games_total >= LARGE_SWEEP and not _compiled_engine():
        typer.echo(f"note: {games_total:,} games on the pure-Python engine; the compiled engine plays them about "
                   "5x faster: CARDKIT_COMPILE=1 pip install -e . (see README)", err=True)
    with _Progress("playtest", games_total, "games", enabled=format is Format.text) as bar:
        sweep = run_sweep(batches, jobs=jobs, backend=backend, scheduler=scheduler,
                          progress=lambda done, total: bar.update(done * games_total // total))
    summary = summarize(sweep, (lo, hi), ability_cards(card_set, counts))
    result: dict[str, object] = {"set": set_id, "seed": seed, "agents": agents, **summary, "reference": REFERENCE,
                                 "band": [lo, hi]}
    if compare is not None:
        result["compare"] = compare_runs(sweep)
    if impact:
        summary["impact"] = result["impact"] = impact_rows(sweep, card_set, ablatable, unablatable)
        summary["teams"] = result["teams"] = team_tables(sweep)
    if report is not None and report_loc is not None:
        from cardkit.playtest.pdfreport import write_report

        write_report(report, summary, report_loc, report_loc.card("set.title"), games, seed, agents)
    result["elapsed_s"] = round(time.perf_counter() - started, 2)
    result["engine"] = engine_build()  # compiled or pure Python: it explains the elapsed time
    if format is Format.json:
        typer.echo(json.dumps(result, indent=2))
    else:
        typer.echo(table(summary))
        typer.echo(ladder_table(summary["ladder"]))
        if impact:
            typer.echo(impact_table(summary["impact"]))
            typer.echo(team_table(summary["teams"]))
        for c in result.get("compare", []):  # type: ignore[union-attr]
            lo_, hi_ = c["difference_ci95"]
            typer.echo(f"compare {c['players']}p {c['agent']}: {c['win_rate_a']:.1%} -> {c['win_rate_b']:.1%} "
                       f"({c['difference']:+.1%}, 95% CI [{lo_:+.1%}, {hi_:+.1%}])")
        typer.echo(f"elapsed {result['elapsed_s']} s; rules engine {result['engine']}")
    if any(s["verdict"] != "playable" for s in summary["setups"]):
        raise typer.Exit(1)


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
            exc.show()
            sys.exit(exc.exit_code)
        if os.environ.get("CARDKIT_DEBUG", "") not in ("", "0"):
            raise
        if isinstance(exc, OSError):  # the machine refused: a full disk, a folder that cannot be written
            where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            typer.echo(f"cardkit: error[F003]: {where}{exc.strerror or exc}", err=True)
            sys.exit(1)
        typer.echo(f"internal error: {type(exc).__name__}: {exc} (set CARDKIT_DEBUG=1 for a traceback)", err=True)
        sys.exit(70)
