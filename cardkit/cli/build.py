"""``cardkit build ...``: every set and locale as PDFs with the build summary, and one PDF,
PNGs, a print shop's files or Tabletop Simulator sheets."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional

import typer

from cardkit.errors import CardkitError, Issue, Severity
from cardkit.cli.app import build_app
from cardkit.layout.sheetlayout import layout_help
from cardkit.cli.common import SET_HELP, RootOpt, _clean_project, _Progress, _set_id, allow_out

if TYPE_CHECKING:
    from cardkit.strings.localize import Localizer


# untranslated strings print in English: the build reports them as coverage, not as errors
UNTRANSLATED = frozenset({"T102", "T150"})


def _echo_warnings(warnings: list[Issue]) -> None:
    """A build's warnings on stderr, one line each (the pseudo-locale's strings printed in English, W030)."""
    for warning in warnings:
        typer.echo(warning.format(), err=True)


def _summary_localizer(root: Path, locale: str) -> "Localizer":
    """The build summary's language.  A locale the project translates but cardkit's own interface does
    not (German cards in an outside project: cardkit ships fi and ko) gets the summary in English and
    one W031 line, and its PDFs are built; a locale nobody translates is L005 before anything is written."""
    from cardkit.i18n.catalogs import project_locales
    from cardkit.strings.localize import Localizer

    try:
        return Localizer(root, locale)
    except CardkitError as exc:
        if [i.code for i in exc.issues] != ["L005"] or locale not in project_locales(root):
            raise
        _echo_warnings([Issue("W031", f"cardkit's interface has no '{locale}' catalog: the build summary is in "
                                      f"English; the '{locale}' PDFs are built (cardkit l10n init --locale {locale} in "
                                      "the cardkit repository adds one)", severity=Severity.WARNING)])
        return Localizer(root, "en")


def _parse_bleed(bleed: str | None) -> float | None:
    from cardkit.layout.units import to_pt

    if bleed is None or bleed == "auto":
        return None
    if bleed.strip() == "0":  # no bleed at all (said with the build)
        return 0.0
    return to_pt(bleed)


def _parse_margin(margin: str) -> float:
    """``--margin`` as points (a length such as 4mm)."""
    from cardkit.layout.units import to_pt

    return to_pt(margin)


def _option_length(name: str, value: str, parse: Callable[[str], Any]) -> tuple[Any, list[Issue]]:
    """One length option parsed, its problems named after the option (``--margin: bad length ...``)."""
    from dataclasses import replace

    try:
        return parse(value), []
    except CardkitError as exc:
        return None, [replace(i, message=f"{name}: {i.message}") for i in exc.issues]


def _sheet_options(paper: str, orientation: str, calibration: str, bleed: str | None,
                   margin: str | None = None, layout: str | None = None,
                   earlier: list[Issue] | None = None) -> dict[str, Any]:
    """``--paper``, ``--orientation``, ``--calibration``, ``--bleed`` and (given) ``--margin`` as
    :func:`cardkit.printing.build_pdf` takes them, for the main job and ``build
    pdf`` alike.  The lengths' parse errors are collected together; given ``layout`` too,
    every bad option is refused at once before anything is built, with the ``earlier``
    problems of the command's other options (``--colour``, ``--duplex``: one run says
    every bad option, one line each)."""
    from cardkit.layout.sheet import check_sheet_options
    from cardkit.printing import CALIBRATION

    options: dict[str, Any] = {"paper": paper.strip().lower(), "orientation": orientation.lower(),
                               "calibration": calibration}
    options["bleed"], issues = _option_length("--bleed", bleed or "auto", lambda v: _parse_bleed(v))
    issues = list(earlier or []) + issues
    if margin is not None:
        options["margin"], bad_margin = _option_length("--margin", margin, _parse_margin)
        issues += bad_margin
    if layout is not None:
        if calibration not in CALIBRATION:
            issues.append(Issue("B013", f"unknown --calibration '{calibration}' (use {', '.join(CALIBRATION)})"))
        try:  # (a margin that did not parse is said above, not again as out of range)
            check_sheet_options(options["paper"], options["bleed"], options.get("margin") or 0.0, layout,
                                options["orientation"])
        except CardkitError as exc:
            issues += exc.issues
    if issues:
        raise CardkitError(issues)
    return options


COLOUR_HELP = "rgb (screen and home printers) or cmyk (a PDF/X-1a file in DeviceCMYK for print shops: docs/print.md)"


INK_HELP = "cmyk: the most ink on any spot, in per cent of one ink (100-400)"


def _colours(colour: str, ink_limit: float, more: list[Issue] | None = None):  # -> ColourOptions
    """``--colour`` and ``--ink-limit`` checked together, with the ``more`` problems of the
    command's other options: every bad one in one run."""
    options, issues = _colour_options(colour, ink_limit)
    issues += more or []
    if issues:
        raise CardkitError(issues)
    return options


