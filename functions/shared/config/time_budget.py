"""How long a shopper's question may take, declared once, and how every part that waits
fits inside it. Standard library only: the CDK app, the ASL's substitutions, the Converse
function's timeout, the dev server and the page (through ``config.json``) read it.

From the outside in::

    the page's wait               CLIENT_WAIT_MS   35 s   past the API's limit, so the API's
                                                          own 504 is what the shopper sees
    API Gateway's integration     API_LIMIT_S      29 s   fixed by AWS for a REST API; the
      (and the dev server's wait)                         dev server waits no longer
    the state machine's timeout   TimeoutSeconds   28 s   in statemachine/storechat.asl.json:
                                                          below API_LIMIT_S, at least
                                                          DEADLINE_MS + FINISH_RESERVE_MS
    the loop's deadline           DEADLINE_MS      25 s   ``DeadlineMs``: no model call or
                                                          tool round starts that would end
                                                          after it; Fallback answers instead
    the Converse Lambda's timeout DEADLINE_MS      25 s   a call reads the model until the
                                                          deadline, never after it
    kept after the deadline       FINISH_RESERVE_MS 3 s   to settle, compose and save the turn

An environment may move its deadline (cdk.json ``tuning.DeadlineMs``); infra/config.py
refuses one that leaves less than FINISH_RESERVE_MS before the state machine's timeout.
"""

from __future__ import annotations

from typing import Final

API_LIMIT_S: Final = 29
"""API Gateway's integration timeout for a REST API: the longest a shopper's request runs."""

DEADLINE_MS: Final = 25_000
"""The loop's deadline, from the execution's start (the ASL's ``DeadlineMs`` by default)."""

FINISH_RESERVE_MS: Final = 3_000
"""Time kept after the deadline for SettleSpend (a DynamoDB write after the last model
call, cut off at 1 s), Fallback, a cold ComposeResponse (its task times out at 2 s) and
SaveTurn, before the state machine's own timeout."""

CLIENT_WAIT_MS: Final = API_LIMIT_S * 1000 + 6_000
"""How long the page waits for POST /query (``config.json``'s ``requestTimeoutMs``)."""
