"""The catalog table's key names, declared once: the functions write and query by them
(:mod:`shared.products.catalog_writes`, the webhook's store), the CDK app builds the table and its
index from them (infra/names.py, infra/data.py), the local runner its stand-in
(storechat/local/aws.py).

Standard library only, so that the CDK app reads the names without loading boto3 or
any function's logic (tests/infrastructure/test_app_imports.py holds it to that).
"""

from __future__ import annotations

from typing import Final

CATALOG_PARTITION_KEY: Final = "productId"
CATALOG_INVENTORY_ITEM: Final = "platformInventoryItemId"
"""A product's Shopify inventory item, the key of :data:`CATALOG_INVENTORY_INDEX`."""
CATALOG_INVENTORY_INDEX: Final = "byInventoryItem"
"""The catalog table's sparse, keys-only index of products by their Shopify inventory item:
what an ``inventory_levels/update`` webhook names."""
