"""Rebuilds the catalog's search snapshot from the source of truth and publishes it to S3.

Runs beside the loop (``registry.BACKGROUND``): on a batch of the catalog
table's stream, on a schedule when the catalog is the store's Products API, and on a
direct ``{"rebuild": true}`` invoke (the deploy sends one).
"""
