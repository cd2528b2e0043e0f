"""The ``lookup_inventory`` tool: search the store's catalog."""
