"""What every domain's suite generator shares: seeds, opaque ids, held-back wording and the suite folder.

A generated suite is drawn from one snapshot and one integer seed; the same pair gives a
byte-identical folder. The pieces here are domain-free:

- `seed_from_secret`: the seed of a private split, HMAC-SHA256 keyed by a secret over the snapshot
  date, so nobody without the secret can regenerate (or enumerate) the split;
- `opaque_id`: ids an agent sees (user, task, order) as a prefix and 10 hex characters of a keyed
  hash of the seed and the id's role, so no id maps to a public file (`u_3fa9…`, never `user_015`);
- `usable_wordings`: a deterministic share of every paraphrase list is held back for test splits
  (`HELD_BACK_SHARE`), so no agent can be tuned to the wording of the committed dev suite;
- `write_suite_folder`: task files, the policy and `suite.json` (the domain and how the suite was
  drawn), written canonically;
- the strata rule every generator enforces (`Strata`: a task's problems, the suite's gate): a
  domain brings only how its fixed priors and its no-question prober play a task.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import random
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from runner.core.errors import LoadError, TaurecError

# A suite folder names its domain in this file ({"domain": "grocery"}); it is not a task file.
SUITE_MARKER = "suite.json"

__all__ = [
    "HELD_BACK_SHARE",
    "MAX_STRATUM_WIN",
    "PROBER",
    "SPLITS",
    "GeneratedSuite",
    "GenerationInfo",
    "Play",
    "Split",
    "Strata",
    "StrataTask",
    "derive_rng",
    "held_back",
    "opaque_id",
    "play_trials",
    "seed_from_secret",
    "stratum_players",
    "suite_domain",
    "usable_wordings",
    "write_suite_folder",
]

Split = Literal["dev", "test"]
SPLITS: tuple[Split, ...] = ("dev", "test")
# The share of each paraphrase list that only test splits use (chosen per phrase by its hash).
HELD_BACK_SHARE = 0.4
# Bytes of the HMAC kept as the seed (a 63-bit integer: positive and exact in JSON readers).
_SEED_BITS = 63


def seed_from_secret(secret: str | bytes, snapshot_date: str) -> int:
    """The seed of a split: HMAC-SHA256 keyed by `secret` over `taurec-split|<snapshot_date>`,
    its first 8 bytes read big-endian, top bit cleared. Empty secrets are refused."""
    key = secret.encode() if isinstance(secret, str) else secret
    if not key:
        raise TaurecError("the split secret is empty: set it to a long random string")
    digest = hmac.new(key, f"taurec-split|{snapshot_date}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") & ((1 << _SEED_BITS) - 1)


def opaque_id(seed: int, role: str, prefix: str, width: int = 10) -> str:
    """`prefix` + `width` hex characters of HMAC-SHA256 keyed by the seed over `role` (e.g.
    "task|7"): stable for a seed, unrelated across seeds, and no public file names it."""
    digest = hmac.new(str(seed).encode(), role.encode(), hashlib.sha256).hexdigest()
    return f"{prefix}{digest[:width]}"


def derive_rng(seed: int, *parts: object) -> random.Random:
    """A random stream of its own for one piece of a suite (a slot, an attempt), from the seed."""
    return random.Random("|".join([str(seed), *(str(p) for p in parts)]))


def held_back(phrase: str, share: float = HELD_BACK_SHARE) -> bool:
    """Whether a phrase belongs to the held-back share (decided by its sha256, never by order)."""
    value = int.from_bytes(hashlib.sha256(phrase.encode()).digest()[:4], "big") / 2**32
    return value < share


def usable_wordings(phrases: Sequence[str], split: Split) -> tuple[str, ...]:
    """The paraphrases a split may use: a test split every one, a dev split none held back (a
    list whose every phrase is held back keeps its first, so a dev split can always say it)."""
    if split == "test":
        return tuple(phrases)
    open_ = tuple(p for p in phrases if not held_back(p))
    return open_ or tuple(phrases[:1])


def suite_domain(folder: Path) -> str | None:
    """The domain a suite folder names in its SUITE_MARKER, or None when it has none (a
    hand-written folder); a marker that names no domain is an error naming the file."""
    marker = Path(folder) / SUITE_MARKER
    if not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LoadError(marker, [f"not readable JSON: {exc}"]) from None
    name = data.get("domain") if isinstance(data, dict) else None
    if not isinstance(name, str):
        raise LoadError(marker, [f"field 'domain' must be a domain name, got {name!r}"])
    return name


class GenerationInfo(BaseModel):
    """How a suite folder was drawn, kept in its `suite.json` beside the domain's name."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = 1
    snapshot: str = Field(description="The snapshot's label (its date, or its folder's name)")
    catalog_sha256: str
    seed_source: str = Field(
        description="'seed N' when given, or 'secret $VAR' (the seed itself is not written)"
    )
    split: Split
    count: int
    generator: str = Field(description="The domain generator's name and version")
    gate: list[str] = Field(default_factory=list, description="The suite gate's summary lines")


