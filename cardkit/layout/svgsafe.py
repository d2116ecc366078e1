"""An untrusted SVG icon, checked before svglib sees it.

svglib follows ``<image href>`` and ``<use href>`` to other files, decodes
embedded raster images without a size limit and renders whatever numbers and
element counts a file holds.  :func:`sanitise_svg` parses the bytes itself
(no entities resolved, no DTD loaded, no network) and refuses, one located line
each (the SVG file, the line of the element):

* a reference out of the icon (M050): ``href``/``xlink:href`` to anything but a
  ``#fragment`` of the same file or an embedded PNG/JPEG, a CSS ``url()`` to
  anything but a fragment, ``@import``, an ``xml-stylesheet`` instruction;
* a document type with an internal subset or a system id, or an entity
  reference (M051): the ways XML names other files;
* more than :data:`MAX_ELEMENTS` elements or elements nested more than
  :data:`MAX_DEPTH` deep (M052), or more than
  :data:`MAX_PATH_DATA` characters of path and point data (M053): the budgets
  that keep a 1 MiB file from taking minutes and hundreds of megabytes;
* a number that is not finite, larger than :data:`MAX_NUMBER` in magnitude, or a
  view box or size that is not positive (M054);
* an embedded image that is not a readable PNG or JPEG (I003) or has more than
  :data:`MAX_IMAGE_PIXELS` pixels, read from its header before any decoding (I004).

The message quotes at most the first characters of a reference as the file
writes it, never anything read from elsewhere.

>>> ok = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0 H10 V10 Z"/></svg>'
>>> sanitise_svg(ok, "icons/a.svg").tag
'{http://www.w3.org/2000/svg}svg'
>>> bad = b'<svg xmlns="http://www.w3.org/2000/svg"><image href="../../x.png"/></svg>'
>>> try:
...     sanitise_svg(bad, "icons/a.svg")
... except CardkitError as exc:
...     print(exc.issues[0].format())
icons/a.svg:1:1: error[M050]: <image> refers to '../../x.png' outside the icon; an icon may only refer to its own elements (#id) or embed a PNG/JPEG
"""

from __future__ import annotations

import base64
import binascii
import io
import math
import re
import warnings
from typing import Any

from cardkit.errors import CardkitError, Issue

MAX_DEPTH = 64  # elements inside elements: svglib and reportlab recurse once a level (the bundled icons nest 3 deep)
MAX_ELEMENTS = 2_000  # the bundled icons have under 20; a 1 MiB file can hold 100,000 (svglib: about 0.4 ms each)
MAX_PATH_DATA = 200_000  # characters of `d` and `points` in one file
MAX_NUMBER = 1e6  # user units; icons are drawn in a few hundred
MAX_IMAGE_PIXELS = 4_000_000  # one embedded raster (an icon is drawn at a few hundred pixels)
MAX_ISSUES = 20  # per file

XLINK = "{http://www.w3.org/1999/xlink}href"
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_NONFINITE = re.compile(r"(?<![A-Za-z])(?:inf(?:inity)?|nan)(?![A-Za-z])", re.IGNORECASE)
_URL = re.compile(r"url\(\s*['\"]?([^'\")]*)", re.IGNORECASE)
_DATA = re.compile(r"^data:image/(png|jpe?g);base64,", re.IGNORECASE)
_TEXT_ATTRS = {"id", "class", "href", XLINK, "font-family", "lang", "{http://www.w3.org/XML/1998/namespace}lang",
               "{http://www.w3.org/XML/1998/namespace}space"}
_NAMESPACED_TEXT = ("{http://www.inkscape.org/namespaces/inkscape}", "{http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd}")
_W3C_DTD = re.compile(r"^https?://www\.w3\.org/Graphics/SVG/1\.[01]/DTD/svg1[01](-(tiny|basic))?\.dtd$")


def _short(text: str, n: int = 60) -> str:
    text = "".join(ch if ch.isprintable() else "?" for ch in text.strip())
    return text if len(text) <= n else text[: n - 3] + "..."


