"""The question set: one JSON object a line, each a shopper's question and what a right
answer to it must satisfy.

```
{"id": "apple-under-1500", "kind": "budget",
 "turns": ["Which Apple laptops do you have under $1,500?"],
 "expect": {"brand": "Apple", "maxPrice": 1500, "minProducts": 1}}
```

``turns`` are sent in order in one session; every ``expect`` key is optional and is
checked against the response to the **last** turn. A file is read whole and every line
is validated before anything runs: :func:`load_questions` raises
:class:`QuestionsInvalid` listing each bad line as ``FILE: line N, field: message``.

Each question belongs to a **set**, by where its file is: a file in a directory named
``heldout`` (``evals/heldout/``) is in the held-out set, which judges a model and is not
read while changing it; any other file is in the development set. The two are reported
apart. A ``catalog.jsonl`` (or ``catalog.csv``) beside a question file is not questions:
it is the products imported for them (:mod:`storechat.evaluate.catalogs`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
    field_validator,
    model_validator,
)

import registry
from shared.api.query import DEFAULT_MAX_MESSAGE_CHARS, RequestRejected, parse_query
from shared.api.vocabulary import Outcome
from shared.catalog.categories import CategoryName
from shared.catalog.derive import bounds as spec_bounds
from shared.catalog.specs import SPECS

REPO_ROOT = Path(__file__).resolve().parents[2]
QUESTIONS_DIR = REPO_ROOT / "evals"
"""Where the default question set lives: every ``*.jsonl`` in it, in name order, then
every ``*.jsonl`` of its ``heldout/``."""
HELD_OUT_DIR = QUESTIONS_DIR / "heldout"
COMPANION_STEM = "catalog"
"""A file named ``catalog.<ext>`` beside question files holds products, not questions."""

SetName = Literal["development", "heldout"]
DEVELOPMENT: SetName = "development"
HELD_OUT: SetName = "heldout"
SETS: dict[SetName, str] = {
    DEVELOPMENT: "the questions a model is changed against",
    HELD_OUT: "questions that judge a model, not read while changing it",
}
"""Every set, in report order, with what the report calls it."""

Kind = Literal[
    "single",
    "multi-intent",
    "follow-up",
    "budget",
    "brand",
    "use",
    "book",
    "unanswerable",
    "hostile",
    "named-product",
    "comparison",
    "outside-store",
    "store-policy",
    "constraint",
    "typo",
    "superlative",
    "language",
    "unclear",
    "imported",
    "feedback",
]

MAX_TURNS = 5


def _sendable(turn: str) -> str:
    # Each turn must be a message the /query contract accepts, or the run would stop
    # on it; the contract's own rules say why not.
    try:
        parse_query(json.dumps({"message": turn}), max_message_chars=DEFAULT_MAX_MESSAGE_CHARS)
    except RequestRejected as exc:
        raise ValueError(str(exc).removeprefix("message: ").removeprefix("message ")) from exc
    return turn


_Turn = Annotated[str, AfterValidator(_sendable)]
Message = _Turn
"""A shopper's message that the ``/query`` contract accepts (a red-team case's turns too)."""
_Money = Annotated[float, Field(ge=0)]
_Amount = Annotated[float, Field(gt=0)]
_Words = Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)]

_SPEC_BOUNDS = spec_bounds()
if TYPE_CHECKING:
    RankedField = str
else:
    RankedField = Literal[("price", *dict.fromkeys(spec.key for spec, _ in _SPEC_BOUNDS))]
"""A product field ``firstMost``/``firstLeast`` rank by: the fields the numeric bounds
read (``storechat.evaluate.checks.BOUNDS``; a test holds the two together)."""


class _Products(BaseModel):
    """The first of :class:`Expect`'s keys: the product constraints before the spec bounds."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    # Every product shown must satisfy each of these (the constraints score).
    category: CategoryName | None = None
    brand: Annotated[str | None, Field(min_length=1)] = None
    os: Annotated[
        str | None, Field(min_length=1, description="a substring of specs.os, any case")
    ] = None
    minPrice: _Money | None = None
    maxPrice: _Money | None = None


if TYPE_CHECKING:
    _WithBounds = _Products
else:
    # One key for each of the catalog tool's spec bounds, under its name.
    _WithBounds = create_model(
        "_WithBounds",
        __base__=_Products,
        **{bound.name: (_Amount | None, None) for _, bound in _SPEC_BOUNDS},
    )


_RANGES = [
    (low.name, high.name)
    for spec in SPECS
    for low in spec.bounds
    for high in spec.bounds
    if low.at_least and not high.at_least
]
"""The spec bounds that come in pairs (a least and a most screen size)."""


