"""What a function is set up with: the environment it reads (:mod:`.environment`), its
secrets (:mod:`.secrets`), and the figures and names declared once for the functions and
the CDK app alike: the turn's time budget, the models' prices, the metrics' names.

The lowest layer: it imports nothing else of ``shared``, and the CDK app imports it
without the Lambdas' libraries.
"""
