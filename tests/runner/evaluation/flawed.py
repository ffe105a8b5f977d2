"""A flawed agent behind a loopback URL (the `http` agent kind), for the movies and grocery domains.

It makes the mistakes a careless builder makes, each in many small variants, so that a report that
grouped by message or value would print dozens of headings:
- on about one task in four its endpoint answers HTTP 500, with a different body every time;
- it calls a tool that does not exist (a different name per task) and a tool with an id of the
  wrong type or of a product that does not exist (a different value per task);
- on grocery it asks for more units than the shelf holds (a different product per task);
- it recommends (or orders) the first search result for the opening request without checking
  it, so it misses whatever constraints that title or product misses.
The agent keeps no state: every step is decided from the conversation it is sent.
"""

from __future__ import annotations

import itertools
import json
import re
import zlib
from typing import Any, ClassVar

from tests.loopback import QuietHandler, send_json

__all__ = ["FlawedAgent", "errs"]

_MOVIE_ID = re.compile(r'"id": ?"(tmdb_\d+)"')
_PRODUCT_ID = re.compile(r'"id": ?"(off_\d+)"')


def errs(opening: str) -> bool:
    """Whether the endpoint answers HTTP 500 for the trials of the task opening with `opening`."""
    return zlib.crc32(opening.encode()) % 4 == 0


def _call(number: int, name: str, **arguments: Any) -> dict[str, Any]:
    return {"id": f"c{number}", "name": name, "arguments": arguments}


def _movies(steps: int, opening: str, found: list[str], tag: int) -> dict[str, Any]:
    if steps == 0:
        return {
            "tool_calls": [
                _call(1, f"find_movies_{tag % 9}", query=opening[:60]),
                _call(2, "get_metadata", item_id=tag % 1000),
                _call(3, "search_catalog", query=opening[:80]),
            ]
        }
    if steps <= 3 and len(found) >= steps:  # propose the next search result, unchecked
        return {"tool_calls": [_call(10 + steps, "recommend", item_id=found[steps - 1])]}
    return {"tool_calls": [_call(20, "recommend", item_id=None)]}


def _grocery(steps: int, opening: str, found: list[str], tag: int) -> dict[str, Any]:
    if steps == 0:
        return {
            "tool_calls": [
                _call(1, "add_to_basket", product_id=f"off_{tag:013d}", quantity=1),
                _call(2, "search_products", query=opening[:80] or "milk"),
            ]
        }
    if steps == 1 and found:
        first = found[0]
        return {
            "tool_calls": [
                _call(3, "add_to_basket", product_id=first, quantity=99),
                _call(4, "add_to_basket", product_id=first, quantity=1),
                _call(5, "place_order"),
                _call(6, "finish", summary="Order placed."),
            ]
        }
    return {"tool_calls": [_call(7, "finish", summary="Done.")]}


class FlawedAgent(QuietHandler):
    """One POST per step of the http agent protocol; see the module's docstring."""

    protocol_version = "HTTP/1.1"
    served: ClassVar[itertools.count[int]] = itertools.count()

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        request = next(self.served)
        if not body["tools"]:  # the preflight probe
            send_json(self, {"message": "Hi."})
            return
        messages: list[dict[str, Any]] = body["messages"]
        opening = next((m["content"] for m in messages if m["role"] == "user"), "") or ""
        if errs(opening):
            send_json(self, {"error": f"overloaded while serving request {request}"}, status=500)
            return
        tools = {(t.get("function") or t).get("name") for t in body["tools"]}
        steps = sum(1 for m in messages if m["role"] == "assistant") - 1  # less the greeting
        results = " ".join(str(m.get("content") or "") for m in messages if m["role"] == "tool")
        tag = zlib.crc32(opening.encode())
        if "search_catalog" in tools:
            found = list(dict.fromkeys(_MOVIE_ID.findall(results)))
            send_json(self, _movies(steps, opening, found, tag))
        else:
            found = list(dict.fromkeys(_PRODUCT_ID.findall(results)))
            send_json(self, _grocery(steps, opening, found, tag))
