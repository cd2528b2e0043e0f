"""``storechat eval``: how well the assistant answers a set of shopper questions.

The package reads in the order a run goes:

* ``questions``: the question file format (JSON Lines) and its loader, which refuses a
  bad file before anything runs;
* ``run``: each question's turns through the real loop, progress on stderr;
* ``checks``: one question's expectations checked against its responses;
* ``pricing``: tokens priced at the list prices of ``shared.pricing``;
* ``report``: totals, ``report.json`` and ``report.md``;
* ``compare``: two reports side by side, and the floor a run must hold;
* ``command``: the CLI subcommand.
"""
