"""The storechat CDK app: one stack per environment, one construct per concern.

``names`` holds what the stack and its tests share, ``config`` the validated
per-environment settings from cdk.json, ``runtime`` and ``layers`` what every Lambda
shares; ``data``, ``search``, ``tools``, ``loop``, ``api``, ``web`` and
``monitoring`` each build one part, and ``stack`` composes them.
"""
