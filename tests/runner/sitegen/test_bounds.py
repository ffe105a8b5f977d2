"""The bounded, lawful site: trial pages for the latest snapshot only, raw downloads, TMDB ids only, sums, budget."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import re
import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from catalog_pipeline.prune import PRUNE_LOG, PruneRecord
from domains.movies.site_synth import SynthSpec, SynthWorld, synthesize
from runner.cli import cli
from runner.sitegen import BuildReport
from runner.sitegen.bounds import SiteTooLargeError

from .conftest import site_of

SITE_URL = "https://example-org.github.io/tau-rec/"


@pytest.fixture(scope="module")
def tmdb_world(tmp_path_factory: pytest.TempPathFactory) -> SynthWorld:
    """Two entries, four tasks; the latest snapshot is marked as built from TMDB."""
    world = synthesize(tmp_path_factory.mktemp("tmdb"), SynthSpec(entries=2, tasks=4))
    manifest_path = world.snapshots / "2026-11-01" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["source"] = "tmdb"
    manifest_path.write_text(json.dumps(manifest, indent=2))
    # What the revalidation and a past prune leave behind, for the data Changelog.
    changes = ["solutions_changed", "solutions_changed", "unchanged", "status_changed"]
    report = {
        "tasks": [
            {"task_id": t.id, "status": "ok", "change": c}
            for t, c in zip(world.task_list, changes, strict=True)
        ]
    }
    (world.snapshots / "2026-11-01" / "solvability.json").write_text(json.dumps(report))
    record = PruneRecord(
        snapshot=dt.date(2026, 3, 2),
        pruned_on=dt.date(2026, 10, 5),
        retention_until=dt.date(2026, 9, 2),
        source="tmdb",
        reason="retention date 2026-09-02 passed (TMDB-derived data)",
        removed=["catalog_pipeline/snapshots/2026-03-02"],
        ids_kept=True,
    )
    (world.snapshots / PRUNE_LOG).write_text(record.model_dump_json() + "\n")
    return world


@pytest.fixture(scope="module")
def tmdb_site(tmdb_world: SynthWorld, tmp_path_factory: pytest.TempPathFactory) -> BuildReport:
    root = tmp_path_factory.mktemp("tmdb-site")
    return site_of(tmdb_world, root, site_url=SITE_URL)


def test_a_tmdb_snapshot_publishes_ids_and_manifest_only(
    tmdb_site: BuildReport, tmdb_world: SynthWorld
) -> None:
    folder = tmdb_site.out / "downloads" / "snapshots" / "2026-11-01"
    assert sorted(p.name for p in folder.iterdir()) == ["SHA256SUMS", "ids.json", "manifest.json"]
    ids = json.loads((folder / "ids.json").read_text())
    assert ids
    assert all(isinstance(i, int) for i in ids)  # no catalog field beyond ids
    # Our fixture-world snapshot is published whole.
    fixture = tmdb_site.out / "downloads" / "snapshots" / "2026-10-01"
    assert {"catalog.json", "catalog.csv", "catalog.parquet", "ids.json"} <= {
        p.name for p in fixture.iterdir()
    }
    # No title of the TMDB snapshot on the Snapshots page (its diff lists ids only).
    html = (tmdb_site.out / "snapshots.html").read_text()
    catalog = json.loads((tmdb_world.snapshots / "2026-11-01" / "catalog.json").read_text())
    section = html.split('id="snapshot-2026-11-01"')[1].split('id="snapshot-2026-10-01"')[0]
    assert not [item["title"] for item in catalog if item["title"] in section]
    assert "taurec catalog hydrate ids.json --date 2026-11-01" in section


def test_sha256sums_check_with_sha256sum_and_catch_tampering(
    tmdb_site: BuildReport, tmp_path: Path
) -> None:
    for label in ("2026-10-01", "2026-11-01"):
        copy = tmp_path / label
        shutil.copytree(tmdb_site.out / "downloads" / "snapshots" / label, copy)
        ok = subprocess.run(
            ["sha256sum", "-c", "SHA256SUMS"], cwd=copy, capture_output=True, text=True
        )
        assert ok.returncode == 0, ok.stdout + ok.stderr
        names = sorted(
            line.split("  ")[1] for line in (copy / "SHA256SUMS").read_text().splitlines()
        )
        assert names == sorted(p.name for p in copy.iterdir() if p.name != "SHA256SUMS")
        (copy / "ids.json").write_text("[1]\n")
        bad = subprocess.run(
            ["sha256sum", "-c", "SHA256SUMS"], cwd=copy, capture_output=True, text=True
        )
        assert bad.returncode == 1
        assert "ids.json: FAILED" in bad.stdout


def test_trial_pages_only_for_the_latest_snapshot_and_raw_trials_for_all(
    tmdb_site: BuildReport, tmdb_world: SynthWorld
) -> None:
    out = tmdb_site.out
    assert tmdb_site.trial_pages == 2 * 4
    assert sorted(p.name for p in (out / "trials" / tmdb_world.slugs[0]).iterdir()) == [
        "2026-11-01"
    ]
    entry = (out / "entries" / f"{tmdb_world.slugs[0]}.html").read_text()
    old = entry.split('id="snapshot-2026-10-01"')[1]
    assert "Trial pages and the per-task table are published for the latest snapshot" in old
    assert "../trials/" not in old
    assert "taurec-task-table" not in old  # older runs leave per-task rows to the downloads
    assert "taurec-task-table" in entry.split('id="snapshot-2026-10-01"')[0]
    for label in ("2026-10-01", "2026-11-01"):
        raw = out / "downloads" / "trials" / label / f"{tmdb_world.slugs[0]}.jsonl.gz"
        source = tmdb_world.submissions / tmdb_world.slugs[0] / "results" / label / "trials.jsonl"
        published = gzip.decompress(raw.read_bytes())
        if label == "2026-10-01":  # our own catalog: the records as they are
            assert published == source.read_bytes()
            continue
        # TMDB's catalog: the same trials and verdicts, without the values they quote.
        mine = [json.loads(line) for line in published.splitlines()]
        theirs = [json.loads(line) for line in source.read_text().splitlines()]
        assert [(r["key"], r["status"], r["score"] and r["score"]["reward"]) for r in mine] == [
            (r["key"], r["status"], r["score"] and r["score"]["reward"]) for r in theirs
        ]
        checks = [c for r in mine if r["score"] for c in r["score"]["constraints"]]
        assert checks
        assert all(c["actual"] is None and "not republished" in c["reason"] for c in checks)
        quoting = [
            p
            for r in mine
            if r["score"]
            for p in r["score"]["policies"]
            if p["policy"] in ("availability", "age_restricted")
        ]
        assert all("not republished" in p["reason"] for p in quoting)
        assert f"downloads/trials/{label}/{tmdb_world.slugs[0]}.jsonl.gz" in entry
        table = pl.read_parquet(out / "downloads" / "trials" / label / "trials.parquet")
        assert sorted(table["submission"].unique().to_list()) == sorted(tmdb_world.slugs)
        assert table.height == 2 * 4 * 4
        assert {"reward", "tokens", "step_latencies_s"} <= set(table.columns)


def test_tmdb_trial_pages_quote_no_tmdb_fields(
    tmdb_site: BuildReport, tmdb_world: SynthWorld
) -> None:
    """Tool results, recommendations and verdicts of a TMDB snapshot's trials are ids and verdicts only."""
    from domains.movies.catalog import Catalog

    catalog = Catalog.load(tmdb_world.snapshots / "2026-11-01")
    texts = (
        {i.title for i in catalog} | {i.overview for i in catalog} | {i.director for i in catalog}
    )
    pages = sorted((tmdb_site.out / "trials").rglob("*.html"))
    assert pages
    linked = 0
    for page in pages:
        html = page.read_text()
        leaked = [t for t in texts if t in html]
        assert not leaked, (page, leaked[:3])
        assert "not republished" in html
        linked += html.count("https://www.themoviedb.org/movie/")
    assert linked
    assert not (tmdb_site.out / "catalog" / "2026-11-01").exists()  # no cards of TMDB data


