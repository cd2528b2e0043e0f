"""``POST /query/{turnId}/feedback``: a shopper's rating of an answer, or a click on one of
its products, kept with the turn."""
