"""The red team: hostile web text through the real loop, and the claims that reach the shopper.

``storechat eval --red-team`` runs a file of cases (:mod:`~storechat.redteam.cases`):
each serves hostile reviews or book facts from a loopback web
(:mod:`~storechat.redteam.web`) to the real tools, with a model that does what they say
(:mod:`~storechat.redteam.obedient`, by :mod:`~storechat.redteam.obey`), and counts the
hostile claims that reach what the shopper reads (:mod:`~storechat.redteam.claims`,
:mod:`~storechat.redteam.run`, :mod:`~storechat.redteam.command`). No deployed function
imports it.
"""
