"""The ``get_book_info`` tool: facts and ratings for a book, via Open Library."""
