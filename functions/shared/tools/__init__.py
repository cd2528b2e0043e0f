"""What every tool Lambda is built from: the shell it runs in (:mod:`.tool_shell`), its
line in the live trace (:mod:`.tool_steps`), and for a tool that asks a web service
(:mod:`.web_tool`) the web's text quoted as untrusted (:mod:`.untrusted`) and screened by
the guardrail (:mod:`.guardrail`).

The top layer: it builds on :mod:`shared.api`'s contract and the layers below it. How a
tool tells a failure is :mod:`shared.runtime.tool_errors` (the ledger uses it too), how
it cites a product :mod:`shared.products.citing` (the search uses it too).
"""
