"""``cardkit l10n ...``: extract, update, init, pseudo, check and review the translation catalogs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperCommand

from cardkit.errors import CardkitError, Issue, neutral_json
from cardkit.cli.app import l10n_app
from cardkit.cli.common import Format, RootOpt, _clean_project, _Progress, allow_out


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
                locale: Annotated[Optional[list[str]], typer.Option("--locale", help="locales to update (default: all with catalogs)")] = None,
                create: Annotated[bool, typer.Option("--create", help="also create catalogs for the --locale locales that have none")] = False,
                check: Annotated[bool, typer.Option("--check", help="write nothing; fail if any catalog is stale")] = False) -> None:
    """Extract the templates and merge them into the locales' catalogs; changed
    English sources mark their translations fuzzy.  Entries that lost their
    msgctxt (an XLIFF round trip) get it back by their English; when the English
    is the source of several card strings, nothing is written (L012)."""
    from cardkit.i18n.catalogs import lost_message, plan_update, project_locales, rel, write_plans
    from cardkit.i18n.languages import checked_locales

    if create and not locale:
        raise CardkitError("--create needs --locale: the locales to create", code="L003")
    if root.is_dir() and locale:
        locales = checked_locales(root, list(locale)) if create else _selected_locales(root, list(locale))
    else:
        locales = []
    project = _clean_project(root)
    if not locale:
        locales = project_locales(root)
    stale: list[Path] = []
    written = 0
    plans_by_domain = [plan_update(root, domain, strings, locales, budgets) for domain, strings, budgets in _domains(project)]
    lost = [Issue("L012", "nothing written: " + lost_message(p.repair, p.locale or ""), file=rel(root, p.path))
            for plans in plans_by_domain for p in plans if p.repair is not None and p.repair.ambiguous]
    if lost:
        raise CardkitError(lost)
    for plans in plans_by_domain:
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
        typer.echo(f"wrote {result.glossary} ({result.terms} terms to fill; and the language data the checks need: "
                   "negation, numbers, name_endings; l10n check says which checks do not run without them)")
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


class _CheckCommand(TyperCommand):
    """``l10n check``: its help ends with the codes of the translation checks' registry, read
    only when the help is shown (the checks are not imported for every command)."""

    def get_help(self, ctx: Any) -> str:  # (typer's own click Context)
        from cardkit.i18n.registry import help_text

        self.epilog = help_text()
        return super().get_help(ctx)


@l10n_app.command("check", cls=_CheckCommand)
def l10n_check(root: RootOpt = Path("."),
               locale: Annotated[Optional[list[str]], typer.Option("--locale", help="locales to check (default: all with catalogs)")] = None,
               set_id: Annotated[Optional[list[str]], typer.Option("--set", help="sets to check (default: all)")] = None,
               format: Annotated[Format, typer.Option("--format")] = Format.text,
               no_fit: Annotated[bool, typer.Option("--no-fit", help="skip laying strings out in the card templates")] = False,
               paper: Annotated[Optional[list[str]], typer.Option("--paper", help="a custom paper WxH (200x280, 8.5x13in) to fit the page furniture on too, beside the named papers")] = None,
               summary: Annotated[bool, typer.Option("--summary", help="one line per catalog: coverage and the number of findings per code")] = False) -> None:
    """Check every translation: completeness, tokens, numbers, terminology,
    Korean spacing and particles, typography, glyphs, and fit on the card."""
    from cardkit.i18n.catalogs import project_locales
    from cardkit.i18n.report import check_translations, render_summary, render_text

    from cardkit.layout.sheet import custom_papers, paper_issue

    bad_papers = [i for i in (paper_issue(p) for p in paper or []) if i is not None]
    if bad_papers:
        raise CardkitError(bad_papers)
    project = _clean_project(root)
    locales = _selected_locales(root, list(locale)) if locale else project_locales(root)
    if not locales:
        raise CardkitError("no locales to check (locales/<lang>/LC_MESSAGES is empty)", code="L002")
    with _Progress("l10n check", 1, "items", enabled=format is Format.text) as bar:
        report = check_translations(root, project, locales, list(set_id or []), fit=not no_fit,
                                    progress=lambda done, total: bar.update(done, total=total),
                                    papers=custom_papers(list(paper or [])))
    if format is Format.json:
        typer.echo(neutral_json(report.to_json()))
    else:
        typer.echo(render_summary(report) if summary else render_text(report))
    if not report.ok:
        raise typer.Exit(1)


@l10n_app.command("review")
def l10n_review(root: RootOpt = Path("."),
                out: Annotated[Optional[Path], typer.Option("--out", help="folder to write, replaced as a whole (default: output/review under --root)", callback=allow_out)] = None,
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


@l10n_app.command("accept")
def l10n_accept(locale: Annotated[str, typer.Option("--locale", help="the catalog's locale")],
                entry: Annotated[str, typer.Option("--entry", help="the entry's msgctxt (gun_jam.text)")],
                code: Annotated[str, typer.Option("--code", help="the finding's code (T160)")],
                reason: Annotated[str, typer.Option("--reason", help="why the translation is right as it is")],
                root: RootOpt = Path("."),
                set_id: Annotated[Optional[str], typer.Option("--set", help="the catalog (a set, or ui) when several hold the entry")] = None) -> None:
    """Accept one finding of `l10n check` on one entry: writes a translator
    comment `# cardkit-accept: CODE FINGERPRINT -- reason` on the entry. It
    lapses (T980) when the English or the translation changes."""
    from cardkit.fsutil import atomic_write_bytes
    from cardkit.i18n.accepted import AcceptedFinding, add_acceptance
    from cardkit.i18n.catalogs import MAX_PO_BYTES, po_path, rel
    from cardkit.strings.localize import UI_DOMAIN
    from cardkit.i18n.report import check_translations
    from cardkit.load.files import read_project_file

    project = _clean_project(root)
    [loc] = _selected_locales(root, [locale])
    holders = [d for d, strings, _ in _domains(project) if any(s.msgctxt == entry for s in strings)
               and (set_id is None or d == set_id)]
    if not holders:
        raise CardkitError(f"no string '{entry}'" + (f" in '{set_id}'" if set_id else "") + " (the msgctxt of a catalog entry)",
                           code="T982")
    if len(holders) > 1:
        raise CardkitError(f"'{entry}' is in {', '.join(holders)}: say which with --set", code="T982")
    domain = holders[0]
    report = check_translations(root, project, [loc], [] if domain == UI_DOMAIN else [domain], fit=code == "T950")
    found = [f for f in report.findings if (f.set, f.msgctxt, f.check) == (domain, entry, code)]
    if not found:
        raise CardkitError(f"l10n check finds no {code} on '{entry}' ({loc}): there is nothing to accept", code="T982")
    path = po_path(root, loc, domain)
    file = rel(root, path)
    data, written = add_acceptance(read_project_file(path, file, root=root, max_bytes=MAX_PO_BYTES, too_large="L001"),
                                   file, loc, entry, code, reason)
    atomic_write_bytes(path, data)
    was = "re-accepted" if written.replaced or all(isinstance(f, AcceptedFinding) for f in found) else "accepted"
    typer.echo(f"{was} {code} on {entry} in {file}:{written.line} (fingerprint {written.fingerprint}; it lapses when "
               "the English or the translation changes)")


def _selected_locales(root: Path, names: list[str]) -> list[str]:
    """``--locale`` as every ``l10n`` command reads it (:func:`cardkit.i18n.languages.locale_issues`:
    ``L003`` for a name that is not a locale's, ``L005`` for one without catalogs here), every
    problem at once."""
    from cardkit.i18n.languages import locale_issues

    out, issues = locale_issues(root, names)
    if issues:
        raise CardkitError(issues)
    return out


@l10n_app.command("import")
def l10n_import(file: Annotated[Path, typer.Argument(help="translations to bring in: .csv, .json, .xlf/.xliff (1.2, 2.0) or .po")],
                locale: Annotated[str, typer.Option("--locale", help="the locale the file translates into")],
                root: RootOpt = Path("."),
                set_id: Annotated[Optional[list[str]], typer.Option("--set", help="sets to fill (default: all, and ui where the project keeps it)")] = None,
                dry_run: Annotated[bool, typer.Option("--dry-run", help="report what would change; write nothing")] = False,
                overwrite: Annotated[bool, typer.Option("--overwrite", help="replace translations the catalogs already have")] = False,
                fuzzy: Annotated[bool, typer.Option("--fuzzy", help="mark every imported translation fuzzy, for review")] = False,
                create: Annotated[bool, typer.Option("--create", help="create the locale's catalogs when it has none")] = False) -> None:
    """Fill the locale's catalogs from another file: CSV or JSON keyed by msgctxt
    (or card id and field), XLIFF 1.2/2.0, or another PO. Matched by key, else by
    the English; conflicts are kept unless --overwrite. Exit 1 when a conflict is
    left unapplied (L031), dry run or not; the rest is written."""
    from cardkit.fsutil import atomic_write_bytes
    from cardkit.i18n.importer import MAX_IMPORT_BYTES, format_of, import_translations, read_records
    from cardkit.i18n.languages import checked_locales
    from cardkit.load.files import read_project_file

    fmt = format_of(file)
    if not root.is_dir():
        raise CardkitError(f"--root {root} is not a folder", code="P001")
    [loc] = checked_locales(root, [locale]) if create else _selected_locales(root, [locale])
    shown = file.as_posix()
    raw = read_project_file(file, shown, root=None, max_bytes=MAX_IMPORT_BYTES, too_large="L030")
    records = read_records(raw, shown, fmt, loc)
    project = _clean_project(root)
    domains = _domains(project)
    if set_id:
        unknown = sorted(set(set_id) - {d for d, _, _ in domains})
        if unknown:
            raise CardkitError(f"unknown set(s): {', '.join(unknown)}", code="P002")
        domains = [d for d in domains if d[0] in set_id]
    result = import_translations(root, domains, loc, records, shown, overwrite=overwrite, fuzzy=fuzzy, create=create)
    for w in result.warnings:
        typer.echo(w.format(), err=True)
    changed = [c for c in result.catalogs if c.plan is not None and c.plan.stale()]
    for c in result.catalogs:
        verb = "would update" if dry_run else "updated"
        if any(c is x for x in changed):
            typer.echo(f"{verb} {c.file}: {c.summary()}")
        else:
            typer.echo(f"unchanged {c.file}: {c.summary()}")
    if not dry_run:
        for c in changed:
            assert c.plan is not None
            atomic_write_bytes(c.plan.path, c.plan.data)
    tail = "; dry run: nothing written" if dry_run else ""
    typer.echo(f"{shown}: {len(records)} translations read, {result.unknown} unknown, {result.ambiguous} ambiguous{tail}")
    if any(w.code == "L031" for w in result.warnings):
        # a translation the file asks for and the catalog did not get: a script must notice (a dry run says
        # what the run would do, exit status included)
        raise typer.Exit(1)
