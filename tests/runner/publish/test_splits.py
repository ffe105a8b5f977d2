"""The private test split: keyed encryption, scored once per split, nothing of it on the site or in the workflow's artifacts while live, all of it (dated, with its key) after a rotation."""

from __future__ import annotations

import html
import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from domains.movies.site_synth import SynthSpec, synthesize
from runner.batch import run_submissions
from runner.core.board import BoardSettings
from runner.core.domains import get_domain
from runner.core.errors import TaurecError
from runner.publish.rescore import verify_results
from runner.publish.splits import (
    RECORD_FILE,
    SEALED_FILE,
    SECRET_ENV,
    load_split_record,
    pack_folder,
    run_test_split,
    seal,
    set_dev_pass1,
    split_id,
    split_key,
    split_secret,
    unpack_into,
    unseal,
)
from runner.sitegen import build_site

DOMAIN = "grocery"
FIRST, SECOND = "2026-10-01", "2026-11-01"
SECRET = "a-test-secret-that-is-long-enough-0123456789"
SLUGS = ("split-expert", "split-lookup")


def test_each_split_has_its_own_key_and_a_wrong_key_is_named(tmp_path: Path) -> None:
    one = split_id(SECRET, DOMAIN, FIRST)
    two = split_id(SECRET, DOMAIN, SECOND)
    assert one != two
    assert one.startswith(f"{DOMAIN}-{FIRST}-")
    assert SECRET not in one
    assert split_key(SECRET, one) == split_key(SECRET, one)
    assert split_key(SECRET, one) != split_key(SECRET, two)
    assert split_key(SECRET, one) != split_key(SECRET + "x", one)
    token = seal(split_key(SECRET, one), b"private results")
    assert unseal(split_key(SECRET, one), token) == b"private results"
    with pytest.raises(TaurecError, match=r"live/results\.fernet: cannot be decrypted"):
        unseal(split_key(SECRET, two), token, "live/results.fernet")


def test_a_packed_folder_is_byte_identical_and_unpacks_whole(tmp_path: Path) -> None:
    folder = tmp_path / "work"
    (folder / "tasks").mkdir(parents=True)
    (folder / "tasks" / "t_1.json").write_text('{"id": "t_1"}\n')
    (folder / "results.txt").write_text("r\n")
    first = pack_folder(folder)
    (folder / "results.txt").touch()  # a newer mtime changes nothing
    assert pack_folder(folder) == first
    unpack_into(first, tmp_path / "copy")
    assert (tmp_path / "copy" / "tasks" / "t_1.json").read_text() == '{"id": "t_1"}\n'


def test_a_local_secret_is_written_once_and_kept_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    file = tmp_path / ".taurec-cache" / "split-secret"
    first = split_secret(file)
    assert first.source == "local"
    assert file.stat().st_mode & 0o077 == 0
    assert split_secret(file) == first
    monkeypatch.setenv(SECRET_ENV, SECRET)
    assert split_secret(file).value == SECRET
    assert split_secret(file).source == "env"


@dataclass
class World:
    root: Path
    submissions: Path
    movies: Any
    snapshots: Path
    splits: Path
    work: Path


def _entry(folder: Path, slug: str, agent: str) -> None:
    folder.mkdir(parents=True)
    (folder / "submission.yaml").write_text(
        f"schema_version: 1\nslug: {slug}\ndisplay_name: Test {slug}\ncontact: {{name: t}}\n"
        f"agent: {{kind: builtin, name: {agent}}}\ndomains: [grocery]\n",
        encoding="utf-8",
    )


def _score(world: World, snapshot: str, slugs: tuple[str, ...] = SLUGS) -> Any:
    folders = [world.submissions / s for s in slugs]

    def run(entrants: list[Any], *, tasks_dir: Path) -> list[Any]:
        return run_submissions(
            entrants,
            snapshot=snapshot,
            tasks_dir=tasks_dir,
            trials=1,
            concurrency=2,
            snapshots_dir=world.snapshots,
            domain=DOMAIN,
        )

    return run_test_split(
        domain=DOMAIN,
        snapshot=snapshot,
        snapshots_dir=world.snapshots,
        folders=folders,
        trials=1,
        run=run,
        dev_pass1={"split-expert": 1.0},
        secret=split_secret(world.root / "unused-secret"),
        splits_root=world.splits,
        work_root=world.work,
        count=6,
        keep_others=slugs != SLUGS,
    )


def _site(world: World, name: str) -> Path:
    board = BoardSettings.model_validate({"domains": ["movies", DOMAIN]})
    report = build_site(
        submissions=world.movies.submissions,
        snapshots=world.movies.snapshots,
        tasks=world.movies.tasks,
        out=world.root / name,
        docs=world.root / f"docs-{name}",
        board=board,
        domain_snapshots={DOMAIN: world.snapshots},
        workers=1,
        splits_root=world.splits,
    )
    return report.out


