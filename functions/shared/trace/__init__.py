"""The live trace: what a running turn is doing, step by step (:mod:`.steps`), written
without ever holding up the turn (:mod:`.step_writer`), and which of the model's words
before a tool call it may show (:mod:`.said`).

Not Powertools' Tracer, which is :mod:`shared.runtime.observability`'s. Imports
:mod:`shared.text`, :mod:`shared.runtime` and :mod:`shared.config`.
"""
