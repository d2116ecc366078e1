"""``cardkit init DIR``: a starter game folder that validates and builds at once.

The starter's files ship in the package (``cardkit/starter/``): a set with two
kinds of card, its faces, its interface strings, four cards, and Finnish and
Korean catalogs and glossaries (cardkit's own interface strings need no copy:
the Localizer reads the catalogs shipped in the package).  :func:`init_project` writes them under the
new set id into a temporary sibling of ``DIR``, completes them with what
cardkit derives (the card files' schemas, cardkit's own schemas the files'
modelines point at, the ``.pot`` template and the catalogs merged with it, so
that ``l10n update --check`` holds), checks that the result loads cleanly,
and only then renames the folder into place (or, for an existing empty
folder, its top-level entries into it): a failed init leaves nothing behind.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cardkit.errors import CardkitError, Issue
from cardkit.fsutil import allow_writes, atomic_write_bytes, check_write

STARTER = Path(__file__).resolve().parent / "starter"
PLACEHOLDER = "__SET_ID__"
LOCALES = ("fi", "ko")
SET_ID = re.compile(r"^[a-z][a-z0-9-]{0,63}$")  # as schemas/set.schema.json says
DEFAULT_ID = "mygame"
# starter file -> where it goes ({set}: the set id)
LAYOUT = {
    "README.md": "README.md",
    "set.yaml": "cards/{set}/set.yaml",
    "kinds.yaml": "cards/{set}/kinds.yaml",
    "faces.yaml": "cards/{set}/faces.yaml",
    "strings.yaml": "cards/{set}/strings.yaml",
    "heroes.yaml": "cards/{set}/heroes.yaml",
    "spells.yaml": "cards/{set}/spells.yaml",
    "locales/fi/glossary.yaml": "locales/fi/glossary.yaml",
    "locales/ko/glossary.yaml": "locales/ko/glossary.yaml",
    "locales/fi.po": "locales/fi/LC_MESSAGES/{set}.po",
    "locales/ko.po": "locales/ko/LC_MESSAGES/{set}.po",
}


@dataclass(frozen=True)
class InitResult:
    path: Path
    set_id: str
    files: tuple[str, ...]  # relative paths, sorted


def id_from_name(name: str) -> str:
    """A valid set id made from a folder name: lower case, runs of other
    characters as one ``-``, starting with a letter.

    >>> id_from_name("My Game 2"), id_from_name("2048"), id_from_name("Über_Quest!")
    ('my-game-2', 'mygame', 'ber-quest')
    """
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    s = re.sub(r"^[^a-z]+", "", s)[:64].rstrip("-")
    return s or DEFAULT_ID


def _refuse(target: Path, code: str, message: str) -> CardkitError:
    return CardkitError(Issue(code, message, file=target.as_posix()))


def init_project(target: Path, set_id: str | None = None) -> InitResult:
    """Write the starter game folder at ``target`` (which must not exist, or be an empty folder)."""
    from cardkit.plugins import plugin_for

    sid = set_id if set_id is not None else id_from_name(target.resolve().name)
    if not SET_ID.fullmatch(sid):
        raise _refuse(target, "P005", f"--set-id '{sid[:64]}' is not a set id (lower-case letters, digits and -, "
                                      "starting with a letter)")
    if plugin_for(sid) is not None:
        raise _refuse(target, "P005", f"'{sid}' is the game id of an installed game plugin; choose another "
                                      "with --set-id")
    if target.is_symlink() and not target.exists():  # (a rename onto it would fail naming cardkit's own stage)
        raise _refuse(target, "P004", "cannot write the starter here: it is a symlink to a folder that does not exist "
                                      "(nothing was written)")
    if target.exists() and not target.is_dir():
        raise _refuse(target, "P004", "cannot write the starter here: it is a file")
    if target.is_dir() and any(target.iterdir()):
        raise _refuse(target, "P004", "cannot write the starter into a folder that is not empty (nothing was written)")
    parent = target.resolve().parent
    if not parent.is_dir():
        raise _refuse(target, "P004", f"cannot write the starter: the folder {parent} does not exist")
    check_write(target)
    stage = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
    allow_writes(stage)  # (cardkit's own fresh folder, renamed into place at the end)
    try:
        _write_starter(stage, sid)
        files = tuple(sorted(p.relative_to(stage).as_posix() for p in stage.rglob("*") if p.is_file()))
        if target.is_dir():  # an empty folder (checked above), perhaps the current one: fill it
            for child in sorted(stage.iterdir()):
                os.replace(child, target / child.name)
            stage.rmdir()
        else:
            os.replace(stage, target)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return InitResult(target, sid, files)


def _write_starter(root: Path, sid: str) -> None:
    from cardkit.i18n.budget import translation_domains
    from cardkit.i18n.catalogs import plan_update, write_plans
    from cardkit.load.project import core_schemas, derived_schemas, load_project

    for src, dst in LAYOUT.items():
        atomic_write_bytes(root / dst.format(set=sid),
                           (STARTER / src).read_bytes().replace(PLACEHOLDER.encode(), sid.encode()))
    project = load_project(root)
    if project.issues:  # the starter itself is broken: a bug of this cardkit, not of the user's input
        raise CardkitError(project.issues)
    derived_schemas(project, write=True)
    core_schemas(root, write=True)
    for domain, strings, budgets in translation_domains(project):  # templates, and catalogs merged with them
        write_plans(plan_update(root, domain, strings, list(LOCALES), budgets))
