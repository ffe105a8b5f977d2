"""Print the account shopper's LLM mode against its scripted self: fallbacks, writer guard triggers, verdict and reward parity.

Every account task of grocery's dev suite, with each named agent and seed, played twice: with the
scripted account shopper, and in LLM mode (`litellm:openai/taurec-shopper` on the local model
server, whose stand-ins read with the account rule reader and word with its grammar) through the
client path a run uses. The decisions are the engine's, so the shopper's scored acts (its yes),
the stop reasons and the rewards must be the same; reader fallbacks and writer guard triggers are
counted by reason. These are a deterministic stand-in's figures: a real model's are what a board
publishes per run.

Usage: python -m benchmarks.account_llm_parity [--seeds 4] [--agents expert,heuristic]
"""

from __future__ import annotations

import argparse
from collections import Counter

from runner.batch.inputs import resolve_snapshot
from runner.core.domains import get_domain
from runner.core.rules import DEFAULT_RULES, get_rules
from runner.models.llm_client import run_closing_clients
from runner.models.model_server import serve_model
from runner.play.named_trial import named_agent, play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--agents", default="expert,heuristic")
    args = parser.parse_args()
    owner = get_domain("grocery")
    from domains.grocery.tasks import ACCOUNT_KINDS

    tasks = [t for t in owner.load_tasks(owner.tasks_dir) if t.kind in ACCOUNT_KINDS]
    catalog = resolve_snapshot(None, domain=owner).catalog
    policy = owner.policy_path(owner.tasks_dir).read_text(encoding="utf-8")
    rules = get_rules(DEFAULT_RULES)
    notes: Counter[str] = Counter()
    trials = same_acts = same_reward = same_words = 0
    rewards: dict[str, list[float]] = {"scripted": [], "llm": []}
    with serve_model() as url:
        for agent_name in args.agents.split(","):
            for task in tasks:
                for seed in range(args.seeds):
                    runs = {}
                    for mode, simulator, options in (
                        ("scripted", "scripted", None),
                        ("llm", "litellm:openai/taurec-shopper", {"api_base": url}),
                    ):
                        agent = named_agent(
                            owner, agent_name, task=task, catalog=catalog, policy_text=policy,
                            seed=seed,
                        )  # fmt: skip
                        transcript = run_closing_clients(
                            play(owner, task, catalog, agent, rules=rules, seed=seed,
                                 simulator=simulator, simulator_options=options)
                        )  # fmt: skip
                        score = owner.score(task, transcript, catalog, rules)
                        runs[mode] = (transcript, score.reward)
                        rewards[mode].append(score.reward)
                    (s, s_reward), (m, m_reward) = runs["scripted"], runs["llm"]
                    trials += 1
                    notes.update(f"{n.component}:{n.reason}" for n in m.simulator_notes)
                    acts = [(e.act, e.content) for e in s.messages if e.role == "user"]
                    llm_acts = [(e.act, e.content) for e in m.messages if e.role == "user"]
                    same_acts += [a for a, _ in acts] == [a for a, _ in llm_acts] and (
                        s.stop_reason == m.stop_reason
                    )
                    same_words += acts == llm_acts
                    same_reward += s_reward == m_reward
    print(f"{trials} trial pairs ({len(tasks)} account tasks x {args.seeds} seeds x {args.agents})")
    print(f"same scored acts and stop reason: {same_acts}/{trials}")
    print(f"same words: {same_words}/{trials}; same reward: {same_reward}/{trials}")
    for mode, values in rewards.items():
        print(f"pass^1 {mode}: {sum(values) / len(values):.4f}")
    print("fallbacks and guard triggers:", dict(notes) or "none")


if __name__ == "__main__":
    main()
