"""Reproducible local benchmarks of storechat: ``python -m bench`` (see docs/bench.md)."""
