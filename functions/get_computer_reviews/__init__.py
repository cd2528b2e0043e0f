"""The ``get_computer_reviews`` tool: web reviews of a computer, via Brave Search."""
