"""`taurec serve-model`: run the OpenAI-compatible baseline model server until Ctrl-C."""

from __future__ import annotations

from collections.abc import Callable

import click

from runner.core.cli_flags import F
from runner.models.model_server import FAULT_KINDS, Fault, ServerOptions, model_names, parse_fault

_FAULT_HELP = (
    "Inject a fault on a share of requests: KIND[:RATE], RATE in 0..1 (default 1). KIND is one "
    f"of {', '.join(FAULT_KINDS)}; prefix it with 'once' (e.g. once429) to fail only the first "
    "call of each conversation. 429 and 503 carry Retry-After; 'hang' stalls past the client's "
    "timeout; 'malformed_tool_json' answers with a tool call whose arguments do not parse. "
    "Repeatable."
)


def _faults(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> list[Fault]:
    try:
        return [parse_fault(v) for v in values]
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _at_least_zero(flag: str, default: float, text: str) -> Callable[[F], F]:
    return click.option(
        flag, default=default, show_default=True, type=click.FloatRange(0), help=text
    )


@click.command(
    epilog=(
        "Models: "
        + ", ".join(model_names())
        + ". Point LiteLLM at it with model 'openai/heuristic' and api_base set to the printed "
        "URL. Per-request options ride on the model name, e.g. 'heuristic+fault=once429', "
        "'heuristic+fault=500+latency_ms=50+retry_after=0.1', or on the X-Taurec-Fault header. "
        "Model 'taurec-user' is the simulated user's reader and writer in LLM mode (simulator "
        "litellm:openai/taurec-user with this api_base; 'taurec-user-reader' and "
        "'taurec-user-writer' are each alone), 'taurec-shopper' (and its -reader / -writer) the "
        "grocery shopper's; 'user' is a free-writing user for the v1 harness. "
        "GET /v1/models lists the models; GET /taurec/stats counts requests, statuses and faults."
    )
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option(
    "--port",
    default=0,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="0 = any free port (the URL is printed).",
)
@_at_least_zero(
    "--latency-ms",
    0.0,
    "Latency of each chat completion, in milliseconds: the answer is sent this long after "
    "its request arrived, the policy's own work included.",
)
@click.option("--fault", "faults", multiple=True, callback=_faults, help=_FAULT_HELP)
@_at_least_zero("--retry-after", 1.0, "Seconds sent in Retry-After with injected 429/503 answers.")
@_at_least_zero("--hang-s", 600.0, "How long a 'hang' fault stalls before answering.")
@click.option(
    "--fault-seed", default=0, show_default=True, help="Seed for which requests get faults."
)
def command(
    host: str,
    port: int,
    latency_ms: float,
    faults: list[Fault],
    retry_after: float,
    hang_s: float,
    fault_seed: int,
) -> None:
    """Serve the built-in baseline policies as an OpenAI-compatible chat-completions API."""
    from runner.models.model_server import serve_model_forever

    options = ServerOptions(
        latency_ms=latency_ms,
        faults=tuple(faults),
        retry_after_s=retry_after,
        hang_s=hang_s,
        fault_seed=fault_seed,
    )

    def ready(url: str) -> None:
        click.echo(f"serving {', '.join(model_names())} at {url} (Ctrl-C to stop)", err=True)
        click.echo(url)

    try:
        serve_model_forever(host, port, options, ready=ready)
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
