"""``cardkit preview``: a local page that redraws the faces a saved change touches."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cardkit.errors import CardkitError
from cardkit.cli.app import app
from cardkit.cli.common import SET_HELP, RootOpt


@app.command("preview")
def preview_cmd(root: RootOpt = Path("."),
                set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
                locale: Annotated[str, typer.Option("--locale", help="the locale the page opens in (it can switch)")] = "en",
                port: Annotated[int, typer.Option("--port", min=0, max=65535, help="port on 127.0.0.1 (default: a free one)")] = 0,
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
