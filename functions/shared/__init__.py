"""Code shared by every storechat Lambda: contracts, errors, observability, HTTP."""
