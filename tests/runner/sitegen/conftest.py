"""Fixtures for the site tests: one synthesized world and one built site per session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domains.movies.site_synth import SynthSpec, SynthWorld, synthesize
from runner.sitegen import BuildReport, build_site
from runner.sitegen.serve import serving


@pytest.fixture(scope="session")
def synth_world(tmp_path_factory: pytest.TempPathFactory) -> SynthWorld:
    """Four entries (one named like a script tag), twelve tasks, four trials, two snapshots."""
    return synthesize(tmp_path_factory.mktemp("world"), SynthSpec())


def world_of(root: Path, **spec: Any) -> SynthWorld:
    """A synthetic world in `root`/world, drawn from a `SynthSpec` of the given fields."""
    return synthesize(root / "world", SynthSpec(**spec))


def site_of(world: SynthWorld, root: Path, **options: Any) -> BuildReport:
    """Build a synthetic world's site into `root`/public (its docs into `root`/docs); `options`
    go to `build_site` as they are."""
    return build_site(
        submissions=world.submissions,
        snapshots=world.snapshots,
        tasks=world.tasks,
        out=root / "public",
        docs=root / "docs",
        **options,
    )


@pytest.fixture(scope="session")
def built_site(synth_world: SynthWorld, tmp_path_factory: pytest.TempPathFactory) -> BuildReport:
    return site_of(synth_world, tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="session")
def small_site(tmp_path_factory: pytest.TempPathFactory) -> BuildReport:
    """A smaller built site (three entries, five tasks) so the browser can visit every page fast."""
    root = tmp_path_factory.mktemp("small")
    references = ("oracle", "random", "exploit-interview")
    world = world_of(root, entries=3, tasks=5, trials=4, reference_entries=references)
    return site_of(world, root)


@pytest.fixture(scope="module")
def served(small_site: BuildReport) -> Iterator[str]:
    """The small site on 127.0.0.1, for one test module."""
    with serving(small_site.out) as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by playwright, for one test module (two at once cannot share a
    thread, so this is never session-wide)."""
    from .test_browser import CHROMIUM, FLAGS

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} missing: run `make browser-deps` (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    """The same Chromium, under the name most browser tests use."""
    return chromium
