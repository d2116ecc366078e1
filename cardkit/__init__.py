"""cardkit: card data, localization, print-and-play sheets and an embedded rules engine."""

from cardkit import _compiled

# before any engine module is imported: the compiled engine, or its sources when
# they changed since it was built (see cardkit/_compiled.py)
_compiled.activate()