@dataclass
class GeneratedSuite:
    """What a domain generator returns: the tasks (pydantic models), its policy text, the gate."""

    tasks: list[Any]
    policy_text: str
    generator: str
    gate: list[str] = field(default_factory=list)


def _task_bytes(task: Any) -> bytes:
    data = task.model_dump(mode="json", exclude_none=False)
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode()


def write_suite_folder(
    out_dir: Path, domain: str, suite: GeneratedSuite, info: GenerationInfo
) -> list[Path]:
    """Write `<id>.json` per task, `policy.md` and `suite.json`; refuse a folder holding other
    files (a generated suite never mixes with a hand-written one)."""
    out_dir = Path(out_dir)
    names = {f"{t.id}.json" for t in suite.tasks} | {"policy.md", SUITE_MARKER}
    if out_dir.exists():
        if not out_dir.is_dir():
            raise TaurecError(f"{out_dir}: not a folder")
        strangers = sorted(p.name for p in out_dir.iterdir() if p.name not in names)
        old_tasks = [n for n in strangers if n.endswith(".json")]
        others = [n for n in strangers if not n.endswith(".json")]
        if others:
            raise TaurecError(
                f"{out_dir}: holds files a generated suite does not write ({', '.join(others[:5])}); "
                "give an empty or new --out folder"
            )
        for name in old_tasks:  # a previous generation's tasks: replaced, not mixed in
            (out_dir / name).unlink()
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for task in sorted(suite.tasks, key=lambda t: t.id):
        path = out_dir / f"{task.id}.json"
        path.write_bytes(_task_bytes(task))
        written.append(path)
    policy = out_dir / "policy.md"
    policy.write_text(suite.policy_text, encoding="utf-8")
    marker = out_dir / SUITE_MARKER
    payload = {"domain": domain, "generated": info.model_dump(mode="json")}
    marker.write_text(json.dumps(payload, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return [*written, policy, marker]


# Strata that measure their skill (issue 35, 4): the players of a domain that must not win a
# stratum - fixed priors on the hidden one, the no-question prober on the mixed and hidden ones.
MAX_STRATUM_WIN = 0.25
PROBER = "no-question-prober"
MAX_PLAYED = 20_000  # trials a Strata remembers


class StrataTask(Protocol):
    """What the strata rule reads of a task (both domains' task models have these)."""

    @property
    def id(self) -> str: ...
    @property
    def reveal_difficulty(self) -> str: ...
    @property
    def no_valid_recommendation(self) -> bool: ...


TaskT = TypeVar("TaskT", bound=StrataTask)
# play(player name, task, trial indices) -> which of those trials the player won.
Play = Callable[[str, TaskT, Sequence[int]], list[bool]]


def play_trials(one: Callable[[int], Awaitable[bool]], trials: Iterable[int]) -> list[bool]:
    """Play `one(trial index)` on each trial in order, in one event loop; which were won."""

    async def every() -> list[bool]:
        return [await one(i) for i in trials]

    return asyncio.run(every())


def stratum_players(task: StrataTask, priors: Sequence[str]) -> list[str]:
    """Who must not win this task: the priors on a hidden one, the prober on mixed and hidden."""
    players = list(priors) if task.reveal_difficulty == "hidden" else []
    if task.reveal_difficulty in ("mixed", "hidden"):
        players.append(PROBER)
    return players


@dataclass
class Strata(Generic[TaskT]):
    """A domain's strata rule: how its players play a task (`play`), the names of its fixed
    priors, and the trials of each task the suite gate plays.

    A trial is played once per task object: the suite gate reuses the trial 0 each accepted
    draft was played on (a play is seeded by the task and the trial, so it is the same game)."""

    play_one: Play[TaskT]
    priors: tuple[str, ...]
    trials: int
    # The families the gate judges apart (grocery: shopping and account tasks), so tasks one
    # family's players always lose never dilute the other's figure; None: one family.
    family: Callable[[TaskT], str] | None = None
    # (player, id(task), trial) -> (the task, won); the task is kept so its id is not reused.
    _played: dict[tuple[str, int, int], tuple[TaskT, bool]] = field(
        default_factory=dict, repr=False
    )

    def play(self, name: str, task: TaskT, trials: Sequence[int]) -> list[bool]:
        """Which of `trials` the player wins, each trial played at most once per task."""
        todo = [i for i in trials if (name, id(task), i) not in self._played]
        if todo and len(self._played) > MAX_PLAYED:
            self._played.clear()  # bounded: a long generation forgets the drafts it turned down
        if todo:
            for i, won in zip(todo, self.play_one(name, task, todo), strict=True):
                self._played[(name, id(task), i)] = (task, won)
        return [self._played[(name, id(task), i)][1] for i in trials]

    def problems(self, task: TaskT) -> list[str]:
        """The priors and the prober that win the task's first probed trial (a no-valid task
        is left to the abstention rules: none of them abstains on purpose)."""
        if task.no_valid_recommendation:
            return []
        players = stratum_players(task, self.priors)
        return [f"{n} wins trial 0" for n in players if self.play(n, task, [0])[0]]

    def figures(
        self, tasks: Sequence[TaskT]
    ) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, list[str]]]]:
        """The share of trials each prior wins of the hidden stratum and the prober of the mixed
        and hidden strata (player -> stratum -> share), and the tasks each won a trial of."""
        figures: dict[str, dict[str, float]] = {}
        winners: dict[str, dict[str, list[str]]] = {}
        for stratum in ("mixed", "hidden"):
            members = [t for t in tasks if t.reveal_difficulty == stratum]
            if not members:
                continue
            for name in [*self.priors, PROBER] if stratum == "hidden" else [PROBER]:
                results = {t.id: self.play(name, t, range(self.trials)) for t in members}
                wins = [w for r in results.values() for w in r]
                figures.setdefault(name, {})[stratum] = round(sum(wins) / len(wins), 4)
                won = sorted(i for i, r in results.items() if any(r))
                winners.setdefault(name, {})[stratum] = won
        return figures, winners

    def gate(self, tasks: Sequence[TaskT]) -> tuple[bool, list[str], set[str]]:
        """Whether no prior wins > MAX_STRATUM_WIN of the hidden stratum's trials and the prober
        > that of the mixed or the hidden one (in each family apart); one line per figure; the
        tasks behind a failed one."""
        groups: dict[str, list[TaskT]] = {}
        for task in tasks:
            groups.setdefault(self.family(task) if self.family else "", []).append(task)
        ok = True
        lines = []
        behind: set[str] = set()
        for label in sorted(groups):
            figures, winners = self.figures(groups[label])
            which = f"{label} trials" if label else "trials"
            for stratum in ("mixed", "hidden"):  # one line per figure, stratum by stratum
                for name in [n for n in (*self.priors, PROBER) if stratum in figures.get(n, {})]:
                    share = figures[name][stratum]
                    passed = share <= MAX_STRATUM_WIN
                    if not passed:
                        ok = False
                        behind |= set(winners[name][stratum])
                    lines.append(
                        f"strata {'pass' if passed else 'FAIL'}: {name} wins {share:.3f} of the "
                        f"{stratum} stratum's {which} (<= {MAX_STRATUM_WIN})"
                    )
        return ok, lines, behind
