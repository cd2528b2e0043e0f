"""``storechat``: ask the local assistant a question, chat with it, or serve the page.

Every command runs the real state machine in-process (see ``storechat.local``), on the
catalog imported with ``storechat catalog import`` or else the bundled sample.
Exit codes: 0 for every outcome the assistant can give (answered, truncated,
refused, fallback); 1 when the execution itself failed; 2 for bad input.
Its environment (``STORECHAT_HOME``, ``STORECHAT_DAILY_BUDGET_USD``,
``STORECHAT_SEARCH_FIRST``) is read once, at the start, by ``storechat.settings``.
``storechat catalog`` manages the store's products (see ``storechat.catalog.commands``);
``storechat eval`` scores the assistant on a question set (see ``storechat.evaluate``);
``storechat doctor --stack NAME`` checks a deployed stack (see ``storechat.doctor``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO, cast
from urllib.parse import urlsplit

from shared.api.query import DEFAULT_MAX_MESSAGE_CHARS, RequestRejected, parse_query
from shared.products.catalog_writes import CatalogWriteError
from shared.store.settings import StoreFile, StoreSettingsError
from shared.store.settings import load as load_store
from storechat.catalog import load_local_catalog
from storechat.catalog.commands import add_catalog_commands
from storechat.catalog.errors import CatalogError
from storechat.doctor.command import add_doctor_arguments, run_doctor
from storechat.evaluate.command import add_eval_arguments, run_eval
from storechat.insights.command import add_insights_arguments, run_insights
from storechat.local import LocalStorechat, RunResult
from storechat.local.errors import CannotRunLocally
from storechat.printing import model_label, print_answer, print_trace, step_printer
from storechat.redteam.command import DEFAULT_MODEL as RED_TEAM_MODEL
from storechat.settings import (
    IMAGE_HOSTS_VARIABLE,
    SAMPLE_STORE,
    LocalSettings,
    SettingsError,
    read_settings,
)
from storechat.settings import image_hosts as image_hosts_of
from storechat.settings import store_url as store_url_of
from storechat.terminal import TerminalText

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
"""Ctrl-C, as a shell reports it (128 + SIGINT)."""


def _validate(message: str, session: str | None) -> str | None:
    body = {"message": message, **({"sessionId": session} if session else {})}
    try:
        parse_query(json.dumps(body), max_message_chars=DEFAULT_MAX_MESSAGE_CHARS)
    except RequestRejected as exc:
        return str(exc)
    return None


def _report_failure(result: RunResult) -> int:
    print(
        f"error: the conversation failed ({result.status}): {result.error}: {result.cause}",
        file=_terminal(sys.stderr),
    )
    return EXIT_FAILED


def _store(args: argparse.Namespace) -> StoreFile:
    """The store's settings: ``--store FILE``, or the sample store's."""
    return load_store(Path(args.store) if args.store else SAMPLE_STORE)


def _local(args: argparse.Namespace) -> LocalStorechat:
    settings: LocalSettings = args.settings
    catalog = load_local_catalog(settings.home)
    store = _store(args)
    _warn_sample_store(catalog, store, bool(args.store))
    return LocalStorechat(
        model=args.model,
        catalog=catalog,
        data_dir=settings.home,
        log_level=args.log_level,
        daily_budget_usd=settings.daily_budget_usd,
        store=store,
        search_first=settings.search_first,
    )


def _terminal(stream: TextIO) -> TextIO:
    """``stream`` printing no escape sequence a model or a tool wrote (storechat.terminal)."""
    return cast(TextIO, TerminalText(stream))


def cmd_ask(args: argparse.Namespace) -> int:
    problem = _validate(args.text, args.session)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    stdout, stderr = _terminal(sys.stdout), _terminal(sys.stderr)
    steps_out = stderr if args.json else stdout
    with _local(args) as local:
        if args.trace:
            print("Live trace:", file=steps_out, flush=True)
        result = local.ask(
            args.text, args.session, on_step=step_printer(steps_out) if args.trace else None
        )
        if args.trace:
            print(file=steps_out)
        currency = local.store_currency
        weight_unit = local.store_weight_unit
    if result.status != "SUCCEEDED" or result.body is None:
        if args.trace:
            print_trace(result, stderr)
        return _report_failure(result)
    started = result.body.get("sessionId")
    if args.session and started != args.session:
        # An id the store has no conversation for (expired, or never started here) starts
        # a new one: said, so that nobody thinks the answer read the earlier turns.
        print(
            f"note: no conversation {args.session} here; this one is new: {started}",
            file=stderr,
        )
    if args.json:
        print(json.dumps(result.body, indent=2, ensure_ascii=False), file=stdout)
        if args.trace:
            print_trace(result, stderr)
        return 0
    print_answer(result, args.model, stdout, currency, weight_unit)
    if args.trace:
        print_trace(result, stdout)
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    session = args.session
    stdout = _terminal(sys.stdout)
    print(f"storechat chat · {model_label(args.model)}")
    print("Ask about computers, phones or books. /new starts over, /quit (or Ctrl-D) leaves.\n")
    with _local(args) as local:
        while True:
            try:
                text = input("you> ").strip()
            except (EOFError, KeyboardInterrupt):
                print()
                return 0
            if text in ("/quit", "/exit"):
                return 0
            if text == "/new":
                session = None
                print("(new conversation)\n")
                continue
            if not text:
                continue
            problem = _validate(text, session)
            if problem:
                print(f"error: {problem}\n")
                continue
            result = local.ask(text, session, on_step=step_printer(stdout))
            if result.status != "SUCCEEDED" or result.body is None:
                print(
                    f"error: the conversation failed: {result.error}: {result.cause}\n", file=stdout
                )
                continue
            session = result.body.get("sessionId")
            print()
            print_answer(result, args.model, stdout, local.store_currency, local.store_weight_unit)
            if args.trace:
                print_trace(result, stdout)
            print()


def _warn_blocked_pictures(catalog: list[dict[str, Any]], image_hosts: tuple[str, ...]) -> None:
    """Say which hosts of the catalog's pictures the page may not load from, and the fix."""
    from shared.api.page_policy import allowed

    blocked: dict[str, int] = {}
    for product in catalog:
        url = product.get("imageUrl")
        if isinstance(url, str) and not allowed(url, image_hosts):
            parts = urlsplit(url)
            origin = f"{parts.scheme}://{parts.netloc}"
            blocked[origin] = blocked.get(origin, 0) + 1
    for origin, products in blocked.items():
        print(
            f"note: {products:,} product pictures are on {origin}, which the page may not "
            f"load from: pass --image-host {origin} to show them",
            file=sys.stderr,
        )


