"""The simulated shopper: a reader (agent words -> acts), a decision engine (the only part that sees the task) and a writer (acts -> words)."""

from __future__ import annotations

from typing import Any

from domains.grocery.tasks import ACCOUNT_KINDS
from domains.grocery.user.account import AccountShopper
from domains.grocery.user.engine import Patience, ShopperEngine, patience_of
from domains.grocery.user.reader import Reading, ShopperReader
from domains.grocery.user.scripted import ScriptedShopper, shopper_reader
from runner.core.errors import TaurecError
from runner.core.protocols import UserSimulator

__all__ = [
    "USER_MODES",
    "AccountShopper",
    "Patience",
    "Reading",
    "ScriptedShopper",
    "ShopperEngine",
    "ShopperReader",
    "UnknownUserError",
    "build_user",
    "patience_of",
    "shopper_reader",
]

USER_MODES: tuple[str, ...] = ("scripted", "litellm:<model>")


class UnknownUserError(TaurecError):
    """A simulated-user mode the grocery domain does not have."""


def build_user(
    name: str, *, task: Any, catalog: Any, seed: int, options: dict[str, Any] | None = None
) -> UserSimulator:
    """The simulated shopper of one trial: `scripted` (the account shopper on an account task),
    or `litellm:<model>`: the scripted shopper's engine (the account engine on an account task)
    with a model reader and a model writer, each falling back to the rules / templates (counted).
    Its options are `runner.models.user_model.model_user_options`'."""
    if name == "scripted":
        if options:
            raise UnknownUserError(f"simulator 'scripted' takes no options (got {sorted(options)})")
        if task.kind in ACCOUNT_KINDS:
            return AccountShopper(task, catalog, seed)
        return ScriptedShopper(task, catalog, seed)
    if name.startswith("litellm:") and len(name) > len("litellm:"):
        from runner.models.user_model import model_user_options

        models = model_user_options(name, dict(options or {}))
        if task.kind in ACCOUNT_KINDS:
            from domains.grocery.user.account_model import AccountModelShopper

            return AccountModelShopper(task, catalog, seed, models)
        from domains.grocery.user.model import ModelShopper

        return ModelShopper(task, catalog, seed, models)
    raise UnknownUserError(
        f"unknown grocery user simulator {name!r}; the grocery domain has: {', '.join(USER_MODES)}"
    )
