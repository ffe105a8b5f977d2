"""`taurec eval`: evaluate one agent over the suite, print the feedback report, exit 1 below a pass^k threshold."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from runner.cli._options import run_settings_options
from runner.core.cli_flags import count_option, folder_option

if TYPE_CHECKING:
    from runner.core.board import BoardSettings, RunSettings


def _thresholds(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> dict[int, float]:
    from runner.evaluation import parse_min_pass

    out: dict[int, float] = {}
    for text in values:
        try:
            k, value = parse_min_pass(text)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
        out[k] = value
    return out


@click.command("eval")
@click.argument("agent")
@count_option("--trials", "Trials per task (pass^1…pass^TRIALS are reported).", default=8)
@click.option(
    "--min-pass",
    "min_pass",
    multiple=True,
    metavar="K=VALUE",
    callback=_thresholds,
    help="Exit 1 unless pass^K >= VALUE (repeatable), e.g. --min-pass 4=0.5.",
)
@click.option(
    "--suite",
    default=None,
    help="Task suite: ours (tasks/), v1 (the published v1 data) or a folder of task files "
    "(default: the board's).",
)
@click.option(
    "--snapshot",
    default=None,
    help="Snapshot date, folder or catalog.json (default: the latest; the v1 catalog for v1).",
)
@click.option(
    "--task", "task_ids", multiple=True, metavar="ID", help="Only these task ids (repeatable)."
)
@count_option("--concurrency", default=8)
@run_settings_options(suite="suite")
@folder_option(
    "--results",
    text="Keep records and transcripts in RESULTS/<snapshot>/; re-running resumes there.",
)
@click.option("--fresh", is_flag=True, help="Move earlier results in --results aside first.")
@click.option(
    "--preflight/--no-preflight",
    default=True,
    show_default=True,
    help="Before any trial, check a LiteLLM or HTTP agent's key variable and make one real "
    "request; on failure print the message and exit 2 without running a trial.",
)
@click.option(
    "--show",
    metavar="TASK#TRIAL",
    default=None,
    help="Print that one trial's transcript (messages, tool calls, verdict) instead of the "
    "report; runs only TASK unless --task is given (trials are numbered from 0).",
)
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the full result (failing transcripts included) as JSON to this file.",
)
def command(
    agent: str,
    trials: int,
    min_pass: dict[int, float],
    settings: RunSettings,
    board: BoardSettings,
    task_ids: tuple[str, ...],
    seed: int,
    concurrency: int,
    results: Path | None,
    fresh: bool,
    preflight: bool,
    show: str | None,
    json_path: Path | None,
) -> None:
    """Evaluate AGENT and print pass^k, skills, failures grouped by cause, strata and efficiency.

    AGENT is `package.module:attribute` (an Agent, or a factory called once per trial, importable
    from the current directory), a submission folder, a built-in name, `litellm:<model>` or
    `http:<url>`. Suite, simulator, turn limit and budget come from leaderboard.yaml (see
    --board) unless given; trials default to 8 whatever the board says. Progress goes to stderr,
    the report to stdout. Exit status: 0 when every --min-pass holds, 1 when one does not, 2
    when the agent cannot be reached (preflight) or an input is wrong.
    """
    from runner.batch.progress import default_progress
    from runner.evaluation import evaluate

    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # `my_pkg.agents:make_agent` from where the command runs
    result = evaluate(
        agent,
        suite=settings.tasks_dir,
        snapshot=settings.snapshot,
        **settings.run_args(),
        trials=trials,
        tasks=list(task_ids) or None,
        seed=seed,
        concurrency=concurrency,
        results=results,
        fresh=fresh,
        preflight=preflight,
        progress=default_progress(sys.stderr),
        show=show,
    )
    if result.shown is not None:
        from runner.evaluation.result import render_trial

        click.echo(render_trial(result.shown), nl=False)
    else:
        click.echo(result.to_markdown(), nl=False)
    if json_path is not None:
        json_path.write_text(result.to_json() + "\n", encoding="utf-8")
    shortfalls = result.shortfalls(min_pass)
    if result.status != "completed":
        click.echo(f"\nincomplete: the run ended as {result.status}")
    if shortfalls:
        click.echo("\nFAILED: " + "; ".join(shortfalls))
        sys.exit(1)
    if min_pass:
        met = ", ".join(f"pass^{k} >= {v:g}" for k, v in sorted(min_pass.items()))
        click.echo(f"\npassed: {met}")
