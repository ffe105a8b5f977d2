"""Which client each LiteLLM provider prefix takes at a custom api_base, and whether it is bounded.

For every provider in the installed `litellm.provider_list`, one `litellm.acompletion` (with
runner.models.response_cap's bounds installed, as every run has them) against a loopback server that
answers either a 307 to another path or a 12 MiB chunked body. Printed per prefix: whether the
call reached the api_base at all, whether it followed the redirect, whether the body was cut at
the cap, and the seconds it took (a blocking client shows as the deadline overrun). Run it after a
LiteLLM upgrade and compare with runner/models/provider_paths.py: a prefix that follows a redirect or
reads past the cap must stay off CUSTOM_BASE_PROVIDERS (and, if that is true at its provider's
own URL too, be in UNBOUNDED_PROVIDERS).

Run: ``.venv/bin/python benchmarks/provider_paths.py`` (~2 min; `--lean False` for the OpenAI SDK
path of the openai family, `--only a,b` for some prefixes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from typing import Any

import _common  # noqa: F401  (the repository root on sys.path)

from tests.stand_ins import Hostile, MiB, ask_litellm


async def _one(litellm: Any, server: Hostile, prefix: str) -> tuple[list[str], str, float]:
    server.paths = []
    started = time.monotonic()
    try:
        await asyncio.wait_for(ask_litellm(litellm, prefix, server.url), 10)
        outcome = "answered"
    except Exception as exc:  # every provider fails in its own way here: record how
        outcome = f"{type(exc).__name__}: {exc}".replace("\n", " ")[:300]
    return list(server.paths), outcome, round(time.monotonic() - started, 2)


async def _survey(only: list[str] | None) -> list[dict[str, Any]]:
    from runner.models.llm_client import aclose_clients, import_litellm

    litellm = import_litellm()
    names = sorted(str(getattr(p, "value", p)) for p in litellm.provider_list)
    rows = []
    # A 12 MiB completion, or a 307 to another path; /elsewhere answers an empty completion.
    with Hostile(12 * MiB, ending=b'"}}]}').running() as server:
        for prefix in [n for n in names if not only or n in only]:
            server.mode = "redirect"
            redirect_paths, _, _ = await _one(litellm, server, prefix)
            server.mode = "huge"
            huge_paths, outcome, seconds = await _one(litellm, server, prefix)
            reached = bool(redirect_paths or huge_paths)
            rows.append(
                {
                    "prefix": prefix,
                    "reaches_api_base": reached,
                    "follows_redirect": any(p.startswith("/elsewhere") for p in redirect_paths),
                    # ResponseTooLarge's own text, or the SDK's wrapping of it ("Connection error").
                    "capped": reached
                    and ("larger than" in outcome or "Connection error" in outcome),
                    "seconds": seconds,
                    "outcome": outcome if reached else outcome[:120],
                }
            )
    await aclose_clients()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lean", default="True", help="the LiteLLM lean-handler switch")
    parser.add_argument("--only", default="", help="comma-separated prefixes")
    args = parser.parse_args()
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ["EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER"] = args.lean
    rows = asyncio.run(_survey([p for p in args.only.split(",") if p] or None))
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
