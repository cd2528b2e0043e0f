"""What a store platform (Shopify, WooCommerce) knows about a product, and the one mapping
from it to the catalog's products, for every way a product arrives.

* :mod:`shared.platform.product`: :class:`PlatformProduct` and :func:`catalog_rows`, the
  mapping itself; :mod:`shared.platform.mapping` the platforms' category and option names.
* :mod:`shared.platform.rows`: the rows a reader yields and their validation;
  :mod:`shared.platform.draft` what a product is put together with.
* :mod:`shared.platform.shopify`, :mod:`shared.platform.woocommerce`: a webhook's body
  and an Admin API page as a :class:`PlatformProduct`.

The CSV readers (``storechat.catalog``), the webhook function (``catalog_webhook``) and
the sync all map through here, so one product becomes the same catalog product whichever
way it came.
"""
