"""Tiny catalogs and tasks for revalidation tests, written as dated snapshot folders."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domains.movies.catalog import Catalog, CatalogItem


def movie(n: int, **fields: Any) -> CatalogItem:
    base: dict[str, Any] = {
        "id": f"tmdb_{n}",
        "title": f"Film {n}",
        "release_date": "2026-03-06",
        "runtime": 100,
        "genres": ["Drama"],
        "overview": "",
        "cast": [],
        "director": "Someone",
        "rating": 6.5,
        "vote_count": 100,
        "streaming_services": ["Netflix"],
        "sponsored": False,
        "content_rating": "PG-13",
    }
    return CatalogItem.model_validate(base | fields)


def task_json(
    task_id: str, constraints: list[tuple[str, str, Any]], **extra: Any
) -> dict[str, Any]:
    n = len(constraints)
    return {
        "id": task_id,
        "persona": "A test persona.",
        "constraints": [
            {"constraint": {"field": f, "op": op, "value": v}, "reveal": "volunteer"}
            for f, op, v in constraints
        ],
        "policy_flags": ["recommend_tool"],
        "complexity": "simple" if n <= 2 else "medium" if n <= 4 else "complex",
        "reveal_difficulty": "volunteer",
        **extra,
    }


SnapshotWriter = Callable[[str, list[CatalogItem]], Path]


@pytest.fixture
def snapshots(tmp_path: Path) -> SnapshotWriter:
    """Write a dated snapshot folder (catalog.json only) under tmp_path/snapshots."""

    def write(date: str, items: list[CatalogItem]) -> Path:
        folder = tmp_path / "snapshots" / date
        folder.mkdir(parents=True)
        (folder / "catalog.json").write_bytes(Catalog(items).to_json_bytes())
        return folder

    return write


@pytest.fixture
def tasks_dir(tmp_path: Path) -> Callable[[list[dict[str, Any]]], Path]:
    def write(tasks: list[dict[str, Any]]) -> Path:
        folder = tmp_path / "tasks"
        folder.mkdir(exist_ok=True)
        for old in folder.glob("*.json"):
            old.unlink()
        for task in tasks:
            (folder / f"{task['id']}.json").write_text(json.dumps(task), encoding="utf-8")
        return folder

    return write
