"""Issue 22: the site's cost per trial, measured on transcripts as long as the board's real ones.

The default synthesized transcripts are ~8 events; a real board trial is ~40 (searches of 20
titles, metadata look-ups). These tests build a site from realistic-length transcripts and hold
the bytes that grow with the trials (trial pages and the per-run downloads) to the budget, while
every transcript stays readable on its page and downloadable whole.
"""

from __future__ import annotations

import gzip
import json
import lzma
import re

import pytest

from domains.movies.site_synth import SynthSpec, SynthWorld, synthesize
from runner.batch.archive import load_trial_transcript
from runner.batch.store import read_trials
from runner.core.transcript import Transcript
from runner.sitegen import BuildReport
from runner.sitegen.bounds import TARGET_KB_PER_TRIAL

from .conftest import site_of

SNAPSHOT = "2026-11-01"
SPEC = SynthSpec(
    entries=3,
    tasks=8,
    trials=4,
    items=150,
    snapshots=(SNAPSHOT,),
    xss_probes=False,
    realistic_transcripts=True,
)
TRIALS = SPEC.entries * SPEC.tasks * SPEC.trials
# The parts of the site that grow with the trials. The rest (theme, hand-written, entry and
# snapshot pages, catalog cards, snapshot downloads) is ~5 MB on the default board, ~2 KB a
# trial there: the whole default board measures 14.4 KB a trial (benchmarks/site_build.py).
GROWING_PARTS = ("trials/", "downloads/trials/")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> SynthWorld:
    return synthesize(tmp_path_factory.mktemp("realistic"), SPEC)


@pytest.fixture(scope="module")
def site(world: SynthWorld, tmp_path_factory: pytest.TempPathFactory) -> BuildReport:
    return site_of(world, tmp_path_factory.mktemp("realistic-site"))


def _raw_transcript_bytes(world: SynthWorld) -> int:
    return sum(len(gzip.decompress(p.read_bytes())) for p in world.root.rglob("*.json.gz"))


def test_the_transcripts_are_as_long_as_real_ones(world: SynthWorld) -> None:
    # The default board's real transcripts hold 12-230 KB of JSON a trial (heuristic: ~100).
    assert _raw_transcript_bytes(world) / TRIALS > 60_000


def test_a_trial_costs_the_site_at_most_the_target(site: BuildReport) -> None:
    assert site.size is not None
    assert site.size.trials == TRIALS
    growing = sum(site.size.parts.get(part, 0) for part in GROWING_PARTS)
    kb_per_trial = growing / TRIALS / 1e3
    assert kb_per_trial <= TARGET_KB_PER_TRIAL, site.summary()
    # The size report states the whole site's cost per trial.
    assert f"{site.size.kb_per_trial:.1f} KB per trial over {TRIALS} trials" in site.summary()


def test_every_transcript_is_on_its_page_and_in_the_run_download(
    site: BuildReport, world: SynthWorld
) -> None:
    for slug in world.slugs:
        folder = world.submissions / slug / "results" / SNAPSHOT
        records = read_trials(folder).records
        download = site.out / "downloads" / "trials" / SNAPSHOT / f"{slug}.transcripts.jsonl.xz"
        lines = lzma.decompress(download.read_bytes()).decode().splitlines()
        assert len(lines) == len(records)
        for record, line in zip(records, lines, strict=True):
            assert Transcript.model_validate(json.loads(line)) == load_trial_transcript(
                folder, record
            )
        for task in world.task_list:
            page = (site.out / "trials" / slug / SNAPSHOT / f"{task.id}.html").read_text()
            assert page.count('<details class="taurec-transcript">') == SPEC.trials
            assert (
                f'href="../../../downloads/trials/{SNAPSHOT}/{slug}.transcripts.jsonl.xz"' in page
            )
        entry = (site.out / "entries" / f"{slug}.html").read_text()
        assert f"downloads/trials/{SNAPSHOT}/{slug}.transcripts.jsonl.xz" in entry


def test_a_repeated_run_of_calls_is_one_line_linking_to_its_first_appearance(
    site: BuildReport, world: SynthWorld
) -> None:
    page = site.out / "trials" / world.slugs[0] / SNAPSHOT / f"{world.task_list[0].id}.html"
    html = page.read_text()
    repeats = re.findall(
        r"events (\d+)–(\d+): (\d+) tool calls \(([^)]*)\), each with the same arguments and "
        r'result as <a class="taurec-same-calls" href="#(r\d+-\d+)">trial (\d+), events',
        html,
    )
    # Every trial after the first repeats the entry's planned searches of trial 0.
    assert len(repeats) >= SPEC.trials - 1
    for first, last, count, names, target, trial in repeats:
        assert int(last) - int(first) + 1 == int(count) >= 3
        assert "search_catalog × " in names
        assert html.count(f'id="{target}"') == 1
        assert target.startswith(f"r{trial}-")
    # Within a result, the titles of a search are links to their cards, its shape named once.
    assert "20 titles, each: v2 search record" in html
    assert "&lt;a href" not in html


def test_search_indexes_trial_pages_by_title_and_entries_above_them(
    site: BuildReport, world: SynthWorld
) -> None:
    docs = json.loads((site.out / "search" / "search_index.json").read_text())["docs"]
    trials = [d for d in docs if d["location"].startswith("trials/")]
    assert len(trials) == len(world.slugs) * len(world.task_list)
    assert all(d["text"] == "" and d["boost"] < 1 for d in trials)
    entries = {d["location"]: d for d in docs if d["location"].startswith("entries/")}
    assert sorted(entries) == sorted(f"entries/{slug}.html" for slug in world.slugs)
    assert all(d["boost"] > 1 for d in entries.values())
    methodology = [d for d in docs if d["location"].startswith("methodology.html")]
    assert methodology
    assert all(d["boost"] > 1 for d in methodology)


def test_theme_files_no_reader_loads_are_not_shipped(site: BuildReport) -> None:
    scripts = site.out / "assets" / "javascripts"
    assert not list((site.out / "assets").rglob("*.map"))
    assert not (scripts / "lunr").exists()
    assert list(scripts.glob("bundle.*.min.js"))
    assert list((scripts / "workers").glob("search.*.min.js"))