def _colour_options(colour: str, ink_limit: float):  # -> tuple[ColourOptions | None, list[Issue]]
    """``--colour`` and ``--ink-limit`` as :class:`~cardkit.render.cmyk.ColourOptions`, or
    None, with their problems (B050, B051), for a command to report with its other options."""
    from cardkit.render.cmyk import COLOUR_SPACES, MAX_INK_LIMIT, MIN_INK_LIMIT, ColourOptions

    issues: list[Issue] = []
    space = colour.lower()
    if space not in COLOUR_SPACES:
        issues.append(Issue("B050", f"unknown --colour '{colour}' (rgb or cmyk)"))
    if not MIN_INK_LIMIT <= ink_limit <= MAX_INK_LIMIT:
        issues.append(Issue("B051", f"--ink-limit {ink_limit:g} is outside {MIN_INK_LIMIT:g}-{MAX_INK_LIMIT:g} "
                                    "(per cent of total ink; print services ask for 240-300)"))
    if issues:
        return None, issues
    return ColourOptions(space, ink_limit), issues  # type: ignore[arg-type]


LAYOUT_HELP = layout_help()  # from the registry of sheet layouts (cardkit/layout/sheetlayouts/)
VARIANT_HELP = "a variant of the faces, declared under `variants` in faces.yaml (e.g. printer-friendly); adds -<variant> to the file names"


MARGIN_HELP = "the printer's unprintable margin: nothing is drawn within it"
PAPER_HELP = "a3, a4, a5, letter, legal, tabloid or a size WxH (300x200, 8.5x14in)"
ORIENTATION_HELP = "auto (per card size, whichever holds more cards; portrait on a tie), portrait or landscape"
FIT_HELP = ("a card size the service does not print: none (refuse), scale (to its nearest product, within 3 %) or "
            "pad (centred unscaled, up to 1.5 mm a side of its own bleed shown or edge cut)")
CALIBRATION_HELP = "every-size (a calibration page per card size), first (only the first size's) or none"
BLEED_HELP = ("e.g. 3mm, or 0 for none; default: at least 1 mm (3 mm in CMYK), up to 3 mm, a column or row less "
              "when needed")

# The sheet options of the main job and of ``build pdf``: one definition each, the same defaults
# (printing.build_pdf's), so the two commands cannot drift apart (tests/print/test_build_options.py).
PaperOpt = Annotated[str, typer.Option("--paper", help=PAPER_HELP)]
OrientationOpt = Annotated[str, typer.Option("--orientation", help=ORIENTATION_HELP)]
CalibrationOpt = Annotated[str, typer.Option("--calibration", help=CALIBRATION_HELP)]
BleedOpt = Annotated[Optional[str], typer.Option("--bleed", help=BLEED_HELP)]


MinCoverageOpt = Annotated[float | None, typer.Option(
    "--min-coverage", min=0.0, max=1.0,
    help="fail (L009, nothing written) when a set's catalog has less than this share translated, e.g. 0.9")]


