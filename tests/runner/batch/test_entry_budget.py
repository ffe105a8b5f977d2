"""`--max-cost` is split over the entries of a run: an entry reporting the largest cost a call may
have spends its own share and stops; the entry beside it runs to the end on its share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.batch import load_records, run_submissions
from runner.play.loop import MAX_CALL_COST_USD
from tests.loopback import QuietHandler, send_json, serving

from .conftest import SubmissionMaker, builtin


class _Spender(QuietHandler):
    """Abstains at once, reporting the most a single model call may cost."""

    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        usage = [{"model": "m", "prompt_tokens": 1, "completion_tokens": 1,
                  "cost_usd": MAX_CALL_COST_USD}]  # fmt: skip
        reply = {
            "tool_calls": [{"id": "r", "name": "recommend", "arguments": {"item_id": None}}],
            "usage": usage,
        }
        send_json(self, reply)


@pytest.fixture
def spender_url() -> Iterator[str]:
    with serving(_Spender) as server:
        yield f"http://127.0.0.1:{server.server_port}/step"


def test_one_entrys_costs_never_spend_anothers_share(
    spender_url: str, small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    spender = make_submission("spender", {"kind": "http", "endpoint": spender_url}, trials=1)
    honest = make_submission("honest", builtin("heuristic"), trials=1)
    results = run_submissions(
        [spender, honest],
        snapshot=v1_dir / "catalog.json",
        tasks_dir=small_suite,
        concurrency=1,
        max_cost=2 * MAX_CALL_COST_USD,  # a share of MAX_CALL_COST_USD each
    )
    by_slug = {r.submission: r for r in results}
    # Before: the spender's first trial spent the whole shared budget; the honest entry stopped.
    assert by_slug["spender"].manifest.status == "budget_exhausted"
    assert len(load_records(by_slug["spender"].results_dir)) == 1
    assert by_slug["honest"].manifest.status == "completed"
    assert len(load_records(by_slug["honest"].results_dir)) == 8
