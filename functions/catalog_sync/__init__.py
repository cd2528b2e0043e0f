"""The scheduled full pull: every product from the store platform's Admin API, written to
the catalog table as ``storechat catalog sync`` writes it."""
