"""The byte cap on every reply a model or agent endpoint sends us, and the error past it."""

from __future__ import annotations

__all__ = ["MAX_RESPONSE_BYTES", "ResponseTooLarge"]

# One cap for every reply from a model or an agent endpoint; a chat reply is a few KiB.
MAX_RESPONSE_BYTES = 4 * 1024 * 1024


class ResponseTooLarge(Exception):
    """The body went past the cap: the read stops there, so memory stays bounded.

    Kept apart from runner.models.response_cap (LiteLLM's httpx clients): the direct client and
    the HTTP agent raise it without importing httpx, which loads its CLI's rich console and
    pygments with it (~70 modules; +15 MB of PSS in a bare interpreter).
    """
