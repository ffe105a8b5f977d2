"""The board's private test split: generated from a secret, scored once per entry, published as aggregates while live and whole when it retires.

The committed suite is the public *dev* split. The board ranks entries on a *test* split drawn
by the domain's generator (`taurec tasks generate`) from the snapshot and a seed derived from
the split secret (`TAUREC_SPLIT_SECRET` in the scheduled workflow; a local one under
`.taurec-cache/` when it is unset), so it changes with every snapshot. Per domain:

- `splits/<domain>/live/split.json`: the live split's aggregates only (`SplitRecord`): per entry
  pass^k with CIs, strata, policy rates, cost, failure causes by rule, and its dev pass^1 beside.
  No task, persona, constraint text, id, history, transcript or recommended title;
- `splits/<domain>/live/results.fernet`: the split's tasks and every trial record and transcript,
  a deterministic tar.gz encrypted with Fernet under a key derived (HKDF-SHA256) from the secret
  and the split id. Committed, so the next refresh resumes it without rescoring anyone;
- when a refresh draws a new split (a new snapshot), the live one retires to
  `splits/<domain>/retired/<split id>/`: its tasks and results in the clear, `split.json` with the
  retirement date and the key, and the encrypted file as it was committed (the key opens it, so
  anyone can check the published results are the ones committed while it was live). `taurec score`
  and `taurec verify` read the retired results folders like any other.

An entry is scored once per live split: the config it was scored with is recorded (its sha256),
and a changed config waits for the next rotation.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import hmac
import io
import json
import os
import secrets
import shutil
import tarfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from runner.core.errors import TaurecError
from runner.core.metrics import RunSummary, summarize
from runner.core.paths import PROJECT_ROOT, SPLITS_DIR
from runner.core.records import TrialRecord

__all__ = [
    "LOCAL_SECRET_FILE",
    "SECRET_ENV",
    "EntryAggregate",
    "SplitRecord",
    "SplitSecret",
    "failure_causes",
    "load_split_record",
    "retire_split",
    "seal",
    "split_id",
    "split_key",
    "split_secret",
    "unseal",
]

# The repository secret the scheduled workflow generates the test split from.
SECRET_ENV = "TAUREC_SPLIT_SECRET"
# Where `make leaderboard` keeps a local secret when SECRET_ENV is unset (git-ignored).
LOCAL_SECRET_FILE = PROJECT_ROOT / ".taurec-cache" / "split-secret"
# The private working copy of each live split (its tasks and results in the clear), git-ignored.
WORK_DIR = PROJECT_ROOT / ".taurec-cache" / "splits"
# Tasks of a local test split (no workflow secret: `make leaderboard` offline), half a suite so
# that drawing and scoring it keeps the offline build within 1.5x of the dev-only one; the
# workflow's split is the domain's full suite size.
LOCAL_SPLIT_TASKS = 30
RECORD_FILE = "split.json"
SEALED_FILE = "results.fernet"
_HKDF_SALT = b"taurec-split-key-v1"


@dataclass(frozen=True)
class SplitSecret:
    """The split secret and where it came from (`env`: the workflow's; `local`: generated here)."""

    value: str
    source: Literal["env", "local"]


def split_secret(local_file: Path = LOCAL_SECRET_FILE, *, create: bool = True) -> SplitSecret:
    """SECRET_ENV when set, else the local secret file (written once, mode 0600, when `create`)."""
    value = os.environ.get(SECRET_ENV, "")
    if value:
        return SplitSecret(value, "env")
    if local_file.is_file():
        text = local_file.read_text(encoding="utf-8").strip()
        if text:
            return SplitSecret(text, "local")
    if not create:
        raise TaurecError(
            f"{SECRET_ENV} is unset and there is no local split secret at {local_file}"
        )
    local_file.parent.mkdir(parents=True, exist_ok=True)
    text = secrets.token_urlsafe(32)
    fd = os.open(local_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text + "\n")
    return SplitSecret(text, "local")


def split_id(secret: str, domain: str, snapshot: str) -> str:
    """`<domain>-<snapshot>-<10 hex>`: public, stable for one secret and snapshot, and telling
    nothing of the secret (HMAC-SHA256)."""
    tag = hmac.new(
        secret.encode(), f"split-id|{domain}|{snapshot}".encode(), hashlib.sha256
    ).hexdigest()
    return f"{domain}-{snapshot}-{tag[:10]}"


def split_key(secret: str, split: str) -> bytes:
    """The Fernet key of one split: HKDF-SHA256 of the secret, with the split id as info."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    raw = HKDF(algorithm=hashes.SHA256(), length=32, salt=_HKDF_SALT, info=split.encode()).derive(
        secret.encode()
    )
    return base64.urlsafe_b64encode(raw)


def seal(key: bytes, data: bytes) -> bytes:
    from cryptography.fernet import Fernet

    return Fernet(key).encrypt(data)


def unseal(key: bytes, token: bytes, where: Path | str = "results.fernet") -> bytes:
    """Decrypt a sealed file; a wrong key or a damaged file is an error naming the file."""
    from cryptography.fernet import Fernet, InvalidToken

    try:
        return Fernet(key).decrypt(token)
    except (InvalidToken, ValueError):
        raise TaurecError(
            f"{where}: cannot be decrypted with this key (another split's key, another secret, "
            "or a damaged file)"
        ) from None


def pack_folder(folder: Path) -> bytes:
    """A deterministic tar.gz of `folder` (sorted names, no times, owners or modes)."""
    buffer = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as zipped,
        tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            data = path.read_bytes()
            info = tarfile.TarInfo(path.relative_to(folder).as_posix())
            info.size = len(data)
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def unpack_into(data: bytes, dest: Path) -> None:
    """Extract a `pack_folder` archive (regular files only, no path leaving `dest`)."""
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        tar.extractall(dest, filter="data")


class EntryAggregate(BaseModel):
    """One entry's figures on a split: aggregates only, never a task, id or transcript."""

    model_config = ConfigDict(extra="forbid")

    slug: str
    agent: str = Field(description="Provenance name of the agent, e.g. builtin:expert")
    config_sha256: str = Field(description="The entry's config it was scored with")
    summary: RunSummary
    failure_causes: dict[str, int] = Field(
        description="Failing trials by the rule they broke (`policy:<name>`, `constraint:<field>`, "
        "`stop:<reason>`)"
    )
    dev_pass1: float | None = Field(default=None, description="pass^1 on the dev split")

    @property
    def test_pass1(self) -> float | None:
        return self.summary.pass_hat_k[0].value if self.summary.pass_hat_k else None

    @property
    def gap(self) -> float | None:
        test = self.test_pass1
        return None if test is None or self.dev_pass1 is None else self.dev_pass1 - test


class SplitRecord(BaseModel):
    """What is published of a split: while live its aggregates; once retired also its key."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = 1
    domain: str
    split_id: str
    snapshot: str = Field(description="The snapshot the split was drawn from")
    status: Literal["live", "retired"]
    retired_on: str | None = Field(default=None, description="The refresh that retired it")
    secret_name: str = Field(description="Where its secret comes from (never the secret)")
    tasks: int
    strata: dict[str, int] = Field(description="Tasks per reveal difficulty")
    trials: int
    entries: list[EntryAggregate] = Field(default_factory=list)
    waiting: list[str] = Field(
        default_factory=list,
        description="Entries whose config changed after they were scored: they wait for the "
        "next split",
    )
    key: str | None = Field(default=None, description="The Fernet key, published at retirement")


def load_split_record(path: Path) -> SplitRecord:
    try:
        return SplitRecord.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        raise TaurecError(f"{path}: file not found") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise TaurecError(f"{path}: {where}: {first['msg']}") from None


def _write_json(path: Path, record: SplitRecord) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")


def failure_causes(records: Sequence[TrialRecord]) -> dict[str, int]:
    """Failing scored trials counted by each rule they broke: policy names, constraint fields
    and stop reasons (no values, titles or ids)."""
    causes: Counter[str] = Counter()
    for r in records:
        if r.status != "scored" or r.score is None or r.score.reward >= 1.0:
            continue
        broke = {f"policy:{p.policy}" for p in r.score.policies if not p.passed}
        broke |= {f"constraint:{c.field}" for c in r.score.constraints if not c.satisfied}
        if not broke:
            broke = {f"stop:{r.stop_reason}"}
        causes.update(broke)
    return dict(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0])))


def retire_split(live: Path, retired_root: Path, secret: str, retired_on: str) -> Path:
    """Move the live split to `retired_root/<id>/`: decrypt its results beside the sealed file,
    publish its key and the retirement date. Returns the retired folder."""
    record = load_split_record(live / RECORD_FILE)
    key = split_key(secret, record.split_id)
    sealed = live / SEALED_FILE
    dest = retired_root / record.split_id
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if sealed.is_file():
        unpack_into(unseal(key, sealed.read_bytes(), sealed), dest)
        shutil.copyfile(sealed, dest / SEALED_FILE)
    retired = record.model_copy(
        update={"status": "retired", "retired_on": retired_on, "key": key.decode()}
    )
    _write_json(dest / RECORD_FILE, retired)
    shutil.rmtree(live)
    return dest


def config_sha256(raw_config: object) -> str:
    text = json.dumps(raw_config, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class TestSplitOutcome:
    """What one refresh did to a domain's test split."""

    record: SplitRecord
    retired: Path | None
    generated: bool
    scored: list[str]


def _strata(tasks_dir: Path, load: Callable[[Path], Sequence[object]]) -> dict[str, int]:
    counts: Counter[str] = Counter(
        str(getattr(t, "reveal_difficulty", "?")) for t in load(tasks_dir)
    )
    return dict(sorted(counts.items()))


def run_test_split(
    *,
    domain: str,
    snapshot: str,
    snapshots_dir: Path,
    folders: Sequence[Path],
    trials: int,
    run: Callable[..., list[object]],
    dev_pass1: dict[str, float | None],
    secret: SplitSecret,
    splits_root: Path = SPLITS_DIR,
    work_root: Path = WORK_DIR,
    count: int | None = None,
    keep_others: bool = False,
) -> TestSplitOutcome:
    """Bring a domain's test split up to date for `snapshot` and score the entries on it.

    Retires the live split first when it was drawn for another snapshot; restores the live
    split's tasks and results from its sealed file (so no finished trial is run again and no
    entry is scored twice); else generates the split. `run(entrants, tasks_dir=…)` runs the
    entrants (each with its results under the private work folder) and returns RunResults.
    `count`: tasks to draw (default: the domain's full suite size). `keep_others`: `folders`
    are some of the entries (one process per entry, each with only its own keys), so the live
    figures of the entries not among them are kept; otherwise only `folders` are on the board."""
    from runner.batch.entrant import Entrant
    from runner.batch.generate import generate_suite
    from runner.core.domains import get_domain
    from runner.core.generation import seed_from_secret

    owner = get_domain(domain)
    sid = split_id(secret.value, domain, snapshot)
    key = split_key(secret.value, sid)
    live = splits_root / domain / "live"
    retired_dir: Path | None = None
    previous: SplitRecord | None = None
    if (live / RECORD_FILE).is_file():
        previous = load_split_record(live / RECORD_FILE)
        if previous.split_id != sid:
            retired_dir = retire_split(
                live, splits_root / domain / "retired", secret.value, snapshot
            )
            previous = None
    work = work_root / domain / sid
    tasks_dir = work / "tasks"
    generated = False
    if not tasks_dir.is_dir():
        if (live / SEALED_FILE).is_file():
            if work.exists():
                shutil.rmtree(work)
            unpack_into(unseal(key, (live / SEALED_FILE).read_bytes(), live / SEALED_FILE), work)
        else:
            generate_suite(
                owner,
                str(snapshots_dir / snapshot),
                seed_from_secret(secret.value, snapshot),
                tasks_dir,
                count,
                split="test",
            )
            generated = True
    scored_before = {e.slug: e for e in previous.entries} if previous else {}
    entrants = []
    waiting: list[str] = []
    for folder in folders:
        entrant = Entrant.from_folder(folder)
        digest = config_sha256(entrant.raw_config)
        before = scored_before.get(entrant.slug)
        if before is not None and before.config_sha256 != digest:
            waiting.append(entrant.slug)  # scored once per split: a new config waits
            continue
        entrants.append((replace(entrant, results_root=work / "results" / entrant.slug), digest))
    runs = run([e for e, _ in entrants], tasks_dir=tasks_dir) if entrants else []
    running = {entrant.slug for entrant, _ in entrants}
    aggregates: dict[str, EntryAggregate] = {
        slug: e
        for slug, e in scored_before.items()
        if slug in waiting or (keep_others and slug not in running)
    }
    for (entrant, digest), result in zip(entrants, runs, strict=True):
        records: list[TrialRecord] = result.records  # type: ignore[attr-defined]
        aggregates[entrant.slug] = EntryAggregate(
            slug=entrant.slug,
            agent=entrant.agent,
            config_sha256=digest,
            summary=summarize(records, policy_names=owner.policy_names),
            failure_causes=failure_causes(records),
            dev_pass1=dev_pass1.get(entrant.slug),
        )
    record = SplitRecord(
        domain=domain,
        split_id=sid,
        snapshot=snapshot,
        status="live",
        secret_name=SECRET_ENV if secret.source == "env" else f"local ({LOCAL_SECRET_FILE.name})",
        tasks=len(owner.load_tasks(tasks_dir)),
        strata=_strata(tasks_dir, owner.load_tasks),
        trials=trials,
        entries=[aggregates[s] for s in sorted(aggregates)],
        waiting=sorted(waiting),
    )
    plain = pack_folder(work)
    sealed = live / SEALED_FILE
    # Re-sealed only when the content changed (a Fernet token differs on every call).
    if not sealed.is_file() or unseal(key, sealed.read_bytes(), sealed) != plain:
        live.mkdir(parents=True, exist_ok=True)
        sealed.write_bytes(seal(key, plain))
    _write_json(live / RECORD_FILE, record)
    return TestSplitOutcome(record, retired_dir, generated, [e.slug for e, _ in entrants])


def set_dev_pass1(splits_root: Path, domain: str, values: dict[str, float | None]) -> None:
    """Fill each live entry's dev pass^1 (when its test split was scored beside the dev run)."""
    path = splits_root / domain / "live" / RECORD_FILE
    if not path.is_file() or not values:
        return
    record = load_split_record(path)
    entries = [
        e.model_copy(update={"dev_pass1": values[e.slug]}) if e.slug in values else e
        for e in record.entries
    ]
    _write_json(path, record.model_copy(update={"entries": entries}))


def retired_records(splits_root: Path, domain: str) -> list[tuple[SplitRecord, Path]]:
    """Every retired split of a domain, newest retirement first."""
    root = splits_root / domain / "retired"
    if not root.is_dir():
        return []
    found = [
        (load_split_record(p / RECORD_FILE), p)
        for p in sorted(root.iterdir())
        if (p / RECORD_FILE).is_file()
    ]
    return sorted(found, key=lambda rp: (rp[0].retired_on or "", rp[0].split_id), reverse=True)


def live_record(splits_root: Path, domain: str) -> SplitRecord | None:
    path = splits_root / domain / "live" / RECORD_FILE
    return load_split_record(path) if path.is_file() else None
