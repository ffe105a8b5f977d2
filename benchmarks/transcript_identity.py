"""Play every dev task of both domains with every built-in agent and two seeds (scripted user) and
write one digest per transcript and per score, so a refactor can show nothing a trial says changed.

A digest is the sha256 of the transcript's canonical JSON without timings (`content_json`) and of
the score's JSON. `--check FILE` compares with digests written before and lists every difference.

Usage: python -m benchmarks.transcript_identity --out before.json
       python -m benchmarks.transcript_identity --check before.json [--out after.json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from runner.batch.inputs import resolve_snapshot
from runner.core.domains import get_domain
from runner.core.rules import DEFAULT_RULES, get_rules
from runner.models.llm_client import run_closing_clients
from runner.play.named_trial import named_agent, play

DOMAINS = ("movies", "grocery")
SEEDS = (0, 1)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def digests(domains: tuple[str, ...] = DOMAINS, seeds: tuple[int, ...] = SEEDS) -> dict[str, str]:
    """`domain/agent/task/seed` -> digest of the transcript and of its score."""
    out: dict[str, str] = {}
    rules = get_rules(DEFAULT_RULES)
    for name in domains:
        owner = get_domain(name)
        tasks = owner.load_tasks(owner.tasks_dir)
        catalog = resolve_snapshot(None, domain=owner).catalog
        policy = owner.policy_path(owner.tasks_dir).read_text(encoding="utf-8")
        for agent_name in sorted(owner.baselines()):
            for task in tasks:
                for seed in seeds:
                    agent = named_agent(
                        owner, agent_name, task=task, catalog=catalog, policy_text=policy, seed=seed
                    )
                    transcript = run_closing_clients(
                        play(owner, task, catalog, agent, rules=rules, seed=seed)
                    )
                    score = owner.score(task, transcript, catalog, rules)
                    key = f"{name}/{agent_name}/{task.id}/{seed}"
                    out[key] = _sha(transcript.content_json())
                    out[key + "/score"] = _sha(score.model_dump_json())
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write the digests here (JSON)")
    parser.add_argument("--check", type=Path, help="compare with digests written before")
    parser.add_argument("--domain", action="append", choices=DOMAINS, help="only these domains")
    args = parser.parse_args()
    started = time.perf_counter()
    found = digests(tuple(args.domain) if args.domain else DOMAINS)
    elapsed = time.perf_counter() - started
    trials = sum(1 for k in found if not k.endswith("/score"))
    print(f"{trials} transcripts in {elapsed:.0f} s")
    if args.out:
        args.out.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if args.check:
        before: dict[str, str] = json.loads(args.check.read_text(encoding="utf-8"))
        if args.domain:
            before = {k: v for k, v in before.items() if k.split("/", 1)[0] in args.domain}
        differ = sorted(k for k in before.keys() | found.keys() if before.get(k) != found.get(k))
        for key in differ:
            print(f"differs: {key}")
        same = sum(1 for k in before if not k.endswith("/score") and before[k] == found.get(k))
        print(f"{same}/{len(before) // 2} transcripts byte-identical; {len(differ)} digests differ")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
