"""What a board is (`leaderboard.yaml`): suite, simulator, trials, turn limit and budget, read by run, leaderboard and eval."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, TypedDict, cast

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from runner.core.bounded_yaml import YamlLimitError, safe_load_bounded
from runner.core.domain import DEFAULT_STRICTNESS, Strictness
from runner.core.domains import DEFAULT_DOMAIN, get_domain, registered_domains
from runner.core.errors import LoadError, describe_validation_error
from runner.core.generation import SUITE_MARKER, suite_domain
from runner.core.paths import TASKS_DIR, v1_data_dir
from runner.core.rules import DEFAULT_RULES, RuleSetName
from runner.models.keys import KeyPolicyError

BOARD_SCHEMA_VERSION: Literal[1] = 1
BOARD_FILE = "leaderboard.yaml"
MAX_BOARD_BYTES = 16 * 1024
SUITES = ("ours", "v1")


class ScriptedSimulator(BaseModel):
    """The deterministic scripted user (no model, no key): the default everywhere."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["scripted"] = "scripted"

    @property
    def name(self) -> str:
        return "scripted"

    def options(self) -> dict[str, Any]:
        return {}


class LiteLLMSimulator(BaseModel):
    """LLM mode: the scripted user's decision engine with a model reader and a model writer (each
    checked, with the rules / templates as fallback); `api_base` points at any OpenAI-compatible
    server."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["litellm"] = "litellm"
    model: str = Field(min_length=1, description="LiteLLM model string, e.g. openai/gpt-4.1-mini")
    api_base: str | None = Field(default=None, description="Base URL of the model server")
    api_key_env: str | None = Field(
        default=None, description="Environment variable holding the key (never the key itself)"
    )
    temperature: float | None = Field(default=None, ge=0, le=2)
    timeout_s: float | None = Field(default=None, gt=0)
    reader: Literal["model", "rules"] | None = Field(
        default=None, description="Who reads agent messages (default: the model)"
    )
    writer: Literal["model", "templates"] | None = Field(
        default=None, description="Who words the user's replies (default: the model)"
    )
    reader_model: str | None = Field(
        default=None, min_length=1, description="Another model string for the reader"
    )
    writer_model: str | None = Field(
        default=None, min_length=1, description="Another model string for the writer"
    )
    speculate: bool | None = Field(
        default=None,
        description="Word the reply to the rule reader's reading while the model reads, kept when "
        "the model's reading leads to the same reply (default: true; same words, one wait per "
        "turn instead of two, a wrong guess costs one writer call)",
    )

    @property
    def name(self) -> str:
        return f"litellm:{self.model}"

    def options(self) -> dict[str, Any]:
        return self.model_dump(exclude={"kind", "model"}, exclude_none=True)

    def key_env(self) -> str | None:
        """The variable the user model may send (see `runner.models.keys.simulator_key_env`)."""
        from runner.models.keys import simulator_key_env

        return simulator_key_env(self.model, self.api_base, self.api_key_env)


SimulatorSettings = Annotated[ScriptedSimulator | LiteLLMSimulator, Field(discriminator="kind")]


class Budget(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_cost_usd: float | None = Field(
        default=None, ge=0, description="Stop scheduling trials once a run has spent this much"
    )


class BoardSettings(BaseModel):
    """One board: which tasks, which user, how many trials, how long a conversation, what budget."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = BOARD_SCHEMA_VERSION
    suite: str = Field(
        default="ours", description="ours (tasks/), v1 (the published v1 tasks) or a folder"
    )
    simulator: SimulatorSettings = Field(default_factory=ScriptedSimulator)
    trials: int = Field(default=4, ge=1, le=64, description="Trials per task on the board")
    max_turns: int = Field(default=20, ge=1, le=200)
    step_timeout_s: float = Field(
        default=300.0,
        gt=0,
        le=3600,
        description="Seconds one step of a Python agent may take; a late step is the agent's "
        "failure (endpoints are bounded by their own timeout_s)",
    )
    rules: RuleSetName = Field(
        default=DEFAULT_RULES,
        description="Rule set of every run on the board: v1 (the published evaluator, loop and "
        "tools, but for the listed differences) or v2",
    )
    budget: Budget = Field(default_factory=Budget)
    domains: list[str] = Field(
        default_factory=lambda: ["movies"],
        min_length=1,
        description="The domains this leaderboard has a board for (registry names); with suite "
        "`ours` each domain runs its own shipped suite",
    )
    strictness: Strictness = Field(
        default=DEFAULT_STRICTNESS,
        description="Which policy severities fail a trial: high (all), medium (critical and "
        "high), low (critical only); the rest only lower the severity-weighted policy score",
    )

    @field_validator("domains")
    @classmethod
    def _registered(cls, value: list[str]) -> list[str]:
        return registered_domains(value)

    def tasks_dir(self, relative_to: Path | None = None) -> Path:
        """The task folder the suite names (a relative folder is read from the board file's folder)."""
        if self.suite == "ours":
            return TASKS_DIR
        if self.suite == "v1":
            return v1_data_dir() / "tasks"
        path = Path(self.suite)
        if not path.is_absolute() and relative_to is not None:
            path = relative_to / path
        return path

    def rows(self) -> list[tuple[str, str]]:
        """(setting, value) pairs as the site shows them."""
        sim = self.simulator
        simulator = sim.name
        if isinstance(sim, LiteLLMSimulator) and sim.api_base:
            simulator += f" at {sim.api_base}"
        budget = self.budget.max_cost_usd
        return [
            ("suite", self.suite),
            ("user simulator", simulator),
            ("trials per task", str(self.trials)),
            ("max turns", str(self.max_turns)),
            ("step timeout", f"{self.step_timeout_s:g} s"),
            ("rule set", self.rules),
            ("policy strictness", self.strictness),
            ("budget per run", "none" if budget is None else f"USD {budget:g}"),
        ]


