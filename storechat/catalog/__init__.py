"""The store's own catalog: import, export, count and reset products, locally or on a stack.

``rows`` reads and validates import files; ``local_store`` keeps the local catalog under
``$STORECHAT_HOME``; ``stack`` writes a deployed stack's table; ``commands`` is the CLI.
Every product is validated by ``shared.products.product``. Only the CLI imports this package.
"""

from storechat.catalog.local_store import load_local_catalog

__all__ = ["load_local_catalog"]