def test_trial_pages_are_lean(tmdb_site: BuildReport) -> None:
    """No theme chrome per trial page (thousands of them): the site's stylesheets, script and nav only."""
    page = next((tmdb_site.out / "trials").rglob("*.html"))
    html = page.read_text()
    assert "md-header" not in html
    assert "md-sidebar" not in html
    assert 'href="../../../assets/taurec.css"' in html
    assert re.search(r'href="../../../assets/stylesheets/main\.[0-9a-f]+\.min\.css"', html)
    assert 'src="../../../assets/taurec.js"' in html
    assert html.count("<html") == 1


def test_size_report_and_a_hard_budget(tmdb_world: SynthWorld, tmp_path: Path) -> None:
    args = [
        "site",
        "build",
        "--submissions",
        str(tmdb_world.submissions),
        "--snapshots",
        str(tmdb_world.snapshots),
        "--tasks",
        str(tmdb_world.tasks),
        "--out",
        str(tmp_path / "public"),
    ]
    ok = CliRunner().invoke(cli, args)
    assert ok.exit_code == 0, ok.output
    assert "site size:" in ok.output
    assert "budget 900 MB" in ok.output
    assert "trials/" in ok.output
    tight = CliRunner().invoke(cli, [*args, "--max-size-mb", "0.5"])
    assert tight.exit_code == 1
    assert isinstance(tight.exception, SiteTooLargeError) or "over its budget" in tight.output
    message = str(tight.exception) + tight.output
    assert "over its budget of 0.5 MB" in message
    assert "assets/" in message  # names the largest parts


