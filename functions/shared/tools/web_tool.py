"""What the tools that ask a web service have in common (reviews, books): the shopper's
words as a query, one search, and the service's failures told to the model.

A web tool declares its :class:`WebSearch` (the service's name and what it finds) and
an input model, a :class:`WebQuery`; its logic is the search call and what the model
reads of each result. What the web wrote reaches the model quoted as untrusted data
(:mod:`shared.tools.untrusted`), once the environment's guardrail, if it has one, has let it
through (:mod:`shared.tools.guardrail`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, StringConstraints

from shared.api.contract import ToolCall, ToolOutput
from shared.products.currency import DEFAULT_CURRENCY
from shared.runtime.errors import FailureKind, UpstreamError
from shared.runtime.tool_errors import explain_upstream_error, failed_in_words
from shared.tools import untrusted
from shared.tools.guardrail import Screen

Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=200)]
"""What a web tool searches for: the shopper's words, within what a search API takes."""

Result = dict[str, Any]


def _texts(read: list[Result]) -> list[str]:
    """Every string of the results, as the model would read them."""

    def walk(value: Any) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, list):
            return [text for item in value for text in walk(item)]
        if isinstance(value, dict):
            return [text for item in value.values() for text in walk(item)]
        return []

    return walk(read)


@dataclass(frozen=True)
class WebSearch:
    """One web service a tool asks: ``service`` names it to the model ("The review
    service"), ``finds`` is what it finds, plural ("reviews"), and ``noun`` one of them
    ("review"). In the live trace, ``step`` says what a call does (``{query}`` is the
    query) and ``found`` how it ended with no, one and ``{}`` results."""

    service: str
    finds: str
    noun: str
    step: str
    found: tuple[str, str, str]

    def answer(
        self,
        call: ToolCall,
        query: str,
        search: Callable[[str], list[Result]],
        for_model: Callable[[Result], Result] = dict,
        screen: Screen | None = None,
    ) -> ToolOutput:
        """``search(query)``'s results for the model, screened and quoted, or why not."""
        try:
            results = search(query)
        except UpstreamError as exc:
            return call.failure(
                exc.kind,
                explain_upstream_error(self.service, exc, self.finds),
                # The trace is read by the shopper ("How I found this"): words, not errno.
                f"the {self.noun} search {failed_in_words(exc.kind)} (looking for '{query}')",
            )
        shown: dict[str, Any] = {"query": query, "results": []}
        if results:
            mark = untrusted.new_mark()
            shown[untrusted.FIELD] = untrusted.note(mark)
            shown["results"] = [untrusted.quoted(for_model(result), mark) for result in results]
        if results and screen is not None:
            # The guardrail reads exactly what the model would read inside the marks.
            read = untrusted.unquoted(shown["results"])
            withheld = self._screened(call, query, read, screen)
            if withheld is not None:
                return withheld
        return call.success(shown, self.summary(len(results), query))

    def _screened(
        self, call: ToolCall, query: str, read: list[Result], screen: Screen
    ) -> ToolOutput | None:
        """The error result that withholds ``read``, or None when the guardrail passed it.

        Text that could not be screened is withheld too (:mod:`shared.tools.guardrail` says why).
        """
        try:
            screening = screen(_texts(read))
        except UpstreamError as exc:
            return call.failure(
                FailureKind.SCREENING_FAILED,
                f"The {self.finds} found for '{query}' were withheld: the store's content "
                f"screening could not check them ({exc.detail}), so {self.finds} are "
                "unavailable right now.",
                f"{self.noun} text withheld: the content screening could not check it "
                f"(looking for '{query}')",
            )
        if not screening.blocked:
            return None
        policies = ", ".join(screening.policies) or "no policy named"
        return call.failure(
            FailureKind.WITHHELD,
            f"The {self.finds} found for '{query}' were withheld: the store's content "
            "screening blocked them (web text can carry instructions or content the store "
            f"does not pass on), so {self.finds} are unavailable for this question.",
            f"{self.noun} text withheld by the guardrail ({policies}) for '{query}'",
        )

    def summary(self, count: int, query: str) -> str:
        """The trace's line: ``3 books for 'Dune'``."""
        if count == 0:
            return f"no {self.noun}s found for '{query}'"
        return f"{count} {self.noun}{'' if count == 1 else 's'} for '{query}'"


class WebQuery(BaseModel):
    """A web tool's input: its query, and nothing else. A tool's own model restates
    ``query`` with the description the model reads, and names its :class:`WebSearch`,
    whose words make the tool's line in the live trace."""

    model_config = ConfigDict(extra="forbid")
    search: ClassVar[WebSearch]

    query: Query

    def step(self, currency: str = DEFAULT_CURRENCY) -> str:
        del currency  # a web search names no amount
        return self.search.step.format(query=self.query)

    @classmethod
    def found(cls, result: Result) -> str:
        none, one, many = cls.search.found
        count = len(result.get("results") or [])
        return none if count == 0 else one if count == 1 else many.format(count)
