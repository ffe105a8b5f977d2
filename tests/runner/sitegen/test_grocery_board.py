"""The grocery board: its leaderboard, Tasks, Snapshots (licence notice), Methodology and a trial page, built from real grocery trials beside a movies board."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domains.movies.site_synth import SynthSpec, synthesize
from runner.batch import run_submissions
from runner.batch.entrant import Entrant
from runner.core.board import BoardSettings
from runner.core.domains import get_domain
from runner.core.protocols import AgentContext
from runner.sitegen import BuildReport
from runner.sitegen.serve import serving
from tests.domains.grocery.play import ScriptedAgent, call, say

from .conftest import site_of
from .test_browser import OVERFLOW, VIEWPORTS, Watch
from .test_snapshot_download import download, follow

DATE = "2026-11-01"
LABEL = f"grocery-{DATE}"
SLUGS = ("grocery-lookup", "grocery-quiet")


def lookup_agent(product_id: str) -> ScriptedAgent:
    """Searches, reads one product's details, puts it forward, then finishes."""
    replies = [
        call("search_products", query="oat"),
        call("get_product_details", product_id=product_id),
        say("Would this one suit you?"),
    ]
    return ScriptedAgent(replies, name="lookup-test-agent")


def _task(number: int, field: str, value: str) -> dict[str, Any]:
    return {
        "schema_version": 1,
        "id": f"g_{number}",
        "persona": f"Shopper {number}, who reads every label.",
        "kind": "order",
        "constraints": [
            {"constraint": {"field": field, "op": "==", "value": value}, "reveal": "volunteer"}
        ],
        "policy_flags": ["order_confirmation", "allergen_safety", "budget"],
        "complexity": "simple",
        "reveal_difficulty": "volunteer",
        "budget": 10.0,
        "allergies": ["peanuts"],
    }


@pytest.fixture(scope="module")
def two_boards(tmp_path_factory: pytest.TempPathFactory) -> BuildReport:
    """A small movies world and, in the same submissions folder, two grocery entries whose runs
    are real grocery trials on the committed fixture snapshot; one site with both boards."""
    root = tmp_path_factory.mktemp("two-boards")
    world = synthesize(root / "world", SynthSpec(entries=2, tasks=3, trials=2, xss_probes=False))
    grocery = get_domain("grocery")
    tasks = root / "grocery-tasks"
    tasks.mkdir()
    shutil.copyfile(grocery.tasks_dir / "policy.md", tasks / "policy.md")
    (tasks / "suite.json").write_text('{"domain": "grocery"}\n', encoding="utf-8")
    for number, (field, value) in enumerate([("vegan", "yes"), ("nutriscore", "a")]):
        (tasks / f"g_{number}.json").write_text(json.dumps(_task(number, field, value)))
    snapshots = root / "grocery-snapshots"
    shutil.copytree(grocery.snapshots_dir / DATE, snapshots / DATE)
    first = next(iter(grocery.load_catalog(snapshots / DATE))).id
    entrants = []
    for slug in SLUGS:
        folder = world.submissions / slug
        folder.mkdir()
        (folder / "submission.yaml").write_text(
            f"schema_version: 1\nslug: {slug}\ndisplay_name: Test {slug}\ncontact: {{name: t}}\n"
            "agent: {kind: builtin, name: heuristic}\ndomains: [grocery]\n",
            encoding="utf-8",
        )

        def make(context: AgentContext) -> ScriptedAgent:
            return lookup_agent(first)

        entrants.append(
            Entrant(
                slug=slug,
                results_root=folder / "results",
                agent="python:test",
                trials=2,
                make_agent=make,
            )
        )
    runs = run_submissions(
        entrants,
        snapshot=DATE,
        tasks_dir=tasks,
        trials=2,
        snapshots_dir=snapshots,
        domain="grocery",
        concurrency=2,
    )
    assert [r.tally.scored for r in runs] == [4, 4]
    board = BoardSettings.model_validate({"domains": ["movies", "grocery"], "strictness": "medium"})
    return site_of(
        world,
        root,
        board=board,
        domain_snapshots={"grocery": snapshots},
        domain_tasks={"grocery": tasks},
        workers=1,
    )


