"""A minimal domain (a tea shop of five teas) showing the whole `runner.core.domain.Domain` contract in one file.

It is what `docs/write-a-domain.md` walks through and what the tests register with one line
(`REGISTRY["tiny"] = "tiny_domain:TinyDomain"`) to prove that a domain needs nothing else.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from runner.core.domain import DEFAULT_STRICTNESS, AgentBuilder, Domain, Strictness, fails_trial
from runner.core.errors import LoadError, describe_validation_error
from runner.core.predicates import (
    Complexity,
    Op,
    RevealDifficulty,
    check_predicate,
    evaluate_predicate,
)
from runner.core.protocols import (
    Agent,
    AgentContext,
    AgentReply,
    ChatMessage,
    ToolCallRequest,
    ToolOutcome,
    ToolSchema,
    UserTurn,
)
from runner.core.records import PolicyResult, TrialScore
from runner.core.rules import RuleSet
from runner.core.toolkit import Stop, ToolError, definition_of, json_text, parse_arguments, tool
from runner.core.transcript import ComponentSpec, MessageEvent, ToolCallEvent, Transcript
from runner.play.agent_config import ToolsetOptions

HERE = Path(__file__).resolve().parent

# ---- the item, its field table, the catalog -----------------------------------------------------


class Tea(BaseModel):
    """One tea."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^tea_\d+$")
    name: str
    caffeine: bool
    price: float = Field(gt=0)


FIELD_KINDS = {"id": "text", "name": "text", "caffeine": "bool", "price": "number"}


class TeaCatalog:
    """The teas of one snapshot, by id, with the digest runs are keyed on."""

    def __init__(self, teas: list[Tea]) -> None:
        self.items = tuple(teas)
        self._by_id = {t.id: t for t in teas}

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._by_id

    def get(self, item_id: str) -> Tea | None:
        return self._by_id.get(item_id)

    def digest(self) -> str:
        data = [t.model_dump(mode="json") for t in self.items]
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


# ---- the task -----------------------------------------------------------------------------------


class TeaConstraint(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    op: Op
    value: bool | float | str

    def model_post_init(self, _: Any) -> None:
        check_predicate(self.field, self.op, self.value, FIELD_KINDS)


class TeaTask(BaseModel):
    """One shopper: what they say they want, the grid cell, whether nothing fits."""

    model_config = ConfigDict(extra="forbid")

    id: str
    wish: str = Field(description="The shopper's opening line")
    constraints: list[TeaConstraint] = Field(min_length=1)
    complexity: Complexity = "simple"
    reveal_difficulty: RevealDifficulty = "volunteer"
    no_valid_recommendation: bool = False
    user_id: str = "user_1"

    def fits(self, tea: Tea) -> bool:
        return all(
            evaluate_predicate(c.field, c.op, c.value, getattr(tea, c.field)).satisfied
            for c in self.constraints
        )


def _load_json(path: Path, model: type[BaseModel]) -> Any:
    try:
        return model.model_validate_json(path.read_bytes())
    except ValidationError as exc:
        raise LoadError(path, describe_validation_error(exc)) from None
    except OSError as exc:
        raise LoadError(path, [str(exc)]) from None


# ---- the tools ----------------------------------------------------------------------------------


class TeaTools:
    """Two tools: list the teas, and choose one (which ends the trial)."""

    def __init__(self, catalog: TeaCatalog) -> None:
        self._catalog = catalog
        self._definitions = {
            d.name: d for d in (definition_of(f) for f in (TeaTools.list_teas, TeaTools.choose))
        }

    @property
    def names(self) -> list[str]:
        return list(self._definitions)

    def schemas(self) -> list[ToolSchema]:
        return [d.schema() for d in self._definitions.values()]

    @tool
    def list_teas(self) -> list[dict[str, Any]]:
        """Every tea with its caffeine and price."""
        return [t.model_dump(mode="json") for t in self._catalog.items]

    @tool
    def choose(
        self, tea_id: Annotated[str, Field(description="The id of the tea to sell")]
    ) -> Stop:
        """Sell the shopper this tea; the conversation ends."""
        if tea_id not in self._catalog:
            raise ToolError(f"no tea {tea_id!r}")
        return Stop({"sold": tea_id}, stop="recommended", item_id=tea_id)

    def call(self, name: str, arguments: str | dict[str, Any]) -> ToolOutcome:
        parsed = parse_arguments(arguments)
        if isinstance(parsed, str) or name not in self._definitions:
            problem = parsed if isinstance(parsed, str) else f"unknown tool {name!r}"
            return ToolOutcome(content=json_text({"error": problem}), is_error=True)
        try:
            args = self._definitions[name].args_model.model_validate(parsed)
            result = getattr(self, name)(**dict(args))
        except (ValidationError, ToolError) as exc:
            return ToolOutcome(
                content=json_text({"error": str(exc)}), is_error=True, arguments=parsed
            )
        if isinstance(result, Stop):
            return ToolOutcome(
                content=json_text(result.payload),
                arguments=parsed,
                stop=result.stop,
                item_id=result.item_id,
            )
        return ToolOutcome(content=json_text(result), arguments=parsed)


# ---- the user -----------------------------------------------------------------------------------


class TeaShopper:
    """States the wish, then answers every other message by asking for a tea."""

    def __init__(self, task: TeaTask) -> None:
        self._task = task

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="scripted")

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        if sum(m.role == "user" for m in conversation) == 0:
            return UserTurn(content=self._task.wish)
        return UserTurn(content="Which tea would you sell me?")


