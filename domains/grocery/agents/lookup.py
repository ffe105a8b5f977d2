"""The grocery lookup adversary: maps the shopper id to a public task (dev suite, retired splits) and shops it as the oracle, asking nothing; else the prior guesser.

`runner.play.lookup` holds the machinery shared with movies; this module only names the
fallback (the same agent without the lookup) and where the retired splits are published.
"""

from __future__ import annotations

from typing import Any

from runner.core.errors import TaurecError
from runner.core.protocols import Agent, AgentContext

__all__ = ["LOOKUP_FALLBACK", "build_lookup"]

# The same agent without the lookup: it asks nothing and takes the cheapest product that fits
# what the shopper volunteered.
LOOKUP_FALLBACK = "prior-guesser"


def build_lookup(context: AgentContext, args: dict[str, Any]) -> Agent:
    from runner.core.domains import get_domain
    from runner.core.paths import retired_splits_dir
    from runner.play.lookup import LookupAgent

    if args:
        raise TaurecError(f"adversary 'lookup' takes no args (got {sorted(args)})")
    return LookupAgent(
        context,
        get_domain("grocery"),
        fallback=LOOKUP_FALLBACK,
        retired_root=retired_splits_dir("grocery"),
    )
