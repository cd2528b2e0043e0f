"""``storechat insights``: what shoppers asked for, what the store did not have, and what
they thought of the answers, read from the turns the sessions table keeps.

* :mod:`~storechat.insights.turns` reads the turns (a deployed stack's table, or the
  local ``sessions.json``) into :class:`~storechat.insights.turns.Turn`;
* :mod:`~storechat.insights.report` counts the period's figures;
* :mod:`~storechat.insights.command` prints them (or their JSON) and writes the answers
  rated down as eval questions.
"""