def resolve_suite(
    suite: str | Path, snapshot: str | Path | None, domain: str = DEFAULT_DOMAIN
) -> tuple[Path, str | Path | None]:
    """`ours` → the domain's shipped suite (movies: tasks/); `v1` → the v1 tasks (and, unless
    given, the v1 catalog; movies only); else a folder."""
    if suite == "v1":
        if domain != DEFAULT_DOMAIN:
            raise LoadError(Path(str(suite)), [f"suite v1 is a movies suite, not {domain}"])
        root = v1_data_dir()
        if not (root / "tasks").is_dir():
            raise LoadError(root, ["the τ-Rec v1 data is not here (set TAUREC_V1_DATA)"])
        return root / "tasks", snapshot if snapshot is not None else root / "catalog.json"
    if suite == "ours":
        return (TASKS_DIR if domain == DEFAULT_DOMAIN else get_domain(domain).tasks_dir), snapshot
    path = Path(suite)
    if not path.is_dir():
        raise LoadError(path, [f"suite {str(suite)!r} is neither ours nor v1 nor a folder"])
    return path, snapshot


class RunArgs(TypedDict):
    """A run's board settings as `run_submissions` and `evaluate` take them, keyword for keyword
    (`RunSettings.run_args()`; the suite and snapshot are passed on their own)."""

    simulator: str
    simulator_options: dict[str, Any] | None
    max_turns: int
    max_cost: float | None
    rules: RuleSetName
    step_timeout_s: float
    domain: str
    strictness: Strictness


@dataclass(frozen=True)
class RunSettings:
    """The settings of one run: the board file's, with whatever flags the caller gave on top."""

    tasks_dir: Path
    snapshot: str | Path | None
    simulator: str
    simulator_options: dict[str, Any] | None
    max_turns: int
    max_cost: float | None
    rules: RuleSetName = DEFAULT_RULES
    step_timeout_s: float = 300.0
    domain: str = DEFAULT_DOMAIN
    strictness: Strictness = DEFAULT_STRICTNESS

    def run_args(self) -> RunArgs:
        """The settings every run call takes (one object, not eight keywords written out)."""
        return cast(RunArgs, {name: getattr(self, name) for name in RunArgs.__annotations__})


def _named_domain(suite: str | Path | None) -> str | None:
    """The domain a suite folder names in its marker (a generated suite), else None."""
    if suite is None or suite in SUITES or not Path(suite).is_dir():
        return None
    return suite_domain(Path(suite))


