"""The built site: strict mkdocs build, escaping, downloads, offline assets, determinism."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from markupsafe import escape

from domains.movies.simulators.reader_score import SHARE_CORPORA
from domains.movies.site_synth import SynthWorld
from runner.cli import cli
from runner.core.board import BoardSettings
from runner.core.errors import TaurecError
from runner.core.paths import SITE_DIR
from runner.sitegen import BuildReport, SiteBuildError, build_site
from runner.sitegen.aggregate import aggregate_runs
from runner.sitegen.build import assemble, runs_with_trial_pages
from runner.sitegen.hostile import PLANTED_SECRET, XSS_MESSAGE, XSS_NAME
from runner.sitegen.inputs import load_inputs
from runner.sitegen.pages import environment
from runner.sitegen.trial_pages import runs_with_pages, start_trial_pages

from .conftest import site_of


def test_build_emits_every_page(built_site: BuildReport, synth_world: SynthWorld) -> None:
    out = built_site.out
    for page in (
        "index.html",
        "tasks.html",
        "snapshots.html",
        "methodology.html",
        "submit.html",
        "changelog.html",
        "submission-schema.html",
        "search/search_index.json",
    ):
        assert (out / page).is_file(), page
    for slug in synth_world.slugs:
        assert (out / "entries" / f"{slug}.html").is_file()
    # One trial page per (entry, snapshot, task) holding every trial of that task.
    assert built_site.trial_pages == 4 * 12  # the latest snapshot only
    page = out / "trials" / synth_world.slugs[0] / "2026-11-01" / "task_001.html"
    html = page.read_text()
    assert all(f'id="trial-{i}"' in html for i in range(4))


def test_user_content_is_escaped_everywhere(built_site: BuildReport) -> None:
    raw_name = XSS_NAME
    raw_message = XSS_MESSAGE
    hits = 0
    for page in built_site.out.rglob("*.html"):
        html = page.read_text()
        assert raw_name not in html, page
        assert raw_message not in html, page
        hits += html.count("&lt;script&gt;alert(1)&lt;/script&gt;")
    assert hits > 0, "the probe name is shown (escaped) somewhere"
    trial = built_site.out / "trials" / "synthetic-agent-001" / "2026-11-01" / "task_001.html"
    assert "&lt;img src=x onerror=alert(1)&gt;" in trial.read_text()


def test_no_external_resources(built_site: BuildReport) -> None:
    pattern = re.compile(r"""<(?:script|link|img|iframe)\b[^>]*(?:src|href)=["']?(https?:)?//""")
    for page in built_site.out.rglob("*.html"):
        assert not pattern.search(page.read_text()), page
    assert (built_site.out / "assets" / "vendor" / "vega-bundle.js").stat().st_size > 500_000
    config = yaml.safe_load((Path(__file__).parents[3] / "mkdocs.yml").read_text())
    assert config["theme"]["font"] is False
    assert config["plugins"] == ["search"]  # privacy and social fail offline


def test_downloads_hold_the_board(built_site: BuildReport, synth_world: SynthWorld) -> None:
    downloads = built_site.out / "downloads"
    rows = json.loads((downloads / "leaderboard-2026-11-01.json").read_text())
    assert sorted(r["slug"] for r in rows) == sorted(synth_world.slugs)
    assert [r["tier"] for r in rows] == sorted(r["tier"] for r in rows)
    with (downloads / "leaderboard-2026-11-01.csv").open() as fh:
        table = list(csv.DictReader(fh))
    assert [r["slug"] for r in table] == [r["slug"] for r in rows]
    assert float(table[0]["pass_1"]) == pytest.approx(rows[0]["pass_1"])
    snap = downloads / "snapshots" / "2026-11-01"
    for name in ("catalog.json", "catalog.parquet", "catalog.csv", "ids.json"):
        assert (snap / name).read_bytes() == (
            synth_world.snapshots / "2026-11-01" / name
        ).read_bytes()
    snapshots_html = (built_site.out / "snapshots.html").read_text()
    assert "Changes since 2026-10-01" in snapshots_html
    assert "JustWatch" in snapshots_html


def test_rendering_is_reproducible(synth_world: SynthWorld, tmp_path: Path) -> None:
    inputs = load_inputs(synth_world.submissions, synth_world.snapshots, synth_world.tasks)
    agg = aggregate_runs(inputs.runs)
    paged = runs_with_trial_pages(inputs)
    assert paged
    for name, workers in (("a", 1), ("b", 2)):  # in-process and in a pool: the same bytes
        assemble(tmp_path / name, SITE_DIR, inputs, agg, BoardSettings(), paged)
        staged = start_trial_pages(
            environment(SITE_DIR / "templates"),
            inputs,
            list(runs_with_pages(inputs, paged)),
            tmp_path / f"{name}-staging",
            workers,
        )
        assert staged.finish(tmp_path / name, None) == len(paged) * len(synth_world.task_list)
    files_a = sorted(
        p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file()
    )
    files_b = sorted(
        p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file()
    )
    assert files_a == files_b
    for rel in files_a:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


def test_strict_build_fails_on_a_broken_link(synth_world: SynthWorld, tmp_path: Path) -> None:
    site_dir = tmp_path / "site"
    shutil.copytree(SITE_DIR, site_dir, ignore=shutil.ignore_patterns("generated"))
    (site_dir / "pages" / "submit.md").write_text("# Submit\n\nSee [gone](nowhere.md).\n")
    with pytest.raises(SiteBuildError, match=r"nowhere\.md"):
        site_of(synth_world, tmp_path, site_dir=site_dir)


