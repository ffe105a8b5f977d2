"""Scans of our own source for the tests that keep one definition per concept."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

__all__ = ["ROOT", "found_outside"]

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("runner", "catalog_pipeline", "domains")


def found_outside(home: Path, find: Callable[[Path], list[str]]) -> list[str]:
    """What `find` reports in every module of runner, catalog_pipeline and domains but `home`,
    the one module where it belongs."""
    return [
        hit
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != home
        for hit in find(path)
    ]
