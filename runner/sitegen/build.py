"""`taurec site build`: load results, aggregate, render pages, assemble a docs folder and run `mkdocs build --strict`."""

from __future__ import annotations

import csv
import errno
import hashlib
import io
import json
import logging
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import altair as alt

from runner.core.board import BoardSettings
from runner.core.domains import DEFAULT_DOMAIN, get_domain
from runner.core.errors import TaurecError
from runner.core.paths import (
    EXAMPLES_DIR,
    PROJECT_ROOT,
    PUBLIC_DIR,
    SITE_DIR,
    SNAPSHOTS_DIR,
    SUBMISSIONS_DIR,
    TASKS_DIR,
)
from runner.core.rules import DEFAULT_RULES, get_rules
from runner.sitegen.aggregate import Aggregates, aggregate_runs
from runner.sitegen.bounds import (
    DEFAULT_BUDGET_MB,
    DEFAULT_ENTRY_BUDGET_MB,
    DEFAULT_RUN_BUDGET_KB_PER_TRIAL,
    RAW_DIR,
    SizeReport,
    drop_over_budget,
    enforce_budget,
    measure,
    paged_runs,
    published_bytes,
    raw_links,
    raw_trial_jobs,
    write_trials_parquet,
)
from runner.sitegen.domain_board import board_nav, render_domain_board
from runner.sitegen.inputs import SHA256SUMS, SiteInputs, load_inputs, published_files
from runner.sitegen.mkdocs_hooks import bodies_dir
from runner.sitegen.pages import PageWriter, environment, render_pages
from runner.sitegen.trial_pages import (
    TrialPages,
    entry_search_docs,
    has_transcripts,
    page_folder,
    runs_with_pages,
    start_trial_pages,
)
from runner.sitegen.views import SnapshotBoard, boards

VEGA_BUNDLE = "assets/vendor/vega-bundle.js"
CHART_SPECS = "assets/chart-specs.js"
# The browser's chart libraries, in load order (vega-lite needs vega; vega-embed needs both).
VEGA_PACKAGES = ("vega", "vega-lite", "vega-embed")
NODE_MODULES = PROJECT_ROOT / "node_modules"
_SOURCE_MAP = re.compile(r"^//# sourceMappingURL=\S+\s*$", re.MULTILINE)


class SiteBuildError(TaurecError):
    """mkdocs refused the assembled pages (a broken link or bad config under --strict)."""


@dataclass
class BuildReport:
    """What a build produced and how long each stage took."""

    out: Path
    docs: Path
    entries: int
    runs: int
    trials: int
    pages: int
    trial_pages: int
    timings: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    size: SizeReport | None = None
    budget_mb: float | None = None

    def summary(self) -> str:
        stages = ", ".join(f"{k} {v:.2f}s" for k, v in self.timings.items())
        line = (
            f"built {self.out}: {self.entries} entries, {self.runs} runs, {self.trials} trials, "
            f"{self.pages} generated pages ({self.trial_pages} trial pages); {stages}"
        )
        if self.size is None:
            return line
        return "\n".join([line, *self.size.lines(self.budget_mb)])


class VegaBundleError(TaurecError):
    """The npm packages the Vega bundle is made from are missing or do not match altair."""


def vega_bundle(node_modules: Path = NODE_MODULES) -> str:
    """vega + vega-lite + vega-embed, the UMD builds of the npm packages `npm ci` installs.

    vega-lite's major.minor must be altair's schema version: the charts' specs are written for it.
    """
    wanted = alt.SCHEMA_VERSION.lstrip("v").split(".")[:2]  # "v6.4.1" -> ["6", "4"]
    parts = []
    for name in VEGA_PACKAGES:
        folder = node_modules / name
        try:
            version = str(json.loads((folder / "package.json").read_text("utf-8"))["version"])
            script = (folder / "build" / f"{name}.min.js").read_text("utf-8")
        except (OSError, ValueError, KeyError) as exc:
            raise VegaBundleError(
                f"{folder}: the npm package {name} is not installed ({exc}); run `npm ci` "
                "(package.json pins vega, vega-lite and vega-embed)"
            ) from None
        if name == "vega-lite" and version.split(".")[:2] != wanted:
            raise VegaBundleError(
                f"{folder / 'package.json'}: version {version}, but altair writes vega-lite "
                f"{alt.SCHEMA_VERSION} specs; pin vega-lite {'.'.join(wanted)}.x in package.json"
            )
        # The source maps are not shipped with the site: drop the comment that points at them.
        script = _SOURCE_MAP.sub("", script).rstrip()
        parts.append(f"/* {name} {version} */\n{script}\n")
    return ";\n".join(parts)


