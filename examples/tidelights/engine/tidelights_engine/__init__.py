"""The rules engine of Tidelights, cardkit's example co-operative push-your-luck card game.

Installed beside the game's data (``pip install ./examples/tidelights/engine``), it registers
the game plugin ``tidelights`` (entry point group ``cardkit.games``); cardkit playtests the game
through the typed engine protocol (:mod:`cardkit.rules.protocol`) alone."""
