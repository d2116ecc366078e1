"""Element kind ``plugin``: a drawing a face file cannot state as data.

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
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from cardkit.errors import CardkitError
from cardkit.layout.elements import BOX, ElementKind

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face

GROUP = "cardkit.face_elements"


@functools.lru_cache(maxsize=None)
def available() -> dict[str, Any]:
    """Registered plugin elements by name (entry points, loaded lazily)."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


@functools.lru_cache(maxsize=None)
def installed(name: str) -> Callable[..., None]:
    """The drawing function of the plugin element ``name``; M007 when none is installed."""
    ep = available().get(name)
    if ep is None:
        raise CardkitError(f"no plugin element '{name}' is installed (entry point group {GROUP})", code="M007")
    fn: Callable[..., None] = ep.load()
    return fn


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    from cardkit.layout.compose import ElementContext  # (compose reads this package: the context is its own)

    L = c.length
    x, y, w, h = el["box"]
    installed(el["name"])(ElementContext(c, face, s), (origin[0] + L(x, s), origin[1] + L(y, s), L(w, s), L(h, s)),
                          el.get("params") or {})



def shows(r: Any, el: Mapping[str, Any], s: Any, seen: tuple[str, ...]) -> None:
    for p in el.get("reads") or []:
        r.resolve(p, s, True)

SCHEMA = {
    "required": ["name", "box"],
    "properties": {
        "name": {"type": "string"},
        "box": dict(BOX),
        "params": {"type": "object"},
        "reads": {
            "type": "array",
            "maxItems": 100,
            "items": {"type": "string", "minLength": 1, "maxLength": 200},
            "description": "the card paths the plugin draws from (table, deployment.zones ...): validate checks they exist and counts them as shown",
        },
    },
}

KIND = ElementKind(
    name="plugin",
    order=150,
    doc="a registered drawing that cannot be data: `name`, `box`, `params`, `reads` (below)",
    schema=SCHEMA,
    draw=draw,
    shows=shows,
)
