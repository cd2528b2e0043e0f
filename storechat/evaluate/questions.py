"""The question set: one JSON object a line, each a shopper's question and what a right
answer to it must satisfy.

```
{"id": "student-windows-laptop", "kind": "use",
 "turns": ["What Windows laptop is best for a high school student?"],
 "expect": {"category": "COMPUTERS", "os": "Windows", "minProducts": 1}}
```

``turns`` are sent in order in one session; every ``expect`` key is optional and is
checked against the response to the **last** turn. A file is read whole and every line
is validated before anything runs: :func:`load_questions` raises
:class:`QuestionsInvalid` listing each bad line as ``FILE: line N, field: message``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from shared import registry
from shared.api import DEFAULT_MAX_MESSAGE_CHARS, RequestRejected, parse_query
from shared.vocabulary import Outcome

REPO_ROOT = Path(__file__).resolve().parents[2]
QUESTIONS_DIR = REPO_ROOT / "evals"
"""Where the default question set lives: every ``*.jsonl`` in it, in name order."""

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
    "constraint",
]
Category = Literal["COMPUTERS", "MOBILE", "BOOKS"]

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
_Money = Annotated[float, Field(ge=0)]
_Amount = Annotated[float, Field(gt=0)]
_Words = Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)]


class Expect(BaseModel):
    """What a right answer to the last turn satisfies. Every key is optional."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    # Every product shown must satisfy each of these (the constraints score).
    category: Category | None = None
    brand: Annotated[str | None, Field(min_length=1)] = None
    os: Annotated[
        str | None, Field(min_length=1, description="a substring of specs.os, any case")
    ] = None
    minPrice: _Money | None = None
    maxPrice: _Money | None = None
    minRamGb: _Amount | None = None
    minStorageGb: _Amount | None = None
    maxWeightKg: _Amount | None = None
    minBatteryHours: _Amount | None = None
    minScreenInches: _Amount | None = None
    maxScreenInches: _Amount | None = None
    minCameraMp: _Amount | None = None
    inStock: bool | None = None
    productIdsFrom: Literal["previous"] | None = None
    # The set of products shown (also the constraints score).
    productIds: _Words | None = None
    minProducts: Annotated[int | None, Field(ge=0)] = None
    maxProducts: Annotated[int | None, Field(ge=0)] = None
    noProducts: bool | None = None
    # The answer's words (the facts score).
    answerIncludes: _Words | None = None
    answerExcludes: _Words | None = None
    # Tool names in the trace (the tools score).
    toolsCalled: _Words | None = None
    toolsNotCalled: _Words | None = None
    # The outcome score.
    outcome: Outcome | None = None
    refuse: bool | None = None

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
        for low, high in (
            ("minPrice", "maxPrice"),
            ("minScreenInches", "maxScreenInches"),
            ("minProducts", "maxProducts"),
        ):
            below, above = getattr(self, low), getattr(self, high)
            if below is not None and above is not None and below > above:
                raise ValueError(f"{low}: is above {high}")
        both = set(self.toolsCalled or ()) & set(self.toolsNotCalled or ())
        if both:
            raise ValueError(f"toolsNotCalled: {sorted(both)[0]} is also in toolsCalled")
        if self.noProducts and (self.minProducts or self.productIds):
            raise ValueError("noProducts: contradicts minProducts or productIds")
        return self


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,79}$")]
    kind: Kind
    turns: Annotated[list[_Turn], Field(min_length=1, max_length=MAX_TURNS)]
    expect: Expect

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
        return f"{_shown(self.path)}:{self.line}"


class QuestionsInvalid(Exception):
    """A question file that cannot be used; ``problems`` holds one line per fault."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def default_question_files(directory: Path = QUESTIONS_DIR) -> list[Path]:
    return sorted(directory.glob("*.jsonl"))


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
            problems.append(f"{_shown(path)}: cannot be read: {exc}")
            continue
        for number, raw in enumerate(text.splitlines(), start=1):
            if not raw.strip():
                continue
            where = f"{_shown(path)}: line {number}"
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


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
