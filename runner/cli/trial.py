"""`taurec trial`: run one trial by names and print its transcript (a debugging command)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import click

from runner.cli._options import catalog_option, domain_option, rules_option, strictness_option


@click.command()
@click.option("--task", "task_ref", required=True, help="A task file, or a task id in --tasks.")
@click.option(
    "--agent",
    default="heuristic",
    show_default=True,
    help="oracle, heuristic, random, litellm:<model> or http:<url>.",
)
@click.option(
    "--simulator", default="scripted", show_default=True, help="scripted or litellm:<model>."
)
@click.option("--seed", default=0, show_default=True, type=int, help="Trial seed.")
@catalog_option
@click.option(
    "--tasks",
    "tasks_dir",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="Task folder to look task ids up in (default: tasks/).",
)
@click.option(
    "--policy",
    "policy_path",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="Policy document (default: policy.md next to the tasks).",
)
@click.option("--max-turns", default=20, show_default=True, type=click.IntRange(min=1))
@rules_option
@domain_option
@strictness_option
@click.option("--json", "as_json", is_flag=True, help="Print the transcript and score as JSON.")
def command(
    task_ref: str,
    agent: str,
    simulator: str,
    seed: int,
    catalog_path: Path | None,
    tasks_dir: Path | None,
    policy_path: Path | None,
    max_turns: int,
    rules: str | None,
    domain: str | None,
    strictness: Literal["low", "medium", "high"] | None,
    as_json: bool,
) -> None:
    """Run one trial (agent vs simulated user) and print the transcript and its score."""
    from runner.batch.inputs import domain_of_suite
    from runner.play.named_trial import format_transcript, run_named_trial

    result = run_named_trial(
        task_ref,
        agent=agent,
        simulator=simulator,
        seed=seed,
        catalog_path=catalog_path,
        tasks_dir=tasks_dir,
        policy_path=policy_path,
        max_turns=max_turns,
        rules=rules or "v2",
        domain=domain or (domain_of_suite(tasks_dir).name if tasks_dir else "movies"),
        strictness=strictness or "high",
    )
    click.echo(result.model_dump_json(indent=2) if as_json else format_transcript(result))