class _Checker:
    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.issues: list[Issue] = []

    def add(self, code: str, message: str, line: int | None) -> None:
        if len(self.issues) < MAX_ISSUES:
            self.issues.append(Issue(code, message, file=self.rel, line=line or 1, column=1))

    def reference(self, what: str, ref: str, line: int | None) -> None:
        self.add("M050", f"{what} refers to '{_short(ref)}' outside the icon; an icon may only refer to its own "
                         "elements (#id) or embed a PNG/JPEG", line)

    def css(self, text: str, what: str, line: int | None) -> None:
        if "@import" in text.lower():
            self.add("M050", f"{what} imports a style sheet (@import); an icon's styles must be its own", line)
            return
        for m in _URL.finditer(text):
            if not m.group(1).strip().startswith("#"):
                self.reference(what, f"url({m.group(1)})", line)
                return

    def numbers(self, text: str, what: str, line: int | None) -> None:
        m = _NONFINITE.search(text)
        if m:
            self.add("M054", f"{what} holds '{_short(m.group(0), 12)}'; numbers must be finite", line)
            return
        for m in _NUMBER.finditer(text):
            value = float(m.group(0))
            if not math.isfinite(value) or abs(value) > MAX_NUMBER:
                self.add("M054", f"{what} holds the number {_short(m.group(0), 24)}; at most {MAX_NUMBER:g} in magnitude", line)
                return

    def image(self, href: str, line: int | None) -> None:
        """An embedded raster: PNG or JPEG, and within the pixel budget by its header."""
        from PIL import Image, UnidentifiedImageError

        try:
            raw = base64.b64decode(href[_DATA.match(href).end():].strip(), validate=False)  # type: ignore[union-attr]
        except (binascii.Error, ValueError):
            self.add("I003", "an embedded image is not valid base64", line)
            return
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                with Image.open(io.BytesIO(raw)) as im:
                    if im.format not in ("PNG", "JPEG"):
                        self.add("I003", f"an embedded image is {im.format}, not PNG or JPEG", line)
                        return
                    if im.width * im.height > MAX_IMAGE_PIXELS:
                        self.add("I004", f"an embedded image has {im.width} x {im.height} pixels; the limit is "
                                         f"{MAX_IMAGE_PIXELS:,} (decompression bomb?)", line)
                        return
                    im.load()
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            self.add("I004", "an embedded image was refused as a decompression bomb", line)
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as exc:
            self.add("I003", f"an embedded image is not a readable PNG or JPEG ({_short(str(exc), 50)})", line)


def _parse(raw: bytes, rel: str) -> Any:
    from lxml import etree  # type: ignore[import-untyped]

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                             huge_tree=False, remove_comments=True)
    try:
        return etree.fromstring(raw, parser)
    except etree.XMLSyntaxError as exc:
        line, col = exc.position if exc.position else (1, 1)
        msg = str(exc.msg or exc).split(", line ")[0]
        raise CardkitError(Issue("M008", f"not a readable SVG: {_short(msg, 100)}", file=rel, line=max(line, 1),
                                 column=max(col, 1))) from None
    except (ValueError, etree.Error) as exc:
        raise CardkitError(Issue("M008", f"not a readable SVG: {_short(str(exc), 100)}", file=rel, line=1, column=1)) from None


def _count_elements(raw: bytes, rel: str) -> None:
    """M052 before the whole tree is built: a streaming pass that stops at the
    first element over :data:`MAX_ELEMENTS` (100,000 elements in 800 KB took
    over 300 MB as a tree) or deeper than :data:`MAX_DEPTH` (a thousand nested
    groups exhaust svglib's recursion).  A file the stream cannot read is left to
    :func:`_parse`, which says why."""
    from lxml import etree

    stream = etree.iterparse(io.BytesIO(raw), events=("start", "end"), resolve_entities=False, no_network=True,
                             load_dtd=False, dtd_validation=False, huge_tree=False, remove_comments=True)
    n = depth = 0
    try:
        for what, node in stream:
            if what == "end":
                depth -= 1
                continue
            n += 1
            depth += 1
            if n > MAX_ELEMENTS:
                raise CardkitError(Issue("M052", f"more than {MAX_ELEMENTS:,} elements; an icon is drawn small, simplify it",
                                         file=rel, line=max(node.sourceline or 1, 1), column=1))
            if depth > MAX_DEPTH:
                raise CardkitError(Issue("M052", f"elements nested more than {MAX_DEPTH} deep; an icon is drawn small, "
                                                 "flatten its groups", file=rel, line=max(node.sourceline or 1, 1), column=1))
    except (etree.Error, ValueError):
        return


