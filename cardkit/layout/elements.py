"""Plugin elements: drawings a face file cannot state as data.

A plugin is a function registered under the entry point group
``cardkit.face_elements``::

    def draw(ctx: ElementContext, box: tuple[float, float, float, float], params: Mapping[str, Any]) -> None

``ctx`` (:class:`cardkit.layout.compose.ElementContext`) carries the card's
fields (``ctx.fields``), the ops list to append to (``ctx.ops``), the locale,
the font book, build options (``ctx.options["units"]``), named text styles
(``ctx.style(name)``) and the text code (``ctx.text``, ``ctx.ui``,
``ctx.card_string``), so every string a plugin places is fitted and recorded
for the translation fit check like any other.  ``box`` is the element's box
in points; ``params`` the element's ``params`` mapping from the face file.
"""

from __future__ import annotations

import functools
from importlib.metadata import entry_points
from typing import Any, Callable

GROUP = "cardkit.face_elements"


@functools.lru_cache(maxsize=None)
def available() -> dict[str, Any]:
    """Registered plugin elements by name (entry points, loaded lazily)."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


@functools.lru_cache(maxsize=None)
def plugin(name: str) -> Callable[..., None]:
    from cardkit.errors import CardkitError

    ep = available().get(name)
    if ep is None:
        raise CardkitError(f"no plugin element '{name}' is installed (entry point group {GROUP})", code="M007")
    fn: Callable[..., None] = ep.load()
    return fn
