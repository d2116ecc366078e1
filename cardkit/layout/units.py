"""Lengths with units, converted to PDF points once, here.

>>> to_pt("63mm")
178.58267716535434
>>> to_pt("0.125in"), to_pt("9pt"), to_pt(12)
(9.0, 9.0, 12.0)
"""

from __future__ import annotations

import math
import re

from cardkit.errors import CardkitError

MM = 72 / 25.4
INCH = 72.0
_UNITS = {"mm": MM, "cm": 10 * MM, "in": INCH, "pt": 1.0}
_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)\s*$")


def to_pt(value: str | float | int) -> float:
    """Convert ``"63mm"``, ``"0.125in"``, ``"9pt"`` or a bare number (points)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _finite(float(value), value)
    m = _RE.match(str(value))
    if not m:
        raise CardkitError(f"bad length {value!r}: use a number with mm, cm, in or pt", code="U001")
    return _finite(float(m.group(1)) * _UNITS[m.group(2)], value)


def _finite(result: float, source: object) -> float:
    if not math.isfinite(result):
        raise CardkitError(f"length {str(source)[:40]!r} is not a finite number", code="M009")
    return result


def pt_to_mm(value: float) -> float:
    return value / MM


# ------------------------------------------------------------- expressions
# Face data may write a length as arithmetic over lengths and names:
# ``"W - 4.4mm"``, ``"62.5mm - i*11mm"``, ``"H*0.5"``.  ``W``/``H`` are the
# card's width and height, ``i`` the index in a repeat; other names are looked
# up in the caller's scope (numbers only).  Bare numbers are points (or plain
# factors next to ``*`` and ``/``).
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)(mm|cm|in|pt)?|([A-Za-z_][A-Za-z0-9_.]*)|(\S))")


class _Expr:
    __slots__ = ("source", "const", "code")

    def __init__(self, source: str, const: float | None, code: object) -> None:
        self.source, self.const, self.code = source, const, code


def _parse(source: str) -> _Expr:
    toks: list[tuple[str, object]] = []
    pos = 0
    text = source.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise CardkitError(f"bad length {source!r}", code="U001")
        pos = m.end()
        if m.group(1) is not None:
            toks.append(("num", float(m.group(1)) * _UNITS[m.group(2)] if m.group(2) else float(m.group(1))))
        elif m.group(3) is not None:
            toks.append(("name", m.group(3)))
        elif m.group(4) in "+-*/()":
            toks.append(("op", m.group(4)))
        else:
            raise CardkitError(f"bad length {source!r}: unexpected {m.group(4)!r}", code="U001")
    i = 0

    def peek() -> tuple[str, object] | None:
        return toks[i] if i < len(toks) else None

    def atom() -> object:
        nonlocal i
        t = peek()
        if t is None:
            raise CardkitError(f"bad length {source!r}: ends too early", code="U001")
        i += 1
        if t == ("op", "("):
            e = add()
            if peek() != ("op", ")"):
                raise CardkitError(f"bad length {source!r}: missing ')'", code="U001")
            i += 1
            return e
        if t == ("op", "-"):
            return ("neg", atom())
        if t[0] in ("num", "name"):
            return t
        raise CardkitError(f"bad length {source!r}: unexpected {t[1]!r}", code="U001")

    def mul() -> object:
        nonlocal i
        e = atom()
        while peek() in (("op", "*"), ("op", "/")):
            op = toks[i][1]
            i += 1
            e = (op, e, atom())
        return e

    def add() -> object:
        nonlocal i
        e = mul()
        while peek() in (("op", "+"), ("op", "-")):
            op = toks[i][1]
            i += 1
            e = (op, e, mul())
        return e

    code = add()
    if i != len(toks):
        raise CardkitError(f"bad length {source!r}: unexpected {toks[i][1]!r}", code="U001")
    const = None if any(t[0] == "name" for t in toks) else _finite(_eval(code, {}), source)
    return _Expr(source, const, code)


def _eval(code: object, names: dict[str, float]) -> float:
    tag = code[0]  # type: ignore[index]
    if tag == "num":
        return code[1]  # type: ignore[index,return-value]
    if tag == "name":
        try:
            value = float(names[code[1]])  # type: ignore[index]
        except KeyError:
            raise CardkitError(f"unknown name {code[1]!r} in a length", code="U001") from None  # type: ignore[index]
        except (TypeError, ValueError):  # a name bound to a string or a list (a var, a card field)
            raise CardkitError(f"name {code[1]!r} in a length is not a number", code="U001") from None  # type: ignore[index]
        if not math.isfinite(value):
            raise CardkitError(f"name {code[1]!r} in a length is not a finite number", code="M009")  # type: ignore[index]
        return value
    if tag == "neg":
        return -_eval(code[1], names)  # type: ignore[index]
    a, b = _eval(code[1], names), _eval(code[2], names)  # type: ignore[index]
    if tag == "/" and b == 0:
        raise CardkitError("a length divides by zero", code="M009")
    out = a + b if tag == "+" else a - b if tag == "-" else a * b if tag == "*" else a / b
    if not math.isfinite(out):  # (a name's value may be NaN or huge)
        raise CardkitError("a length is not a finite number", code="M009")
    return out


_CACHE: dict[str, _Expr] = {}


def compile_length(value: str | float | int) -> _Expr:
    """Parse a length expression once (raises U001 when malformed)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _Expr(str(value), _finite(float(value), value), None)
    key = str(value)
    e = _CACHE.get(key)
    if e is None:
        e = _CACHE[key] = _parse(key)
    return e


def names_in(value: str | float | int) -> set[str]:
    """The names a length expression reads (for validation)."""
    e = compile_length(value)
    out: set[str] = set()

    def walk(c: object) -> None:
        if isinstance(c, tuple):
            if c[0] == "name":
                out.add(c[1])  # type: ignore[arg-type]
            else:
                for x in c[1:]:
                    walk(x)

    walk(e.code)
    return out


def length(value: str | float | int, names: dict[str, float]) -> float:
    """Evaluate a length (``"63mm"``, ``12``, ``"W/2 - 13mm"``) in points."""
    if type(value) is float or type(value) is int:  # (a plain number: no expression to build)
        return _finite(float(value), value)
    e = (_CACHE.get(value) if type(value) is str else None) or compile_length(value)
    return e.const if e.const is not None else _eval(e.code, names)
