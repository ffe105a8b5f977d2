"""leaderboard.yaml: loading with clear errors, flags over the file, and the simulator's api_base reaching a local server."""

from __future__ import annotations

import inspect
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml
from click.testing import CliRunner

from runner.batch import read_manifest
from runner.batch.engine import run_submissions_async
from runner.cli import cli
from runner.core.board import (
    BOARD_FILE,
    BoardSettings,
    board_settings,
    find_board_file,
    load_board,
    merge_flags,
)
from runner.core.errors import LoadError
from runner.core.paths import PROJECT_ROOT, TASKS_DIR
from runner.evaluation.run import evaluate_async
from tests.entries import write_entry
from tests.loopback import QuietHandler, completion, send_json, serving


def _write(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / BOARD_FILE
    path.write_text(text)
    return path


def test_the_committed_board_file_loads_and_is_the_default() -> None:
    # The defaults, but for a board per domain: movies (the defaults' only one) and grocery.
    committed = load_board(PROJECT_ROOT / BOARD_FILE)
    assert committed == BoardSettings(domains=["movies", "grocery"], strictness="high")
    assert find_board_file(PROJECT_ROOT / "runner") == PROJECT_ROOT / BOARD_FILE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("schema_version: 1\ntrails: 4\n", "trails"),
        ("trials: 4\ntrials: 8\n", "duplicate key 'trials'"),
        ("max_turns: 0\n", "max_turns"),
        ("simulator: {kind: litellm}\n", "simulator.litellm.model"),
        ("simulator: {kind: llm, model: x}\n", "simulator"),
        ("suite: no/such/folder\n", "suite: 'no/such/folder' is neither"),
        ("schema_version: 2\n", "schema_version"),
        ("trials: [\n", "invalid YAML"),
        ("!!python/object/apply:os.system ['true']\n", "invalid YAML"),
    ],
)
def test_bad_board_files_name_the_file_and_field(tmp_path: Path, text: str, expected: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(LoadError) as caught:
        load_board(path)
    message = str(caught.value)
    assert str(path) in message
    assert expected in message


def test_an_oversized_board_file_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "# " + "x" * 20_000 + "\ntrials: 4\n")
    with pytest.raises(LoadError, match="larger than"):
        load_board(path)


def test_flags_override_the_file_and_a_relative_suite_is_read_from_its_folder(
    tmp_path: Path,
) -> None:
    suite = tmp_path / "board" / "my-tasks"
    shutil.copytree(TASKS_DIR, suite)
    path = _write(
        tmp_path / "board",
        "suite: my-tasks\nmax_turns: 7\nbudget: {max_cost_usd: 3}\n"
        "simulator: {kind: litellm, model: openai/u, api_base: 'http://127.0.0.1:9/v1'}\n",
    )
    board, file = board_settings(path)
    settings = merge_flags(board, file)
    assert settings.tasks_dir == suite
    assert (settings.max_turns, settings.max_cost) == (7, 3)
    assert settings.simulator == "litellm:openai/u"
    assert settings.simulator_options == {"api_base": "http://127.0.0.1:9/v1"}
    flagged = merge_flags(board, file, suite="ours", simulator="scripted", max_turns=3, max_cost=1)
    assert flagged.tasks_dir == TASKS_DIR
    assert (flagged.simulator, flagged.simulator_options) == ("scripted", None)
    assert (flagged.max_turns, flagged.max_cost) == (3, 1)
    # One object hands every run call the same settings, under the names those calls take.
    args = flagged.run_args()
    assert args == {
        "simulator": "scripted",
        "simulator_options": None,
        "max_turns": 3,
        "max_cost": 1,
        "rules": board.rules,
        "step_timeout_s": board.step_timeout_s,
        "domain": "movies",
        "strictness": board.strictness,
    }
    for run_call in (run_submissions_async, evaluate_async):
        assert set(args) <= set(inspect.signature(run_call).parameters)


class _User(QuietHandler):
    """An OpenAI-compatible model that always plays a user who wants to keep talking."""

    seen: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append(body)
        reply = json.dumps({"message": "Something cheerful, please.", "verdict": "continue"})
        send_json(self, completion(reply, body["model"], 5, 5))


@pytest.fixture
def user_model() -> Iterator[str]:
    _User.seen = []
    with serving(_User) as server:
        yield f"http://127.0.0.1:{server.server_port}/v1"


def test_taurec_run_reads_the_board_simulator_api_base_and_turn_limit(
    tmp_path: Path, user_model: str
) -> None:
    board = _write(
        tmp_path / "board",
        yaml.safe_dump(
            {
                "simulator": {
                    "kind": "litellm",
                    "model": "openai/user-model",
                    "api_base": user_model,
                    "timeout_s": 5,
                },
                "max_turns": 2,
            }
        ),
    )
    sub = write_entry(
        tmp_path / "subs" / "asker",
        {"kind": "builtin", "name": "random"},
        display_name="Asker",
        contact="T",
        trials=1,
    )
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    shutil.copy(sorted(TASKS_DIR.glob("*.json"))[0], tasks)
    shutil.copy(TASKS_DIR / "policy.md", tasks)
    result = CliRunner().invoke(
        cli, ["run", str(sub), "--board", str(board), "--tasks", str(tasks), "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    [folder] = (tmp_path / "asker" / "results").iterdir()
    manifest = read_manifest(folder)
    assert manifest is not None
    assert manifest.simulator.name == "litellm:openai/user-model"
    assert manifest.simulator.args["api_base"] == user_model
    assert manifest.max_turns == 2
    assert _User.seen, "the simulator's calls went to the board's api_base"
    assert _User.seen[0]["model"] == "user-model"
    # A flag overrides the file: the scripted user, no model call.
    calls = len(_User.seen)
    again = CliRunner().invoke(
        cli,
        ["run", str(sub), "--board", str(board), "--tasks", str(tasks), "--simulator",
         "scripted", "--out", str(tmp_path / "flag")],
    )  # fmt: skip
    assert again.exit_code == 0, again.output
    assert len(_User.seen) == calls
    [folder] = (tmp_path / "flag" / "asker" / "results").iterdir()
    flagged = read_manifest(folder)
    assert flagged is not None
    assert flagged.simulator.name == "scripted"
    assert flagged.max_turns == 2
