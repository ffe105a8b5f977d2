"""The one table that folds TMDB/JustWatch provider names (tiers, ads plans, channels) into services."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Storefront suffixes: "<service> Amazon Channel" is the service sold through Amazon, etc.
CHANNEL_SUFFIXES: tuple[str, ...] = (
    " Amazon Channel",
    " Apple TV Channel",
    " Apple TV channel",
    " Roku Premium Channel",
    " Roku Channel",
    " Prime Video Channel",
)

# Plan/tier suffixes folded into the service itself (checked after channel suffixes).
TIER_PATTERN = re.compile(
    r"\s+(?:"
    r"Standard with Ads|Basic with Ads|with Ads|Ad-Free|Ad Free|"
    r"Premium Plus|Premium|Essential|Standard|Basic|Kids|with Showtime"
    r")$",
    re.IGNORECASE,
)

# Exact aliases (case-insensitive) → the canonical service name used in catalogs and tasks.
ALIASES: dict[str, str] = {
    "netflix": "Netflix",
    "netflix kids": "Netflix",
    "hulu": "Hulu",
    "disney plus": "Disney+",
    "disney+": "Disney+",
    "max": "HBO Max",
    "hbo max": "HBO Max",
    "hbo": "HBO Max",
    "paramount plus": "Paramount+",
    "paramount+": "Paramount+",
    "apple tv plus": "Apple TV+",
    "apple tv+": "Apple TV+",
    "peacock": "Peacock",
    "amazon prime video": "Amazon Prime Video",
    "prime video": "Amazon Prime Video",
    "amc plus": "AMC+",
    "amc+": "AMC+",
    "mgm plus": "MGM+",
    "mgm+": "MGM+",
    "epix": "MGM+",
    "starz": "Starz",
    "showtime": "Showtime",
    "the roku channel": "The Roku Channel",
    "shudder": "Shudder",
    "mubi": "MUBI",
    "the criterion channel": "Criterion Channel",
    "criterion channel": "Criterion Channel",
    "fubotv": "fuboTV",
    "fubo": "fuboTV",
    "philo": "Philo",
    "sundance now": "Sundance Now",
    "angel studios": "Angel Studios",
    "tubi tv": "Tubi",
    "tubi": "Tubi",
    "crunchyroll": "Crunchyroll",
    "britbox": "BritBox",
    "acorn tv": "Acorn TV",
}


def normalize_provider(name: str) -> str:
    """Canonical service name for one provider name (unknown names are kept, trimmed)."""
    current = " ".join(name.split())
    for _ in range(
        3
    ):  # channel → tier → alias; a channel may carry a tier ("X Premium Amazon Channel")
        if current.lower() in ALIASES:
            break
        before = current
        for suffix in CHANNEL_SUFFIXES:
            if current.lower().endswith(suffix.lower()) and len(current) > len(suffix):
                current = current[: -len(suffix)].strip()
                break
        stripped = TIER_PATTERN.sub("", current).strip()
        if stripped:
            current = stripped
        if current == before:
            break
    return ALIASES.get(current.lower(), current)


def normalize_services(names: Iterable[str]) -> list[str]:
    """Normalized, de-duplicated, sorted (case-insensitively, then exactly) service names."""
    services = {normalize_provider(n) for n in names if n and n.strip()}
    return sorted(services, key=lambda s: (s.casefold(), s))
