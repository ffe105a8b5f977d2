"""One trial run by names (`taurec trial`): any domain's task, agent and user, its transcript and score, readable."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from runner.core.domain import DEFAULT_STRICTNESS, Domain, Strictness
from runner.core.domains import DEFAULT_DOMAIN, get_domain
from runner.core.errors import TaurecError
from runner.core.protocols import Agent
from runner.core.records import TrialScore
from runner.core.rules import DEFAULT_RULES, RuleSet, get_rules
from runner.core.transcript import MessageEvent, Transcript
from runner.play.loop import DEFAULT_MAX_TURNS, run_trial


class NamedTrial(BaseModel):
    """One trial run by names (the `taurec trial` debugging command): transcript and its score."""

    model_config = ConfigDict(extra="forbid")

    transcript: Transcript
    score: TrialScore | None = None


def _find_task(task_ref: str, tasks_dir: Path, domain: Domain) -> Any:
    path = Path(task_ref)
    if path.suffix == ".json" and path.exists():
        return domain.load_task(path)
    tasks = {t.id: t for t in domain.load_tasks(tasks_dir)}
    if task_ref in tasks:
        return tasks[task_ref]
    close = difflib.get_close_matches(task_ref, sorted(tasks), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise TaurecError(f"task {task_ref!r}: not a task file and not a task id in {tasks_dir}{hint}")


def _policy_text(tasks_dir: Path, policy_path: Path | None, domain: Domain) -> str:
    for candidate in (
        policy_path,
        tasks_dir / "policy.md",
        tasks_dir.parent / "policy.md",
        domain.tasks_dir / "policy.md",
    ):
        if candidate is not None and candidate.exists():
            return candidate.read_text(encoding="utf-8")
    raise TaurecError(f"no policy.md next to {tasks_dir}; pass --policy PATH")


def run_named_trial(
    task_ref: str,
    *,
    agent: str = "heuristic",
    simulator: str = "scripted",
    seed: int = 0,
    catalog_path: Path | None = None,
    tasks_dir: Path | None = None,
    policy_path: Path | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    rules: str = DEFAULT_RULES,
    domain: str = DEFAULT_DOMAIN,
    strictness: Strictness = DEFAULT_STRICTNESS,
) -> NamedTrial:
    """Load a task (file or id), the catalog (default: latest snapshot) and the policy, build the
    named agent and simulator and the standard tools, run one trial and score it."""

    from runner.batch.inputs import resolve_snapshot
    from runner.models.llm_client import run_closing_clients

    owner = get_domain(domain)
    folder = tasks_dir or owner.tasks_dir
    task = _find_task(task_ref, folder, owner)
    catalog = resolve_snapshot(catalog_path, domain=owner).catalog
    policy = _policy_text(
        Path(task_ref).parent if Path(task_ref).exists() else folder, policy_path, owner
    )
    built = named_agent(owner, agent, task=task, catalog=catalog, policy_text=policy, seed=seed)
    rule_set = get_rules(rules)
    transcript = run_closing_clients(
        play(
            owner,
            task,
            catalog,
            built,
            rules=rule_set,
            seed=seed,
            simulator=simulator,
            max_turns=max_turns,
        )
    )
    score = (
        None
        if transcript.stop_reason == "infra_error"
        else owner.score(task, transcript, catalog, rule_set, strictness)
    )
    return NamedTrial(transcript=transcript, score=score)


def named_agent(
    owner: Domain, name: str, *, task: Any, catalog: Any, policy_text: str, seed: int
) -> Agent:
    """The agent a name gives in `owner` (a built-in or `litellm:`/`http:`), built with what a
    submission sees of the trial (`runner.agents.agent_context`)."""
    from runner.agents import agent_config_from_name, agent_context, build_agent

    config = agent_config_from_name(name, owner.name)
    context = agent_context(
        config,
        domain=owner.name,
        user_id=task.user_id,
        policy_text=policy_text,
        seed=seed,
        task=task,
        catalog=catalog,
    )
    return build_agent(config, context)


async def play(
    owner: Domain,
    task: Any,
    catalog: Any,
    agent: Agent,
    *,
    rules: RuleSet,
    seed: int,
    simulator: str = "scripted",
    simulator_options: dict[str, Any] | None = None,
    tools: Any = None,
    **loop: Any,
) -> Transcript:
    """One trial of `owner`'s task: the domain's user and tools built for it, then the loop
    (`loop` holds `run_trial`'s other options: trial index, max turns, provenance, step
    timeout)."""
    return await run_trial(
        task=task,
        catalog=catalog,
        agent=agent,
        simulator=owner.build_user(
            simulator, task=task, catalog=catalog, seed=seed, options=simulator_options
        ),
        toolset=owner.build_toolset(catalog, task, tools, rules, seed),
        seed=seed,
        rules=rules,
        greeting=owner.greeting,
        domain=owner,
        **loop,
    )


def format_transcript(result: NamedTrial) -> str:
    """A readable transcript: messages, tool calls (shortened results), stop reason and score."""
    t = result.transcript
    lines = [f"task {t.task_id}  agent {t.agent.name}  simulator {t.simulator.name}  seed {t.seed}"]
    for event in t.events:
        if isinstance(event, MessageEvent):
            lines.append(f"{event.role:>5}: {event.content}")
        else:
            args = event.raw_arguments if event.raw_arguments is not None else event.arguments
            result_text = event.result if len(event.result) <= 160 else event.result[:157] + "..."
            flag = " ERROR" if event.is_error else ""
            lines.append(f"  tool{flag} {event.name}({args}) -> {result_text}")
    lines.append(
        f"stop: {t.stop_reason}" + (f" ({t.error.kind}: {t.error.message})" if t.error else "")
    )
    if t.leak_audit is not None:
        lines.append(
            f"leak audit: {'clean' if t.leak_audit.clean else f'{len(t.leak_audit.leaks)} leak(s)'}"
        )
        lines += [f"  leak: {leak.reason} [{leak.excerpt}]" for leak in t.leak_audit.leaks]
    if result.score is not None:
        s = result.score
        lines.append(
            f"reward {s.reward:g}  constraints {s.constraint_score:g}  policies {s.policy_score:g}"
            f"  ({s.constraint_reason})"
        )
        lines += [f"  {'ok  ' if p.passed else 'FAIL'} {p.policy}: {p.reason}" for p in s.policies]
    return "\n".join(lines)
