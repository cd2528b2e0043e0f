"""Loads the bundled catalog into the catalog table at deploy time (a custom resource)."""
