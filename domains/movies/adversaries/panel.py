"""The fidelity panel's adversaries: the expert with one honest part taken out, each as strong as its class allows.

Each is the expert's own machinery (retrieval within the budget, its prior - well reviewed and
well known - decline learning, policies) minus exactly one thing, so a score it reaches is what
that shortcut alone is worth. Where the brief named a weaker pick (middle of the pool, most
popular, random), the expert's prior replaced it because it scored higher on the shipped suite
(scripted user, 4 seeds, pass^1): an adversary is only evidence at its strongest.
- `no-question-prober`: asks only for the services, never a preference; proposes from the safe
  half of every hinted field and learns from each directional decline (0.70; the median-of-pool
  pick, `Style(pick="middle")`, scored 0.64);
- `interview-picker`: the expert's interview, then recommends its best fitting title at once,
  never proposing, so it learns nothing from declines (0.57; the most-voted title scored 0.36);
- `budget-crawler`: no preference questions; sweeps the catalog genre-blind within the 80-call
  budget and proposes one title per message, learning from declines (0.68; most-voted: 0.50);
- `decline-ignoring-guesser`: asks like the expert but reads no decline hint; only the declined
  title itself is dropped, the next is the best remaining by the prior (0.68; a random fitting
  title, `Style(pick="random")`, scored 0.57);
- `policy-ignoring-retriever`: the expert's questions, retrieval and proposals, but no watch
  history, no availability or content-preference check and no sponsorship disclosure.

None reads the task (their AgentContext carries none). They are not in ADVERSARY_NAMES (the
`exploit-*` suite, held to the same margin under the expert by the panel test): `benchmarks/user_fidelity.py` holds them to the
targets in `domains.movies.panel_targets`.
"""

from __future__ import annotations

from typing import Any

from domains.movies.baselines.expert import ExpertAgent, Style
from runner.core.errors import TaurecError
from runner.core.protocols import Agent, AgentContext

__all__ = ["PANEL_ADVERSARIES", "PANEL_STYLES", "build_panel_adversary"]

PANEL_STYLES: dict[str, Style] = {
    "no-question-prober": Style(ask=False, pick="split"),
    "interview-picker": Style(propose=False, pick="split"),
    "budget-crawler": Style(ask=False, sweep=True, pick="split"),
    "decline-ignoring-guesser": Style(learn=False, pick="split"),
    "policy-ignoring-retriever": Style(policies=False),
}
PANEL_ADVERSARIES: tuple[str, ...] = tuple(PANEL_STYLES)


def build_panel_adversary(name: str, context: AgentContext, args: dict[str, Any]) -> Agent:
    """One panel adversary; it never sees the task, whatever its context carries."""
    if args:
        raise TaurecError(f"adversary {name!r} takes no args (got {sorted(args)})")
    blind = AgentContext(
        user_id=context.user_id, policy_text=context.policy_text, seed=context.seed
    )
    return ExpertAgent(blind, name=name, style=PANEL_STYLES[name])
