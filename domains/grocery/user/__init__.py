"""The simulated shopper: a reader (agent words -> acts), a decision engine (the only part that sees the task) and a writer (acts -> words)."""

from __future__ import annotations

from typing import Any

from domains.grocery.tasks import ACCOUNT_KINDS
from domains.grocery.user.account import AccountShopper
from domains.grocery.user.engine import Patience, ShopperEngine, patience_of
from domains.grocery.user.reader import Reading, ShopperReader
from domains.grocery.user.scripted import ScriptedShopper, shopper_reader
from runner.core.errors import TaurecError

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

USER_MODES: tuple[str, ...] = ("scripted",)


class UnknownUserError(TaurecError):
    """A simulated-user mode the grocery domain does not have."""


def build_user(
    name: str, *, task: Any, catalog: Any, seed: int, options: dict[str, Any] | None = None
) -> ScriptedShopper | AccountShopper:
    """The simulated shopper of one trial (the account shopper on an account task). Only
    `scripted` exists for grocery (no model modes yet)."""
    del options
    if name != "scripted":
        raise UnknownUserError(
            f"unknown grocery user simulator {name!r}; the grocery domain has: "
            f"{', '.join(USER_MODES)} (model-written shoppers are not built yet)"
        )
    if task.kind in ACCOUNT_KINDS:
        return AccountShopper(task, catalog, seed)
    return ScriptedShopper(task, catalog, seed)
