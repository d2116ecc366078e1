"""``cardkit validate``: cards, faces, catalogs and print quality."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from cardkit.errors import CardkitError, Issue, Severity, neutral_json, sort_issues
from cardkit.cli.app import app
from cardkit.cli.common import Format, RootOpt, _echo_issues, _load


@app.command()
def validate(root: RootOpt = Path("."),
             format: Annotated[Format, typer.Option("--format", help="text lines or one JSON document")] = Format.text,
             write_schemas: Annotated[bool, typer.Option("--write-schemas", help="(re)write each set's schemas/*.schema.json from its kinds.yaml, and cardkit's own schemas the project's files point at under schemas/")] = False) -> None:
    """Check every card file against the schema derived from its set's
    kinds.yaml and the game's rules of composition, and every catalog for an
    entry per card string."""
    from cardkit.i18n.catalogs import catalog_entry_issues, project_locales
    from cardkit.i18n.checks import catalog_markup_issues
    from cardkit.strings.localize import UI_DOMAIN, keeps_ui_catalogs, ui_strings
    from cardkit.load.project import core_schemas, derived_schemas

    project = _load(root)
    issues = list(project.issues) + derived_schemas(project, write=write_schemas) + core_schemas(root, write=write_schemas)
    locales = project_locales(root)
    for loaded in project.sets.values():
        if loaded.set is not None:
            issues.extend(catalog_entry_issues(root, loaded.set.id, loaded.set.strings, locales))
            issues.extend(catalog_markup_issues(root, loaded.set.id, locales, loaded.icons))  # prints raw (T304)
            prefix = loaded.set.directory + "/"
            set_errors = any(i.severity is Severity.ERROR and i.file.startswith(prefix) for i in issues)
            issues.extend(_face_issues(root, loaded, quality=not set_errors))
    if keeps_ui_catalogs(root):  # else cardkit's shipped ui catalogs serve
        issues.extend(catalog_entry_issues(root, UI_DOMAIN, ui_strings(), locales))
        issues.extend(catalog_markup_issues(root, UI_DOMAIN, locales))
    report = ValidateReport(tuple(sort_issues(issues)),
                            tuple((sid, ls.set.physical_count()) for sid, ls in sorted(project.sets.items()) if ls.set),
                            sum(len(ls.set.strings) for ls in project.sets.values() if ls.set), tuple(locales))
    if format is Format.json:
        typer.echo(neutral_json(report.to_json()))
    else:
        _echo_issues(list(report.issues))
        typer.echo(report.text() if report.ok else f"{report.errors} error(s)", err=not report.ok)
    if not report.ok:
        raise typer.Exit(1)


@dataclass(frozen=True)
class ValidateReport:
    """What ``cardkit validate`` found: every issue (sorted), and for a clean project what
    it holds; JSON (``--format json``) and the text line are made from it at the edge."""

    issues: tuple[Issue, ...]
    sets: tuple[tuple[str, int], ...]  # (set id, physical cards), by id
    strings: int  # the sets' translatable strings
    locales: tuple[str, ...]  # locales with catalogs

    @property
    def errors(self) -> int:
        return sum(i.severity is Severity.ERROR for i in self.issues)

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_json(self) -> dict[str, object]:
        return {"ok": self.ok, "errors": [i.to_json() for i in self.issues],
                "sets": {sid: {"cards": cards} for sid, cards in self.sets}}

    def text(self) -> str:
        parts = ", ".join(f"{sid} {cards} cards" for sid, cards in self.sets)
        return (f"ok: {len(self.sets)} set(s) ({parts}); {self.strings} strings; "
                f"catalogs: {', '.join(self.locales) or 'none'}")


def _face_issues(root: Path, loaded, quality: bool = True,
                 safe_zone: float | None = None) -> list[Issue]:  # (LoadedSet)
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
    found = _quality_issues(root, loaded, book, safe_zone) if quality else []
    from dataclasses import replace

    for name in book.variants:  # each variant is checked as it would be built
        try:
            drawn = load_faces(root, loaded.set, name)
        except CardkitError as exc:
            found += [i for i in exc.issues if i not in found]
            continue
        if quality:  # (a finding the file as written has at the same place is reported once)
            seen = {(i.code, i.file, i.line, i.column) for i in found}
            found += [replace(i, message=f"variant '{name}': {i.message}") for i in _quality_issues(root, loaded, drawn)
                      if (i.code, i.file, i.line, i.column) not in seen]
    if loaded.kinds is None or loaded.kinds.file not in loaded.docs:
        return found
    return unshown_issues(loaded.kinds, book, loaded.docs[loaded.kinds.file]) + found


def _quality_issues(root: Path, loaded, book, safe_zone: float | None = None) -> list[Issue]:  # (LoadedSet, FaceBook)
    """Print-quality warnings of the composed faces (Q001-Q003) and fonts that
    would not embed (Q004), see :mod:`cardkit.layout.quality`."""
    from cardkit.strings.localize import Localizer
    from cardkit.layout.faces import FACE_FILE
    from cardkit.layout.quality import font_issues, quality_issues
    from cardkit.load.yamlsafe import read_yaml_file
    from cardkit.render.images import art_loader

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

    # the artwork as it prints: the faces' `images:` (lighten, greyscale, omit) applied, as the PDF builder does
    args = (card_set, Localizer(root, "en", card_set), book, None, art_loader(root, book.images))
    try:
        if safe_zone is None:
            return quality_issues(args, book, doc, card_issue, art_of)
        return quality_issues(args, book, doc, card_issue, art_of, safe_zone)
    except CardkitError as exc:
        return exc.issues
