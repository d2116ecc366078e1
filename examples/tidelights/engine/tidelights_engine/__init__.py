"""The rules engine of Tidelights, cardkit's example co-operative push-your-luck card game.

Installed beside the game's data (``pip install ./examples/tidelights/engine``), it registers
the game plugin ``tidelights`` (entry point group ``cardkit.games``); cardkit playtests the game
through the typed engine protocol (:mod:`cardkit.rules.protocol`) alone."""

from cardkit.compiling import activate_package

# before any module of the engine is imported: its compiled build (CARDKIT_COMPILE=1 at install,
# hatch_build.py) when there is one and it matches the sources, else the sources
activate_package(__name__, __file__)
