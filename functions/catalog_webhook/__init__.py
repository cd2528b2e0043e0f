"""The store platforms' product webhooks: verified, ordered, written to the catalog table."""