def test_site_url_gives_a_working_404_and_a_full_sitemap(
    tmdb_site: BuildReport, tmdb_world: SynthWorld
) -> None:
    sitemap = (tmdb_site.out / "sitemap.xml").read_text()
    assert f"<loc>{SITE_URL}index.html</loc>" in sitemap
    assert f"<loc>{SITE_URL}snapshots.html</loc>" in sitemap
    # Trial pages are written outside mkdocs and listed by the build itself.
    trial = f"trials/{tmdb_world.slugs[0]}/2026-11-01/{tmdb_world.task_list[0].id}.html"
    assert f"<loc>{SITE_URL}{trial}</loc>" in sitemap
    assert gzip.decompress((tmdb_site.out / "sitemap.xml.gz").read_bytes()).decode() == sitemap
    assert sitemap.count("<loc>") == sitemap.count("</url>")
    page_404 = (tmdb_site.out / "404.html").read_text()
    assert 'href="/tau-rec/assets/' in page_404 or "/tau-rec/assets/" in page_404
    assert 'href="/assets/' not in page_404


def test_changelog_is_generated_from_the_data(
    tmdb_site: BuildReport, tmdb_world: SynthWorld
) -> None:
    html = (tmdb_site.out / "changelog.html").read_text()
    latest = html.split('id="changes-2026-11-01"')[1].split('id="changes-2026-10-01"')[0]
    assert "4 revalidated" in latest
    assert "2 solutions changed" in latest
    assert "1 status changed" in latest
    assert "1 unchanged" in latest
    assert "Entries re-run</strong> (2)" in latest
    first = html.split('id="changes-2026-10-01"')[1]
    assert "Entries added</strong> (2)" in first
    assert "first run on the board" in first
    pruned = html.split('id="pruned-2026-03-02"')[1]
    assert "retention date 2026-09-02 passed" in pruned
    assert "snapshots/pruned/2026-03-02/" in pruned


def test_changelog_gives_each_removal_and_adjudication_its_own_reason(tmp_path: Path) -> None:
    """Not a generic 'budget, infra failure or withdrawn': the reason the data on disk gives."""
    world = synthesize(tmp_path / "w", SynthSpec(entries=3, tasks=3, trials=2, xss_probes=False))
    latest = "2026-11-01"
    runs = [world.submissions / slug / "results" / latest for slug in world.slugs]
    shutil.rmtree(runs[0])  # never run on the latest snapshot
    manifest = json.loads((runs[1] / "run.json").read_text())
    manifest["rules"] = "v1"  # run under the other rule set
    (runs[1] / "run.json").write_text(json.dumps(manifest))
    manifest = json.loads((runs[2] / "run.json").read_text())
    manifest["status"] = "budget_exhausted"
    manifest["counts"]["planned"] = 10
    (runs[2] / "run.json").write_text(json.dumps(manifest))
    report = site_of(world, tmp_path)
    html = (report.out / "changelog.html").read_text()
    block = html.split(f'id="changes-{latest}"')[1].split('id="changes-2026-10-01"')[0]
    assert "Entries dropped</strong> (2)" in block
    assert f"not run on this snapshot (no results/{latest}/ folder); no later run" in block
    assert "it ran under rule set v1; this board shows v2 only" in block
    assert "the run ended budget exhausted after 6 of 10 planned trials" in block
    assert "budget, an infra failure or withdrawn" not in html
