"""The policies tool without Lambda: the sections of the store's policies that answer
the question, with the store's contact, or the contact alone and word that the
policies say nothing about it.

A question in German, Spanish or French is read in English as well
(``shared.text.languages``), so it finds the sections of a store that writes its
policies in English. The policies are the store's own words, read from its settings
(``shared.store.settings``): trusted text, unlike a web page, and never a reason to
search the catalog.
"""

from __future__ import annotations

from get_store_policies.schema import PoliciesInput
from shared.api.contract import ToolCall, ToolOutput, ToolUse
from shared.runtime.errors import FailureKind
from shared.store import policies
from shared.store.settings import StoreFile
from shared.text.languages import in_english
from shared.tools.tool_shell import answer

NOT_SAID = (
    "The store's policies say nothing about this. Tell the shopper you do not know, "
    "and give them the store's contact."
)


def run(tool_use: ToolUse, *, store: StoreFile | None) -> ToolOutput:
    def read(call: ToolCall, args: PoliciesInput) -> ToolOutput:
        if store is None:
            return call.failure(
                FailureKind.NOT_CONFIGURED,
                "The store's policies are not set up here; give no policy from memory.",
                "no store settings",
            )
        # A question in German, Spanish or French finds the sections by its English too,
        # read as the catalog search reads those languages.
        asked = f"{args.question} {in_english(args.question)}"
        found = policies.matching(store.policiesText, asked)
        result: dict[str, object] = {
            "store": store.settings.name,
            "sections": [{"heading": s.heading, "text": policies.cut(s.text)} for s in found],
            "contact": store.settings.contact,
        }
        if not found:
            result["note"] = NOT_SAID
        headings = ", ".join(f"'{s.heading}'" for s in found if s.heading)
        summary = (
            f"{len(found)} section{'' if len(found) == 1 else 's'} ({headings or 'untitled'})"
            if found
            else "no section answers it"
        )
        return call.success(result, f"{summary} for '{args.question[:80]}'")

    return answer(tool_use, PoliciesInput, read)
