"""Figures 1, 2, 3 and 5: whole questions through the real state machine, run locally.

Every scenario runs ``LocalStorechat`` (the ASL file in moto's interpreter, the
handlers in-process) with the offline model or a replay file, and reads its
figures from what the execution returned and from its history events.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import history
from bench.catalog import Catalogs, publish_index
from bench.dynamo import CapacityMeter, DynamoCall
from bench.profile import Profile
from bench.questions import E2E_QUESTIONS, SESSION_TURNS, TOKEN_QUESTIONS
from bench.tools import Handler, Timed, delayed, naive_lookup, real_handler
from lookup_inventory.schema import MAX_PAGE
from registry import functions_by_key
from storechat.local import LocalStorechat, RunResult
from storechat.local.lambdas import FakeContext

THREE_TOOLS_QUESTION = TOKEN_QUESTIONS[7]
BROAD_CATEGORIES = ("COMPUTERS", "MOBILE", "BOOKS")
PARALLEL_TOOLS = ("lookup_inventory", "get_computer_reviews", "get_book_info")


@dataclass
class Asked:
    """One question's figures."""

    question: str
    status: str
    outcome: str | None
    fallback_reason: str | None
    session_id: str | None
    tools: list[str]
    tool_rounds: int
    model_calls: int
    wall_ms: float
    ask_ms: float
    execution_ms: float
    states_entered: int
    usages: list[dict[str, int]]
    lambda_calls: list[tuple[str, float]]
    peaks: history.PayloadPeaks
    fields_seen: dict[str, list[str]] = field(default_factory=dict)
    result: RunResult | None = None
    dynamodb: list[DynamoCall] = field(default_factory=list)
    log_events: int = 0
    log_bytes: int = 0

    def tokens(self, kind: str) -> int:
        return sum(u.get(kind, 0) for u in self.usages)

    @property
    def input_sent(self) -> int:
        """Every input token the model was sent, whether a cache served it or not."""
        return sum(
            self.tokens(k) for k in ("inputTokens", "cacheReadInputTokens", "cacheWriteInputTokens")
        )

    def row(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "status": self.status,
            "outcome": self.outcome,
            "fallbackReason": self.fallback_reason,
            "tools": self.tools,
            "toolRounds": self.tool_rounds,
            "modelCalls": self.model_calls,
            "wall_ms": round(self.wall_ms, 1),
            "ask_ms": round(self.ask_ms, 1),
            "execution_ms": round(self.execution_ms, 1),
            "states_entered": self.states_entered,
            "input_sent": self.input_sent,
            "input_tokens": self.tokens("inputTokens"),
            "cache_read": self.tokens("cacheReadInputTokens"),
            "cache_write": self.tokens("cacheWriteInputTokens"),
            "output_tokens": self.tokens("outputTokens"),
            "lambda_ms": [[k, round(s * 1000, 2)] for k, s in self.lambda_calls],
            "dynamodb": [[c.operation, c.read_units, c.write_units] for c in self.dynamodb],
            "log_bytes": self.log_bytes,
        }


def ask(
    local: LocalStorechat,
    question: str,
    *,
    session_id: str | None = None,
    timed: Timed | None = None,
    meter: CapacityMeter | None = None,
    keep: bool = False,
) -> Asked:
    started = time.perf_counter()
    result = local.ask(question, session_id)
    ask_ms = (time.perf_counter() - started) * 1000
    body = result.body or {}
    log_events, log_bytes = history.execution_log(result.events, result.execution_arn)
    return Asked(
        question=question,
        status=result.status,
        outcome=body.get("outcome"),
        fallback_reason=body.get("fallbackReason"),
        session_id=body.get("sessionId"),
        tools=[str(t.get("tool")) for t in body.get("trace", [])],
        tool_rounds=int(body.get("toolRounds", 0)),
        model_calls=int(body.get("modelCalls", 0)),
        # From StartExecution until the runner's polling sees it finished; ask_ms
        # adds fetching the history from moto, which is the harness, not the loop.
        wall_ms=float(result.elapsed_ms),
        ask_ms=ask_ms,
        execution_ms=history.execution_ms(result.events),
        states_entered=history.states_entered(result.events),
        usages=history.converse_usages(result.events),
        lambda_calls=timed.drain() if timed else [],
        peaks=history.payload_peaks(result.events),
        fields_seen=history.payload_fields_seen(result.events),
        result=result if keep else None,
        dynamodb=meter.drain() if meter else [],
        log_events=log_events,
        log_bytes=log_bytes,
    )


