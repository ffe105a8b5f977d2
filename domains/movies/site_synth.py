"""A deterministic synthesizer of realistic movie-board site inputs (snapshots, tasks, submissions, results) for tests and benchmarks."""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
import yaml

from domains.movies.catalog import CatalogItem
from domains.movies.search import result_record
from domains.movies.tasks import (
    POLICY_NAMES,
    Constraint,
    PolicyName,
    Task,
    TaskConstraint,
    UserHistory,
)
from domains.movies.tools import V1_TOOL_NAMES, V2_SEARCH_FIELDS
from runner.core.predicates import Complexity, ConstraintCheck, Reveal, RevealDifficulty
from runner.core.records import (
    Efficiency,
    PolicyResult,
    RunCounts,
    RunManifest,
    TrialKey,
    TrialRecord,
    TrialScore,
)
from runner.core.transcript import (
    ComponentSpec,
    InfraError,
    Leak,
    LeakAudit,
    MessageEvent,
    ModelUsage,
    StopReason,
    Timing,
    ToolCallEvent,
    Transcript,
)
from runner.publish.ledger import LEDGER_FILE, record_runs
from runner.sitegen.hostile import (
    HOSTILE_MARKDOWN_NAME,
    HOSTILE_NAME,
    HOSTILE_STRINGS,
    PLANTED_SECRET,
    XSS_MESSAGE,
    XSS_NAME,
)

_WORDS_A = ("Quiet", "Amber", "Hollow", "Northern", "Paper", "Silver", "Last", "Broken", "Velvet")
_WORDS_B = ("Harbor", "Orchard", "Signal", "Lantern", "Meridian", "Tide", "Garden", "Engine")
_GENRES = ("Drama", "Comedy", "Thriller", "Animation", "Documentary", "Science Fiction", "Romance")
_SERVICES = ("Netflix", "Hulu", "Max", "Disney Plus", "Prime Video", "Peacock")
_RATINGS = ("G", "PG", "PG-13", "R", "NC-17", "NR")
_POLICY_SEVERITY: dict[str, float] = {
    "watch_history": 1.0,
    "sponsored": 0.5,
    "age_restricted": 1.0,
    "availability": 0.75,
    "single_recommendation": 0.5,
    "transparency": 0.25,
    "recommend_tool": 1.0,
}
SNAPSHOT_DATES = ("2026-10-01", "2026-11-01")


@dataclass
class SynthSpec:
    """How much to synthesize; `transcripts=False` writes trial records only (for the benchmark)."""

    entries: int = 4
    tasks: int = 12
    trials: int = 4
    items: int = 40
    snapshots: tuple[str, ...] = SNAPSHOT_DATES
    transcripts: bool = True
    xss_probes: bool = True
    infra_error_rate: float = 0.02
    seed: int = 0
    verified_entries: set[int] = field(default_factory=lambda: {0})
    transcript_snapshots: int | None = None  # transcripts for the last N snapshots only (None: all)
    reference_entries: tuple[str, ...] = ()  # built-in reference agents added after the entries
    hostile: bool = False  # entry 1 carries HOSTILE_STRINGS in every field a stranger controls
    # Transcripts as long as the default board's real ones (~40 events, ~90 KB of JSON a trial:
    # eight v2 searches of 20 titles, 24 metadata look-ups), not the short default (~8 events).
    realistic_transcripts: bool = False


@dataclass
class SynthWorld:
    """Where the synthesized folders were written."""

    root: Path
    submissions: Path
    snapshots: Path
    tasks: Path
    task_list: list[Task]
    slugs: list[str]

    def source_options(self) -> list[str]:
        """The `taurec site build` options that read this world's submissions, snapshots and tasks."""
        return [
            "--submissions",
            str(self.submissions),
            "--snapshots",
            str(self.snapshots),
            "--tasks",
            str(self.tasks),
        ]


@dataclass(frozen=True)
class _Trial:
    """Who played which trial of a task, how it ended and how long each step took."""

    task: Task
    index: int
    seed: int
    agent: ComponentSpec
    rec: str | None
    error: InfraError | None
    latencies: list[float]


