"""Running counters of a run's in-scope trials: everything its manifest and end-of-run summary need, without keeping records."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from runner.core.metrics import PassHatK, pass_hat_k_means, pass_hat_k_over_tasks, trial_passed
from runner.core.records import TrialRecord
from runner.core.transcript import InfraError


@dataclass(frozen=True, slots=True)
class TrialOutcome:
    """What the counters take from one trial record (a few fields, not the record)."""

    task_id: str
    scored: bool
    passed: bool
    reward: float
    cost_usd: float
    error: InfraError | None

    @classmethod
    def of(cls, record: TrialRecord) -> TrialOutcome:
        scored = record.status == "scored" and record.score is not None
        return cls(
            task_id=record.key.task_id,
            scored=scored,
            passed=trial_passed(record),
            reward=record.score.reward if record.score is not None and scored else 0.0,
            cost_usd=record.cost_usd,
            error=record.error,
        )


@dataclass
class RunTally:
    """Counts per task (scored n, passing c), totals, infra-error kinds and the first error seen."""

    per_task: dict[str, list[int]] = field(default_factory=dict)
    scored: int = 0
    infra_error: int = 0
    reward_sum: float = 0.0
    cost_sum: float = 0.0
    error_kinds: dict[str, int] = field(default_factory=dict)
    first_error: InfraError | None = None

    def add(self, outcome: TrialOutcome) -> None:
        counts = self.per_task.setdefault(outcome.task_id, [0, 0])
        self.cost_sum += outcome.cost_usd
        if self.first_error is None and outcome.error is not None:
            self.first_error = outcome.error
        if outcome.scored:
            self.scored += 1
            counts[0] += 1
            counts[1] += int(outcome.passed)
            self.reward_sum += outcome.reward
        else:
            self.infra_error += 1
            kind = outcome.error.kind if outcome.error is not None else "Unknown"
            self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1

    def with_outcomes(self, outcomes: Iterable[TrialOutcome]) -> RunTally:
        """A copy with more outcomes added (this one unchanged)."""
        out = RunTally(
            per_task={task: list(nc) for task, nc in self.per_task.items()},
            scored=self.scored,
            infra_error=self.infra_error,
            reward_sum=self.reward_sum,
            cost_sum=self.cost_sum,
            error_kinds=dict(self.error_kinds),
            first_error=self.first_error,
        )
        for outcome in outcomes:
            out.add(outcome)
        return out

    @property
    def cost_usd(self) -> float:
        return round(self.cost_sum, 10)

    @property
    def mean_reward(self) -> float | None:
        return self.reward_sum / self.scored if self.scored else None

    def pass_hat_k(self, ks: Sequence[int], seed: int) -> list[PassHatK]:
        """pass^k over tasks, as `runner.core.metrics.summarize` computes it from the records."""
        counts = {task: (nc[0], nc[1]) for task, nc in self.per_task.items()}
        return pass_hat_k_over_tasks(counts, ks, seed)

    def pass_hat_k_means(self, ks: Sequence[int]) -> list[tuple[int, float | None]]:
        """(k, pass^k) as `pass_hat_k` has them, without the bootstrap CIs (the summary line)."""
        counts = {task: (nc[0], nc[1]) for task, nc in self.per_task.items()}
        return pass_hat_k_means(counts, ks)