@contextmanager
def local_system(
    web_env: Mapping[str, str],
    *,
    model: str = "offline",
    catalog: list[dict[str, Any]] | None = None,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Handler] | None = None,
    tuning: Mapping[str, int] | None = None,
    search_first: bool = True,
) -> Iterator[LocalStorechat]:
    with LocalStorechat(
        model=model,
        catalog=catalog,
        env={**web_env, **(env or {})},
        overrides=overrides,
        tuning=tuning,
        search_first=search_first,
    ) as local:
        yield local


# --------------------------------------------------------------------------- replay files


def _usage(inp: int, out: int) -> dict[str, int]:
    return {"inputTokens": inp, "outputTokens": out, "totalTokens": inp + out}


def _asks_for(*uses: tuple[str, str, dict[str, Any]]) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"text": "Let me check."}]
    content += [{"toolUse": {"toolUseId": i, "name": n, "input": x}} for i, n, x in uses]
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": "tool_use",
        "usage": _usage(120, 30),
        "metrics": {"latencyMs": 3},
    }


def _replies(text: str) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": [{"text": text}]}},
        "stopReason": "end_turn",
        "usage": _usage(300, 60),
        "metrics": {"latencyMs": 3},
    }


def _replay(directory: Path, name: str, responses: list[dict[str, Any]]) -> str:
    path = directory / name
    path.write_text(json.dumps(responses), encoding="utf-8")
    return f"replay:{path}"


# --------------------------------------------------------------------------- scenarios


def run_main(profile: Profile, web_env: Mapping[str, str]) -> dict[str, list[Asked]]:
    """The offline model with every real handler, timed: e2e, compact tokens, payloads.

    One warm-up question first (not counted), so module imports, botocore models
    and the catalog cache are warm, as on a warm Lambda.
    """
    timed = Timed()
    overrides = {key: timed.wrap(key, real_handler(key)) for key in functions_by_key()}
    meter = CapacityMeter()
    with local_system(web_env, overrides=overrides) as local, meter.installed():
        ask(local, E2E_QUESTIONS[0])
        timed.drain()
        meter.drain()
        e2e = [
            ask(local, q, timed=timed, meter=meter) for q in E2E_QUESTIONS[: profile.e2e_questions]
        ]
        three_tools = ask(local, THREE_TOOLS_QUESTION, timed=timed, meter=meter)
        session: list[Asked] = []
        session_id: str | None = None
        for turn in SESSION_TURNS[: profile.session_turns]:
            session.append(ask(local, turn, session_id=session_id, timed=timed, meter=meter))
            session_id = session_id or session[-1].session_id
    return {"e2e": e2e, "three_tools": [three_tools], "session": session}


def run_naive(profile: Profile, web_env: Mapping[str, str]) -> list[Asked]:
    """The token questions, with lookup_inventory handing the model the whole category."""
    with local_system(web_env, overrides={"lookup_inventory": naive_lookup}) as local:
        return [ask(local, q) for q in TOKEN_QUESTIONS[: profile.token_questions]]


def run_cached(profile: Profile, web_env: Mapping[str, str]) -> list[Asked]:
    """The token questions with ``PROMPT_CACHING=true`` (cache points after system and tools)."""
    with local_system(web_env, env={"PROMPT_CACHING": "true"}) as local:
        return [ask(local, q) for q in TOKEN_QUESTIONS[: profile.token_questions]]


def run_cache_session(web_env: Mapping[str, str], model_id: str, turns: int) -> list[Asked]:
    """The session's first ``turns`` turns with ``PROMPT_CACHING=true`` and ``model_id``.

    The Converse Lambda places cache points by the model id, and the offline model
    stands in for that model: it counts cache reads and writes by that model's rules.
    """
    from converse.handler import use_provider
    from storechat.offline import OfflineProvider

    env = {"PROMPT_CACHING": "true", "MODEL_ID": model_id}
    asked: list[Asked] = []
    session_id: str | None = None
    with local_system(web_env, env=env) as local:
        use_provider(OfflineProvider(model_id))
        for turn in SESSION_TURNS[:turns]:
            asked.append(ask(local, turn, session_id=session_id))
            session_id = session_id or asked[-1].session_id
    return asked