def sanitise_svg(raw: bytes, rel: str) -> Any:
    """The root element of an SVG icon that holds no reference out of itself and
    stays within the budgets; raise :class:`CardkitError` with every problem."""
    from lxml import etree

    _count_elements(raw, rel)
    root = _parse(raw, rel)
    check = _Checker(rel)
    tree = root.getroottree()
    info = tree.docinfo
    if info.internalDTD is not None or (info.system_url and not _W3C_DTD.match(info.system_url)):
        check.add("M051", "a document type with declarations or a file of its own; an icon may not name other files "
                          "through its DTD", 1)
    if etree.QName(root).localname != "svg":
        check.add("M008", f"the root element is <{_short(etree.QName(root).localname, 30)}>, not <svg>", root.sourceline)
    for node in root.itersiblings(preceding=True):
        if isinstance(node, etree._ProcessingInstruction) and "href" in (node.text or ""):
            check.add("M050", f"<?{node.target}?> refers to a style sheet outside the icon", node.sourceline)
    elements = 0
    path_data = 0
    dtd_refused = bool(check.issues)
    for node in root.iter():
        if isinstance(node, etree._Entity):
            if not dtd_refused:
                check.add("M051", f"entity reference &{_short(node.name, 30)}; is not allowed in an icon", node.sourceline)
            continue
        if isinstance(node, etree._ProcessingInstruction):
            if "href" in (node.text or ""):
                check.add("M050", f"<?{node.target}?> refers to a style sheet outside the icon", node.sourceline)
            continue
        if not isinstance(node.tag, str):
            continue
        elements += 1
        if elements == MAX_ELEMENTS + 1:
            check.add("M052", f"more than {MAX_ELEMENTS:,} elements; an icon is drawn small, simplify it", node.sourceline)
            break
        name = etree.QName(node).localname
        line = node.sourceline
        for attr in (XLINK, "href"):
            href = node.get(attr)
            if href is None:
                continue
            href = href.strip()
            if href.startswith("#"):
                continue
            if href.lower().startswith("data:"):
                if name == "image" and _DATA.match(href):
                    check.image(href, line)
                else:
                    check.add("I003", f"<{name}> embeds data other than a PNG or JPEG image", line)
                continue
            check.reference(f"<{name}>", href, line)
        for attr, value in node.attrib.items():
            if attr in (XLINK, "href"):
                continue
            if "url(" in value.lower() or attr == "style":
                check.css(value, f"<{name} {attr}>", line)
            if attr in ("d", "points"):
                path_data += len(value)
                if path_data > MAX_PATH_DATA:
                    check.add("M053", f"more than {MAX_PATH_DATA:,} characters of path data; simplify the icon", line)
                    break
            if attr in _TEXT_ATTRS or attr.startswith(_NAMESPACED_TEXT):
                continue
            check.numbers(value, f"<{name} {attr}>", line)
        if name == "style" and node.text:
            check.css(node.text, "<style>", line)
            check.numbers(node.text, "<style>", line)
        if len(check.issues) >= MAX_ISSUES or path_data > MAX_PATH_DATA:
            break
    _box(root, check)
    if check.issues:
        raise CardkitError(check.issues)
    return root


def _box(root: Any, check: _Checker) -> None:
    """A view box of four numbers with a positive size, and positive width/height."""
    line = root.sourceline
    box = root.get("viewBox")
    if box is not None:
        parts = [p for p in re.split(r"[\s,]+", box.strip()) if p]
        try:
            values = [float(p) for p in parts]
        except ValueError:
            values = []
        if len(values) != 4 or not all(math.isfinite(v) for v in values) or values[2] <= 0 or values[3] <= 0:
            check.add("M054", f"viewBox '{_short(box, 40)}' is not four numbers with a positive width and height", line)
    for attr in ("width", "height"):
        value = root.get(attr)
        if value is None or value.strip().endswith("%"):
            continue
        m = _NUMBER.match(value.strip())
        if m is None or float(m.group(0)) <= 0:
            check.add("M054", f"<svg {attr}> '{_short(value, 20)}' is not a positive length", line)