def _warn_sample_store(catalog: list[dict[str, Any]] | None, store: StoreFile, given: bool) -> None:
    """Say so when the catalog's product pages are on another store than the sample store
    whose settings are used for want of ``--store``: its name, contact and cart links
    would be the sample's."""
    if given or not catalog:
        return
    own = urlsplit(store.settings.url).netloc.casefold()
    hosts: dict[str, int] = {}
    for product in catalog:
        url = product.get("url")
        host = urlsplit(url).netloc.casefold() if isinstance(url, str) else ""
        if host and host != own:
            hosts[host] = hosts.get(host, 0) + 1
    if hosts:
        host = max(hosts, key=hosts.__getitem__)
        where = f"the catalog's product pages are on {host}"
    elif not _holds_the_sample(catalog):
        where = "the catalog is not the sample store's"
    else:
        return
    print(
        f"note: {where}, but without --store the settings are the sample store's ({own}): "
        "its name, contact, policies and cart links. Write your store's settings "
        "(docs/widget.md) and pass --store FILE",
        file=sys.stderr,
    )


def _holds_the_sample(catalog: list[dict[str, Any]]) -> bool:
    """Whether ``catalog`` holds a product of the sample catalog (the demo's, or a store
    that started from it): one that holds none is a store's own."""
    from shared.products.catalog_data import load_catalog

    sample = {product["productId"] for product in load_catalog()}
    return any(product.get("productId") in sample for product in catalog)


def cmd_serve(args: argparse.Namespace) -> int:
    from storechat.server import serve

    settings: LocalSettings = args.settings
    image_hosts = (
        image_hosts_of(args.image_host, "--image-host") if args.image_host else settings.image_hosts
    )
    catalog = load_local_catalog(settings.home)
    _warn_blocked_pictures(catalog or [], image_hosts)
    store = _store(args)
    _warn_sample_store(catalog, store, bool(args.store))
    return serve(
        host=args.host,
        port=args.port,
        model=args.model,
        data_dir=settings.home,
        log_level=args.log_level,
        catalog=catalog,
        image_hosts=image_hosts,
        daily_budget_usd=settings.daily_budget_usd,
        search_first=settings.search_first,
        store=store,
        webhook_secrets=settings.webhook_secrets,
        store_url=(
            store_url_of(args.store_url, "--store-url") if args.store_url else settings.store_url
        ),
    )


def cmd_eval(args: argparse.Namespace) -> int:
    # The eval measures the model: it runs without the daily budget, and on no session file.
    if args.model is None:
        args.model = RED_TEAM_MODEL if args.red_team is not None else "offline"
    return run_eval(args, home=args.settings.home, label=model_label(args.model))