class Expect(_WithBounds):
    """What a right answer to the last turn satisfies. Every key is optional."""

    specIncludes: Annotated[
        dict[Annotated[str, Field(min_length=1)], Annotated[str, Field(min_length=1)]] | None,
        Field(min_length=1, description="spec name -> a substring of its value, any case"),
    ] = None
    inStock: bool | None = None
    productIdsFrom: Literal["previous"] | None = None
    # The set of products shown (also the constraints score).
    productIds: _Words | None = None
    minProducts: Annotated[int | None, Field(ge=0)] = None
    maxProducts: Annotated[int | None, Field(ge=0)] = None
    noProducts: bool | None = None
    # The first product shown has the highest (lowest) value of this field among the
    # served catalog's products that meet every product constraint above.
    firstMost: RankedField | None = None
    firstLeast: RankedField | None = None
    # The answer's words (the facts score).
    answerIncludes: _Words | None = None
    answerExcludes: _Words | None = None
    # Tool names in the trace (the tools score).
    toolsCalled: _Words | None = None
    toolsNotCalled: _Words | None = None
    maxModelCalls: Annotated[
        int | None, Field(ge=1, description="the last turn is answered in at most this many")
    ] = None
    # The outcome score.
    outcome: Outcome | None = None
    refuse: bool | None = None
    asks: Annotated[bool | None, Field(description="the answer puts a question to the shopper")] = (
        None
    )

    @field_validator("toolsCalled", "toolsNotCalled")
    @classmethod
    def _known_tools(cls, value: list[str] | None) -> list[str] | None:
        unknown = [name for name in value or [] if name not in registry.tool_names()]
        if unknown:
            raise ValueError(
                f"unknown tool {unknown[0]!r}: the tools are {', '.join(registry.tool_names())}"
            )
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        for low, high in (("minPrice", "maxPrice"), *_RANGES, ("minProducts", "maxProducts")):
            below, above = getattr(self, low), getattr(self, high)
            if below is not None and above is not None and below > above:
                raise ValueError(f"{low}: is above {high}")
        both = set(self.toolsCalled or ()) & set(self.toolsNotCalled or ())
        if both:
            raise ValueError(f"toolsNotCalled: {sorted(both)[0]} is also in toolsCalled")
        if self.noProducts and (self.minProducts or self.productIds):
            raise ValueError("noProducts: contradicts minProducts or productIds")
        if self.firstMost and self.firstLeast:
            raise ValueError("firstLeast: the first product cannot be both")
        if (self.firstMost or self.firstLeast) and self.noProducts:
            raise ValueError("noProducts: contradicts firstMost or firstLeast")
        return self


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,79}$")]
    kind: Kind
    turns: Annotated[list[_Turn], Field(min_length=1, max_length=MAX_TURNS)]
    expect: Expect
    # Not checked: what a shopper saw and said, for whoever writes ``expect``
    # (``storechat insights --as-eval`` writes them from answers rated down).
    shown: list[str] | None = None
    note: Annotated[str | None, Field(max_length=600)] = None

    @model_validator(mode="after")
    def _feedback_says_what_is_right(self) -> Self:
        # A shopper's complaint is not a check: until the team writes what a right answer
        # satisfies, the question would pass whatever the answer.
        if self.kind == "feedback" and not self.expect.model_dump(exclude_none=True):
            raise ValueError(
                "expect: write what a right answer satisfies (from the note) before it is run"
            )
        return self

    @model_validator(mode="after")
    def _follow_up_has_a_previous_turn(self) -> Self:
        if self.expect.productIdsFrom == "previous" and len(self.turns) < 2:
            raise ValueError('expect.productIdsFrom: "previous" needs at least two turns')
        return self


@dataclass(frozen=True)
class LoadedQuestion:
    """A question and where it was written (for reports and error messages)."""

    question: Question
    path: Path
    line: int

    @property
    def source(self) -> str:
        return f"{shown_path(self.path)}:{self.line}"

    @property
    def set(self) -> SetName:
        return set_of(self.path)


def set_of(path: Path) -> SetName:
    return HELD_OUT if path.resolve().parent.name == HELD_OUT_DIR.name else DEVELOPMENT


class QuestionsInvalid(Exception):
    """A question file that cannot be used; ``problems`` holds one line per fault."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def default_question_files(directory: Path = QUESTIONS_DIR) -> list[Path]:
    """The development set's files, then the held-out set's, each in name order."""
    held_out = directory / HELD_OUT_DIR.name
    return [
        path
        for folder in (directory, held_out)
        for path in sorted(folder.glob("*.jsonl"))
        if path.stem != COMPANION_STEM
    ]


def load_questions(paths: Iterable[Path]) -> list[LoadedQuestion]:
    """Every question of ``paths``, in order; raises :class:`QuestionsInvalid` if any is bad.

    Blank lines are skipped. Ids are unique across all the files.
    """
    problems: list[str] = []
    loaded: list[LoadedQuestion] = []
    seen: dict[str, LoadedQuestion] = {}
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"{shown_path(path)}: cannot be read: {exc}")
            continue
        for number, raw in enumerate(text.splitlines(), start=1):
            if not raw.strip():
                continue
            where = f"{shown_path(path)}: line {number}"
            question, faults = _parse_line(raw)
            problems += [f"{where}, {fault}" for fault in faults]
            if question is None:
                continue
            entry = LoadedQuestion(question, path, number)
            earlier = seen.get(question.id)
            if earlier is not None:
                problems.append(f"{where}, id: {question.id!r} is already used at {earlier.source}")
                continue
            seen[question.id] = entry
            loaded.append(entry)
    if not loaded and not problems:
        problems.append("no questions: the files hold none")
    if problems:
        raise QuestionsInvalid(problems)
    return loaded


def _parse_line(raw: str) -> tuple[Question | None, list[str]]:
    try:
        data: Any = json.loads(raw)
    except ValueError as exc:
        return None, [f"json: not valid JSON ({exc})"]
    if not isinstance(data, dict):
        return None, ["json: a question is a JSON object"]
    try:
        return Question.model_validate(data), []
    except ValidationError as exc:
        return None, [_fault(err) for err in exc.errors()]


def _fault(err: Any) -> str:
    loc = [str(part) for part in err["loc"]]
    message = str(err["msg"]).removeprefix("Value error, ")
    if err["type"] == "extra_forbidden":
        message = "unknown field"
    elif err["type"] == "missing":
        message = "required"
    elif err["type"] == "value_error" and loc in ([], ["expect"]) and ": " in message:
        # A check across fields names the field it faults first ("maxPrice: ...").
        name, message = message.split(": ", 1)
        loc = [*loc, name]
    return f"{'.'.join(loc) or 'question'}: {message}"


def shown_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
