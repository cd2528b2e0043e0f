"""Build the response body from the ledger, never from the model's words alone."""
