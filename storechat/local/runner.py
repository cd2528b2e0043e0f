"""The local loop: the real ASL file, in moto's Step Functions interpreter.

``LocalStorechat`` starts moto, creates the catalog, sessions, steps and spend tables,
seeds the catalog, registers the state machine from ``statemachine/`` with the
same placeholders the CDK stack fills, and runs one execution per question.
Sessions and the day's model spend can be kept in data files so that they survive
between CLI calls; a daily model budget works as the deployed one does.

Each part has its module: ``aws`` (moto, tables, state machine), ``environment``
(what the handlers read, what a cold start forgets, what a model's tokens cost),
``lambdas`` (the handlers as moto's Lambda backend), ``table_files`` (the sessions
and spend files) and ``execution`` (one run). The process environment is never
written: the handlers get this system's variables through ``shared.config.environment``, in
the thread that calls them and, for as long as the system runs, in the thread that
started it (so that code there, such as :meth:`LocalStorechat.prime_catalog_cache` or
a benchmark calling a handler itself, sees what the handlers see).
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from http import HTTPStatus
from pathlib import Path
from typing import Any

import boto3
from pydantic import ValidationError

import registry
import statemachine
from converse.prompt import system_prompt
from record_feedback.logic import SessionTurns
from record_feedback.logic import record as record_feedback
from shared.config.environment import overriding
from shared.products.currency import DEFAULT_CURRENCY
from shared.runtime.observability import logger, metrics
from shared.search import Listing
from shared.store.settings import StoreFile
from shared.store.settings import load as load_store
from shared.tools import guardrail
from shared.trace.steps import read_steps
from storechat.local import aws, environment, index, moto_patches
from storechat.local.atomic_writes import atomic_dynamodb_writes
from storechat.local.aws import (
    ACCOUNT,
    BULK_SEED_THRESHOLD,
    CATALOG_TABLE,
    REGION,
    SESSIONS_TABLE,
    SPEND_TABLE,
    STATE_MACHINE,
    STEPS_TABLE,
    SYNC_TABLE,
)
from storechat.local.errors import CannotRunLocally
from storechat.local.execution import RunResult, execute
from storechat.local.generations import Generations
from storechat.local.lambdas import Dispatcher, Handler, handler_module, local_arn
from storechat.local.live import StepFollower, StepListener
from storechat.local.table_files import TableFile
from storechat.local.webhooks import LocalWebhooks, local_catalog_writer
from storechat.offline import OFFLINE_MODEL_ID
from storechat.settings import SAMPLE_STORE

__all__ = [
    "ACCOUNT",
    "BULK_SEED_THRESHOLD",
    "CATALOG_TABLE",
    "METRICS_NAMESPACE",
    "OFFLINE_MODEL_ID",
    "REGION",
    "SESSIONS_TABLE",
    "SPEND_TABLE",
    "STATE_MACHINE",
    "LocalStorechat",
    "RunResult",
]

METRICS_NAMESPACE = "Storechat"
"""The handlers' metrics namespace locally (deployed: ``Storechat/<env>``)."""

LOCAL_SPEND_CHECK_SECONDS = 5
"""What the local copy's spend states (``statemachine.SPEND_STATES``) get to write, where a
stack's get 1 s. The counter is a moto table in this process, served under one interpreter
lock beside every function and state: with questions running at once on a laptop's cores
an update can take over a second, where DynamoDB takes milliseconds. Five seconds keep a
busy laptop from reading as a spent budget."""