@dataclass
class Private:
    """What a live split must never show, read from its clear working copy."""

    ids: set[str]  # task ids and user ids: unique to the split
    texts: set[str]  # personas and constraint texts
    titles: set[str]  # recommended products' names


def _private(world: World, snapshot: str) -> Private:
    domain = get_domain(DOMAIN)
    sid = split_id(SECRET, DOMAIN, snapshot)
    work = world.work / DOMAIN / sid
    tasks = domain.load_tasks(work / "tasks")
    assert tasks
    catalog = domain.load_catalog(world.snapshots / snapshot)
    ids = {t.id for t in tasks} | {str(t.user_id) for t in tasks}
    texts = {t.persona for t in tasks}
    texts |= {c for t in tasks for c, _ in domain.describe_task(t).constraints}
    titles = set()
    for line in (work / "results").rglob("trials.jsonl"):
        for row in line.read_text(encoding="utf-8").splitlines():
            rec = json.loads(row).get("score") or {}
            if rec.get("recommendation"):
                titles.add(domain.item_title(catalog.get(rec["recommendation"])))
    return Private(ids, texts, titles)


def _files(folder: Path) -> Iterator[tuple[Path, str]]:
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            yield path, path.read_bytes().decode("utf-8", errors="replace")


def _forms(text: str) -> set[str]:
    return {text, html.escape(text), html.escape(text, quote=False), json.dumps(text)[1:-1]}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    root = tmp_path_factory.mktemp("splits")
    movies = synthesize(root / "movies", SynthSpec(entries=2, tasks=3, trials=2, xss_probes=False))
    submissions = root / "submissions"
    _entry(submissions / SLUGS[0], SLUGS[0], "expert")
    _entry(submissions / SLUGS[1], SLUGS[1], "lookup")
    snapshots = root / "grocery-snapshots"
    for date in (FIRST, SECOND):
        shutil.copytree(get_domain(DOMAIN).snapshots_dir / date, snapshots / date)
    mp = pytest.MonkeyPatch()
    mp.setenv(SECRET_ENV, SECRET)
    try:
        yield World(root, submissions, movies, snapshots, root / "splits", root / "work")
    finally:
        mp.undo()


@pytest.fixture(scope="module")
def live(world: World) -> tuple[Any, Path, Private]:
    outcome = _score(world, FIRST)
    return outcome, _site(world, "live-site"), _private(world, FIRST)


def test_a_live_split_publishes_aggregates_only(
    world: World, live: tuple[Any, Path, Private]
) -> None:
    outcome, site, private = live
    record = outcome.record
    assert record.status == "live"
    assert record.key is None
    assert record.tasks == 6
    assert {e.slug for e in record.entries} == set(SLUGS)
    expert = next(e for e in record.entries if e.slug == "split-expert")
    assert expert.dev_pass1 == 1.0
    assert expert.summary.pass_hat_k[0].value is not None
    # The built site and everything the workflow uploads from splits/ (the refresh-files
    # artifact) hold no id, persona, constraint text or recommended title of the live split.
    page = (site / "splits.html").read_text(encoding="utf-8")
    assert record.split_id in page
    assert "split-expert" in page
    assert not (site / "splits").exists()
    # The grocery board heads with the ranking on the test split (its entries, no task).
    home = (site / DOMAIN / "index.html").read_text(encoding="utf-8")
    assert "Ranked on the private test split" in home
    assert record.split_id in home
    assert 'href="../splits.html"' in home
    # It ranks and shows the split's own figures (pass^k with CIs, strata, policies, cost,
    # failures by rule, dev beside test); what follows is labelled dev.
    head, dev_part = home.split("Dev split (the public suite)", 1)
    for column in ("test pass^2", "test pass^4", "test hidden", "Policies held", "Cost / trial",
                   "Failures by rule", "dev pass^1", "gap (dev − test)"):  # fmt: skip
        assert column in head, column
    expert = next(e for e in record.entries if e.slug == "split-expert")
    assert f"{expert.test_pass1:.3f}" in head
    assert "measured on the committed dev split" in dev_part
    assert "Exploit floor:" not in dev_part  # a dev floor is labelled dev
    published = list(_files(site)) + list(_files(world.splits))
    assert {p.name for p in (world.splits / DOMAIN / "live").iterdir()} == {
        RECORD_FILE,
        SEALED_FILE,
    }
    for needle in private.ids:
        hits = [str(p) for p, text in published if needle in text]
        assert not hits, (needle, hits[:3])
    # Personas, constraint texts and product names are not unique strings (a dev task or the
    # public catalog may share one): the split's own page and files carry none of them.
    own = [page, home, (world.splits / DOMAIN / "live" / RECORD_FILE).read_text(encoding="utf-8")]
    for needle in private.texts | private.titles:
        assert not any(form in text for form in _forms(needle) for text in own), needle


