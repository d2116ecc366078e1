"""T310: a control or bidi character in a translation.

The reading of such characters is :mod:`cardkit.controls` (the loader's C021 for the English
uses it too, so it stands on a lower floor than the translation tools); this module registers
it as an entry check.
"""

from __future__ import annotations

from cardkit.controls import check_controls
from cardkit.i18n.registry import Code, E, Scope, check

check(Scope.ENTRY, Code("T310", E, "a control character or a bidi embedding, override or isolate (U+202A-202E, U+2066-2069): the card, a terminal and the review page would disagree on what it shows"))(check_controls)
