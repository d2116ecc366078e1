"""The game plugin registry (a ground-floor service): what a game adds to cardkit beyond its data.

A set names its game in ``set.yaml`` (``game: my-game``).  Everything that
can be stated in data lives in the set (``kinds.yaml``, faces); what cannot is
the game's plugin, registered under the entry point group ``cardkit.games``
(name = the game's id, value = a :class:`GamePlugin` object), e.g. in
``pyproject.toml``::

    [project.entry-points."cardkit.games"]
    my-game = "my_game.plugin:PLUGIN"

Every hook is optional.  A set whose game has no plugin loads, validates,
translates and prints; ``cardkit playtest`` and ``cardkit rules`` say the game
has no rules engine.  Hooks are plain callables so that loading a plugin stays
cheap: each imports its own modules when first called.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Protocol

from cardkit.errors import CardkitError, Issue
from cardkit.model import CardSet
from cardkit.rules.protocol import Engine

# Nothing here imports the loader or the CLI toolkit, not even for type checking: this is a
# ground-floor service (docs/contributing.md), and mypyc type-checks the engine modules it
# compiles together with what they reach (this registry among them), in a build environment
# without the loader's and the CLI's dependencies.  So a checker takes
# the loader's ``LoadedSet`` and a command group is the toolkit's ``typer.Typer``,
# both as stated in the hook's documentation.

GROUP = "cardkit.games"

#: a message of the interface catalogs by id, with its arguments (``Localizer.ui``)
Ui = Callable[..., str]


class PlayabilityFact(Protocol):
    """What a game's ``playability`` hook says of a set in the build summary, worded in the
    reader's language: ``ui(id, **args)`` and ``ui_n(id, n, **args)`` read the set's own
    interface strings (then cardkit's), ``num`` formats a number for the locale."""

    @property
    def set_id(self) -> str: ...

    def line(self, ui: Ui, ui_n: Callable[..., str], num: Callable[[float], str]) -> str: ...


class CommandGroup(Protocol):
    """A game's own group of commands, as the CLI toolkit makes them: a ``typer.Typer``
    (named structurally here, see the note above); the CLI mounts it as ``cardkit <name>``."""

    @property
    def registered_commands(self) -> Sequence[object]: ...


@dataclass(frozen=True)
class Token:
    """One cardboard token of a game, drawn on the print-and-play token page as a
    disc to cut out: ``count`` discs of ``fill`` with ``icon`` (a built-in or set
    icon) in ``icon_colour`` above ``label`` (worded in the reader's language)."""

    count: int
    label: str
    fill: str
    icon: str | None = None
    icon_colour: str = "#1d1b18"


@dataclass(frozen=True)
class ManifestKeys:
    """What a game adds to the generic ``set.yaml`` schema besides its ``rules`` section:
    top-level ``keys`` and ``components`` counts, each name with its JSON Schema."""

    keys: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    components: Mapping[str, Mapping[str, object]] = field(default_factory=dict)


@dataclass(frozen=True)
class GamePlugin:
    """The Python side of one game.

    ``views(card_set) -> CardSet``: the set with the game's typed cards (which
    subclass the generic record) and manifest sections; the loader applies it.
    ``checks``: semantic checkers ``(LoadedSet) -> list[Issue]`` for rules that
    cannot be stated in ``kinds.yaml``; they run on a schema-clean set.
    ``effect_vocabularies() -> {name: kinds}`` and ``effect_schema() -> str``:
    the effect vocabulary that ``effects``/``effect`` fields use.
    ``manifest_schema() -> schema``: the JSON Schema (a mapping) of the game's own
    section of ``set.yaml`` (its ``rules`` mapping); the loader validates the
    section with it, every problem located like any schema error (a schema that
    is not valid JSON Schema: G040).  The player range is not part of it: every
    game states it in the generic ``players: {min, max}`` field
    (:func:`declared_players`).
    ``manifest_keys() -> ManifestKeys``: keys of ``set.yaml`` the game adds beside its
    ``rules`` section (top-level keys, and counts under ``components``), each with its JSON
    Schema; the loader validates the manifest against cardkit's schema extended by them (a
    key that redefines a generic one: G055; an extension that is no JSON Schema: G040).
    ``tokens(card_set, ui) -> tokens``: the game's own tokens (:class:`Token`, labels
    worded through ``ui(id)``), printed on the token page before the markers of the
    manifest's ``teams``.
    ``playability(root, card_set) -> fact``: what ``cardkit build``'s summary
    says of the set's playability (a :class:`PlayabilityFact`, worded through the
    set's interface strings in the reader's language).  ``engine() -> Engine``: the
    rules engine (:mod:`cardkit.rules.protocol`) that ``cardkit playtest`` and
    ``cardkit rules`` drive.  ``commands() -> (name, group)``: the game's own
    command group (a ``typer.Typer``, a :class:`CommandGroup`), mounted as ``cardkit <name>``.
    """

    name: str
    views: Callable[[CardSet], CardSet] | None = None
    checks: Callable[[], Sequence[Callable[..., list[Issue]]]] | None = None  # (LoadedSet) -> issues
    effect_vocabularies: Callable[[], Mapping[str, frozenset[str]]] | None = None
    effect_schema: Callable[[], str] | None = None
    manifest_schema: Callable[[], Mapping[str, object]] | None = None
    manifest_keys: Callable[[], ManifestKeys] | None = None
    tokens: Callable[[CardSet, Ui], Sequence[Token]] | None = None
    playability: Callable[[Path, CardSet], PlayabilityFact] | None = None
    engine: Callable[[], Engine] | None = None
    commands: Callable[[], tuple[str, CommandGroup]] | None = None
    extra: Mapping[str, object] = field(default_factory=dict)


#: plugins registered in-process (:func:`register`), over the installed ones
_REGISTERED: dict[str, GamePlugin] = {}


def register(plugin: GamePlugin) -> None:
    """Make ``plugin`` known in this process, under its name, before (and over)
    the installed ones: for a plugin's own tests and for tools that drive
    cardkit in-process (the CLI then finds it as if it were installed).
    :func:`unregister` undoes it.  Worker processes started fresh (in a process
    with other threads: :mod:`cardkit.workers`) are sent the plugin by pickle, so
    give its hooks as module-level functions; a plugin that cannot be pickled
    keeps the playtest's batches in this process."""
    _REGISTERED[plugin.name] = plugin


def unregister(name: str) -> None:
    _REGISTERED.pop(name, None)


def registered() -> dict[str, GamePlugin]:
    """The plugins registered in this process (:func:`register`), which a fresh worker process
    must be given (:func:`cardkit.workers.start_worker`)."""
    return dict(_REGISTERED)


def plugins() -> dict[str, GamePlugin]:
    """Every game plugin by game id: the registered ones, then the installed ones."""
    return {**_installed(), **_REGISTERED}


@functools.cache
def _installed() -> dict[str, GamePlugin]:
    """Every installed game plugin by game id (entry points are read once)."""
    found: dict[str, GamePlugin] = {}
    for ep in sorted(entry_points(group=GROUP), key=lambda e: (e.name, e.value)):
        if ep.name in found:
            continue
        plugin = ep.load()
        if isinstance(plugin, GamePlugin):
            found[ep.name] = plugin
    return found


def declared_players(card_set: CardSet) -> tuple[int, int] | None:
    """The player range ``set.yaml`` states in its generic ``players: {min, max}`` field, if it does."""
    players = card_set.manifest.get("players")
    return (int(players["min"]), int(players["max"])) if players else None


def plugin_for(game: str) -> GamePlugin | None:
    return plugins().get(game)


def engine_for(game: str, command: str) -> Engine:
    """The rules engine of ``game``, as every command that drives one asks for it
    (``playtest``, every ``rules`` command, the build summary, the
    benchmarks): a one-line error when the game has no engine (G008) or when its plugin's
    engine hook hands out something that is not the typed protocol (G032: a class, the old
    ``(Game, agents)`` pair, ...), checked here once for all of them."""
    plugin = plugin_for(game)
    if plugin is None or plugin.engine is None:
        raise CardkitError(f"game '{game}' has no rules engine, so `cardkit {command}` cannot play it "
                           f"(engines installed: {', '.join(n for n, p in sorted(plugins().items()) if p.engine) or 'none'})",
                           code="G008")
    got: object = plugin.engine()
    if isinstance(got, type) or not isinstance(got, Engine):
        raise CardkitError(f"the rules engine of game '{game}' does not implement the typed engine protocol "
                           "(cardkit.rules.protocol.Engine: info, new_game, abilities, agents, rollout_policy), "
                           f"so `cardkit {command}` cannot drive it", code="G032")
    return got