@pytest.fixture(scope="module")
def base(two_boards: BuildReport) -> Iterator[str]:
    with serving(two_boards.out) as url:
        yield url


def test_each_board_has_its_own_entries(two_boards: BuildReport) -> None:
    out = two_boards.out
    for slug in SLUGS:
        assert (out / "grocery" / "entries" / f"{slug}.html").is_file()
        assert not (out / "entries" / f"{slug}.html").exists()
    movies = {p.stem for p in (out / "entries").glob("*.html")}
    assert movies
    assert not movies & set(SLUGS)
    assert not list((out / "grocery" / "entries").glob("entry-*.html"))


def test_grocery_trial_pages_and_cards_speak_of_orders_and_products(
    two_boards: BuildReport,
) -> None:
    """The outcome and card wording are the domain's: a grocery trial ends on an order (here
    none), a card is a product's; the movies board beside it keeps its recommendation words."""
    out = two_boards.out
    page = (out / "grocery/trials" / SLUGS[0] / LABEL / "g_0.html").read_text(encoding="utf-8")
    assert "· no single product ordered" in page
    assert "recommendation" not in page
    cards = sorted((out / "grocery/catalog" / LABEL).glob("*.html"))
    assert cards
    assert all("this product's record" in c.read_text(encoding="utf-8") for c in cards)
    movie_pages = [p.read_text(encoding="utf-8") for p in (out / "trials").rglob("*.html")]
    assert movie_pages
    assert all(" · recommended <a" in p or " · no recommendation" in p for p in movie_pages)
    movie_card = next((out / "catalog").rglob("*.html")).read_text(encoding="utf-8")
    assert "this title's record" in movie_card


@pytest.fixture
def watch(chromium: Any, base: str) -> Iterator[Watch]:
    """A fresh watched page on the two-board site, closed after the test."""
    watched = Watch(chromium, base)
    yield watched
    watched.page.close()


def test_grocery_board_tasks_and_methodology_render(watch: Watch, base: str) -> None:
    page = watch.page
    page.goto(base + "index.html")
    page.click("a.md-tabs__link:has-text('Grocery')")
    page.wait_for_url("**/grocery/index.html")
    assert "grocery" in page.locator("h1").first.inner_text().lower()
    names = page.locator(f"section[data-snapshot='{LABEL}'] a.taurec-entry-link").all_inner_texts()
    assert sorted(names) == [f"Test {s}" for s in SLUGS]
    page.goto(base + "grocery/tasks.html")
    row = page.locator("#task-g_0")
    assert "vegan == 'yes'" in row.inner_text()
    assert "peanuts" in row.inner_text()
    assert "EUR 10" in row.inner_text()
    page.goto(base + "grocery/methodology.html")
    text = page.locator("article").inner_text()
    assert "This board's strictness: medium" in text
    for policy, severity in (("allergen_safety", "critical"), ("single_proposal", "low")):
        cells = page.locator(f"tr:has(td:text-is('{policy}')) td").all_inner_texts()
        assert cells[1] == severity
    assert not watch.errors, watch.errors
    assert not watch.external, watch.external


def test_grocery_snapshots_page_and_every_download_carry_the_licence(
    watch: Watch, base: str, two_boards: BuildReport
) -> None:
    page = watch.page
    page.goto(base + "grocery/snapshots.html")
    licence = page.locator(f"#snapshot-{LABEL} .taurec-licence").inner_text()
    assert "Open Database License (ODbL)" in licence
    assert "same licence" in licence
    notice_href = page.locator(f"#snapshot-{LABEL} a:text-is('NOTICE')").get_attribute("href")
    assert notice_href is not None
    folder = two_boards.out / "grocery" / notice_href
    notice = folder.read_text(encoding="utf-8")
    assert "ODbL" in notice
    assert "Open Prices" in notice
    sums = (folder.parent / "SHA256SUMS").read_text(encoding="utf-8")
    assert sums.rstrip().endswith("  NOTICE")
    downloads = two_boards.out / "grocery" / "downloads"
    for where in (downloads, downloads / "trials" / LABEL):
        assert (where / "NOTICE").read_text(encoding="utf-8") == notice