def run_five_rounds(
    profile: Profile, web_env: Mapping[str, str], catalogs: Catalogs
) -> dict[str, Any]:
    """Five tool rounds of three broad lookups each, on a large catalog, then the cap.

    The replay model asks for COMPUTERS, MOBILE and BOOKS six times, each time for the
    largest page the tool shows; the sixth
    request meets ``MaxToolRounds`` and falls back. The catalog's search snapshot is
    published to the local index bucket and the container is warm: it has loaded the
    snapshot before the question (a cold load is the Lambda figure's). The deadline is
    raised so that a slow, shared machine cannot cut the rounds short; payload sizes
    do not depend on it.
    """
    from lookup_inventory import handler

    responses = [
        _asks_for(
            *(
                (f"r{r}_{i}", "lookup_inventory", {"category": c, "limit": MAX_PAGE})
                for i, c in enumerate(BROAD_CATEGORIES)
            )
        )
        for r in range(6)
    ]
    fast = catalogs.fast(profile.big_catalog)
    with tempfile.TemporaryDirectory(prefix="storechat-bench-") as tmp:
        model = _replay(Path(tmp), "five-rounds.json", responses)
        with (
            local_system(
                web_env,
                model=model,
                catalog=[],
                tuning={"DeadlineMs": 120_000},
                # the replayed model asks for every round itself
                search_first=False,
            ) as local,
            fast.serving(),
        ):
            publish_index(catalogs.products(profile.big_catalog))
            started = time.perf_counter()
            for i, category in enumerate(BROAD_CATEGORIES):
                event = {
                    "toolUse": {
                        "toolUseId": f"warm{i}",
                        "name": "lookup_inventory",
                        "input": {"category": category},
                    }
                }
                handler.lambda_handler(event, FakeContext(functions_by_key()["lookup_inventory"]))
            warm_ms = (time.perf_counter() - started) * 1000
            asked = ask(local, "Show me everything you sell.")
    return {"asked": asked, "catalog": fast.size, "warm_ms": warm_ms}


def run_parallel(profile: Profile, web_env: Mapping[str, str]) -> dict[str, Any]:
    """One turn with three tools, each delayed; the tool round's wall time against their sum."""
    timed = Timed()
    overrides = {
        key: timed.wrap(key, delayed(real_handler(key), profile.tool_delay_s))
        for key in PARALLEL_TOOLS
    }
    responses: list[dict[str, Any]] = []
    for r in range(profile.parallel_repeats):
        responses.append(
            _asks_for(
                (f"p{r}a", "lookup_inventory", {"category": "COMPUTERS", "brandId": "Dell"}),
                (f"p{r}b", "get_computer_reviews", {"query": "Dell XPS 13"}),
                (f"p{r}c", "get_book_info", {"query": "Dune"}),
            )
        )
        responses.append(_replies("Here is what I found."))
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="storechat-bench-") as tmp:
        model = _replay(Path(tmp), "parallel.json", responses)
        # The replayed model asks for the three tools itself: with the search first on, the
        # turn would run a fourth tool before its round.
        with local_system(web_env, model=model, overrides=overrides, search_first=False) as local:
            for _ in range(profile.parallel_repeats):
                asked = ask(local, THREE_TOOLS_QUESTION, timed=timed, keep=True)
                assert asked.result is not None
                events = asked.result.events
                entered = history.entered_at(events, "RunTools")
                appended = history.entered_at(events, "AppendToolResults")
                tool_s = [s for k, s in asked.lambda_calls if k in PARALLEL_TOOLS]
                runs.append(
                    {
                        "status": asked.status,
                        "tools_run": len(tool_s),
                        "round_ms": appended[0] - entered[0] if entered and appended else None,
                        "sum_of_tools_ms": sum(tool_s) * 1000,
                        "tool_ms": [round(s * 1000, 1) for s in tool_s],
                    }
                )
    rounds = [r["round_ms"] for r in runs if r["round_ms"] is not None]
    sums = [r["sum_of_tools_ms"] for r in runs]
    return {
        "delay_s": profile.tool_delay_s,
        "runs": runs,
        "round_ms": statistics.median(rounds) if rounds else None,
        "sum_of_tools_ms": statistics.median(sums),
    }
