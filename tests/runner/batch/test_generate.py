"""`taurec tasks generate`: a small suite per domain passes the gate, is byte-identical for a seed, and names nothing public."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from domains.movies.simulators.scripted import persona_line
from domains.movies.simulators.vocabulary import FIELD_TOPIC, TOPIC_WORDS, topic_cues
from domains.movies.wording import CUES, WHO
from runner.batch.generate import generate_suite
from runner.cli import cli
from runner.core.domains import get_domain
from runner.core.errors import LoadError, TaurecError
from runner.core.generation import held_back, seed_from_secret, usable_wordings

SNAPSHOT = "2026-11-01"
OPAQUE = re.compile(r"^[tuo]_[0-9a-f]{10}$")


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _public_ids(domain: str) -> set[str]:
    """Every task and user id of the committed suite: none may reappear in a generated one."""
    owner = get_domain(domain)
    tasks = owner.load_tasks(owner.tasks_dir)
    return {t.id for t in tasks} | {t.user_id for t in tasks}


@pytest.mark.parametrize(("domain", "count"), [("movies", 3), ("grocery", 3)])
def test_generated_suite_passes_the_gate_is_reproducible_and_opaque(
    tmp_path: Path, domain: str, count: int
) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    result = generate_suite(domain, SNAPSHOT, 11, first, count)
    generate_suite(domain, SNAPSHOT, 11, second, count)
    assert result.tasks == count
    assert _files(first) == _files(second)  # same snapshot and seed: byte-identical
    owner = get_domain(domain)
    report = owner.audit_suite(SNAPSHOT, first, 2)
    assert report.ok, report.text + "\n".join(report.failures)
    tasks = owner.load_tasks(first)
    assert {t.reveal_difficulty for t in tasks} >= {"hidden", "mixed", "volunteer"}
    public = _public_ids(domain)
    for task in tasks:
        assert OPAQUE.match(task.id), task.id
        assert task.id.startswith("t_")
        assert OPAQUE.match(task.user_id), task.user_id
        assert task.user_id.startswith("u_")
        assert task.id not in public
        assert task.user_id not in public
        raw = json.loads((first / f"{task.id}.json").read_text(encoding="utf-8"))
        for order in raw.get("past_orders", []):
            assert OPAQUE.match(order["order_id"]), order["order_id"]
        assert set(raw.get("user_history", {})) <= {task.user_id}
    marker = json.loads((first / "suite.json").read_text(encoding="utf-8"))
    assert marker["domain"] == domain
    assert marker["generated"]["seed_source"] == "seed 11"
    # Another seed draws other tasks under other ids.
    third = tmp_path / "c"
    generate_suite(domain, SNAPSHOT, 12, third, 1)
    assert not {p.name for p in third.glob("t_*.json")} & {p.name for p in first.glob("t_*.json")}


def test_the_secret_seed_is_an_hmac_of_the_snapshot_date(tmp_path: Path) -> None:
    seed = seed_from_secret("a long secret", "2026-11-01")
    assert seed == seed_from_secret(b"a long secret", "2026-11-01")
    assert seed != seed_from_secret("a long secret", "2026-10-01")
    assert seed != seed_from_secret("another secret", "2026-11-01")
    assert 0 <= seed < 2**63
    with pytest.raises(TaurecError, match="empty"):
        seed_from_secret("", "2026-11-01")
    runner = CliRunner()
    out = tmp_path / "split"
    args = ["tasks", "generate", "--domain", "grocery", "--count", "1", "--out", str(out)]
    args += ["--snapshot", SNAPSHOT, "--secret-env", "TAUREC_TEST_SPLIT_SECRET"]
    missing = runner.invoke(cli, args, env={"TAUREC_TEST_SPLIT_SECRET": ""})
    assert missing.exit_code != 0
    assert "TAUREC_TEST_SPLIT_SECRET" in f"{missing.output}{missing.exception}"
    done = runner.invoke(cli, args, env={"TAUREC_TEST_SPLIT_SECRET": "a long secret"})
    assert done.exit_code == 0, done.output
    expected = tmp_path / "by-seed"
    generate_suite("grocery", SNAPSHOT, seed, expected, 1)
    written = {k: v for k, v in _files(out).items() if k != "suite.json"}
    assert written == {k: v for k, v in _files(expected).items() if k != "suite.json"}
    marker = json.loads((out / "suite.json").read_text(encoding="utf-8"))
    assert marker["generated"]["seed_source"] == "secret $TAUREC_TEST_SPLIT_SECRET"
    assert str(seed) not in (out / "suite.json").read_text(encoding="utf-8")


def test_held_back_wording_is_only_in_test_splits() -> None:
    for phrases in [WHO, *CUES.values()]:
        dev = usable_wordings(phrases, "dev")
        assert (dev and not any(held_back(p) for p in dev)) or len(dev) == 1
        assert set(usable_wordings(phrases, "test")) == set(phrases)
        assert any(held_back(p) for p in phrases), "every list keeps a share for test splits"


@pytest.mark.parametrize("topic", sorted(CUES))
def test_every_cue_names_its_topic_with_documented_vocabulary(topic: str) -> None:
    from domains.movies.tasks import Task

    assert topic in TOPIC_WORDS
    assert topic in FIELD_TOPIC.values()
    for clause in CUES[topic]:
        sentence = f"You are {WHO[0]}, and {clause}."
        task = Task.model_validate(
            {
                "id": "t_0000000000",
                "persona": sentence,
                "constraints": [
                    {
                        "constraint": {"field": "genres", "op": "contains", "value": "Drama"},
                        "reveal": "volunteer",
                    }
                ],
                "complexity": "simple",
                "reveal_difficulty": "volunteer",
            }
        )
        line = persona_line(task)  # the user says it: it names no value and no direction
        assert line is not None, clause
        assert topic_cues(line) == [topic], (clause, topic_cues(line))


def test_a_generated_grocery_split_holds_its_strata_rule(tmp_path: Path) -> None:
    """No fixed prior wins the hidden stratum and no question-less prober the mixed or hidden
    one: the generator's gate enforces it, and replaying the players on the written split agrees."""
    from domains.grocery.catalog import load_catalog
    from domains.grocery.strata import strata
    from domains.grocery.tasks import ACCOUNT_KINDS
    from runner.core.generation import MAX_STRATUM_WIN

    out = tmp_path / "split"
    generate_suite("grocery", SNAPSHOT, 23, out, 6, "test")
    owner = get_domain("grocery")
    tasks = owner.load_tasks(out)
    assert sum(t.reveal_difficulty == "hidden" for t in tasks) == 2
    assert sum(t.reveal_difficulty == "mixed" for t in tasks) == 2
    catalog = load_catalog(owner.snapshots_dir / SNAPSHOT)
    for task in tasks:
        assert not strata(catalog).problems(task), task.id
        if task.kind in ACCOUNT_KINDS:
            # An account task's shopper says who they are only when asked.
            assert task.requests, task.id
        elif task.reveal_difficulty != "volunteer" and not task.no_valid_recommendation:
            # Only asking wins: some need is told on asking only (a taste, the allergy or the
            # budget).
            asked = any(tc.reveal == "on_ask" for tc in task.constraints)
            asked |= bool(task.allergies) and task.allergy_reveal == "on_ask"
            asked |= task.budget is not None and task.budget_reveal == "on_ask"
            assert asked, task.id
    ok, lines, behind = strata(catalog).gate(tasks)
    assert ok, lines
    assert not behind
    # The prober on mixed; every fixed prior and the prober on hidden: for shopping and account
    # apart.
    from domains.grocery.strata import FIXED_PRIORS

    figures = 2 * (1 + len(FIXED_PRIORS) + 1)
    assert len(lines) == figures
    marker = json.loads((out / "suite.json").read_text(encoding="utf-8"))
    written = "\n".join(marker["generated"]["gate"])
    assert "strata FAIL" not in written
    assert "not enforced" not in written
    assert written.count("strata pass") == figures
    assert f"(<= {MAX_STRATUM_WIN})" in written


