"""The questions every run asks, in a fixed order."""

from __future__ import annotations

TOKEN_QUESTIONS: tuple[str, ...] = (
    "What Windows laptop would you recommend for a college student?",
    # No full stop after the amount: the offline model misses "$2000." as a budget.
    "A gaming laptop under $2000",
    "Which MacBook is best for travel?",
    "Show me Samsung phones.",
    "Which iPhone has the most storage?",
    "Do you have books by Tolkien?",
    "Is 1984 by George Orwell a good book?",
    "Show me Dell laptops, reviews of the XPS 13, and tell me about the book Dune.",
    "I need a Chromebook for my child.",
    "What is the cheapest Android phone you sell?",
    "Do you have any HarperCollins novels?",
    "Which phone has the best camera under $800?",
)
"""At least ten questions across computers, phones and books, some with several tools."""

_MORE_QUESTIONS: tuple[str, ...] = (
    "What do reviewers say about the Lenovo ThinkPad X1 Carbon?",
    "A lightweight laptop for work with at least 16 GB of RAM",
    "Any fantasy books from Penguin?",
    "Google Pixel phones",
    "What's the fastest laptop you have?",
    "I'm looking for a mystery novel",
    "Which ASUS laptops do you have under $1000?",
    "Cheapest laptop with Windows",
    "OnePlus phones with the biggest battery",
    "Do you sell Bloomsbury books?",
    "Which Lenovo laptop is best for programming?",
    "What Apple computers do you have?",
    "Is the Samsung Galaxy S24 Ultra in stock?",
    "Tell me about the book The Hobbit",
    "HP laptops for a student under $600",
    "Which Microsoft Surface should I buy for work?",
    "A phone for my mum, nothing expensive",
    "Science fiction books please",
    "Reviews of the MacBook Air M3",
    "Hello",
    "Which Acer laptops are good for gaming?",
    "A Samsung phone with a big screen",
    "Historical fiction in hardcover",
    "What is your lightest laptop?",
)

E2E_QUESTIONS: tuple[str, ...] = TOKEN_QUESTIONS + _MORE_QUESTIONS
"""Questions for the end-to-end timing: the token set first, then more of the same mix."""

SESSION_TURNS: tuple[str, ...] = (
    "I need a laptop for university.",
    "Which of those is the lightest?",
    "What do reviewers say about it?",
    "Anything under $700?",
    "Only Windows ones please.",
    "What about a MacBook instead?",
    "Which one has the longest battery?",
    "Thanks! Now I need a phone too.",
    "A Samsung one.",
    "Which has the most storage?",
    "Anything cheaper?",
    "What about Google Pixel phones?",
    "Which has the best camera?",
    "I also want a book for the flight.",
    "Something by Tolkien.",
    "Is The Hobbit good?",
    "Any science fiction novels?",
    "Which is the cheapest?",
    "Show me gaming laptops under $1500",
    "Thank you, that's all.",
)
"""One shopper's twenty turns in one session: follow-ups lean on the history."""