def test_grocery_trial_page_renders_with_its_transcript(
    watch: Watch, base: str, two_boards: BuildReport
) -> None:
    page = watch.page
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.on("response", lambda r: r.status >= 400 and failed.append(r.url))
    page.goto(base + f"grocery/trials/{SLUGS[0]}/{LABEL}/g_0.html", wait_until="load")
    assert page.locator("h1").first.inner_text().startswith("g_0")
    assert page.locator(".taurec-trial-section").count() == 2
    page.locator("button.taurec-expand-all").click()
    assert page.locator("code:has-text('search_products(')").first.is_visible()
    # the stylesheet came from the site root's assets (the card link too is the board's)
    assert page.evaluate("getComputedStyle(document.body).marginTop") == "0px"
    card = page.locator("a[href*='catalog/']").first.get_attribute("href") or ""
    assert (two_boards.out / "grocery/trials" / SLUGS[0] / LABEL / card).resolve().is_file()
    page.locator(".taurec-breadcrumb a").nth(1).click()
    page.wait_for_url(f"**/grocery/entries/{SLUGS[0]}.html*")
    assert not failed, failed
    assert not watch.errors, watch.errors


def test_the_grocery_verify_box_passes_a_download_and_names_a_tampered_file(
    two_boards: BuildReport, tmp_path: Path
) -> None:
    """The grocery Snapshots page has the same verify box as movies; its commands, followed on a
    real download, say ok with no --domain (the manifest names the domain), then name the file a
    one-byte change broke."""
    folder, lines = download(two_boards, tmp_path, "grocery/snapshots.html")
    assert any("taurec catalog verify ./" in line and "--domain" not in line for line in lines)
    checks = follow(lines, folder)
    assert [c.returncode for c in checks] == [0] * len(checks), [
        c.stdout + c.stderr for c in checks
    ]
    assert checks[-1].stdout == f"{folder.resolve()}: ok\n"
    catalog = folder / "catalog.csv"
    catalog.write_text(catalog.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    [verify] = follow([lines[-1]], folder)
    assert verify.returncode == 1, verify.stdout + verify.stderr
    assert f"{folder.resolve()}: MISMATCH" in verify.stdout
    assert "catalog.csv" in verify.stdout


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}px")
def test_every_grocery_page_renders_whole_on_a_laptop_and_a_phone(
    chromium: Any, base: str, two_boards: BuildReport, viewport: tuple[int, int]
) -> None:
    """The grocery board's pages and the protocol pages' grocery section at 1366 and 390 px:
    every section heading shown, nothing sticking out sideways, no script error."""
    watch = Watch(chromium, base, viewport)
    page = watch.page
    pages = [
        *(f"grocery/{name}.html" for name in ("index", "tasks", "snapshots", "methodology")),
        f"grocery/entries/{SLUGS[0]}.html",
        "http-agent-protocol.html",
        "integrations.html",
    ]
    problems = []
    for name in pages:
        page.goto(base + name)
        overflow = page.evaluate(OVERFLOW)
        if overflow["out"] or overflow["scroll"] > overflow["width"] + 1:
            problems.append(f"{name}: sticks out sideways {overflow}")
        hidden = page.evaluate(
            "() => [...document.querySelectorAll('article h2')]"
            ".filter(h => !h.getClientRects().length).map(h => h.textContent)"
        )
        if hidden:
            problems.append(f"{name}: hidden sections {hidden}")
    assert page.locator("#grocery-grocery").count() == 1  # the protocol page's grocery section
    assert not problems, problems
    assert not watch.errors, watch.errors
    page.close()
