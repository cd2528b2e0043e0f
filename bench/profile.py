"""How much work one run does: the full benchmark, or the smoke run behind ``--quick``."""

from __future__ import annotations

from dataclasses import dataclass

from bench import search


@dataclass(frozen=True)
class LatencyPlan:
    products: int
    warm_samples: int
    cold_samples: int


@dataclass(frozen=True)
class Profile:
    name: str
    token_questions: int
    """How many of ``questions.TOKEN_QUESTIONS`` to ask (all of them in the full run)."""
    e2e_questions: int
    session_turns: int
    big_catalog: int
    """Products in the catalog of the five-rounds payload scenario."""
    tool_delay_s: float
    parallel_repeats: int
    latency: tuple[LatencyPlan, ...]
    moto_reference: LatencyPlan
    """The same measure with moto serving the table, to show what the fast server leaves out."""
    import_repeats: int
    handlers: tuple[str, ...] | None
    """Handlers whose import and memory are measured; None for all of them."""
    memory_catalogs: tuple[int, ...]
    """Catalog sizes at which lookup_inventory's cache-miss memory is measured."""
    search_sizes: tuple[int, ...]
    """Catalog sizes at which the search engine is measured (``bench.search``)."""
    search_queries: int
    """Warm searches per size."""
    cold_catalogs: tuple[int, ...]
    """Catalog sizes at which lookup_inventory's cold invoke is measured (``bench.coldstart``)."""
    cold_runs: int
    """Cold invokes of each function (and size); the figure is their median."""
    cold_parallel: bool
    """All cold invokes at once: only where the figures mean nothing (the smoke run)."""
    churn_products: int
    """Catalog size of the churn scenario (``bench.churn``)."""
    churn_seconds: int
    """Simulated seconds of churn (at least one batching window)."""
    trace_questions: int = 6
    """Questions whose live-trace steps are timed through the channel (``bench.trace``)."""
    trace_model_delay_s: float = 1.0
    """How long each model call is held there, so a turn's steps come seconds apart."""
    cache_session_turns: int = 3
    """Turns of the cached session whose cache share is measured, per model id."""
    red_team_cases: int | None = None
    """The red team's cases run (``evals/redteam/``, in order); None for all of them."""
    serve_questions: int = 300
    """Questions of the long dev-server session whose memory is measured (``bench.memory``)."""
    serve_every: int = 50
    """Questions between two measures of its resident set."""
    first_follow_ups: int = 8
    """Turns of the bench's session asked after the token questions in the search-first
    comparison (``bench.first``): follow-ups in their real share of a shop's questions."""
    seed: int = 7


FULL = Profile(
    name="full",
    token_questions=12,
    e2e_questions=30,
    session_turns=20,
    big_catalog=50_000,
    tool_delay_s=1.0,
    parallel_repeats=3,
    latency=(
        LatencyPlan(1_000, warm_samples=200, cold_samples=30),
        LatencyPlan(10_000, warm_samples=50, cold_samples=10),
        LatencyPlan(50_000, warm_samples=20, cold_samples=5),
    ),
    moto_reference=LatencyPlan(1_000, warm_samples=20, cold_samples=5),
    import_repeats=3,
    handlers=None,
    memory_catalogs=(1_000, 10_000, 50_000),
    search_sizes=search.FULL_SIZES,
    search_queries=300,
    cold_catalogs=(1_000, 50_000, 200_000),
    cold_runs=3,
    cold_parallel=False,
    churn_products=200_000,
    churn_seconds=300,
)

QUICK = Profile(
    name="quick",
    token_questions=2,
    e2e_questions=2,
    session_turns=2,
    big_catalog=1_000,
    tool_delay_s=0.2,
    parallel_repeats=1,
    # Over 100 direct calls on one warm container, as in the full run: Powertools acts on
    # its metric buffer when one metric holds 100 values, and that path has broken before.
    latency=(LatencyPlan(300, warm_samples=100, cold_samples=2),),
    moto_reference=LatencyPlan(100, warm_samples=3, cold_samples=2),
    import_repeats=1,
    handlers=("lookup_inventory", "compose_response", "converse"),
    memory_catalogs=(300,),
    search_sizes=(1_000,),
    search_queries=100,
    # One cold invoke of every function under its CPU share, all at once: a few seconds.
    cold_catalogs=(300,),
    cold_runs=1,
    cold_parallel=True,
    churn_products=1_000,
    churn_seconds=60,
    trace_questions=2,
    # Each model call lasts two of the page's 0.5 s polls, so the reader sees steps even
    # when a loaded machine starts its thread late (at 0.6 s, one run in a few saw none).
    trace_model_delay_s=1.0,
    red_team_cases=3,
    serve_questions=12,
    serve_every=6,
    first_follow_ups=2,
)
