"""The store's own words: its settings (:mod:`.settings`: name, storefront, platform,
voice), its policies' text, and a product's links on its storefront.

Imports only :mod:`shared.text`. No AWS imports: the CDK app, the local CLI and the
Lambdas read it.
"""