def _closing(
    call_id: str, rec: str | None, title: str, error: InfraError | None
) -> list[MessageEvent | ToolCallEvent]:
    """The closing `recommend` call (`rec`, or no id: an abstention); none after an infra error."""
    if error is not None:
        return []
    result = (
        {"status": "recommended", "id": rec, "title": title}
        if rec
        else {"status": "abstained", "message": "No recommendation made."}
    )
    return [
        ToolCallEvent(
            call_id=call_id,
            name="recommend",
            arguments={"item_id": rec},
            result=json.dumps(result, ensure_ascii=False),
        )
    ]


def _finished(
    trial: _Trial,
    events: list[MessageEvent | ToolCallEvent],
    *,
    tools: list[str],
    usage: ModelUsage,
    audit: LeakAudit,
) -> Transcript:
    """The transcript of a synthetic trial against the scripted user."""
    rec, error = trial.rec, trial.error
    stop: StopReason = "infra_error" if error else ("recommended" if rec else "abstained")
    return Transcript(
        task_id=trial.task.id,
        trial_index=trial.index,
        seed=trial.seed,
        agent=trial.agent,
        simulator=ComponentSpec(name="scripted"),
        tools=tools,
        events=events,
        recommendations=[rec] if rec and error is None else [],
        stop_reason=stop,
        error=error,
        usage={"agent:synthetic": usage},
        leak_audit=audit,
        timing=Timing(step_latencies_s=trial.latencies, wall_time_s=round(sum(trial.latencies), 3)),
    )


def _item(rng: random.Random, n: int, latest: dt.date) -> CatalogItem:
    genres = rng.sample(_GENRES, rng.randint(1, 3))
    released = latest - dt.timedelta(days=rng.randint(0, 30 * 365))
    return CatalogItem(
        id=f"tmdb_{100000 + n}",
        title=f"The {rng.choice(_WORDS_A)} {rng.choice(_WORDS_B)} {n}",
        release_date=released,
        runtime=rng.randint(75, 170),
        genres=genres,
        overview=f"A fictional film number {n} about a {genres[0].lower()} on the coast.",
        cast=[f"Actor {rng.randint(1, 300)}" for _ in range(rng.randint(1, 5))],
        director=f"Director {rng.randint(1, 80)}",
        rating=round(rng.uniform(4.0, 8.9), 1),
        vote_count=rng.randint(50, 20000),
        streaming_services=rng.sample(_SERVICES, rng.randint(0, 3)),
        sponsored=rng.random() < 0.1,
        content_rating=rng.choice(_RATINGS),
    )


def _catalogs(spec: SynthSpec) -> dict[str, list[CatalogItem]]:
    rng = random.Random(spec.seed)
    first = dt.date.fromisoformat(spec.snapshots[0])
    items = [_item(rng, n, first - dt.timedelta(days=14)) for n in range(spec.items)]
    out: dict[str, list[CatalogItem]] = {}
    for i, label in enumerate(spec.snapshots):
        # Each later snapshot drops one title, adds two and re-rates one: a realistic diff.
        if i > 0:
            fresh = dt.date.fromisoformat(label) - dt.timedelta(days=10)
            added = [
                _item(rng, spec.items + 2 * i + j, fresh).model_copy(update={"release_date": fresh})
                for j in range(2)
            ]
            items = items[1:] + added
            head = items[0]
            items[0] = head.model_copy(update={"rating": round(min(10.0, head.rating + 0.1), 1)})
        out[label] = list(items)
    return out


