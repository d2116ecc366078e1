"""Print-and-play output: compose every face, impose on sheets, render, write atomically.

This is porcelain: it calls the pure layout (:mod:`cardkit.layout`) and the only
PDF-drawing module (:mod:`cardkit.render.pdf`).  One module per job:

* :mod:`~cardkit.printing.compose`: compose a set in a locale and apply the fit rule
  (P010, W030), the cards grouped by size;
* :mod:`~cardkit.printing.place`: a face placed on a page (bleed, turn, product fit);
* page furniture, each reporting the fits of its texts
  (:class:`~cardkit.printing.fits.TextFit`): :mod:`~cardkit.printing.calibration`,
  :mod:`~cardkit.printing.tokens`, :mod:`~cardkit.printing.footer`, gathered for a sheet
  by :mod:`~cardkit.printing.furniture` (what ``l10n check`` reads);
* writers per output kind: :mod:`~cardkit.printing.pdf` (sheets),
  :mod:`~cardkit.printing.images` (a face per page, PNG, Tabletop Simulator); the print
  shops' files are :mod:`cardkit.print.shop`.

The names below are the package's public surface for the layers above.
"""

from __future__ import annotations

from cardkit.printing.calibration import calibration_pages, calibration_texts, help_box_layout
from cardkit.printing.compose import (
    UNITS,
    all_faces,
    compose_set,
    composed_once,
    english_where_too_long,
    faces_by_id,
    fit_issues,
    printable_set,
    size_groups,
)
from cardkit.printing.footer import LANGUAGE_NAMES, footer_place
from cardkit.printing.images import ImageFiles, build_png, build_tts, exact_png, face_files, face_pdf, faces_pdf
from cardkit.printing.pdf import CALIBRATION, BuildResult, SheetFacts, build_pdf, coverage_warnings
from cardkit.printing.place import fitted_face, place_face
from cardkit.printing.tokens import (
    TEAM_LABEL,
    TEAM_NAME,
    TOKEN_LABEL,
    TOKEN_MARGIN,
    TOKEN_R,
    TokenPageText,
    TokenText,
    TokenTextFit,
    game_tokens,
    token_page,
    token_page_fits,
    token_page_strings,
    token_text_fit,
)

__all__ = [
    "BuildResult", "CALIBRATION", "ImageFiles", "LANGUAGE_NAMES", "SheetFacts", "TEAM_LABEL", "TEAM_NAME",
    "TOKEN_LABEL", "TOKEN_MARGIN", "TOKEN_R", "TokenPageText", "TokenText", "TokenTextFit", "UNITS", "all_faces",
    "build_pdf", "build_png", "build_tts", "calibration_pages", "calibration_texts", "compose_set", "composed_once",
    "coverage_warnings", "english_where_too_long", "exact_png", "face_files", "face_pdf", "faces_by_id", "faces_pdf",
    "fit_issues", "fitted_face", "footer_place", "game_tokens", "help_box_layout", "place_face", "printable_set",
    "size_groups", "token_page", "token_page_fits", "token_page_strings", "token_text_fit",
]