class LocalStorechat:
    """A running local copy of the system. Use as a context manager.

    ``env`` adds to or replaces the functions' variables; ``overrides`` replaces
    handlers by function key; ``log_level`` is the handlers' log level while it runs.
    ``daily_budget_usd`` is the day's model budget (None: no budget): once the day's
    tokens, priced as ``environment.model_token_prices`` prices the model's, reach it,
    questions are answered from a catalog search without a model call. ``store`` is the
    store's settings and policies (``storechat serve --store FILE``); None is the sample
    store of ``store/``. ``search_first`` is a deployed stack's setting of the same name: the
    catalog search on the shopper's words runs before the first model call, and its result
    is handed to the model when it serves (``STORECHAT_SEARCH_FIRST=0``: off).
    """

    def __init__(
        self,
        *,
        model: str = "offline",
        catalog: list[dict[str, Any]] | None = None,
        data_dir: Path | None = None,
        tuning: Mapping[str, int] | None = None,
        env: Mapping[str, str] | None = None,
        overrides: Mapping[str, Handler] | None = None,
        log_level: str = "WARNING",
        daily_budget_usd: float | None = None,
        store: StoreFile | None = None,
        webhook_secrets: Mapping[str, str] | None = None,
        store_url: str | None = None,
        search_first: bool = True,
        function_seconds_at_least: int | None = None,
    ) -> None:
        """``function_seconds_at_least``: every function's Task timeout raised to at least
        this, for many executions at once on this one interpreter (a burst on two cores),
        where Lambda would give each function its own CPU; None keeps the stack's."""
        self.model = model
        self.search_first = search_first
        self._function_seconds = function_seconds_at_least
        self.store = store or load_store(SAMPLE_STORE)
        self._webhook_secrets = dict(webhook_secrets or {})
        # Webhook products link to the store's pages: its settings' storefront by default.
        self._store_url = store_url or self.store.settings.url
        self.webhooks: LocalWebhooks | None = None
        self.daily_budget_usd = daily_budget_usd
        self._prices = environment.model_token_prices(model, budgeted=daily_budget_usd is not None)
        self._catalog = catalog
        self._seeded: list[dict[str, Any]] = []
        self._data_dir = data_dir
        self._sessions_file: TableFile | None = None
        self._spend_file: TableFile | None = None
        self._tuning = {**statemachine.TUNING_DEFAULTS, **(tuning or {})}
        self._overrides = dict(overrides or {})
        self._index_dir = tempfile.TemporaryDirectory(prefix="storechat-index-")
        self._env = environment.function_variables(
            model,
            region=REGION,
            catalog_table=CATALOG_TABLE,
            steps_table=STEPS_TABLE,
            store_file=self._publish_store(),
            log_level=log_level,
            metrics_namespace=METRICS_NAMESPACE,
            # This system's own snapshot download folder: another process's runner
            # would replace files in a shared one.
            extra={**index.index_variables(self._index_dir.name), **(env or {})},
        )
        self._environ = environment.layered(self._env)
        self._guardrail = environment.guardrail_of(self._environ)
        self._exit_stack = ExitStack()

    def _publish_store(self) -> str:
        """The store's settings where the functions read them, as a deployed stack's layer."""
        path = Path(self._index_dir.name) / "store.json"
        path.write_text(self.store.model_dump_json(), encoding="utf-8")
        return str(path)

    # -- lifecycle --------------------------------------------------------------------------

    def __enter__(self) -> LocalStorechat:
        bedrock_clients = self._bedrock_client() if self.model.startswith("bedrock") else None
        guardrail_clients = bedrock_clients
        if self._guardrail.guardrail_id and guardrail_clients is None:
            guardrail_clients = self._bedrock_client(
                "a guardrail (BEDROCK_GUARDRAIL_ID) needs AWS credentials"
            )
        with ExitStack() as stack:
            # If any step fails, everything started so far is undone before the error
            # leaves: moto stopped, the handlers' environment and caches forgotten.
            stack.enter_context(aws.mocked_aws())
            stack.enter_context(atomic_dynamodb_writes())
            stack.enter_context(overriding(self._environ))
            environment.forget_warm_state()
            stack.callback(environment.forget_warm_state)
            stack.enter_context(self._observability())
            moto_patches.install(Dispatcher(self._overrides, environment=self._environ))
            self._install_provider(bedrock_clients)
            if guardrail_clients is not None and self._guardrail.guardrail_id:
                # The web tools screen with the developer's credentials, as Converse calls.
                guardrail.use_clients(guardrail_clients)
            self._dynamodb = boto3.client("dynamodb", region_name=REGION)
            self._sfn = boto3.client("stepfunctions", region_name=REGION)
            self._create_tables()
            self._seed_catalog(self._catalog)
            # The search snapshot, published as the indexer publishes it from the table.
            index.seed_index(
                boto3.client("s3", region_name=REGION), index.INDEX_BUCKET, self._seeded
            )
            if self._data_dir:
                self._sessions_file = TableFile(
                    self._data_dir / "sessions.json", self._dynamodb, SESSIONS_TABLE
                )
                self._spend_file = TableFile(
                    self._data_dir / "spend.json", self._dynamodb, SPEND_TABLE
                )
                self._sessions_file.load()
                self._spend_file.load()
            self.webhooks = self._webhooks()
            self._machines = self._create_state_machine()
            self._exit_stack = stack.pop_all()
        return self

    def __exit__(self, *exc: object) -> None:
        self._exit_stack.close()
        self._index_dir.cleanup()

    @contextmanager
    def _observability(self) -> Iterator[None]:
        """The handlers' log level and metrics namespace, on the shared objects, while it runs.

        Powertools read both from the process environment when ``shared.runtime.observability``
        was first imported; Lambda gives them per function, so they are set here instead.
        """
        level, namespace = logger.log_level, metrics.namespace
        logger.setLevel(self._env["POWERTOOLS_LOG_LEVEL"])
        metrics.namespace = self._env["POWERTOOLS_METRICS_NAMESPACE"]
        try:
            yield
        finally:
            metrics.namespace = namespace
            logger.setLevel(level)

    def _install_provider(self, bedrock_clients: Any) -> None:
        """The model providers a deployed function cannot build for itself locally."""
        use_provider = handler_module(registry.CONVERSE).use_provider
        if bedrock_clients is not None:
            from converse.providers import BedrockProvider

            use_provider(BedrockProvider(region=None, client_factory=bedrock_clients))
        elif self.model == "offline":
            from storechat.offline import OfflineProvider

            use_provider(OfflineProvider(listing=self.listing, currency=self.store_currency))
        elif self.model == "obedient":
            from storechat.redteam.obedient import ObedientModel

            use_provider(ObedientModel())
        elif self.model.startswith("replay:"):
            # Cache figures by Bedrock's rules, as the offline model's are.
            from converse.metering import UsageMeter
            from converse.scripted import ScriptedModel

            recorded = Path(self.model.removeprefix("replay:")).expanduser()
            use_provider(ScriptedModel.from_file(recorded, meter=UsageMeter()))

    @staticmethod
    def _bedrock_client(needs: str = "--model bedrock needs AWS credentials") -> Any:
        """A client factory holding the real credentials, resolved before moto starts."""
        session = boto3.Session()
        credentials = session.get_credentials()
        if credentials is None:
            raise CannotRunLocally(f"{needs} (none were found)")
        frozen = credentials.get_frozen_credentials()
        region = os.environ.get("BEDROCK_REGION") or session.region_name or REGION
        from converse.providers import client_config

        def build(read_timeout_s: int) -> Any:
            # boto3 reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME itself: a Bedrock-shaped server
            # can stand in front of the real provider code.
            return boto3.client(
                "bedrock-runtime",
                region_name=region,
                aws_access_key_id=frozen.access_key,
                aws_secret_access_key=frozen.secret_key,
                aws_session_token=frozen.token,
                config=client_config(read_timeout_s),
            )

        return build

    # -- resources --------------------------------------------------------------------------

    def _create_tables(self) -> None:
        aws.create_tables(self._dynamodb)

    def _seed_catalog(self, catalog: list[dict[str, Any]] | None) -> None:
        if catalog is None:
            from shared.products.catalog_data import load_catalog

            catalog = load_catalog()
        self._seeded = catalog
        aws.seed_catalog(catalog)

    def prime_catalog_cache(self) -> None:
        """Load the catalog tool's search snapshot, as a warm Lambda would have it."""
        with overriding(self._environ):
            handler_module(registry.LOOKUP_INVENTORY).current_index()

    def listing(self) -> Listing:
        """What the store carries (brands, authors, spec values...), as listed by the
        snapshot the catalog tool searches: the one published from this system's catalog."""
        with overriding(self._environ):
            listing: Listing = handler_module(registry.LOOKUP_INVENTORY).current_index().listing
            return listing

    @property
    def store_currency(self) -> str:
        """The currency of the catalog's prices (ISO 4217), as the response builder reads
        it (``STORE_CURRENCY``, US dollars when unset): the page formats prices in it."""
        from compose_response.settings import Settings

        return Settings.model_validate(self._environ).store_currency

    @property
    def store_weight_unit(self) -> str:
        """The unit a shopper reads weights in (``STORE_WEIGHT_UNIT``, kg when unset), as
        the response builder reads it: the page shows weights in it."""
        from compose_response.settings import Settings

        return Settings.model_validate(self._environ).weight_unit

    @property
    def max_tokens(self) -> int:
        """The cap of a model's reply (``MAX_TOKENS``, as the Converse function reads it): the
        state machine reserves spend for a whole reply of it and sends it with each call."""
        from converse.settings import Settings as ConverseSettings

        try:
            return ConverseSettings.model_validate(self._environ).max_tokens
        except ValidationError:
            # Settings the Converse function refuses: it fails closed before any call, so
            # the state machine still runs, and the default cap stands in for the size.
            return int(ConverseSettings.model_fields["max_tokens"].default)

    def _priced_currency(self) -> str:
        """The store's currency as the reservation's tool specs name it; a currency the
        functions refuse (a local shell may set any) is refused by them, failing closed, so
        the state machine still runs and the default's specs stand in for its size."""
        try:
            return self.store_currency
        except ValidationError:
            return DEFAULT_CURRENCY

    def substitutions(self) -> dict[str, object]:
        arns = {key: local_arn(key, REGION, ACCOUNT) for key in registry.functions_by_key()}
        values: dict[str, object] = dict(
            statemachine.resource_substitutions(arns, SESSIONS_TABLE, STEPS_TABLE, SPEND_TABLE)
        )
        values.update(
            statemachine.budget_substitutions(
                self.daily_budget_usd,
                self._prices,
                max_tokens=self.max_tokens,
                currency=self._priced_currency(),
                system_prompt=system_prompt(self.store),
            )
        )
        values.update(statemachine.loop_substitutions(search_first=self.search_first))
        values.update(self._tuning)
        return values

    def _webhooks(self) -> LocalWebhooks:
        """The platforms' webhooks, writing this system's catalog (and, with a data
        folder, keeping what they wrote there: the catalog file and the sync table)."""
        saved = None
        on_change = None
        if self._data_dir:
            saved = TableFile(
                self._data_dir / "sync.json", self._dynamodb, SYNC_TABLE, lasting=True
            )
            saved.load()
            on_change = local_catalog_writer(self._data_dir)
        return LocalWebhooks(
            self._dynamodb,
            boto3.client("s3", region_name=REGION),
            secrets=self._webhook_secrets,
            store_url=self._store_url,
            on_change=on_change,
            saved=saved,
        )

    def _create_state_machine(self) -> Generations:
        definition = statemachine.substitute(statemachine.read_definition(), self.substitutions())
        definition = statemachine.with_spend_check_seconds(definition, LOCAL_SPEND_CHECK_SECONDS)
        if self._function_seconds is not None:
            definition = statemachine.with_function_seconds_at_least(
                definition, self._function_seconds
            )
        return Generations(self._sfn, definition)

    @property
    def state_machine_arn(self) -> str:
        """The state machine the next question runs on (``generations``: it is made again
        every few questions, so that moto forgets the finished ones)."""
        return self._machines.current

    # -- running ----------------------------------------------------------------------------

    def ask(
        self,
        message: str,
        session_id: str | None = None,
        *,
        timeout_s: float = 60,
        with_history: bool = True,
        turn_id: str | None = None,
        on_step: StepListener | None = None,
    ) -> RunResult:
        """One question. ``on_step`` hears each step of the live trace as it happens (read
        from the steps table, as the page reads it), under ``turn_id`` or a new one."""
        payload: dict[str, Any] = {"message": message}
        if session_id:
            payload["sessionId"] = session_id
        if turn_id or on_step:
            payload["turnId"] = turn_id or uuid.uuid4().hex
        return self.run(payload, timeout_s=timeout_s, with_history=with_history, on_step=on_step)

    def run(
        self,
        payload: dict[str, Any],
        *,
        timeout_s: float = 60,
        with_history: bool = True,
        on_step: StepListener | None = None,
    ) -> RunResult:
        """Start one execution with ``payload`` as its input, as API Gateway passes a body.

        ``with_history=False`` skips reading the execution history (the dev server
        does not need it, and under load it is a large share of the work).
        """
        follower = (
            StepFollower(lambda: self.steps(payload["turnId"]), on_step)
            if on_step and "turnId" in payload
            else None
        )
        try:
            with self._machines.execution() as state_machine_arn:
                result = execute(
                    self._sfn,
                    state_machine_arn,
                    payload,
                    timeout_s=timeout_s,
                    with_history=with_history,
                    while_running=follower.poll if follower else None,
                )
        finally:
            # What a turn spent is kept whatever became of it: failed, timed out, or its
            # caller gone (Ctrl-C): each model call's spend was reserved before the call.
            if self._spend_file:
                self._spend_file.save()
        if follower:
            follower.poll(force=True)
        if result.status == "SUCCEEDED" and self._sessions_file:
            self._sessions_file.save()
        return result

    def feedback(self, turn_id: str, raw: bytes) -> tuple[HTTPStatus, dict[str, Any]]:
        """``POST /query/{turnId}/feedback``'s status and body: the deployed function's
        code, on moto's sessions table; what it records is saved with the sessions."""
        status, body = record_feedback(SessionTurns(self._dynamodb, SESSIONS_TABLE), turn_id, raw)
        if status == HTTPStatus.OK and self._sessions_file:
            self._sessions_file.save()
        return status, body

    def steps(self, turn_id: str) -> str | None:
        """``GET /query/{turnId}/steps``'s body: the deployed route's query, on moto."""
        return read_steps(self._dynamodb, STEPS_TABLE, turn_id)
