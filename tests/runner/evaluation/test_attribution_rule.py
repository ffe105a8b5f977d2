"""One attribution rule everywhere: an agent that crashes, hangs or sends pathological tool
arguments scores exactly like its honest twin that fails the same trials, in `evaluate()`,
`assert_pass_k` and `taurec eval` (a real subprocess); no trial is left out of n."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from runner.core.paths import TASKS_DIR
from runner.evaluation import EvalResult, evaluate
from runner.play.attribution import MAX_UNSCORED_SHARE, standing
from runner.testing import assert_pass_k
from tests.processes import run_text

from . import misbehaving

TAUREC = Path(sys.executable).parent / "taurec"
KS = (1, 2, 3, 4)
# The affected trials' stop reason and error kind, per misbehaviour.
EXPECTED = {
    "crashing": "AgentRaised.RuntimeError",
    "hanging": "StepTimeout",
    "deep": "PathologicalToolArguments",
    "crashing_factory": "AgentRaised.ValueError",
}


def _options(suite: Path) -> dict[str, Any]:
    return {"suite": suite, "trials": 4, "seed": 1, "step_timeout_s": 0.3}


@pytest.fixture(scope="module")
def eight_tasks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 8 tasks of our suite and its policy (shared by the module: nothing writes there)."""
    folder = tmp_path_factory.mktemp("suite")
    for file in sorted(TASKS_DIR.glob("*.json"))[:8]:
        shutil.copy(file, folder / file.name)
    shutil.copy(TASKS_DIR / "policy.md", folder / "policy.md")
    return folder


@pytest.fixture(scope="module")
def twin(eight_tasks: Path) -> EvalResult:
    result = evaluate(misbehaving.honest, **_options(eight_tasks))
    assert result.summary.counts.infra_error == 0
    assert result.pass_k(1), "the twin must win some trials, or every comparison is trivial"
    assert any(misbehaving.picked(t.seed) for t in result.failing), "no trial is affected"
    return result


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_misbehaving_agent_scores_like_its_honest_twin_in_evaluate(
    eight_tasks: Path, twin: EvalResult, name: str
) -> None:
    # Before: crashes and 100k-deep arguments were infra errors left out of n (pass^k rose);
    # a hang held the run forever.
    result = evaluate(getattr(misbehaving, name), **_options(eight_tasks))
    counts = result.summary.counts
    assert (counts.scored, counts.infra_error) == (32, 0)
    assert [result.pass_k(k) for k in KS] == [twin.pass_k(k) for k in KS]
    affected = [t for t in result.failing if misbehaving.picked(t.seed)]
    assert affected
    for trial in affected:
        assert trial.status == "scored"
        assert trial.reward == 0
        assert trial.stop_reason == "agent_error"
        assert trial.error is not None
        assert trial.error.kind == EXPECTED[name]
        assert trial.reasons[0].reason.startswith(EXPECTED[name])  # the report says what happened


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_assert_pass_k_judges_a_misbehaving_agent_like_its_twin(
    eight_tasks: Path, twin: EvalResult, name: str
) -> None:
    agent = getattr(misbehaving, name)
    for k in (1, 4):
        value = twin.pass_k(k)
        assert value is not None
        assert_pass_k(agent, k, value, **_options(eight_tasks))
        with pytest.raises(AssertionError, match=rf"pass\^{k} = {value:.3f} is below"):
            assert_pass_k(agent, k, min(1.0, value + 0.01), **_options(eight_tasks))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["crashing", "hanging", "deep"])
def test_taurec_eval_ranks_a_misbehaving_agent_like_its_twin(
    eight_tasks: Path, twin: EvalResult, tmp_path: Path, name: str
) -> None:
    # Before: the crashing agent scored pass^4 0.150 (its twin 0.100) and passed --min-pass 4=0.12.
    p4 = twin.pass_k(4)
    assert p4 is not None
    out = tmp_path / f"{name}.json"
    done = run_text(
        [
            str(TAUREC),
            "eval",
            f"tests.runner.evaluation.misbehaving:{name}",
            "--suite",
            str(eight_tasks),
            "--trials",
            "4",
            "--seed",
            "1",
            "--step-timeout",
            "0.3",
            "--min-pass",
            f"4={min(1.0, p4 + 0.01):.4f}",
            "--json",
            str(out),
        ]
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAILED: pass^4" in done.stdout
    result = EvalResult.model_validate(json.loads(out.read_text()))
    assert result.summary.counts.infra_error == 0
    assert [result.pass_k(k) for k in KS] == [twin.pass_k(k) for k in KS]


def test_a_run_the_board_would_not_rank_meets_no_threshold(twin: EvalResult) -> None:
    # Our side failing (a simulator outage) on more than 5 % of trials: pass^k over the rest
    # is not a score to pass a gate with, exactly as the board does not rank it.
    counts = twin.summary.counts
    lost = int(MAX_UNSCORED_SHARE * counts.trials) + 1
    summary = twin.summary.model_copy(
        update={
            "counts": counts.model_copy(
                update={"scored": counts.trials - lost, "infra_error": lost}
            )
        }
    )
    degraded = twin.model_copy(update={"summary": summary})
    assert standing(counts.trials, counts.trials - lost) == "incomplete"
    [why] = degraded.shortfalls({1: 0.0})
    assert why.startswith(f"not ranked: {lost} of {counts.trials} trials are infrastructure")
    assert twin.shortfalls({1: 0.0}) == []
