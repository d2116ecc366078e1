"""Semantic checks on a loaded card set that hold for any game.

Each checker takes a :class:`LoadedSet` and returns issues located at the YAML
node that is wrong.  They run after the schema pass, and only when every file
of the set passed it (see :func:`run_checks`), so one typo does not cascade.
Besides these, the set's game plugin adds the checks only its code can state
(:mod:`cardkit.games`).

Codes (documented in ``docs/errors.md``):

=====  ==========================================================
C001   duplicate id (reported by the loader)
C002   a ``ref`` field names no card of the kind it declares
C003   a ``unique`` field repeats a value, or a ``sequence`` field's
       values do not run 1..N over the kind's cards
C005   physical card count differs from the manifest
C010   unknown effect kind (reported by the loader)
C013   unknown icon token or unbalanced markup in an English string, or
       markup the layout does not interpret and would print as it is
       (``[[Trait]]``, ``<cite>``, ``&amp;``, a ``\\n`` typed as two
       characters: :func:`cardkit.text.raw_markup`)
C021   a control or bidi character in an English string
=====  ==========================================================
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from cardkit.errors import Issue
from cardkit.load import kinds as kindsmod
from cardkit.load.project import LoadedSet
from cardkit.load.schema import short
from cardkit.text import markup_problems, plural_problems, raw_markup_problems

Checker = Callable[[LoadedSet], list[Issue]]
_ANY_CHECKS: list[Checker] = []


def _any(fn: Checker) -> Checker:
    _ANY_CHECKS.append(fn)
    return fn


@_any
def check_card_count(ls: LoadedSet) -> list[Issue]:
    s = ls.set
    assert s is not None
    total = s.physical_count()
    if total == s.cards_total:
        return []
    manifest = f"{s.directory}/set.yaml"
    line, col = ls.docs[manifest].mark(("components", "cards"))
    by_kind: Counter[str] = Counter()
    for c in s.cards.values():
        by_kind[c.kind] += c.quantity
    message = f"the card files hold {total} physical cards but the manifest declares {s.cards_total}"
    detail = ", ".join(f"{k} {n}" for k, n in sorted(by_kind.items()))
    if len(message) + len(detail) < 130:  # the count by kind while the line stays readable (under 200 characters)
        message += f" (by kind: {detail})"
    return [Issue("C005", message, file=manifest, line=line, column=col)]


@_any
def check_markup(ls: LoadedSet) -> list[Issue]:
    if ls.faces_unreadable:  # the set's own icon tokens are not known (its faces.yaml was refused)
        return []
    out = []
    for s in ls.set.strings if ls.set else ():
        texts = (s.text,) if s.plural is None else (s.text, s.plural)
        for text in texts:
            for problem in markup_problems(text, icons=ls.icons) + raw_markup_problems(text, icons=ls.icons):
                out.append(Issue("C013", f"{s.msgctxt}: {problem}", file=s.file, line=s.line, column=1))
    return out


@_any
def check_controls(ls: LoadedSet) -> list[Issue]:
    """C021: a control or bidi character in an English string (:mod:`cardkit.controls`)."""
    from cardkit.controls import source_issues

    return source_issues(ls.set.strings if ls.set else ())


@_any
def check_plural_strings(ls: LoadedSet) -> list[Issue]:
    """A plural message's ``count`` names a placeholder of its singular and plural."""
    return [Issue("C020", problem, file=s.file, line=s.line, column=s.column)
            for s in (ls.set.strings if ls.set else ()) for problem in plural_problems(s.msgctxt, s.text, s.plural, s.count)]


@_any
def check_refs(ls: LoadedSet) -> list[Issue]:
    """Every ``ref`` value names a card of the kind the field declares."""
    s = ls.set
    assert s is not None and ls.kinds is not None
    out = []
    for card in s.cards.values():
        spec = ls.kinds.kinds.get(card.kind)
        if spec is None:
            continue
        for name, fspec in spec.fields.items():
            if name not in card.fields:
                continue
            for path, target_id, to in kindsmod.refs(card.fields[name], fspec, (name,)):
                target = s.cards.get(target_id)
                if target is None or target.kind != to:
                    what = f"a {target.kind} card" if target is not None else "no card"
                    out.append(ls.issue("C002", f"'{card.id}' names {to} '{target_id}', but that is {what} "
                                                f"(field {'.'.join(map(str, path))})", card.origin, *path))
    return out


@_any
def check_unique(ls: LoadedSet) -> list[Issue]:
    """``unique`` fields differ over a kind's cards; ``sequence`` fields run 1..N."""
    s = ls.set
    assert s is not None and ls.kinds is not None
    out = []
    for kind in ls.kinds.kinds.values():
        cards = s.cards_of(kind.name)
        for name, fspec in kind.fields.items():
            if not fspec.unique:
                continue
            seen: dict[Any, str] = {}
            for c in cards:
                if name not in c.fields:
                    continue
                v = c.fields[name]
                key = repr(v)
                if key in seen:
                    out.append(ls.issue("C003", f"{kind.name} '{c.id}' repeats {name} {short(v)} of '{seen[key]}'", c.origin, name))
                else:
                    seen[key] = c.id
            if fspec.sequence:
                for c in cards:
                    v = c.fields.get(name)
                    if isinstance(v, int) and not 1 <= v <= len(cards):
                        out.append(ls.issue("C003", f"{kind.name} '{c.id}' has {name} {v}; the {len(cards)} {kind.name} "
                                                    f"cards number 1-{len(cards)}", c.origin, name))
    return out


def run_checks(ls: LoadedSet) -> list[Issue]:
    """All applicable checks (the game plugin's too); they need a schema-clean set."""
    from cardkit.plugins import plugin_for

    if ls.set is None or not ls.schema_clean:
        return []
    issues: list[Issue] = []
    for fn in _ANY_CHECKS:
        issues.extend(fn(ls))
    plugin = plugin_for(ls.set.game)
    if plugin is not None and plugin.checks is not None:
        for fn in plugin.checks():
            issues.extend(fn(ls))
    return issues
