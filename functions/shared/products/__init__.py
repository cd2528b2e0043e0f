"""The product record and its stores: one record (:mod:`.product`), as the ledger holds
it, its price's currency, its weight and its id in a citation; the bundled catalog, the
catalog table (its key names, reads and writes) and the store's Products API.

Imports :mod:`shared.catalog`, :mod:`shared.text`, :mod:`shared.runtime` and
:mod:`shared.config`; the search, the platforms, the API and the tools build on it.
"""
