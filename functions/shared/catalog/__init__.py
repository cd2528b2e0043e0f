"""The catalog's vocabulary, declared once: its categories and its specs.

* :mod:`shared.catalog.categories`: :class:`~shared.catalog.categories.Category`, the
  one enum of what the store sells, with the words that stand for each.
* :mod:`shared.catalog.specs`: every spec a product may carry that the store knows by
  name (RAM, storage, weight, battery, screen, camera, year, author, ...), each with
  what it is to the search, the catalog tool, the fact check, the page and the eval.
* :mod:`shared.catalog.derive`: what each reader takes from that table.

Everything else derives from these two tables (the tool's input fields, the search's
facets, bounds and sorts, the fact check's fields and units, the page's chips, the
eval's bounds, the import's spec names); docs/architecture.md's "Add a spec" says how.
"""
