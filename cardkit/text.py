"""The small markup language of card strings, shared by checks, layout and print.

A card string is plain text with three kinds of markup:

* icon tokens in square brackets, drawn as vector icons scaled with the text:
  cardkit's few built-in signs ``[skull]``, ``[arrow-up]`` ...
  (:data:`TOKEN_NAMES`) and, in a set's own strings, the set's SVG icons
  (the names under ``icons:`` in its ``faces.yaml``), passed as ``icons``;
* emphasis tags ``<b>...</b>`` and ``<i>...</i>``;
* run-time placeholders ``{name}`` (used by narrative strings, not card faces).

Any other ``<``, ``>`` or ``&`` is ordinary text: the renderer draws glyphs
itself, so nothing is ever interpreted as reportlab markup.

>>> [(r.kind, r.value, r.bold) for r in parse_runs("Roll a [skull]: <b>dead</b>")]
[('text', 'Roll a ', False), ('icon', 'skull', False), ('text', ': ', False), ('text', 'dead', True)]
>>> markup_problems("a [skul] <b>b")
["unknown icon token '[skul]'", "unclosed tag '<b>'"]
>>> [r.kind for r in parse_runs("[lamp]")], [r.kind for r in parse_runs("[lamp]", icons=frozenset({"lamp"}))]
(['text'], ['icon'])
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TOKEN_NAMES = frozenset({"skull", "arrow-up", "arrow-down", "arrow-left", "arrow-right"})
TAGS = ("b", "i")

# an icon name: the identifier rule of card ids (lower-case letters, digits, '_'), and the '-' of the built-in
# arrow-up; schemas/face.schema.json says the same for the names under `icons:`
ICON_NAME = r"[a-z][a-z0-9_-]{0,63}"
TOKEN_RE = re.compile(rf"\[({ICON_NAME})\]")
TAG_RE = re.compile(r"</?(b|i)>")
PLACEHOLDER_RE = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
MARKUP_RE = re.compile(rf"\[({ICON_NAME})\]|<(/?)(b|i)>")
# What looks like markup but is none of the above, so that the layout prints it as it is: markup of other
# tools (a card database's [[Trait]] and [auto_fail], HTML <cite>, <u>, <br/>, entities &amp; &#8212;) and
# escapes typed as two characters (\n, \t, \u2014) where a PO file or a spreadsheet was not decoded
RAW_MARKUP_RE = re.compile(
    r"\[\[[^\[\]\n]{1,80}\]\]"  # [[Trait]]
    r"|\[[^\[\]\s][^\[\]\n]{0,80}\]"  # [Trait], [auto fail], [skul]
    r"|</?[A-Za-z][A-Za-z0-9:-]*(?:\s[^<>\n]{0,200})?/?>"  # <cite>, </u>, <br/>, <span class="x">
    r"|&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"  # &amp; &#8212; &#x2014;
    r"|\\(?:u[0-9A-Fa-f]{4}|[nrt\"'\\])")  # \n \t \" \\ \u2014


@dataclass(frozen=True)
class Run:
    kind: str  # "text" or "icon"
    value: str
    bold: bool = False
    italic: bool = False


def parse_runs(text: str, icons: frozenset[str] = frozenset()) -> list[Run]:
    """Split a string into text and icon runs carrying their emphasis.  A token
    is an icon when it is built in or one of the set's own ``icons``; unknown
    ``[words]`` stay text (the checks report them)."""
    runs: list[Run] = []
    bold = italic = False
    pos = 0
    for m in MARKUP_RE.finditer(text):
        if m.group(1) is not None and m.group(1) not in TOKEN_NAMES and m.group(1) not in icons:
            continue
        if m.start() > pos:
            runs.append(Run("text", text[pos:m.start()], bold, italic))
        if m.group(1) is not None:
            runs.append(Run("icon", m.group(1), bold, italic))
        else:
            on = m.group(2) == ""
            if m.group(3) == "b":
                bold = on
            else:
                italic = on
        pos = m.end()
    if pos < len(text):
        runs.append(Run("text", text[pos:], bold, italic))
    return runs


def tokens(text: str) -> list[str]:
    """Icon tokens in order of appearance, known or not."""
    return TOKEN_RE.findall(text)


def tags(text: str) -> list[str]:
    return [m.group(0) for m in TAG_RE.finditer(text)]


def placeholders(text: str) -> list[str]:
    return PLACEHOLDER_RE.findall(text)


def plural_problems(msgctxt: str, text: str, plural: str | None, count: str | None) -> list[str]:
    """What is wrong with a plural message's declaration: its ``count`` must be a
    placeholder of both the singular and the plural.

    >>> plural_problems("x", "{n} card", "cards", "n")
    ["x: the plural text has no {n} placeholder, but 'count' names it"]
    """
    if plural is None or count is None:
        return []
    return [f"{msgctxt}: the {which} text has no {{{count}}} placeholder, but 'count' names it"
            for which, t in (("singular", text), ("plural", plural)) if count not in placeholders(t)]


def raw_markup(text: str, icons: frozenset[str] = frozenset()) -> list[str]:
    """Everything in ``text`` that looks like markup but that :func:`parse_runs`
    (the layout's one reading of markup) leaves in its text runs, so that it
    prints as it is; an unknown ``[name]`` token is left to
    :func:`markup_problems`.

    >>> raw_markup("Gain 1 [[Ally]]: <cite>Dr. A</cite> &amp; [Fast] [auto_fail] [skull]")
    ['[[Ally]]', '<cite>', '</cite>', '&amp;', '[Fast]']
    >>> raw_markup("Line one" + chr(92) + "nLine two") == [chr(92) + "n"]
    True
    >>> raw_markup("[auto_fail] and 3 < 4 > 2 & <b>more</b>", icons=frozenset({"auto_fail"}))
    []
    >>> raw_markup("Spend [[skull]]")
    ['[[skull]]']
    """
    out: list[str] = []
    for m in RAW_MARKUP_RE.finditer(text):
        found = m.group(0)
        interpreted = all(r.kind == "icon" for r in parse_runs(found, icons))  # an icon, or a tag of emphasis
        if not interpreted and not _unknown_token(found, icons):
            out.append(found)
    return out


def _unknown_token(found: str, icons: frozenset[str]) -> bool:
    m = TOKEN_RE.fullmatch(found)
    return m is not None and m.group(1) not in TOKEN_NAMES and m.group(1) not in icons


def raw_markup_problems(text: str, icons: frozenset[str] = frozenset()) -> list[str]:
    """One line per :func:`raw_markup` item: what prints raw, and why."""
    out = []
    for raw in raw_markup(text, icons):
        if raw.startswith("["):
            why = "not an icon of the set (icons are the built-in ones and the names under 'icons:' in faces.yaml)"
        elif raw.startswith("<"):
            why = "only <b> and <i> are tags"
        elif raw.startswith("&"):
            why = "entities are not decoded; write the character itself"
        else:
            why = "an escape typed as characters; write the character itself (a new line as a line break)"
        out.append(f"'{raw}' prints as it is on the card: {why}")
    return out


def markup_problems(text: str, icons: frozenset[str] = frozenset()) -> list[str]:
    """Unknown icon tokens (neither built in nor one of the set's own ``icons``)
    and unbalanced or mis-nested emphasis tags."""
    problems = [f"unknown icon token '[{t}]'" for t in tokens(text) if t not in TOKEN_NAMES and t not in icons]
    stack: list[str] = []
    for m in TAG_RE.finditer(text):
        tag = m.group(1)
        if m.group(0).startswith("</"):
            if not stack or stack[-1] != tag:
                problems.append(f"closing tag '</{tag}>' without a matching '<{tag}>'")
            else:
                stack.pop()
        else:
            if tag in stack:
                problems.append(f"tag '<{tag}>' opened twice")
            stack.append(tag)
    problems.extend(f"unclosed tag '<{t}>'" for t in stack)
    return problems
