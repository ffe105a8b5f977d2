"""Adversary agents: scripts that try to pass without doing the job, using only tools and the user's messages.

They never read the task file (their AgentContext carries no task), so what they achieve is what
any submission could. The test suite runs them on the shipped suite and fails if one of them
scores pass^1 above the honest expert's less ADVERSARY_MARGIN (`domains.movies.panel_targets`);
the board shows the best one as the exploit floor.

- `exploit-crawl-propose`: sweep the catalog with searches and metadata, ask only for the services,
  then name titles one by one until the user accepts one (stopped by the tool budget and the
  user's patience);
- `exploit-ask-all`: one message asking about every topic (asked twice, to press vague answers), then
  recommend the most-voted title that fits the answers, with no proposals;
- `exploit-policy-only`: obey every policy but ignore the request: the most-voted unwatched title on the
  user's services;
- `exploit-nothing-fits-probe`: claim nothing fits first and abstain if the user's reply sounds like
  relief, else fall back to `exploit-ask-all`;
- `exploit-list-pusher`: name five popular titles per message and recommend whichever one is accepted.

The fidelity panel's adversaries (`PANEL_ADVERSARIES`, in `panel.py`) are the expert with one
honest part taken out; the benchmark `benchmarks/user_fidelity.py` measures them.
"""

from __future__ import annotations

from domains.movies.adversaries.panel import PANEL_ADVERSARIES, build_panel_adversary
from domains.movies.adversaries.policies import (
    ADVERSARY_NAMES,
    AdversaryAgent,
    adversary_policy,
)

__all__ = [
    "ADVERSARY_NAMES",
    "PANEL_ADVERSARIES",
    "AdversaryAgent",
    "adversary_policy",
    "build_panel_adversary",
]
