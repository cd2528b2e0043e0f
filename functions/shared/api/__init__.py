"""The contracts across storechat's boundaries: ``POST /query``'s request and error body
(:mod:`.query`) and the names it answers with (:mod:`.vocabulary`), the chat page's
Content-Security-Policy (:mod:`.page_policy`), what a tool Lambda gets and gives back in
the state machine (:mod:`.contract`), and why a model call ended (:mod:`.stop_reasons`).

The error names the state machine matches are :mod:`shared.runtime.errors`: the product
stores raise them, and a tool's result carries ledger products, so the names sit below
the product record and these shapes above it. Imports :mod:`shared.trace`,
:mod:`shared.products`, :mod:`shared.catalog` and :mod:`shared.runtime`.
"""
