"""Test helpers shared across test suites."""
