"""The grocery lookup adversary: maps the shopper id to a public task (dev suite, retired splits) and shops it as the oracle, asking nothing; else the prior guesser.

`runner.play.lookup` holds the machinery shared with movies; this module only names the
fallback (the same agent without the lookup).
"""

from __future__ import annotations

from runner.play.lookup import lookup_builder

__all__ = ["LOOKUP_FALLBACK", "build_lookup"]

# The same agent without the lookup: it asks nothing and takes the cheapest product that fits
# what the shopper volunteered.
LOOKUP_FALLBACK = "prior-guesser"

build_lookup = lookup_builder("grocery", LOOKUP_FALLBACK)