def _downloads(
    docs: Path, inputs: SiteInputs, board_list: list[SnapshotBoard]
) -> dict[str, dict[str, str]]:
    """Write leaderboard CSV/JSON per snapshot and copy snapshot files; returns snapshot links."""
    target = docs / "downloads"
    target.mkdir(parents=True, exist_ok=True)
    for board in board_list:
        rows = [r.export() for r in (*board.rows, *board.unranked, *board.references)]
        (target / f"leaderboard-{board.label}.json").write_text(
            json.dumps(rows, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        buffer = io.StringIO()
        if rows:
            writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        (target / f"leaderboard-{board.label}.csv").write_text(buffer.getvalue(), encoding="utf-8")
    links: dict[str, dict[str, str]] = {}
    for snap in inputs.snapshots:
        folder = target / "snapshots" / snap.label
        folder.mkdir(parents=True, exist_ok=True)
        links[snap.label] = {}
        sums: list[str] = []
        for name in published_files(snap):
            source = snap.folder / name
            if source.exists():
                shutil.copyfile(source, folder / name)
                links[snap.label][name] = f"downloads/snapshots/{snap.label}/{name}"
                sums.append(f"{snap.sha256.get(name) or _sha256_file(source)}  {name}\n")
        (folder / SHA256SUMS).write_text("".join(sums), encoding="utf-8")
        links[snap.label][SHA256SUMS] = f"downloads/snapshots/{snap.label}/{SHA256SUMS}"
    return links


def _sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _nav(config_file: Path, docs: Path, boards: list[Any] | None = None) -> list[Any]:
    """The nav of mkdocs.yml, minus pages that are not there (e.g. a page another area adds
    later), with each other domain's board (a section of its pages) after the first item."""
    import yaml

    raw = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    nav: list[Any] = []
    for item in raw.get("nav", []):
        target = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(target, str) and not (docs / target).exists():
            continue
        nav.append(item)
    return nav[:1] + list(boards or []) + nav[1:]


def run_mkdocs(
    config_file: Path,
    docs: Path,
    out: Path,
    site_url: str | None = None,
    boards: list[Any] | None = None,
) -> None:
    """`mkdocs build --strict` of `docs` into `out`, as a library call; warnings are errors."""
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    messages: list[str] = []

    class _Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING:
                messages.append(record.getMessage())

    handler = _Collect()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        config = load_config(
            config_file=str(config_file),
            docs_dir=str(docs),
            site_dir=str(out),
            nav=_nav(config_file, docs, boards),
            strict=True,
            **({"site_url": site_url} if site_url else {}),
        )
        build(config)
    except Abort as exc:
        raise SiteBuildError(f"mkdocs --strict failed: {exc}\n" + "\n".join(messages)) from exc
    finally:
        logger.removeHandler(handler)


@dataclass
class OtherBoard:
    """The board of a domain other than movies: its inputs, aggregates and paged runs."""

    inputs: SiteInputs
    agg: Aggregates
    trial_runs: set[tuple[str, str]]


def assemble(
    docs: Path,
    site_dir: Path,
    inputs: SiteInputs,
    agg: Aggregates,
    board: BoardSettings,
    trial_runs: set[tuple[str, str]],
    others: list[OtherBoard] | None = None,
    splits_root: Path | None = None,
) -> int:
    """Fill `docs` with hand-written pages, assets, the vega bundle, downloads and generated pages
    (movies at the root, each of `others` under its prefix)."""
    for folder in (docs, bodies_dir(docs)):
        if folder.exists():
            shutil.rmtree(folder)
    docs.mkdir(parents=True)
    for page in sorted((site_dir / "pages").glob("*.md")):
        shutil.copyfile(page, docs / page.name)
    shutil.copytree(site_dir / "assets", docs / "assets")
    # The Node agent example, linked from the protocol and integration pages.
    (docs / "examples").mkdir()
    shutil.copyfile(
        EXAMPLES_DIR / "typescript-agent" / "agent.mjs", docs / "examples" / "agent.mjs"
    )
    bundle = docs / VEGA_BUNDLE
    bundle.parent.mkdir(parents=True, exist_ok=True)
    bundle.write_text(vega_bundle(), encoding="utf-8")
    board_list = boards(inputs, agg)
    links = _downloads(docs, inputs, board_list)
    write_trials_parquet(docs, inputs)  # the gzipped JSONL of each run is written after mkdocs
    raw = raw_links(inputs, trial_runs)
    writer = PageWriter(environment(site_dir / "templates"), docs)
    other_boards = [
        {"title": get_domain(o.inputs.domain).title, "href": f"{o.inputs.prefix}index.html"}
        for o in others or []
    ]
    from runner.sitegen.splits_page import test_split_view

    render_pages(
        writer,
        inputs,
        agg,
        board_list,
        links,
        raw,
        board,
        trial_runs,
        other_boards or None,
        test_split_view(splits_root, inputs.domain, inputs.entries)
        if splits_root is not None
        else None,
    )
    for other in others or []:
        render_domain_board(
            writer,
            other.inputs,
            other.agg,
            board,
            other.trial_runs,
            raw_links(other.inputs, other.trial_runs),
            _downloads,
            test_split_view(splits_root, other.inputs.domain, other.inputs.entries)
            if splits_root is not None
            else None,
        )
    writer.write_chart_specs(CHART_SPECS)
    return writer.count


def prune_theme_extras(out: Path, config_file: Path) -> None:
    """Remove theme files no reader loads: source maps (for debugging the theme's own code) and,
    when the search is English only, the lunr language packs (`assets/javascripts/lunr/`, which
    the theme fetches only for other languages). ~2 MB a build, whatever the board's size."""
    import yaml

    scripts = out / "assets" / "javascripts"
    for source_map in sorted((out / "assets").rglob("*.map")):
        source_map.unlink()
    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    search = next(
        (p["search"] for p in config.get("plugins", []) if isinstance(p, dict) and "search" in p),
        None,
    )
    lang = (search or {}).get("lang") or (config.get("theme", {}).get("language") or "en")
    if lang in ("en", ["en"]):
        shutil.rmtree(scripts / "lunr", ignore_errors=True)


def _keep_within_budget(
    staged: TrialPages,
    inputs: SiteInputs,
    trial_runs: set[tuple[str, str]],
    kb_per_trial: float | None,
    mb_per_entry: float | None,
) -> None:
    """Measure what each run of one board publishes (its staged pages and downloads), leave off
    the runs over the budgets (`drop_over_budget`) and take their files out of the staging."""
    links = raw_links(inputs, trial_runs)
    root = staged.staging / inputs.prefix
    sizes = {
        (run.slug, run.snapshot): published_bytes(
            root,
            run,
            links.get((run.slug, run.snapshot)),
            page_folder(run.slug, run.snapshot),
        )
        for run in inputs.runs
    }
    for run in drop_over_budget(inputs, sizes, kb_per_trial, mb_per_entry):
        link = links.get((run.slug, run.snapshot))
        files = [f for f in (link.jsonl, link.transcripts) if f] if link is not None else []
        staged.discard(inputs.prefix, run.slug, run.snapshot, files)


def _still_shown(inputs: SiteInputs, trial_runs: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """The runs whose trial pages were rendered and that no budget left off (never an older run
    that became the latest when every run on a newer snapshot was left off: it has no pages)."""
    return trial_runs & {(run.slug, run.snapshot) for run in inputs.runs}


def runs_with_trial_pages(inputs: SiteInputs) -> set[tuple[str, str]]:
    """Trial pages only for the latest snapshot of each rule set (older runs keep raw downloads)."""
    paged = paged_runs(inputs.runs)
    return {
        (r.slug, r.snapshot)
        for r in inputs.runs
        if (r.slug, r.snapshot) in paged and has_transcripts(r)
    }


BUILDING_PREFIX = ".{name}.building-"  # + pid: the new site until it is swapped in
STAGING_PREFIX = ".{name}.trials-"  # + pid: trial pages before they move into the new site
RETIRED_PREFIX = ".{name}.old-"  # + pid: the previous site while it is swapped out (no renameat2)
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2 RENAME_EXCHANGE); False if unavailable."""
    if sys.platform != "linux":
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    done = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False  # an old kernel or a file system without exchange: the two-step fallback
    raise OSError(code, f"renameat2({a}, {b}): {os.strerror(code)}")


def swap_in(new: Path, out: Path) -> None:
    """Make the complete site in `new` the one at `out`, never leaving `out` missing or half-built."""
    if not out.exists():
        new.rename(out)
        return
    if _exchange(new, out):
        shutil.rmtree(new)  # the previous site, now under the temporary name
        return
    retired = out.with_name(f"{RETIRED_PREFIX.format(name=out.name)}{os.getpid()}")
    out.rename(retired)  # a kill from here to the next line is repaired by clear_stale_builds
    new.rename(retired.with_name(out.name))
    shutil.rmtree(retired)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clear_stale_builds(out: Path) -> None:
    """Remove what killed builds of `out` left beside it (their process is gone): half-built
    sites and staging folders; a previous site caught mid-swap is put back if `out` is missing."""
    if not out.parent.is_dir():
        return
    prefixes = [p.format(name=out.name) for p in (BUILDING_PREFIX, STAGING_PREFIX, RETIRED_PREFIX)]
    for path in sorted(out.parent.iterdir()):
        prefix = next((p for p in prefixes if path.name.startswith(p)), None)
        pid = path.name[len(prefix) :] if prefix else ""
        if prefix is None or not pid.isdigit() or _alive(int(pid)):
            continue
        if prefix == prefixes[2] and not out.exists():
            path.rename(out)
        else:
            shutil.rmtree(path, ignore_errors=True)


def _check_replaceable(out: Path) -> None:
    """Refuse to wipe a folder that is neither empty nor a previous build (e.g. `--out .`)."""
    if not out.is_dir() or not any(out.iterdir()):
        return
    if (out / "index.html").exists() and (out / "sitemap.xml").exists():
        return
    raise TaurecError(f"{out}: not empty and not a previous site build; refusing to replace it")


def build_site(
    *,
    submissions: Path = SUBMISSIONS_DIR,
    snapshots: Path = SNAPSHOTS_DIR,
    tasks: Path = TASKS_DIR,
    out: Path = PUBLIC_DIR,
    docs: Path | None = None,
    site_dir: Path = SITE_DIR,
    config_file: Path | None = None,
    seed: int = 0,
    site_url: str | None = None,
    max_size_mb: float | None = DEFAULT_BUDGET_MB,
    max_run_kb_per_trial: float | None = DEFAULT_RUN_BUDGET_KB_PER_TRIAL,
    max_entry_mb: float | None = DEFAULT_ENTRY_BUDGET_MB,
    rules: str | None = None,
    board: BoardSettings | None = None,
    workers: int | None = None,
    domain_snapshots: Mapping[str, Path] | None = None,
    domain_tasks: Mapping[str, Path] | None = None,
    splits_root: Path | None = None,
) -> BuildReport:
    """Build the whole static site into `out` (works from file:// and any static server).

    The boards show runs under one rule set (`rules`, default the board's, else v2); others are
    left out with a note.
    `board` (the settings of `leaderboard.yaml`) is shown on the Methodology and entry pages.
    `site_url` (e.g. https://owner.github.io/repo/) gives the 404 page and the sitemap real
    addresses; `max_size_mb` fails the build, naming the largest parts, when `out` outgrows it;
    before that, a run that would publish (trial pages and downloads, as written) more than
    `max_run_kb_per_trial` per trial, and an entry's biggest runs until it publishes at most
    `max_entry_mb` whatever its trial count, are left off the boards with the reason on the
    entry's page, so one oversized entry never takes the board down. The size report states
    the site's bytes per published trial.
    `workers` processes render the trial pages (default: one per core).
    Movies' board is the site's root; every other domain the board lists (`board.domains`) gets
    its own board under `<domain>/` (its snapshots from `domain_snapshots`, else the domain's
    folder; its suite from `domain_tasks`, else its shipped one), with a section in the nav.
    `splits_root` (default: none) holds the test splits: the Splits page shows each live one's
    aggregates and publishes each retired one whole (`runner.sitegen.splits_page`).
    """
    if rules is None:
        rules = DEFAULT_RULES if board is None else board.rules
    if board is None:
        board = BoardSettings.model_validate({"rules": get_rules(rules).name})
    timings: dict[str, float] = {}
    start = time.perf_counter()
    inputs = load_inputs(Path(submissions), Path(snapshots), Path(tasks), get_rules(rules).name)
    loaded = [
        load_inputs(
            Path(submissions),
            Path((domain_snapshots or {}).get(name) or get_domain(name).snapshots_dir),
            Path((domain_tasks or {}).get(name) or get_domain(name).tasks_dir),
            get_rules(rules).name,
            domain=name,
            prefix=f"{name}/",
        )
        for name in board.domains
        if name != DEFAULT_DOMAIN
    ]
    timings["load"] = time.perf_counter() - start
    start = time.perf_counter()
    out = Path(out)
    if out.exists():
        _check_replaceable(out)
    clear_stale_builds(out)
    # The whole site is built into a sibling folder and swapped in at the end, so OUT is always
    # a complete site: the previous one until the swap, the new one after (a killed build
    # leaves OUT as it was; the next build clears what it left).
    building = out.with_name(f"{BUILDING_PREFIX.format(name=out.name)}{os.getpid()}")
    # Trial pages and the runs' downloads are written first, by worker processes, into a
    # staging folder moved into the new site at the end: what each run publishes is measured
    # there, and the runs over the budgets are left off before the boards are aggregated.
    staging = out.with_name(f"{STAGING_PREFIX.format(name=out.name)}{os.getpid()}")
    trial_runs = runs_with_trial_pages(inputs)
    other_runs = [runs_with_trial_pages(o) for o in loaded]
    boards_runs = list(zip(loaded, other_runs, strict=True))
    files = raw_trial_jobs(inputs, staging, trial_runs)
    downloads = {
        key: link.transcripts
        for key, link in raw_links(inputs, trial_runs).items()
        if link.transcripts is not None
    }
    for board_inputs, board_runs in boards_runs:
        files += raw_trial_jobs(board_inputs, staging / board_inputs.prefix, board_runs)
        downloads |= {
            key: link.transcripts
            for key, link in raw_links(board_inputs, board_runs).items()
            if link.transcripts is not None
        }
    staged = start_trial_pages(
        environment(site_dir / "templates"),
        inputs,
        list(runs_with_pages(inputs, trial_runs)),
        staging,
        workers,
        files=files,
        folders=[RAW_DIR, *(other.prefix + RAW_DIR for other in loaded)],
        downloads=downloads,
        boards=[(b, list(runs_with_pages(b, b_runs))) for b, b_runs in boards_runs],
    )
    try:
        staged.wait()
        for board_inputs, board_runs in [(inputs, trial_runs), *boards_runs]:
            _keep_within_budget(
                staged, board_inputs, board_runs, max_run_kb_per_trial, max_entry_mb
            )
        for other_inputs in loaded:
            inputs.notes += [f"{other_inputs.domain}: {n}" for n in other_inputs.notes]
        timings["trial pages"] = time.perf_counter() - start
        start = time.perf_counter()
        agg = aggregate_runs(inputs.runs, seed=seed)
        others = [
            OtherBoard(o, aggregate_runs(o.runs, seed=seed), _still_shown(o, o_runs))
            for o, o_runs in boards_runs
        ]
        timings["aggregate"] = time.perf_counter() - start
        start = time.perf_counter()
        scratch = docs is None  # a private folder, so two builds at once never share pages
        if docs is None:
            (site_dir / "generated").mkdir(parents=True, exist_ok=True)
            docs = Path(tempfile.mkdtemp(prefix="docs-", dir=site_dir / "generated"))
        docs = Path(docs)
        trial_runs = _still_shown(inputs, trial_runs)
        pages = assemble(docs, site_dir, inputs, agg, board, trial_runs, others, splits_root)
        from runner.sitegen.splits_page import write_splits_page

        pages += write_splits_page(
            docs,
            Path(splits_root) if splits_root is not None else None,
            list(board.domains),
            {DEFAULT_DOMAIN: Path(snapshots), **dict(domain_snapshots or {})},
        )
        timings["render"] = time.perf_counter() - start
        start = time.perf_counter()
        config_file = config_file or PROJECT_ROOT / "mkdocs.yml"
        run_mkdocs(config_file, docs, building, site_url, [board_nav(o.inputs) for o in others])
        prune_theme_extras(building, config_file)
        timings["mkdocs"] = time.perf_counter() - start
        start = time.perf_counter()
        searched = entry_search_docs(inputs)
        for o in others:
            searched += entry_search_docs(o.inputs)
        trial_pages = staged.finish(building, site_url, searched)
        timings["trial pages"] += time.perf_counter() - start
        every_run = inputs.runs + [r for o in others for r in o.inputs.runs]
        size = measure(building, sum(r.frame.height for r in every_run))
        enforce_budget(size, max_size_mb, out)  # an oversized build never replaces the site
        swap_in(building, out)
    except BaseException:
        staged.abandon()
        shutil.rmtree(building, ignore_errors=True)
        raise
    if scratch:  # kept when mkdocs fails, to look at what it refused
        shutil.rmtree(docs)
        shutil.rmtree(bodies_dir(docs), ignore_errors=True)
    return BuildReport(
        out=out,
        docs=docs,
        entries=len(inputs.entries) + sum(len(o.inputs.entries) for o in others),
        runs=len(every_run),
        trials=sum(r.frame.height for r in every_run),
        pages=pages,
        trial_pages=trial_pages,
        timings=timings,
        notes=inputs.notes,
        size=size,
        budget_mb=max_size_mb,
    )