def _write_snapshot(
    folder: Path, label: str, items: list[CatalogItem], previous: list[str]
) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    data = [item.model_dump(mode="json") for item in items]
    (folder / "catalog.json").write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    ids = [item.id for item in items]
    (folder / "ids.json").write_text(json.dumps([int(i.split("_")[1]) for i in ids]) + "\n")
    frame = pl.DataFrame(data)
    frame.write_parquet(folder / "catalog.parquet")
    flat = frame.with_columns(
        pl.col(c).list.join("|") for c in ("genres", "cast", "streaming_services")
    )
    flat.write_csv(folder / "catalog.csv")
    changes = {
        "previous": None if not previous else "previous",
        "added": sorted(set(ids) - set(previous)),
        "removed": sorted(set(previous) - set(ids)),
    }
    (folder / "changes.json").write_text(json.dumps(changes, indent=2) + "\n")
    files = ("catalog.json", "catalog.parquet", "catalog.csv", "ids.json", "changes.json")
    date = dt.date.fromisoformat(label)
    # A real SnapshotManifest (every reader verifies a snapshot against it before use).
    from catalog_pipeline.snapshot import file_entry
    from catalog_pipeline.tmdb.normalize import SponsoredConfig
    from catalog_pipeline.tmdb.provenance import (
        RequestFigures,
        SnapshotCounts,
        SnapshotManifest,
        SnapshotParameters,
    )
    from domains.movies.catalog import Catalog

    n = len(items)
    manifest = SnapshotManifest(
        date=date,
        source="fixture",
        source_url="synthetic",
        generator="taurec synth",
        parameters=SnapshotParameters(
            mode="hydrate",
            discovery=None,
            append_to_response="",
            providers_region="US",
            sponsored=SponsoredConfig(),
        ),
        counts=SnapshotCounts(
            requested=n, enriched=n, not_found=0, dropped=0, items=n, with_services=n, sponsored=0
        ),
        drops_by_reason={},
        dropped=[],
        requests=RequestFigures(discover_pages=0, details=0, total=0),
        catalog_digest=Catalog(items).digest(),
        files={f: file_entry((folder / f).read_bytes()) for f in files},
        retention_until=date + dt.timedelta(days=180),
    )
    (folder / "manifest.json").write_bytes(manifest.to_json_bytes())