def _coverage_lines(root: Path, project, set_ids: list[str], locales: list[str],  # (Project)
                    minimum: float | None) -> list[str]:
    """Per set and locale with strings left in English, how much is translated
    and that the rest prints in English; with ``minimum``, one L009 line per set catalog below it (raised,
    before anything is written)."""
    from cardkit.strings import localize as lz
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
              paper: PaperOpt = "a4",
              orientation: OrientationOpt = "auto",
              calibration: CalibrationOpt = "every-size",
              bleed: BleedOpt = None,
              margin: Annotated[str, typer.Option("--margin", help=MARGIN_HELP)] = "4mm",
              colour: Annotated[str, typer.Option("--colour", help=COLOUR_HELP)] = "rgb",
              ink_limit: Annotated[float, typer.Option("--ink-limit", help=INK_HELP)] = 240.0,
              min_coverage: MinCoverageOpt = None,
              variant: Annotated[Optional[str], typer.Option("--variant", help=VARIANT_HELP)] = None) -> None:
    """The main job: validate, check the translations, and write
    output/<set>-<locale>-<paper>.pdf for every set in English and every locale with
    catalogs (the sheet options as ``build pdf`` has them), with a summary in output/build-summary.txt (in the --locale
    language).  Untranslated strings print in English: the build says how many
    per set (--min-coverage makes too few an error); any other translation
    error stops it."""
    if ctx.invoked_subcommand is not None:
        return
    import time

    from cardkit.fsutil import allow_writes as allow

    allow(root)  # (a group's options allow nothing by themselves: cli.common.allow_writes)

    from cardkit import buildsummary as bs
    from cardkit.fsutil import atomic_write_bytes
    from cardkit.i18n.catalogs import PSEUDO, project_locales
    from cardkit.strings.localize import Localizer
    from cardkit.i18n.report import check_translations
    from cardkit.layout.units import MM
    from cardkit.printing import build_pdf

    started = time.perf_counter()
    colours, bad_colours = _colour_options(colour, ink_limit)
    sheet = _sheet_options(paper, orientation, calibration, bleed, margin, layout,
                           bad_colours)  # (holds the margin in points; raises with every bad option)
    project = _clean_project(root)
    summary_loc = _summary_localizer(root, locale)  # an unknown locale fails here, before anything is written
    from cardkit.plugins import engine_for, plugin_for

    for ls in project.sets.values():  # an engine the summary cannot drive (G032) stops the build before any PDF
        plugin = plugin_for(ls.set.game) if ls.set else None
        if ls.set and plugin is not None and plugin.engine is not None:
            engine_for(ls.set.game, "build")
    sets = tuple((sid, ls.set.physical_count()) for sid, ls in sorted(project.sets.items()) if ls.set)
    locales = project_locales(root)
    coverage = _coverage_lines(root, project, [sid for sid, _ in sets], locales, min_coverage)
    from cardkit.layout.sheet import custom_papers

    report = check_translations(root, project, locales, papers=custom_papers([sheet["paper"]]))  # (a WxH paper too)
    blocking = [f.issue() for f in report.findings if f.severity is Severity.ERROR and f.check not in UNTRANSLATED
                and not (f.check == "T950" and f.locale == PSEUDO)]  # the pseudo build prints it in English (W030)
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
            result = build_pdf(root, project.card_set(set_id), pdf_locale, layout=layout,
                               colours=colours, variant=variant, **sheet)
            cards += result.cards
            _echo_warnings(result.warnings)
            rel_path = result.path.relative_to(root) if result.path.is_relative_to(root) else result.path
            pdfs.append(bs.PdfFacts(str(rel_path), result.cards, result.pages, tuple(
                bs.SizeFacts(round(f.card_w / MM, 2), round(f.card_h / MM, 2), f.cols, f.rows, f.paper, f.landscape,
                             round(f.bleed / MM, 3), round(f.min_bleed / MM, 3)) for f in result.sheets)))

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
                  paper: PaperOpt = "a4",
                  orientation: OrientationOpt = "auto",
                  calibration: CalibrationOpt = "every-size",
                  duplex: Annotated[str, typer.Option("--duplex", help="long-edge, short-edge or none (fronts only)")] = "long-edge",
                  bleed: BleedOpt = None,
                  mode: Annotated[str, typer.Option("--mode", help="cards, or inserts (text overlays)")] = "cards",
                  units: Annotated[str, typer.Option("--units", help="inch or cm: distances on table maps")] = "inch",
                  layout: Annotated[str, typer.Option("--layout", help=LAYOUT_HELP)] = "grid",
                  margin: Annotated[str, typer.Option("--margin", help=MARGIN_HELP)] = "4mm",
                  colour: Annotated[str, typer.Option("--colour", help=COLOUR_HELP)] = "rgb",
                  ink_limit: Annotated[float, typer.Option("--ink-limit", help=INK_HELP)] = 240.0,
                  out: Annotated[Optional[Path], typer.Option("--out", help="output file (default output/<set>-<locale>-<paper>[-<layout>].pdf)", callback=allow_out)] = None,
                  min_coverage: MinCoverageOpt = None,
                  variant: Annotated[Optional[str], typer.Option("--variant", help=VARIANT_HELP)] = None) -> None:
    """Write one localized print-and-play PDF; says how much of the set is
    translated (the rest prints in English)."""
    from cardkit.printing import build_pdf
    from cardkit.printing.pdf import build_option_issues

    colours, bad = _colour_options(colour, ink_limit)
    bad += build_option_issues(duplex, mode, None, units)  # (--calibration: with the sheet's options)
    sheet = _sheet_options(paper, orientation, calibration, bleed, margin, layout, bad)  # every bad option at once
    project = _clean_project(root)
    sid = _set_id(project, set_id)
    coverage = _coverage_lines(root, project, [sid], [locale], min_coverage) if sid in project.sets else []
    result = build_pdf(root, project.card_set(sid), locale, duplex=duplex, mode=mode, out=out, units=units,
                       layout=layout, colours=colours, variant=variant, **sheet)
    for line in coverage:
        typer.echo(line)
    _echo_warnings(result.warnings)
    for facts in result.sheets:  # (on stderr, with the warnings: stdout keeps its one "wrote" line)
        typer.echo(facts.describe(), err=True)
    typer.echo(f"wrote {result.path} ({_cards_text(result.cards, result.extras)}, {result.pages} pages)")