def merge_flags(
    board: BoardSettings,
    board_file: Path | None,
    *,
    suite: str | Path | None = None,
    snapshot: str | Path | None = None,
    simulator: str | None = None,
    max_turns: int | None = None,
    max_cost: float | None = None,
    rules: RuleSetName | None = None,
    step_timeout_s: float | None = None,
    domain: str | None = None,
    strictness: Strictness | None = None,
) -> RunSettings:
    """Flags override the board; a simulator flag naming the board's simulator keeps its options.
    The domain is the flag's, else the one a suite folder names (its `suite.json`), else the
    board's first; a flag contradicting the suite folder is an error."""
    named = _named_domain(suite)
    if domain is not None and named is not None and named != domain:
        raise LoadError(
            Path(str(suite)) / SUITE_MARKER,
            [f"field 'domain': this suite is a {named} suite, but --domain says {domain}"],
        )
    domain = domain if domain is not None else (named or board.domains[0])
    get_domain(domain)  # an unknown name fails here, with the known ones
    if suite is None:
        suite = board.suite
        if suite not in SUITES:
            suite = board.tasks_dir(None if board_file is None else board_file.parent)
    tasks_dir, snapshot = resolve_suite(suite, snapshot, domain)
    name = simulator if simulator is not None else board.simulator.name
    options = board.simulator.options() if name == board.simulator.name else {}
    return RunSettings(
        tasks_dir=tasks_dir,
        snapshot=snapshot,
        simulator=name,
        simulator_options=options or None,
        max_turns=max_turns if max_turns is not None else board.max_turns,
        max_cost=max_cost if max_cost is not None else board.budget.max_cost_usd,
        rules=rules if rules is not None else board.rules,
        step_timeout_s=step_timeout_s if step_timeout_s is not None else board.step_timeout_s,
        domain=domain,
        strictness=strictness if strictness is not None else board.strictness,
    )


def find_board_file(start: Path | None = None) -> Path | None:
    """`leaderboard.yaml` in `start` (default: the current directory) or the nearest parent."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / BOARD_FILE
        if candidate.is_file():
            return candidate
    return None


def load_board(path: Path | str) -> BoardSettings:
    """Read a board file with a safe, duplicate-refusing YAML loader; errors name file and field."""
    from runner.submissions.config import _StrictLoader

    path = Path(path)
    if not path.is_file():
        raise LoadError(path, ["board settings file not found"])
    data = path.read_bytes()
    if len(data) > MAX_BOARD_BYTES:
        raise LoadError(path, [f"larger than {MAX_BOARD_BYTES} bytes"])
    try:
        raw = safe_load_bounded(data.decode("utf-8"), loader=_StrictLoader)
    except YamlLimitError as exc:
        raise LoadError(path, [f"refused YAML: {exc}"]) from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise LoadError(path, [f"invalid YAML: {exc}"]) from exc
    try:
        settings = BoardSettings.model_validate(raw if raw is not None else {})
    except ValidationError as exc:
        raise LoadError(path, describe_validation_error(exc)) from exc
    if isinstance(settings.simulator, LiteLLMSimulator):
        try:
            settings.simulator.key_env()
        except KeyPolicyError as exc:
            raise LoadError(path, [f"simulator.api_key_env: {exc}"]) from None
        from runner.models.provider_paths import config_problem

        user = settings.simulator
        for field, model in (
            ("model", user.model),
            ("reader_model", user.reader_model),
            ("writer_model", user.writer_model),
        ):
            problem = config_problem(model, user.api_base) if model else None
            if problem:
                raise LoadError(path, [f"simulator.{field}: {problem}"])
    if settings.suite not in SUITES and not settings.tasks_dir(path.parent).is_dir():
        raise LoadError(
            path, [f"suite: {settings.suite!r} is neither ours nor v1 nor an existing folder"]
        )
    return settings


def board_settings(path: Path | str | None = None) -> tuple[BoardSettings, Path | None]:
    """The given board file, else the nearest `leaderboard.yaml` up from the current directory,
    else the defaults (scripted user, 4 trials, 20 turns, no budget). Returns the file used too."""
    file = Path(path) if path is not None else find_board_file()
    if file is None:
        return BoardSettings(), None
    return load_board(file), file
