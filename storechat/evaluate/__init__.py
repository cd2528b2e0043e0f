"""``storechat eval``: how well the assistant answers a set of shopper questions.

The package reads in the order a run goes:

* ``questions``: the question file format (JSON Lines), its loader, which refuses a
  bad file before anything runs, and the sets (development, held out);
* ``catalogs``: the catalog each file is answered from, with its companion imported;
* ``run``: each question's turns through the real loop, progress on stderr;
* ``checks``: one question's expectations checked against its responses, with
  ``products`` for the constraints a product shown must meet and its rank;
* ``pricing``: tokens priced at the list prices of ``shared.config.pricing``;
* ``report``: totals, in all and per set, ``report.json`` and ``report.md``;
* ``compare``: two reports side by side, and the floor each set must hold;
* ``command``: the CLI subcommand.
"""
