"""User simulators (scripted, and LLM mode: model reader and writer around the same engine) behind one factory, and the leak audit."""

from __future__ import annotations

import difflib
from typing import Any

from domains.movies.catalog import Catalog
from domains.movies.simulators.leaks import audit_leaks, message_leaks
from domains.movies.simulators.scripted import ScriptedUser
from domains.movies.tasks import Task
from runner.core.errors import TaurecError
from runner.core.protocols import UserSimulator

__all__ = ["SIMULATOR_NAMES", "ScriptedUser", "audit_leaks", "build_simulator", "message_leaks"]

# Registered simulator names; `litellm:<model>` takes any LiteLLM model string after the colon.
SIMULATOR_NAMES: tuple[str, ...] = ("scripted", "litellm:<model>")


def build_simulator(
    name: str,
    *,
    task: Task,
    catalog: Catalog,
    seed: int,
    options: dict[str, Any] | None = None,
) -> UserSimulator:
    """Build the user simulator for one trial: `scripted` or `litellm:<model>`.

    `litellm:<model>` is LLM mode: the scripted user's decision engine with a model reader and a
    model writer (each falling back to the rules / templates, counted). Its `options`: api_base,
    api_key_env, temperature, timeout_s, retry (for both models); `reader` (model or rules) and
    `writer` (model or templates), both `model` by default; `reader_model` / `writer_model` to
    use another model string (same endpoint and key) for one of them.
    """
    if name == "scripted":
        if options:
            raise TaurecError(f"simulator 'scripted' takes no options (got {sorted(options)})")
        return ScriptedUser(task, catalog, seed)
    if name.startswith("litellm:") and len(name) > len("litellm:"):
        return _model_user(name, task, catalog, seed, dict(options or {}))
    close = difflib.get_close_matches(name, ["scripted", "litellm:"], n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise TaurecError(f"unknown simulator {name!r}: use 'scripted' or 'litellm:<model>'{hint}")


def _model_user(
    name: str, task: Task, catalog: Catalog, seed: int, opts: dict[str, Any]
) -> UserSimulator:
    from domains.movies.simulators.model_user import ModelUser
    from runner.models.user_model import model_user_options

    models = model_user_options(name, opts, frozenset({"speculate"}))
    speculate = opts.get("speculate", True)
    if not isinstance(speculate, bool):
        raise TaurecError(f"simulator {name!r}: speculate must be true or false, not {speculate!r}")
    return ModelUser(
        task,
        catalog,
        seed,
        reader=models.reader,
        writer=models.writer,
        model=models.model,
        speculative=speculate,
    )
