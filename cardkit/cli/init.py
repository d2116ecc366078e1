"""``cardkit init``: a starter game folder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


from cardkit.cli.app import app
from cardkit.cli.common import allow_writes


@app.command()
def init(folder: Annotated[Path, typer.Argument(help="the folder to create (it must not exist, or be empty)", callback=allow_writes)],
         set_id: Annotated[Optional[str], typer.Option("--set-id", help="the set's id (default: made from the folder name)")] = None) -> None:
    """Write a starter game folder: a set with two kinds of card, faces, interface
    strings, four cards, Finnish and Korean catalogs and glossaries, and the
    schemas editors validate with.  It validates and builds at once."""
    from cardkit.scaffold import init_project

    result = init_project(folder, set_id)
    typer.echo(f"wrote {result.path} (set '{result.set_id}', {len(result.files)} files); next: "
               f"cardkit validate --root {result.path}")
