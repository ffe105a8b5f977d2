"""The domain registry: one line per domain names the class that implements `runner.core.domain.Domain`."""

from __future__ import annotations

import difflib
import importlib
from functools import cache
from importlib.metadata import entry_points

from runner.core.domain import Domain
from runner.core.errors import TaurecError

# name -> "module:Class". A new domain adds exactly one line here (or an entry point in the group
# `taurec.domains` of its own distribution, for a domain that lives outside this repository).
REGISTRY: dict[str, str] = {
    "movies": "domains.movies:MoviesDomain",
    "grocery": "domains.grocery:GroceryDomain",
}
DEFAULT_DOMAIN = "movies"
ENTRY_POINT_GROUP = "taurec.domains"


class UnknownDomainError(TaurecError):
    """A domain name that is neither registered nor an installed entry point."""


def _entry_points() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def domain_names() -> list[str]:
    """Every domain that can be named: the registry's, then installed entry points."""
    return list(dict.fromkeys([*REGISTRY, *_entry_points()]))


@cache
def get_domain(name: str = DEFAULT_DOMAIN) -> Domain:
    """The domain registered as `name` (one instance per process)."""
    target = REGISTRY.get(name) or _entry_points().get(name)
    if target is None:
        close = difflib.get_close_matches(name, domain_names(), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UnknownDomainError(
            f"unknown domain {name!r}: known domains are {', '.join(domain_names())}{hint}"
        )
    module_name, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    domain = cls()
    if not isinstance(domain, Domain) or domain.name != name:
        raise TaurecError(f"{target} is not the Domain named {name!r}")
    return domain


def registered_domains(names: list[str]) -> list[str]:
    """`names` if each is a known domain and none repeats; a ValueError naming the bad one."""
    # The installed entry points are scanned (every distribution's metadata: ~10 ms) only for a
    # name the registry does not hold.
    known = list(REGISTRY) if all(n in REGISTRY for n in names) else domain_names()
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ValueError(f"unknown domain {name!r} (known: {', '.join(known)}){hint}")
    if len(set(names)) != len(names):
        raise ValueError(f"a domain is listed twice: {names}")
    return names
