"""Code shared by every storechat Lambda, in packages that import only the ones below:

    tools                 the shell every tool Lambda runs in; web tools
    api       platform    contracts: POST /query, a tool's result | a store platform's records
    trace     search      the live trace | the catalog search
    products  store       the product record and its stores | the store's settings, policies
    runtime               named errors, Logger/Tracer/Metrics, HTTP
    config  text  catalog environment, secrets, figures | safe text | the shop's categories

A package imports none on its own row or above (``tests/unit/test_shared_layers.py``).
``data/`` holds the bundled catalog and the word lists.
"""
