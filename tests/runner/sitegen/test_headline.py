"""One headline pass^k: the board ranks by it, README and leaderboard.yaml name it, and the
exploit floor is stated for every pass^k the board shows."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from domains.movies.site_synth import SynthSpec, synthesize
from runner.core.paths import PROJECT_ROOT
from runner.sitegen import BuildReport
from runner.sitegen.aggregate import aggregate_runs
from runner.sitegen.inputs import load_inputs
from runner.sitegen.metric_table import HEADLINE, HEADLINE_K, PASS_KS
from runner.sitegen.views import boards

from .conftest import world_of

EXPLOITS = ("exploit-interview", "exploit-ask-all")
RANKS_BY = re.compile(r"ranks\s+by\s+pass\^(\d+)")


def test_readme_and_board_file_name_the_headline_the_board_uses() -> None:
    # Before: both said the board ranks by pass^4 while it ranked by pass^1.
    for path in (PROJECT_ROOT / "README.md", PROJECT_ROOT / "leaderboard.yaml"):
        said = {int(k) for k in RANKS_BY.findall(path.read_text(encoding="utf-8"))}
        assert said == {HEADLINE_K}, path.name


def test_the_board_is_ordered_and_tiered_by_the_headline(tmp_path: Path) -> None:
    world = synthesize(tmp_path / "world", SynthSpec(entries=6, tasks=6, trials=4, seed=5))
    inputs = load_inputs(world.submissions, world.snapshots, world.tasks)
    for board in boards(inputs, aggregate_runs(inputs.runs, seed=0)):
        values = [r.values[HEADLINE] for r in board.rows]
        assert len(values) >= 2
        assert all(v is not None for v in values)
        assert values == sorted(values, reverse=True)  # type: ignore[type-var]
        tiers = [r.tier for r in board.rows]
        assert tiers == sorted(tiers)  # type: ignore[type-var]
        assert tiers[0] == 1


class _FloorRows(HTMLParser):
    """The rows of the home page's exploit-floor table, by k."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[int, list[str]] = {}
        self._k: int | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "tr" and found.get("data-k"):
            self._k = int(str(found["data-k"]))
            self.rows[self._k] = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr":
            self._k = None

    def handle_data(self, data: str) -> None:
        if self._k is not None and data.strip():
            self.rows[self._k].append(data.strip())


def test_the_floor_is_stated_for_every_k_shown(small_site: BuildReport) -> None:
    # Before: only pass^1 had a floor; at pass^4 exploit agents beat ranked entries unremarked.
    home = (small_site.out / "index.html").read_text(encoding="utf-8")
    parser = _FloorRows()
    parser.feed(home)
    assert set(parser.rows) == set(PASS_KS)
    for k, cells in parser.rows.items():
        assert cells[0].startswith(f"pass^{k}")
        assert re.fullmatch(r"\d+\.\d", cells[1]), cells  # the floor's value, in %
        assert re.fullmatch(r"\d+ of \d+", cells[-1]), cells  # ranked entries at or below it
    assert "(ranks the board)" in parser.rows[HEADLINE_K][0]


def test_floors_per_k_come_from_the_best_exploit_at_that_k(tmp_path: Path) -> None:
    world = world_of(tmp_path, entries=3, tasks=5, trials=4, reference_entries=EXPLOITS)
    inputs = load_inputs(world.submissions, world.snapshots, world.tasks)
    for board in boards(inputs, aggregate_runs(inputs.runs, seed=0)):
        exploits = [r for r in board.references if r.facts.exploit]
        floors = board.exploit_floors()
        assert set(floors) == set(PASS_KS)
        for k, floor in floors.items():
            key = f"pass_{k}"
            assert floor.values[key] == max(r.values[key] for r in exploits)  # type: ignore[type-var]
            below = board.at_or_below_floor(k)
            level = floor.values[key]
            assert level is not None
            assert {r.slug for r in below} == {
                r.slug for r in board.rows if (v := r.values[key]) is not None and v <= level
            }
