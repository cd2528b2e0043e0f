"""The ``get_store_policies`` tool: the sections of the store's policies that answer."""
