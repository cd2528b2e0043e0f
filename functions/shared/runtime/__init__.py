"""What a storechat Lambda runs with: the failures it names (:mod:`.errors`, the names
the state machine's Retry and Catch match) and tells in words (:mod:`.tool_errors`), its
Logger, Tracer and Metrics (:mod:`.observability`), and its calls to HTTP APIs.

Below the product record: the ledger tells a bad record in the tools' words, and the
catalog's stores raise these errors. Imports only :mod:`shared.config`.
"""
