"""A domain's field table is read from its item model: one definition, and it cannot drift."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field, StrictStr

from domains.grocery.items import FIELD_KINDS as GROCERY_KINDS
from domains.movies.catalog import FIELD_KINDS as MOVIE_KINDS
from runner.core.predicates import field_kinds


class _Item(BaseModel):
    id: StrictStr
    tags: list[str]
    size: Annotated[int, Field(ge=0)]
    score: float | None
    grade: Literal["a", "b"]
    organic: bool
    added: dt.date


def test_each_annotation_gives_its_kind_in_field_order() -> None:
    assert field_kinds(_Item, grade="rating") == {
        "id": "text",
        "tags": "list",
        "size": "number",
        "score": "number",
        "grade": "rating",
        "organic": "bool",
        "added": "date",
    }


def test_a_type_without_a_kind_is_refused_by_name() -> None:
    class _Odd(BaseModel):
        where: dict[str, int]

    with pytest.raises(TypeError, match="field 'where'"):
        field_kinds(_Odd)


def test_the_two_domains_tables_are_the_ones_they_wrote_by_hand_before() -> None:
    assert MOVIE_KINDS == {
        "id": "text",
        "title": "text",
        "release_date": "date",
        "runtime": "number",
        "genres": "list",
        "overview": "text",
        "cast": "list",
        "director": "text",
        "rating": "number",
        "vote_count": "number",
        "streaming_services": "list",
        "sponsored": "bool",
        "content_rating": "rating",
    }
    assert GROCERY_KINDS["vegan"] == "enum"
    assert GROCERY_KINDS["created"] == "date"
    assert GROCERY_KINDS["nova_group"] == "number"
    assert GROCERY_KINDS["currency"] == "enum"
    assert GROCERY_KINDS["allergens"] == "list"
