"""The movies lookup adversary: maps the user id to a public task (dev suite, retired splits) and plays it as the oracle, asking nothing; else the no-question prober.

`runner.play.lookup` holds the machinery shared with grocery; this module only names the
fallback (the same agent without the lookup).
"""

from __future__ import annotations

from runner.play.lookup import lookup_builder

__all__ = ["LOOKUP_FALLBACK", "build_lookup"]

# The same agent without the lookup: the expert that never asks (what a lookup agent does when
# the id maps to nothing it has read).
LOOKUP_FALLBACK = "no-question-prober"

build_lookup = lookup_builder("movies", LOOKUP_FALLBACK)