def test_eval_reads_a_generated_suite_s_domain_from_its_folder(tmp_path: Path) -> None:
    """`taurec eval AGENT --suite DIR` on a generated grocery folder needs no --domain (its
    suite.json names it); a --domain contradicting the folder is an error naming the file."""
    out = tmp_path / "split"
    generate_suite("grocery", SNAPSHOT, 31, out, 2, "test")
    runner = CliRunner()
    args = ["eval", "expert", "--suite", str(out), "--snapshot", SNAPSHOT, "--trials", "1"]
    done = runner.invoke(cli, args)
    assert done.exit_code == 0, done.output
    assert "pass^1" in done.output
    wrong = runner.invoke(cli, [*args, "--domain", "movies"])
    assert isinstance(wrong.exception, LoadError), wrong.output
    message = str(wrong.exception)
    assert str(out / "suite.json") in message
    assert "field 'domain': this suite is a grocery suite, but --domain says movies" in message


def test_a_movies_split_of_any_size_draws_the_dev_grid() -> None:
    """The generator's grid is the committed dev suite's make-up (complexity, reveal, no valid
    answer, genre told only on asking), interleaved so that a split of any size has dev's shares:
    a 30-task split was a third per stratum, which made it easier than dev."""
    from collections import Counter

    from domains.movies.generate import dev_grid

    tasks = get_domain("movies").load_tasks(get_domain("movies").tasks_dir)
    grid = dev_grid()
    assert Counter((c.complexity, c.reveal, c.nvr) for c in grid) == Counter(
        (t.complexity, t.reveal_difficulty, t.no_valid_recommendation) for t in tasks
    )
    # A mixed cell keeps its dev task's hidden constraints (a third of dev's mixed tasks hold one).
    assert Counter(c.hidden for c in grid if c.reveal == "mixed") == Counter(
        sum(tc.reveal == "hidden" for tc in t.constraints)
        for t in tasks
        if t.reveal_difficulty == "mixed"
    )
    assert any(c.hidden for c in grid if c.reveal == "mixed")
    whole = Counter(c.reveal for c in grid)
    for size in range(1, len(grid) + 1):
        prefix = Counter(c.reveal for c in grid[:size])
        for reveal, n in whole.items():
            assert abs(prefix[reveal] - n * size / len(grid)) <= 1, (size, reveal)


def test_a_mixed_movies_draft_holds_its_cell_s_hidden_constraints() -> None:
    """A mixed draft has the hidden constraints its dev cell has, beside at least one on_ask one:
    drafts without them (movies-generate/2) let an agent that asks every topic and then
    recommends at once win a split's mixed stratum far more often than dev's."""
    from domains.movies.generate import Cell, draft_task
    from runner.batch.inputs import resolve_snapshot
    from runner.core.generation import derive_rng

    catalog = resolve_snapshot(SNAPSHOT, domain=get_domain("movies")).catalog
    for hidden in (0, 1):
        cell = Cell("medium", "mixed", hidden=hidden)
        drafts = [
            draft_task(cell, catalog, derive_rng(5, "mixed", hidden, n), "t_x", "u_x", "test")
            for n in range(40)
        ]
        made = [d for d in drafts if d is not None]
        assert len(made) >= 5, f"only {len(made)} of 40 drafts for {cell}"
        for task in made:
            reveals = [tc.reveal for tc in task.constraints]
            assert reveals.count("hidden") == hidden, reveals
            assert "on_ask" in reveals, reveals
