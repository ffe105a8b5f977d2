"""The movies lookup adversary: maps the user id to a public task (dev suite, retired splits) and plays it as the oracle, asking nothing; else the no-question prober.

`runner.play.lookup` holds the machinery shared with grocery; this module only names the
fallback (the same agent without the lookup) and where the retired splits are published.
"""

from __future__ import annotations

from typing import Any

from runner.core.errors import TaurecError
from runner.core.protocols import Agent, AgentContext

__all__ = ["LOOKUP_FALLBACK", "build_lookup"]

# The same agent without the lookup: the expert that never asks (what a lookup agent does when
# the id maps to nothing it has read).
LOOKUP_FALLBACK = "no-question-prober"


def build_lookup(context: AgentContext, args: dict[str, Any]) -> Agent:
    from runner.core.domains import get_domain
    from runner.core.paths import retired_splits_dir
    from runner.play.lookup import LookupAgent

    if args:
        raise TaurecError(f"adversary 'lookup' takes no args (got {sorted(args)})")
    return LookupAgent(
        context,
        get_domain("movies"),
        fallback=LOOKUP_FALLBACK,
        retired_root=retired_splits_dir("movies"),
    )
