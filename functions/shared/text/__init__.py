"""Text from outside the code, read safely: made safe to hand to the model
(:mod:`.sanitize`), as a reader sees it (:mod:`.shown`), the links, addresses and phone
numbers in it (:mod:`.contacts`), and a shopper's German, Spanish and French read as
English (:mod:`.languages`: by the catalog search and the store's policies alike).

A lowest layer, beside :mod:`shared.config`: the product record, the store's settings and
the live trace all clean their text here.
"""
