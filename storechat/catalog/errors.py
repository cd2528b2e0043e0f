"""What can go wrong with a catalog command, and the exit code each failure gives."""

from __future__ import annotations


class CatalogError(Exception):
    """A catalog command cannot go on; the message is for the user."""

    exit_code = 2


class CatalogFileError(CatalogError):
    """The import file cannot be read as a catalog at all (format, header, encoding)."""


class StoreDamaged(CatalogError):
    """The local catalog file under ``$STORECHAT_HOME`` no longer holds valid products."""


class StackNotReady(CatalogError):
    """The stack cannot be used: not found, no catalog table output, no AWS credentials."""


class StoreUnavailable(CatalogError):
    """The store refused a read or a write (DynamoDB even after retries, or the local
    disk); what was written before stays."""

    exit_code = 1