def test_the_dev_figure_is_filled_in_beside_the_test_one(
    world: World, live: tuple[Any, Path, Private]
) -> None:
    """When the test split is scored in a second process beside the dev run, the dev pass^1 is
    written afterwards; the other figures stay as scored."""
    path = world.splits / DOMAIN / "live" / RECORD_FILE
    before = load_split_record(path)
    set_dev_pass1(world.splits, DOMAIN, {"split-lookup": 0.5})
    after = load_split_record(path)
    lookup = next(e for e in after.entries if e.slug == "split-lookup")
    assert lookup.dev_pass1 == 0.5
    assert lookup.gap == 0.5 - (lookup.test_pass1 or 0.0)
    assert [e.summary for e in after.entries] == [e.summary for e in before.entries]
    set_dev_pass1(world.splits, DOMAIN, {"split-lookup": None})


def test_one_entry_per_process_keeps_the_others_figures(
    world: World, live: tuple[Any, Path, Private]
) -> None:
    """The workflow scores each entry in its own process (only its own keys): a run of one entry
    adds its figures to the live record and keeps every other entry's."""
    before = {e.slug: e for e in live[0].record.entries}
    alone = _score(world, FIRST, ("split-expert",))
    assert alone.scored == ["split-expert"]
    assert not alone.generated
    assert {e.slug: e for e in alone.record.entries} == before
    assert load_split_record(world.splits / DOMAIN / "live" / RECORD_FILE) == alone.record


def test_an_entry_is_scored_once_per_split(world: World, live: tuple[Any, Path, Private]) -> None:
    outcome = live[0]
    key = split_key(SECRET, outcome.record.split_id)
    sealed = world.splits / DOMAIN / "live" / SEALED_FILE
    unpack_into(unseal(key, sealed.read_bytes()), world.root / "before")
    # The lookup entry changes its config: it waits for the next split, its figures unchanged.
    yaml = world.submissions / "split-lookup" / "submission.yaml"
    yaml.write_text(
        yaml.read_text().replace("name: lookup}", "name: prior-guesser}"), encoding="utf-8"
    )
    again = _score(world, FIRST)
    assert again.record.waiting == ["split-lookup"]
    assert again.scored == ["split-expert"]
    before = {e.slug: e for e in outcome.record.entries}
    assert {e.slug: e for e in again.record.entries} == before
    # Nothing new ran: the sealed trial records are the same.
    unpack_into(unseal(key, sealed.read_bytes()), world.root / "after")
    records = sorted((world.root / "before").rglob("trials.jsonl"))
    assert records
    for path in records:
        again_path = world.root / "after" / path.relative_to(world.root / "before")
        assert again_path.read_bytes() == path.read_bytes()


def test_a_rotation_publishes_the_retired_split_whole_and_dated(
    world: World, live: tuple[Any, Path, Private]
) -> None:
    first_id = live[0].record.split_id
    private = live[2]
    rotated = _score(world, SECOND)
    assert rotated.retired is not None
    assert rotated.retired.name == first_id
    assert rotated.record.split_id != first_id
    retired = load_split_record(rotated.retired / RECORD_FILE)
    assert retired.status == "retired"
    assert retired.retired_on == SECOND
    assert retired.key is not None
    # The published key opens the file committed while the split was live.
    opened = unseal(retired.key.encode(), (rotated.retired / SEALED_FILE).read_bytes())
    unpack_into(opened, world.root / "opened")
    assert sorted(p.name for p in (world.root / "opened" / "tasks").iterdir()) == sorted(
        p.name for p in (rotated.retired / "tasks").iterdir()
    )
    # Every retired run re-scores from its published transcripts (`taurec verify`).
    runs = sorted(p.parent for p in (rotated.retired / "results").rglob("run.json"))
    assert len(runs) == 2
    for run in runs:
        report = verify_results(
            run, tasks_dir=rotated.retired / "tasks", snapshots_dir=world.snapshots
        )
        assert report.ok, report.describe()
    site = _site(world, "rotated-site")
    text = "\n".join(t for _p, t in _files(site))
    for needle in private.ids | private.texts | private.titles:
        assert any(form in text for form in _forms(needle)), needle
    page = (site / "splits.html").read_text(encoding="utf-8")
    assert f"retired {SECOND}" in page
    assert retired.key in page
    # The new live split stays private.
    new_private = _private(world, SECOND)
    for needle in new_private.ids:
        assert needle not in text, needle