def test_cli_build_on_a_world_without_transcripts(tmp_path: Path) -> None:
    from domains.movies.site_synth import SynthSpec, synthesize

    world = synthesize(tmp_path / "w", SynthSpec(entries=2, tasks=6, trials=2, transcripts=False))
    result = CliRunner().invoke(
        cli, ["site", "build", *world.source_options(), "--out", str(tmp_path / "public")]
    )
    assert result.exit_code == 0, result.output
    assert "2 entries" in result.output
    assert "0 trial pages" in result.output
    entry = (tmp_path / "public" / "entries" / f"{world.slugs[0]}.html").read_text()
    assert "no transcript" in entry
    assert "../trials/" not in entry


def test_build_refuses_to_wipe_a_folder_that_is_not_a_site(
    synth_world: SynthWorld, tmp_path: Path
) -> None:
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me")
    with pytest.raises(TaurecError, match="refusing"):
        build_site(
            submissions=synth_world.submissions,
            snapshots=synth_world.snapshots,
            tasks=synth_world.tasks,
            out=precious,
            docs=tmp_path / "docs",
        )
    assert (precious / "notes.txt").read_text() == "keep me"


def test_tool_results_link_to_one_catalog_card_per_title(
    built_site: BuildReport, synth_world: SynthWorld
) -> None:
    """A title's record is printed once, on its card, not in every search result that returns it."""
    from domains.movies.catalog import Catalog

    catalog = {i.id: i for i in Catalog.load(synth_world.snapshots / "2026-11-01")}
    cards = built_site.out / "catalog" / "2026-11-01"
    pages = sorted((built_site.out / "trials").rglob("*.html"))
    linked: set[str] = set()
    for page in pages:
        html = page.read_text()
        ids = set(re.findall(r'href="\.\./\.\./\.\./catalog/2026-11-01/(tmdb_\d+)\.html"', html))
        assert ids, page
        for item_id in ids:
            assert catalog[item_id].overview not in html  # the card holds it, not the page
        assert "titles, each: search record" in html  # search_catalog results, by their shape
        linked |= ids
    assert sorted(p.stem for p in cards.iterdir()) == sorted(linked)
    card = (cards / f"{sorted(linked)[0]}.html").read_text()
    item = catalog[sorted(linked)[0]]
    for text in (item.title, item.overview, item.director, item.content_rating):
        assert str(escape(text)) in card


def test_every_relative_link_resolves(built_site: BuildReport) -> None:
    """Trial bodies skip mkdocs' link validation, so every href/src in the output is checked here."""
    from html.parser import HTMLParser
    from urllib.parse import unquote, urlsplit

    class Links(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.found: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.found += [v for k, v in attrs if k in ("href", "src") and v]

    out = built_site.out
    checked = 0
    for page in out.rglob("*.html"):
        if page.name == "404.html":  # served at any path, so mkdocs gives it root-absolute links
            continue
        parser = Links()
        parser.feed(page.read_text())
        for link in parser.found:
            parts = urlsplit(link)
            if parts.scheme or link.startswith(("#", "//")) or not parts.path:
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            assert target.exists(), f"{page.relative_to(out)} links to missing {link}"
            checked += 1
    assert checked > 1000


def test_methodology_and_entry_pages_show_the_board_settings(
    synth_world: SynthWorld, tmp_path: Path
) -> None:
    from runner.core.board import LiteLLMSimulator

    board = BoardSettings(
        simulator=LiteLLMSimulator(model="openai/user-sim", api_base="http://127.0.0.1:9/v1"),
        max_turns=12,
        trials=6,
    )
    site_of(synth_world, tmp_path, board=board)
    methodology = (tmp_path / "docs" / "methodology.md").read_text(encoding="utf-8")
    assert "<!-- generated" not in methodology
    assert "| user simulator | litellm:openai/user-sim at http://127.0.0.1:9/v1 |" in methodology
    assert "| max turns | 12 |" in methodology
    assert "| trials per task | 6 |" in methodology
    # The reader's per-field table is the held-out share's, generated from the scorer; each
    # corpus names its share (the retired held-out sets are tuning sets now).
    held = SHARE_CORPORA["held_out"]
    if held:
        assert f"Per field, on the held-out share ({', '.join(held)}:" in methodology
    else:
        assert "The held-out share has no messages at present" in methodology
    assert "| chat_heldout | tuning |" in methodology
    html = (tmp_path / "public" / "methodology.html").read_text(encoding="utf-8")
    assert "litellm:openai/user-sim" in html
    [entry, *_] = sorted((tmp_path / "public" / "entries").glob("*.html"))
    page = entry.read_text(encoding="utf-8")
    assert "<dt>max turns</dt><dd><code>12</code></dd>" in page
    assert "<dt>rule set</dt><dd><code>v2</code></dd>" in page


def test_secret_named_config_values_never_reach_the_site(
    built_site: BuildReport, synth_world: SynthWorld
) -> None:
    # A LiteLLM entry pasted a key into extra_body (top level and nested, as a header value).
    planted = [
        p
        for p in synth_world.submissions.rglob("submission.yaml")
        if PLANTED_SECRET in p.read_text()
    ]
    assert planted
    leaks = [
        p
        for p in built_site.out.rglob("*")
        if p.is_file() and PLANTED_SECRET.encode() in p.read_bytes()
    ]
    assert leaks == []
    slug = planted[0].parent.name
    page = (built_site.out / "entries" / f"{slug}.html").read_text()
    assert "top_k" in page  # the rest of the config is still shown
    assert "[redacted]" in page