def build_parser(settings: LocalSettings | None = None) -> argparse.ArgumentParser:
    settings = settings or LocalSettings()
    parser = argparse.ArgumentParser(prog="storechat", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--model",
            default="offline",
            help="offline (default), obedient (does what tool results say: red team), "
            "replay:PATH or bedrock[:MODEL_ID]",
        )
        p.add_argument(
            "--log-level",
            default="ERROR",
            help="log level of the Lambda handlers (logs go to stderr)",
        )

    def store_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--store",
            metavar="FILE",
            help="the store's settings (JSON: name, url, platform, allowedOrigins, policies, "
            "contact, assistant, colors, language); default: the sample store in store/",
        )

    ask = sub.add_parser("ask", help="ask one question")
    ask.add_argument("text", help="the shopper's question")
    ask.add_argument("--session", help="continue the conversation with this session id")
    ask.add_argument("--json", action="store_true", help="print the response body as JSON")
    ask.add_argument(
        "--trace",
        action="store_true",
        help="show the live trace as it happens, then every state entered and every tool call",
    )
    common(ask)
    store_option(ask)
    ask.set_defaults(func=cmd_ask)

    chat = sub.add_parser("chat", help="an interactive conversation")
    chat.add_argument("--session", help="continue this session")
    chat.add_argument("--trace", action="store_true")
    common(chat)
    store_option(chat)
    chat.set_defaults(func=cmd_chat)

    serve = sub.add_parser("serve", help="serve the chat page and POST /query on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument(
        "--image-host",
        action="append",
        metavar="ORIGIN",
        help="where product pictures may load from, e.g. https://cdn.shopify.com (repeat for "
        f"more; default: ${IMAGE_HOSTS_VARIABLE}, space or comma separated)",
    )
    serve.add_argument(
        "--store-url",
        help="the store's address, which products written by webhooks link to "
        "(default: $STORE_URL)",
    )
    common(serve)
    store_option(serve)
    serve.set_defaults(func=cmd_serve)

    evaluate = sub.add_parser(
        "eval",
        help="score the assistant on a set of shopper questions",
        description="Run every question through the real loop, score each answer against "
        "what the question expects, and write report.md and report.json.",
    )
    add_eval_arguments(evaluate)
    common(evaluate)
    # No --model: offline for questions, the obedient stand-in for --red-team (cmd_eval).
    evaluate.set_defaults(func=cmd_eval, model=None)

    doctor = sub.add_parser(
        "doctor",
        help="check a deployed stack after cdk deploy, and say how to fix what fails",
        description="Check a deployed stack: the model answers (one tiny call, counted in the "
        "day's budget), the Brave key, the search snapshot, the alarm subscription, the WAF, "
        "the spend counter, the page's config and the storefront origins. Exit 1 if any fails.",
    )
    add_doctor_arguments(doctor)
    doctor.set_defaults(func=run_doctor)

    insights = sub.add_parser(
        "insights",
        help="what shoppers asked for, what the store does not carry, and answers rated down",
        description="Read the turns (a deployed stack's with --stack, else the local ones) and "
        "print, for the period: questions and sessions, outcomes, searches that found nothing, "
        "what was asked for that the catalog does not carry, the questions asked most, the "
        "answers rated down with their comments, and the products shown, clicked and added "
        "to cart most.",
    )
    add_insights_arguments(insights)
    insights.set_defaults(func=run_insights)

    add_catalog_commands(sub, home=lambda: settings.home, store_url=lambda: settings.store_url)
    parser.set_defaults(settings=settings)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        settings = read_settings()
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    args = build_parser(settings).parse_args(argv)
    problem = _check_model(getattr(args, "model", None))
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        # What a question spent so far is already counted (runner.LocalStorechat.run).
        print("\nstopped", file=sys.stderr)
        return EXIT_INTERRUPTED
    except CatalogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except (CannotRunLocally, CatalogWriteError) as exc:  # e.g. --model bedrock, no credentials
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except SettingsError as exc:  # e.g. a daily budget for a model without list prices
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except StoreSettingsError as exc:  # --store FILE that cannot be used
        print(f"error: the store's settings: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _check_model(model: str | None) -> str | None:
    """Why ``--model`` cannot be used, or None (also for commands without a model)."""
    if model is None:
        return None
    if not (
        model in ("offline", "obedient", "bedrock") or model.startswith(("replay:", "bedrock:"))
    ):
        return (
            f"unknown --model {model!r}: use offline, obedient, replay:PATH or bedrock[:MODEL_ID]"
        )
    if model.startswith("replay:") and not Path(model.removeprefix("replay:")).is_file():
        return f"replay file not found: {model.removeprefix('replay:')}"
    return None


if __name__ == "__main__":
    sys.exit(main())