def _cards_text(cards: int, extras: int) -> str:
    """``129 cards: 128 of the set and 1 extra`` (every card printed, as ``build shop`` counts)."""
    if not extras:
        return f"{cards} cards"
    return f"{cards} cards: {cards - extras} of the set and {extras} extra{'s' if extras > 1 else ''}"


@build_app.command("png")
def build_png_cmd(root: RootOpt = Path("."),
                  set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
                  locale: Annotated[str, typer.Option("--locale")] = "en",
                  dpi: Annotated[int, typer.Option("--dpi", help="resolution")] = 300,
                  bleed: Annotated[str, typer.Option("--bleed")] = "3mm") -> None:
    """Write one PNG per card face (with bleed) to output/png/<set>-<locale>/."""
    from cardkit.printing import build_png

    project = _clean_project(root)
    result = build_png(root, project.card_set(_set_id(project, set_id)), locale, dpi=dpi, bleed=_parse_bleed(bleed) or 0.0)
    _echo_warnings(result.warnings)
    paths = result.paths
    typer.echo(f"wrote {len(paths)} PNG files to {paths[0].parent if paths else 'nowhere'}")


@build_app.command("shop")
def build_shop_cmd(root: RootOpt = Path("."),
                   preset: Annotated[str, typer.Option("--preset", help="generic, thegamecrafter or drivethrucards (docs/print.md)")] = "generic",
                   set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
                   locale: Annotated[str, typer.Option("--locale")] = "en",
                   colour: Annotated[str, typer.Option("--colour", help=COLOUR_HELP + "; the PNGs stay sRGB")] = "rgb",
                   ink_limit: Annotated[float, typer.Option("--ink-limit", help=INK_HELP)] = 240.0,
                   fit: Annotated[str, typer.Option("--fit", help=FIT_HELP)] = "none") -> None:
    """Write a print service's files (one-card-per-page PDF, per-card PNGs) to output/shop/<preset>/<set>-<locale>/
    (-cmyk added for CMYK PDFs)."""
    from cardkit.print.presets import fit_issue, preset as find_preset
    from cardkit.print.shop import build_shop

    bad: list[Issue] = []
    try:
        chosen = find_preset(preset)
    except CardkitError as exc:
        bad += exc.issues
    bad_fit = fit_issue(fit)
    if bad_fit is not None:
        bad.append(bad_fit)
    colours = _colours(colour, ink_limit, bad)  # every bad option in one run
    project = _clean_project(root)
    result = build_shop(root, project.card_set(_set_id(project, set_id)), locale, chosen, colours=colours,
                        fit=fit)  # type: ignore[arg-type]  # (checked there: B014)
    _echo_warnings(result.warnings)
    for note in result.notes:
        typer.echo(note)
    _echo_warnings(_safe_zone_warnings(root, project, _set_id(project, set_id), chosen.safe))
    typer.echo(f"wrote {len(result.pdfs)} PDF and {len(result.pngs)} PNG files ({result.cards} cards) to {result.folder}")


def _safe_zone_warnings(root: Path, project, set_id: str, zone: float) -> list[Issue]:  # (Project)
    """The safe-zone check (Q002 of ``cardkit validate``) against the print service's own zone."""
    from cardkit.cli.validate import _face_issues

    loaded = project.sets.get(set_id)
    if loaded is None or loaded.set is None:
        return []
    return [i for i in _face_issues(root, loaded, safe_zone=zone) if i.code == "Q002" and "variant '" not in i.message]


@build_app.command("tts")
def build_tts_cmd(root: RootOpt = Path("."),
                  set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
                  locale: Annotated[str, typer.Option("--locale")] = "en") -> None:
    """Write Tabletop Simulator deck sheets (at most 10 x 7 cards, 4096 px wide) and a saved object
    (<set>-<locale>.json, a custom deck per sheet) to output/tts/<set>-<locale>/."""
    from cardkit.printing import build_tts

    project = _clean_project(root)
    result = build_tts(root, project.card_set(_set_id(project, set_id)), locale)
    _echo_warnings(result.warnings)
    images = [p for p in result.paths if p.suffix == ".png"]
    saved = [p for p in result.paths if p.suffix == ".json"]
    typer.echo(f"wrote {len(images)} deck images to {images[0].parent if images else 'nowhere'}"
               + (f" and the saved object {saved[0].name} (copy it to TTS's Saved Objects folder: docs/print.md)"
                  if saved else ""))
