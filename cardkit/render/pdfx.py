"""PDF/X-1a:2003 marks on a reportlab document (reportlab does not write them):
the output intent in the catalog, ``GTS_PDFXVersion`` and ``Trapped`` in the
Info dictionary.  The page boxes are set by :class:`cardkit.render.pdf.PdfDocument`.

The output intent names a registered characterization, FOGRA39 (ISO 12647-2,
coated paper) in the ICC registry; PDF/X-1a lets such an intent omit its
DestOutputProfile, and cardkit ships none (no licence-clean FOGRA39 ICC
profile is available: docs/print.md, "CMYK and PDF/X").
"""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDate,
    PDFDictionary,
    PDFInfo,
    PDFName,
    PDFString,
)

PDFX_VERSION = "PDF/X-1a:2003"
OUTPUT_CONDITION_IDENTIFIER = "FOGRA39"
OUTPUT_CONDITION = "Coated FOGRA39 (ISO 12647-2:2004)"
REGISTRY_NAME = "http://www.color.org"


def output_intent() -> PDFDictionary:
    return PDFDictionary({
        "Type": PDFName("OutputIntent"),
        "S": PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": PDFString(OUTPUT_CONDITION_IDENTIFIER),
        "OutputCondition": PDFString(OUTPUT_CONDITION),
        "RegistryName": PDFString(REGISTRY_NAME),
        "Info": PDFString(OUTPUT_CONDITION),
    })


class _PdfxInfo(PDFInfo):  # type: ignore[misc]
    """The document Info with the PDF/X version (and Trapped False, which PDF/X requires)."""

    def format(self, document: Any) -> bytes:
        D = {}
        D["Title"] = PDFString(self.title)
        D["Author"] = PDFString(self.author)
        D["ModDate"] = D["CreationDate"] = PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter)
        D["Producer"] = PDFString(self.producer)
        D["Creator"] = PDFString(self.creator)
        D["Subject"] = PDFString(self.subject)
        D["Keywords"] = PDFString(self.keywords)
        D["Trapped"] = PDFName("False")
        D["GTS_PDFXVersion"] = PDFString(PDFX_VERSION)
        return PDFDictionary(D).format(document)  # type: ignore[no-any-return]


def mark_pdfx(canvas: Any) -> None:
    """Add the output intent and the PDF/X Info keys to ``canvas``'s document before it is saved."""
    doc = canvas._doc
    catalog = doc.Catalog
    catalog.__dict__["__NoDefault__"] = [*type(catalog).__NoDefault__, "OutputIntents"]
    catalog.OutputIntents = PDFArray([output_intent()])
    info = _PdfxInfo()
    info.__dict__.update(doc.info.__dict__)
    doc.info = info
