"""The model server's simulated users: both roles of a trial over HTTP (LLM mode's stand-ins), and the free-writing `user` in either prompt style."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from domains.movies.catalog import Catalog
from domains.movies.served import user_policy
from domains.movies.simulators import build_simulator
from domains.movies.tasks import load_task
from runner.agents.litellm_agent import LiteLLMAgent
from runner.core.protocols import AgentContext
from runner.core.transcript import Transcript
from runner.models.llm_client import aclose_clients
from runner.models.model_server import serve_model
from runner.play.agent_config import LiteLLMAgentConfig, RetryConfig
from tests.movie_world import movie_trial

FAST = RetryConfig(max_attempts=2, initial_backoff_s=0.001, max_backoff_s=0.002, max_total_s=30)


def test_a_whole_trial_with_both_roles_served(v1_dir: Path) -> None:
    catalog = Catalog.load(v1_dir / "catalog.json")
    task = load_task(v1_dir / "tasks" / "task_001.json")
    with serve_model() as url:
        config = LiteLLMAgentConfig(model="openai/heuristic", api_base=url, retry=FAST)
        context = AgentContext(user_id=task.user_id, policy_text="Be kind.", seed=3, task=task)
        user = build_simulator(
            "litellm:openai/taurec-user",
            task=task,
            catalog=catalog,
            seed=3,
            options={"api_base": url},
        )

        async def main() -> Transcript:
            try:
                return await movie_trial(task, catalog, LiteLLMAgent(config, context), 3, user)
            finally:
                await aclose_clients()

        transcript = asyncio.run(main())
    assert transcript.stop_reason in ("recommended", "abstained"), transcript.error
    usage = transcript.usage
    assert usage["user:openai/taurec-user"].calls >= 2
    assert any(k.startswith("agent") for k in usage)
    assert transcript.simulator_notes == []  # the stand-ins' answers pass every check


def test_our_prompt_gets_json_with_a_verdict(v1_dir: Path) -> None:
    task = load_task(v1_dir / "tasks" / "task_001.json")
    lines = [
        f"- [{'SAY UP FRONT' if tc.reveal == 'volunteer' else 'SAY WHEN ASKED'}] the movie's "
        f"{tc.constraint.field.replace('_', ' ')} {tc.constraint.op} {tc.constraint.value}"
        for tc in task.constraints
        if tc.reveal != "hidden"
    ]
    prompt = 'Answer in JSON: {"message": ..., "verdict": ...}\n' + "\n".join(lines)
    system = {"role": "system", "content": prompt}
    opening = user_policy([system, {"role": "user", "content": "Hi! What would you like?"}], [], 0)
    said = json.loads(opening.content or "")
    assert said["verdict"] == "continue"
    upfront = [tc for tc in task.constraints if tc.reveal == "volunteer"]
    for tc in upfront:
        assert str(tc.constraint.field).replace("_", " ") in said["message"]
    proposal = [
        system,
        {"role": "user", "content": "Hi!"},
        {"role": "assistant", "content": opening.content},
        {"role": "user", "content": "How about **Some Film** (2020)?"},
    ]
    assert json.loads(user_policy(proposal, [], 0).content or "")["verdict"] == "accept"


def test_the_v1_prompt_gets_plain_text_and_its_accept_token() -> None:
    system = {
        "role": "system",
        "content": (
            "You are simulating a real person looking for a movie recommendation.\n"
            "## Reveal Rules\n"
            "**Share proactively** (state them in your first message):\n- runtime <= 120\n\n"
            "**Share only if asked** (only if asked):\n- content_rating in ['G', 'PG']\n"
        ),
    }
    opening = user_policy([system, {"role": "user", "content": "Hi!"}], [], 0).content or ""
    assert "runtime <= 120" in opening
    assert "content_rating" not in opening
    asked = [system, {"role": "user", "content": "Hi"}, {"role": "assistant", "content": opening}]
    answer = user_policy([*asked, {"role": "user", "content": "Any age rating?"}], [], 0).content
    assert "content_rating in ['G', 'PG']" in (answer or "")
    accepted = user_policy([*asked, {"role": "user", "content": "I recommend X."}], [], 0).content
    assert (accepted or "").endswith("###ACCEPTED###")