def _tasks(spec: SynthSpec, items: list[CatalogItem]) -> list[Task]:
    rng = random.Random(spec.seed + 1)
    complexities: tuple[Complexity, ...] = ("simple", "medium", "complex")
    difficulties: tuple[RevealDifficulty, ...] = ("volunteer", "mixed", "hidden")
    tasks: list[Task] = []
    for t in range(spec.tasks):
        target = items[rng.randrange(len(items))]
        pool: list[Constraint] = [
            Constraint(field="genres", op="contains", value=target.genres[0]),
            Constraint(field="runtime", op="<=", value=target.runtime + rng.randint(0, 30)),
            Constraint(field="rating", op=">=", value=round(max(0.0, target.rating - 1), 1)),
            Constraint(field="content_rating", op="in", value=[target.content_rating, "PG"]),
            Constraint(field="release_date", op=">=", value=str(target.release_date)),
        ]
        complexity = complexities[t % 3]
        difficulty = difficulties[(t // 3) % 3]
        count = {"simple": 2, "medium": 3, "complex": 5}[complexity]
        reveals: dict[str, tuple[Reveal, ...]] = {
            "volunteer": ("volunteer",),
            "mixed": ("volunteer", "on_ask"),
            "hidden": ("hidden", "on_ask"),
        }
        constraints = [
            TaskConstraint(constraint=c, reveal=rng.choice(reveals[difficulty]))
            for c in pool[:count]
        ]
        watched = [i.id for i in rng.sample(items, 3)]
        flags: list[PolicyName] = sorted(
            set(rng.sample(POLICY_NAMES, rng.randint(2, 5))) | {"recommend_tool"}
        )
        tasks.append(
            Task(
                id=f"task_{t + 1:03d}",
                persona=f"A viewer who unwinds with {target.genres[0].lower()} films after work.",
                constraints=constraints,
                soft_preferences=["likes a strong ending"],
                policy_flags=flags,
                no_valid_recommendation=t % 11 == 10,
                complexity=complexity,
                reveal_difficulty=difficulty,
                user_id=f"user_{t + 1}",
                user_history={f"user_{t + 1}": UserHistory(watched=watched)},
                user_services=rng.sample(_SERVICES, 2),
            )
        )
    return tasks


def _transcript(
    task: Task,
    trial: int,
    seed: int,
    agent: ComponentSpec,
    rec: str | None,
    rng: random.Random,
    probe: bool,
    error: InfraError | None,
    latencies: list[float],
    items: list[CatalogItem],
    hostile: bool = False,
) -> Transcript:
    """A trial as the real tools would have logged it: search records and metadata of the catalog."""
    by_id = {item.id: item for item in items}
    shown = by_id.get(rec or "") or items[0]
    picks = random.Random(f"{task.id}:{trial}:{seed}")  # its own stream: results stay as they were
    hits = [shown, *picks.sample(items, min(7, len(items)))]
    events: list[MessageEvent | ToolCallEvent] = [
        MessageEvent(role="agent", content="Hi! What are you in the mood to watch tonight?"),
        MessageEvent(role="user", content=f"Something {task.persona.lower()}\nNothing too long."),
        ToolCallEvent(
            call_id="c1",
            name="search_catalog",
            arguments={"query": "coastal drama"},
            result=json.dumps([result_record(i) for i in hits], ensure_ascii=False),
        ),
        MessageEvent(
            role="agent",
            content=(XSS_MESSAGE if probe else "Which services do you have?")
            + "\n\nAlso: any rating limits?",
        ),
        MessageEvent(role="user", content="Netflix and Hulu. Nothing rated NC-17."),
        *(_hostile_events() if hostile else []),
        ToolCallEvent(
            call_id="c2",
            name="get_metadata",
            arguments={"item_id": shown.id},
            result=json.dumps(shown.model_dump(mode="json"), ensure_ascii=False),
        ),
    ]
    leaky = rng.random() < 0.05
    audit = LeakAudit(
        clean=not leaky,
        leaks=[
            Leak(
                message_index=4,
                field="content_rating",
                reveal="hidden",
                excerpt="NC-17",
                reason="the user named a hidden rating limit before being asked",
            )
        ]
        if leaky
        else [],
    )
    return _finished(
        _Trial(task, trial, seed, agent, rec, error, latencies),
        events + _closing("c3", rec, shown.title, error),
        tools=["search_catalog", "get_metadata", "recommend"],
        usage=ModelUsage(calls=3, prompt_tokens=2400, completion_tokens=180),
        audit=audit,
    )


def _v2_record(item: CatalogItem) -> dict[str, Any]:
    record = result_record(item)
    for name in V2_SEARCH_FIELDS:
        value = getattr(item, name)
        record[name] = list(value) if isinstance(value, (list, tuple)) else value
    return record


def _realistic_transcript(
    task: Task,
    trial: int,
    seed: int,
    agent: ComponentSpec,
    rec: str | None,
    error: InfraError | None,
    latencies: list[float],
    items: list[CatalogItem],
) -> Transcript:
    """A trial as long as a real board trial: the first two search rounds are the entry's plan
    for the task (the same in every trial, as a deterministic agent's are), the last two are
    drawn per trial from six searches the entry might make for the task (as a sampling model's
    vary: trials sometimes repeat a search, in another order)."""
    by_id = {item.id: item for item in items}
    plan = random.Random(f"{task.id}:{agent.name}")
    own = random.Random(f"{task.id}:{agent.name}:{trial}")
    user = task.user_id or "user_1"
    watched = plan.sample(items, min(4, len(items)))
    events: list[MessageEvent | ToolCallEvent] = [
        MessageEvent(
            role="agent",
            content="Hello! I'm a movie recommendation assistant with access to our catalog. "
            "What can I help you find tonight?",
        ),
        MessageEvent(role="user", content=f"Hi! I'm trying to find a movie. {task.persona}"),
        ToolCallEvent(
            call_id="c0",
            name="get_user_history",
            arguments={"user_id": user},
            result=json.dumps(
                {
                    "user_id": user,
                    "watched": [
                        {"id": i.id, "title": i.title, "user_rating": 4.0} for i in watched
                    ],
                    "ratings": {i.id: 4.0 for i in watched},
                },
                ensure_ascii=False,
            ),
        ),
        MessageEvent(
            role="agent",
            content="Happy to help! A few quick questions so I can narrow it down. What kind of "
            "movie are you in the mood for? How long can it be? Which services do you have?",
        ),
        MessageEvent(
            role="user",
            content="Something good, nothing too long. I subscribe to Netflix, Hulu and Max.",
        ),
    ]
    searches = [
        (f"{plan.choice(_WORDS_A)} {plan.choice(_WORDS_B)} {n}".lower(), plan.sample(items, 20))
        for n in range(10)
    ]
    mine = searches[:4] + own.sample(searches[4:], 4)
    for round_ in range(4):
        if round_ == 2:
            events += [
                MessageEvent(role="agent", content="Any rating limits, or titles to avoid?"),
                MessageEvent(role="user", content="Nothing rated NC-17, please."),
            ]
        for query, hits in mine[2 * round_ : 2 * round_ + 2]:
            events.append(
                ToolCallEvent(
                    call_id=f"s{len(events)}",
                    name="search_catalog",
                    arguments={"query": query},
                    result=json.dumps([_v2_record(i) for i in hits], ensure_ascii=False),
                )
            )
            for item in hits[:3]:
                events.append(
                    ToolCallEvent(
                        call_id=f"m{len(events)}",
                        name="get_metadata",
                        arguments={"item_id": item.id},
                        result=json.dumps(item.model_dump(mode="json"), ensure_ascii=False),
                    )
                )
    shown = by_id.get(rec or "") or items[0]
    events.append(
        ToolCallEvent(
            call_id="a1",
            name="check_availability",
            arguments={"item_id": shown.id},
            result=json.dumps(
                {"id": shown.id, "streaming_services": list(shown.streaming_services)},
                ensure_ascii=False,
            ),
        )
    )
    return _finished(
        _Trial(task, trial, seed, agent, rec, error, latencies),
        events + _closing("r1", rec, shown.title, error),
        tools=["search_catalog", "get_metadata", "check_availability", "recommend"],
        usage=ModelUsage(calls=12, prompt_tokens=24000, completion_tokens=900),
        audit=LeakAudit(clean=True, leaks=[]),
    )


def _hostile_events() -> list[MessageEvent | ToolCallEvent]:
    """Each hostile string as an agent message, a user message, tool arguments and a result."""
    events: list[MessageEvent | ToolCallEvent] = []
    for n, text in enumerate(HOSTILE_STRINGS):
        events += [
            MessageEvent(role="agent", content=text),
            MessageEvent(role="user", content=text),
            ToolCallEvent(
                call_id=f"h{n}",
                name="search_catalog",
                arguments={"query": text, text: text},
                result=json.dumps({"error": text}, ensure_ascii=False),
                is_error=True,
            ),
            ToolCallEvent(call_id=f"r{n}", name="get_metadata", raw_arguments=text, result=text),
        ]
    return events


def _entry_results(
    spec: SynthSpec,
    index: int,
    slug: str,
    label: str,
    sha: str,
    tasks: list[Task],
    items: list[CatalogItem],
    folder: Path,
    agent: ComponentSpec,
    skill: float,
    speed: float,
    price: float,
) -> None:
    rng = random.Random(f"{spec.seed}:{slug}:{label}")
    folder.mkdir(parents=True, exist_ok=True)
    recent = spec.snapshots[-spec.transcript_snapshots :] if spec.transcript_snapshots else ()
    keep = spec.transcripts and (spec.transcript_snapshots is None or label in recent)
    if keep:
        (folder / "transcripts").mkdir(exist_ok=True)
    lines: list[str] = []
    scored = errors = 0
    total_cost = 0.0
    for t_index, task in enumerate(tasks):
        difficulty = {"simple": -0.8, "medium": 0.0, "complex": 0.9}[task.complexity]
        difficulty += {"volunteer": -0.5, "mixed": 0.1, "hidden": 0.8}[task.reveal_difficulty]
        p_success = 1 / (1 + math.exp(-(skill - difficulty - 0.15 * (t_index % 4))))
        for trial in range(spec.trials):
            seed = spec.seed * 1000 + trial
            infra = rng.random() < spec.infra_error_rate
            steps = rng.randint(2, 7)
            latencies = [round(rng.lognormvariate(math.log(speed), 0.35), 3) for _ in range(steps)]
            cost = round(price * steps * rng.uniform(0.8, 1.2), 6)
            total_cost += cost
            name = f"transcripts/{task.id}__{trial}.json.gz"
            error = (
                InfraError(kind="RateLimitError", message="429 after 6 attempts") if infra else None
            )
            rec: str | None = None
            score: TrialScore | None = None
            if not infra:
                success = rng.random() < p_success
                rec = (
                    None
                    if task.no_valid_recommendation and success
                    else items[rng.randrange(len(items))].id
                )
                if not success and rng.random() < 0.2:
                    rec = None
                checks = [
                    ConstraintCheck(
                        field=tc.constraint.field,
                        op=tc.constraint.op,
                        value=tc.constraint.value,
                        satisfied=success or j > 0,
                        actual="(synthetic)",
                        reason=f"{tc.constraint.describe()}: {'holds' if success or j > 0 else 'fails'}",
                    )
                    for j, tc in enumerate(task.constraints)
                ]
                constraint_ok = success or rng.random() < 0.5
                policies = [
                    PolicyResult(
                        policy=p,
                        passed=success or not constraint_ok or rng.random() > 0.35,
                        severity=_POLICY_SEVERITY[p],
                        reason=f"{p.replace('_', ' ')} {'respected' if success else 'checked'}",
                    )
                    for p in task.policy_flags
                ]
                if not success and constraint_ok and all(p.passed for p in policies):
                    policies[0] = policies[0].model_copy(
                        update={"passed": False, "reason": f"{policies[0].policy} was violated"}
                    )
                policy_ok = all(p.passed for p in policies)
                weight = sum(p.severity for p in policies) or 1.0
                c_score = 1.0 if constraint_ok else 0.0
                p_score = 1.0 if policy_ok else 0.0
                score = TrialScore(
                    recommendation=rec,
                    abstained=rec is None,
                    constraint_score=c_score,
                    policy_score=p_score,
                    reward=c_score * p_score,
                    weighted_policy_score=round(
                        sum(p.severity for p in policies if p.passed) / weight, 6
                    ),
                    constraints=checks,
                    constraint_reason="all constraints hold"
                    if constraint_ok
                    else "a constraint fails",
                    policies=policies,
                )
                scored += 1
            else:
                errors += 1
            probe = spec.xss_probes and index == 1 and t_index == 0 and trial == 0
            if keep:
                transcript = (
                    _realistic_transcript(task, trial, seed, agent, rec, error, latencies, items)
                    if spec.realistic_transcripts
                    else _transcript(
                        task,
                        trial,
                        seed,
                        agent,
                        rec,
                        rng,
                        probe,
                        error,
                        latencies,
                        items,
                        hostile=spec.hostile and index == 1,
                    )
                )
                (folder / name).write_bytes(
                    gzip.compress(transcript.model_dump_json().encode(), mtime=0)
                )
            record = TrialRecord(
                key=TrialKey(
                    submission=slug,
                    snapshot_sha256=sha,
                    task_id=task.id,
                    trial_index=trial,
                    seed=seed,
                ),
                status="infra_error" if infra else "scored",
                error=error,
                complexity=task.complexity,
                reveal_difficulty=task.reveal_difficulty,
                no_valid_recommendation=task.no_valid_recommendation,
                stop_reason="infra_error" if infra else ("recommended" if rec else "abstained"),
                score=score,
                efficiency=Efficiency(
                    turns=steps // 2 + 1,
                    tool_calls=steps + rng.randint(0, 4),
                    step_latencies_s=latencies,
                    wall_time_s=round(sum(latencies), 3),
                ),
                usage={"agent:synthetic": ModelUsage(calls=steps, cost_usd=cost)},
                cost_usd=cost,
                leak_audit_clean=True,
                transcript=name,
            )
            lines.append(record.model_dump_json())
    (folder / "trials.jsonl").write_text("\n".join(lines) + "\n")
    manifest = RunManifest(
        status="completed",
        taurec_version="0.1.0",
        git_revision="0" * 40,
        submission=slug,
        snapshot=label,
        agent=agent,
        simulator=ComponentSpec(name="scripted"),
        tools=list(V1_TOOL_NAMES),
        task_suite_digest="1" * 64,
        policy_digest="2" * 64,
        catalog_digest=sha,
        trials=spec.trials,
        max_turns=20,
        seed=spec.seed,
        started_at=f"{label}T08:00:00Z",
        finished_at=f"{label}T09:30:00Z",
        counts=RunCounts(planned=len(tasks) * spec.trials, scored=scored, infra_error=errors),
        cost_usd=round(total_cost, 6),
        verified_by=(
            f"https://github.com/example/taurec/actions/runs/{1000 + index}"
            if index in spec.verified_entries
            else None
        ),
    )
    (folder / "run.json").write_text(manifest.model_dump_json(indent=2) + "\n")
    if manifest.verified_by is not None:
        # What the refresh workflow does after producing a run: vouch for it in the ledger,
        # naming the attestation of its archive (made up here: no GitHub in a synthetic world).
        record_runs(
            [folder],
            folder.parents[2] / LEDGER_FILE,
            manifest.verified_by,
            manifest.finished_at,
            attestation_url=f"https://github.com/example/taurec/attestations/{2000 + index}",
        )


def synthesize(root: Path, spec: SynthSpec | None = None) -> SynthWorld:
    """Write snapshots, tasks, submissions and results under `root`; same spec → same bytes."""
    spec = spec or SynthSpec()
    root = Path(root)
    snapshots_dir, tasks_dir, subs_dir = root / "snapshots", root / "tasks", root / "submissions"
    catalogs = _catalogs(spec)
    previous: list[str] = []
    for label, items in catalogs.items():
        _write_snapshot(snapshots_dir / label, label, items, previous)
        previous = [i.id for i in items]
    first = catalogs[spec.snapshots[0]]
    tasks = _tasks(spec, first)
    tasks_dir.mkdir(parents=True, exist_ok=True)
    for task in tasks:
        (tasks_dir / f"{task.id}.json").write_text(
            task.model_dump_json(indent=2, exclude_none=True) + "\n"
        )
    rng = random.Random(spec.seed + 2)
    slugs: list[str] = []
    for index in range(spec.entries + len(spec.reference_entries)):
        reference = spec.reference_entries[index - spec.entries] if index >= spec.entries else None
        slug = f"reference-{reference}" if reference else f"synthetic-agent-{index:03d}"
        slugs.append(slug)
        kind = index % 3
        agent_cfg: dict[str, object]
        if reference:
            agent_cfg = {"kind": "builtin", "name": reference}
        elif kind == 0:
            agent_cfg = {
                "kind": "litellm",
                "model": f"openai/synthetic-model-{index}",
                "api_key_env": "SYNTH_API_KEY",
                "temperature": 0.0,
                "extra_body": {
                    "top_k": 5,
                    "api_key": PLANTED_SECRET,
                    "metadata": {"Authorization": f"Bearer {PLANTED_SECRET}"},
                },
            }
        elif kind == 1:
            agent_cfg = {
                "kind": "http",
                "endpoint": f"https://agents.example.org/{slug}/step",
                "headers_env": {"Authorization": "SYNTH_TOKEN"},
            }
        else:
            agent_cfg = {"kind": "builtin", "name": "heuristic"}
        display = XSS_NAME if spec.xss_probes and index == 1 else f"Synthetic agent {index:03d}"
        hostile = spec.hostile and index == 1
        if hostile:
            display = HOSTILE_NAME
        elif spec.hostile and index == 0:
            display = HOSTILE_MARKDOWN_NAME
        if reference:
            display = f"{reference.capitalize()} (reference)"
        cutoff = dt.date(2026, 10, 15) if index % 4 == 3 else dt.date(2025, 6, 1)
        submission = {
            "schema_version": 1,
            "slug": slug,
            "display_name": display,
            "contact": {
                "name": HOSTILE_STRINGS[1] if hostile else f"Team {index}",
                "organization": HOSTILE_STRINGS[2] if hostile else f"Lab {index % 7}",
            },
            "agent": agent_cfg,
            "tools": {"filter_catalog": index % 5 == 4},
            "trials": spec.trials,
            "track": "custom" if index % 5 == 4 else "standard",
            "notes": "\n\n".join(HOSTILE_STRINGS)
            if hostile
            else ("Synthesized for tests." if index != 1 else XSS_MESSAGE),
            "model": {
                "training_cutoff": cutoff.isoformat(),
                "open_weights": index % 2 == 0,
                "release_date": (dt.date(2024, 1, 10) + dt.timedelta(days=41 * index)).isoformat(),
            },
        }
        entry_dir = subs_dir / slug
        entry_dir.mkdir(parents=True, exist_ok=True)
        (entry_dir / "submission.yaml").write_text(yaml.safe_dump(submission, sort_keys=False))
        skill = rng.uniform(-1.0, 2.0)
        speed = rng.uniform(0.4, 6.0)
        price = rng.choice((0.0, 0.0004, 0.002, 0.01))
        spec_agent = ComponentSpec(name=str(agent_cfg["kind"]), args={"slug": slug})
        for label in spec.snapshots:
            sha = hashlib.sha256((snapshots_dir / label / "catalog.json").read_bytes()).hexdigest()
            _entry_results(
                spec,
                index,
                slug,
                label,
                sha,
                tasks,
                catalogs[label],
                entry_dir / "results" / label,
                spec_agent,
                skill,
                speed,
                price,
            )
    return SynthWorld(root, subs_dir, snapshots_dir, tasks_dir, tasks, slugs)