# ---- the agents ---------------------------------------------------------------------------------


class _Picker:
    """Lists the teas, then chooses the first the shopper's wish allows (`careful`) or the first."""

    def __init__(self, context: AgentContext, careful: bool) -> None:
        self._task: TeaTask | None = context.task if careful else None
        self._name = "picker" if careful else "first"

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name=self._name)

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        del tools
        listed = [m for m in messages if m.get("role") == "tool"]
        if not listed:
            return AgentReply(tool_calls=[ToolCallRequest(id="call_1", name="list_teas")])
        teas = [Tea.model_validate(t) for t in json.loads(listed[-1]["content"])]
        fitting = [t for t in teas if self._task is None or self._task.fits(t)]
        if not fitting:
            return AgentReply(content="None of our teas fits, sorry.")
        choice = ToolCallRequest(id="call_2", name="choose", arguments={"tea_id": fitting[0].id})
        return AgentReply(content=f"I suggest {fitting[0].name}.", tool_calls=[choice])


# ---- the domain ---------------------------------------------------------------------------------


class TinyDomain(Domain):
    """Five teas, two tools, a one-line shopper, one policy."""

    name = "tiny"
    title = "Tiny tea shop"
    item_noun = "tea"
    greeting = "Hello, welcome to the tea shop. What would you like?"

    @property
    def agent_instructions(self) -> str:
        return "You sell tea. Find the tea that fits the shopper and sell it with `choose`."

    @property
    def snapshots_dir(self) -> Path:
        return HERE / "snapshots"

    @property
    def tasks_dir(self) -> Path:
        return HERE / "tasks"

    def policy_path(self, tasks_dir: Path) -> Path:
        return tasks_dir / "policy.md"

    def load_catalog(self, snapshot_dir: Path) -> TeaCatalog:
        file = snapshot_dir / "catalog.json" if snapshot_dir.is_dir() else snapshot_dir
        try:
            raw = json.loads(file.read_text(encoding="utf-8"))
            return TeaCatalog([Tea.model_validate(r) for r in raw])
        except ValidationError as exc:
            raise LoadError(file, describe_validation_error(exc)) from None

    def load_task(self, path: Path) -> TeaTask:
        task: TeaTask = _load_json(path, TeaTask)
        return task

    def load_tasks(self, tasks_dir: Path) -> Sequence[TeaTask]:
        return [
            self.load_task(p) for p in sorted(tasks_dir.glob("*.json")) if p.name != "suite.json"
        ]

    def build_toolset(
        self,
        catalog: TeaCatalog,
        task: TeaTask,
        options: ToolsetOptions | None,
        rules: RuleSet,
        seed: int,
    ) -> TeaTools:
        del task, options, rules, seed
        return TeaTools(catalog)

    def build_user(
        self,
        name: str,
        *,
        task: TeaTask,
        catalog: TeaCatalog,
        seed: int,
        options: dict[str, Any] | None,
    ) -> TeaShopper:
        del catalog, seed
        if name != "scripted" or options:
            raise LoadError(Path(name), ["the tiny domain has only the scripted shopper"])
        return TeaShopper(task)

    def score(
        self,
        task: TeaTask,
        transcript: Transcript,
        catalog: TeaCatalog,
        rules: RuleSet,
        strictness: Strictness = DEFAULT_STRICTNESS,
    ) -> TrialScore:
        del rules
        sold = transcript.final_recommendation
        tea = catalog.get(sold) if sold else None
        checks = (
            [
                evaluate_predicate(c.field, c.op, c.value, getattr(tea, c.field))
                for c in task.constraints
            ]
            if tea is not None
            else []
        )
        if task.no_valid_recommendation:
            constraint = 1.0 if sold is None else 0.0
        else:
            constraint = 1.0 if checks and all(c.satisfied for c in checks) else 0.0
        listed = any(
            isinstance(e, ToolCallEvent) and e.name == "list_teas" for e in transcript.events
        )
        policy = PolicyResult(
            policy="look_before_selling",
            passed=listed or sold is None,
            severity=1.0,
            reason="the agent listed the teas first" if listed else "sold without looking",
        )
        failed = not policy.passed and fails_trial(policy.severity, strictness)
        return TrialScore(
            recommendation=sold,
            abstained=transcript.stop_reason == "abstained",
            constraint_score=constraint,
            policy_score=0.0 if failed else 1.0,
            reward=constraint * (0.0 if failed else 1.0),
            weighted_policy_score=1.0 if policy.passed else 0.0,
            constraints=checks,
            constraint_reason="the tea fits" if constraint else "the tea does not fit",
            policies=[policy],
        )

    def count_proposals(self, transcript: Transcript, catalog: TeaCatalog) -> int:
        return len(transcript.recommendations)

    def baselines(self) -> Mapping[str, AgentBuilder]:
        def picker(context: AgentContext, args: dict[str, Any]) -> Agent:
            return _Picker(context, careful=True)

        def first(context: AgentContext, args: dict[str, Any]) -> Agent:
            return _Picker(context, careful=False)

        return {"picker": picker, "first": first}

    def oracle_agents(self) -> tuple[str, ...]:
        # The picker reads the task (it is this shop's oracle); `first` sees what a submission sees.
        return ("picker",)
