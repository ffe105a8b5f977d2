"""A tiny domain (a tea shop of five teas) built on the kits: the whole `Domain` contract in one file.

What `docs/write-a-domain.md` walks through and the tests register with one line. It writes only
what is its own (the tea, tasks, tools, words, act parts, templates, policy, agents); the user's
machinery comes from `runner.kits.user`, the till's replay and comparison from `runner.kits.store`.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from runner.core.domain import (
    DEFAULT_STRICTNESS,
    AgentBuilder,
    Domain,
    Strictness,
    load_task_file,
    load_task_folder,
)
from runner.core.errors import LoadError, TaurecError
from runner.core.item_catalog import ItemCatalog
from runner.core.predicates import (
    Complexity,
    FieldConstraint,
    RevealDifficulty,
    RevealedConstraint,
    field_kinds,
)
from runner.core.protocols import (
    AgentContext,
    AgentReply,
    ChatMessage,
    ToolCallRequest,
    ToolSchema,
    UserTurn,
)
from runner.core.records import PolicyResult, TrialScore, policy_scores, unscorable
from runner.core.rules import RuleSet
from runner.core.toolkit import Stop, definition_of, tool
from runner.core.transcript import ComponentSpec, LeakAudit, MessageEvent, ToolCallEvent, Transcript
from runner.kits.store.store import (
    Action,
    StoreError,
    StoreTools,
    replay,
    state_differences,
    trial_writes,
)
from runner.kits.user.acts import ActPartBase, HoldBack, ReplyActBase, SharedPart
from runner.kits.user.leaks import audit_transcript, leak_at
from runner.kits.user.ledger import Ledger, Questions, answerable
from runner.kits.user.writer import Bank, Keyed, TemplateWriterBase, join_list
from runner.play.agent_config import ToolsetOptions

HERE = Path(__file__).resolve().parent

# ---- the item and its catalog (the field table is read from the model) ----------------------------


class Tea(BaseModel):
    """One tea."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^tea_\d+$")
    name: str
    caffeine: bool
    price: float = Field(gt=0)


class TeaCatalog(ItemCatalog[Tea]):
    item_model = Tea
    record_noun = "tea"


# ---- the task: constraints with reveal tags, and the gold sale ------------------------------------


class TeaConstraint(FieldConstraint):
    field_kinds = field_kinds(Tea)


class TaskConstraint(RevealedConstraint[TeaConstraint]):
    """One wish of the shopper and when the shopper says it."""


class TeaTask(BaseModel):
    """One shopper: its wishes, the sale that wins (none: nothing fits), the grid cell."""

    model_config = ConfigDict(extra="forbid")

    id: str
    constraints: list[TaskConstraint] = Field(min_length=1)
    gold: list[Action] = Field(description="The write calls that win, in order")
    complexity: Complexity = "simple"
    reveal_difficulty: RevealDifficulty = "volunteer"
    no_valid_recommendation: bool = False
    user_id: str = "user_1"

    def fits(self, tea: Tea) -> bool:
        return all(tc.constraint.evaluate(tea).satisfied for tc in self.constraints)


# ---- the till (store kit): one write tool, replayed to score --------------------------------------


class Till(BaseModel):
    """What a trial changed: the teas sold, in order (the final state scoring compares)."""

    sold: list[str] = Field(default_factory=list)


class TeaTools(StoreTools):
    """Two tools: list the teas, and sell one (a write; it ends the trial)."""

    write_tools = frozenset({"choose"})

    def __init__(self, catalog: TeaCatalog) -> None:
        self._catalog = catalog
        self._sold: list[str] = []
        self._definitions = {
            d.name: d for d in (definition_of(f) for f in (TeaTools.list_teas, TeaTools.choose))
        }

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
            raise StoreError(f"no tea {tea_id!r}")
        self._sold.append(tea_id)
        return Stop({"sold": tea_id}, stop="recommended", item_id=tea_id)

    def final_state(self) -> Till:
        return Till(sold=list(self._sold))


# ---- the shopper (user kit): vocabulary, act parts, templates, verdicts ----------------------------

# The topics are the tea's fields; the words that ask about each, and that state its value.
ASKS = {"caffeine": r"caffein|decaf|awake", "price": r"price|budget|spend|cost|euro"}
STATES = {"caffeine": r"caffein\w*|decaf", "price": r"\d+(?:\.\d+)? euros?"}
QUESTIONS = Questions(per_message=1, in_all=2, free=frozenset(), counts="answered")


def topics_asked(text: str) -> list[str]:
    """The topics one agent message asks about (its questions only), in the order it asks."""
    questions = " ".join(s for s in re.split(r"(?<=[.?!])\s+", text) if s.endswith("?"))
    hits = [(m.start(), t) for t, w in ASKS.items() if (m := re.search(w, questions, re.I))]
    return [t for _, t in sorted(hits)]


class Wishes(ActPartBase):
    """Wishes stated plainly (the opening's volunteered ones, or answers when asked)."""

    kind: Literal["wishes"] = "wishes"
    said: list[TeaConstraint]
    opening: bool = False


class NoPreference(ActPartBase):
    kind: Literal["no_preference"] = "no_preference"
    topics: list[str]


class AskForTea(ActPartBase):
    kind: Literal["ask_for_tea"] = "ask_for_tea"


class TeaAct(ReplyActBase):
    parts: list[
        Annotated[Wishes | NoPreference | AskForTea | SharedPart, Field(discriminator="kind")]
    ]


def say(c: TeaConstraint) -> str:
    if c.field == "caffeine":
        return "It should have caffeine." if c.value else "No caffeine, please."
    return f"{'At most' if c.op == '<=' else 'At least'} {c.value:.2f} euros."


class TeaWriter(TemplateWriterBase):
    banks: ClassVar[Mapping[str, Bank | Keyed]] = {
        "ask_for_tea": ("Which tea would you sell me?", "So, which tea is it?"),
        "hold_back": Keyed(
            "reason", {"at_once": ("One at a time!",), "patience": ("That's all.",)}
        ),
    }

    def word_wishes(self, part: Wishes, rng: random.Random) -> list[str]:
        hello = [rng.choice(("I'd like some tea.", "Hello! Tea, please."))] if part.opening else []
        return hello + [say(c) for c in part.said]

    def word_no_preference(self, part: NoPreference, rng: random.Random) -> list[str]:
        return [f"I don't mind about the {join_list(part.topics, 'or')}."]


class TeaShopper:
    """Volunteers its volunteer wishes, answers one question per message (two topics in all)."""

    def __init__(self, task: TeaTask, seed: int) -> None:
        self._task, self._seed, self._ledger = task, seed, Ledger()

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="scripted")

    def decide(self, text: str | None) -> TeaAct:
        wishes = self._task.constraints
        if text is None:
            said = [tc.constraint for tc in wishes if tc.reveal == "volunteer"]
            return TeaAct(parts=[Wishes(said=said, opening=True)])
        asked, held = answerable(topics_asked(text), self._ledger, QUESTIONS)
        self._ledger.asked.update(asked)
        mine = [tc for tc in wishes if tc.constraint.field in asked]
        parts: list[Any] = []
        if stated := [tc.constraint for tc in mine if tc.reveal != "hidden"]:
            parts.append(Wishes(said=stated))
        if nothing := [t for t in asked if all(tc.constraint.field != t for tc in mine)]:
            parts.append(NoPreference(topics=nothing))
        if held:
            parts.append(HoldBack(reason=held))
        return TeaAct(parts=parts or [AskForTea()])

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        spoken = any(m.role == "user" for m in conversation)
        act = self.decide(conversation[-1].content if spoken else None)
        rng = random.Random(f"write|{self._seed}|{self._task.id}|{len(conversation)}")
        return UserTurn(content=TeaWriter().write(act, rng), verdict=act.verdict)


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
    """Five teas, two tools, a kit-built shopper, one policy."""

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
        return TeaCatalog.load(snapshot_dir)

    def load_task(self, path: Path) -> TeaTask:
        return load_task_file(path, TeaTask)

    def load_tasks(self, tasks_dir: Path) -> Sequence[TeaTask]:
        return load_task_folder(tasks_dir, self.load_task)

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
        del catalog
        if name != "scripted" or options:
            raise LoadError(Path(name), ["the tiny domain has only the scripted shopper"])
        return TeaShopper(task, seed)

    def audit_leaks(self, task: TeaTask, transcript: Transcript, catalog: Any = None) -> LeakAudit:
        """No reply states a hidden wish's value, nor an on_ask one before its topic was asked."""

        def leaks_in(text: str, asked: frozenset[str], echo: str, index: int) -> list[Any]:
            found = []
            for tc in task.constraints:
                field = tc.constraint.field
                if tc.reveal == "volunteer" or (tc.reveal == "on_ask" and field in asked):
                    continue
                m = re.search(STATES[field], text, re.IGNORECASE)
                if m and not re.search(STATES[field], echo, re.IGNORECASE):
                    hidden, subject = tc.reveal == "hidden", f"`{tc.constraint.describe()}`"
                    found.append(leak_at(index, field, hidden, text, m.span(), m[0], subject))
            return found

        return audit_transcript(transcript, topics_asked, leaks_in)

    def score(
        self,
        task: TeaTask,
        transcript: Transcript,
        catalog: TeaCatalog,
        rules: RuleSet,
        strictness: Strictness = DEFAULT_STRICTNESS,
    ) -> TrialScore:
        """The till the trial left (its sales replayed on a fresh till) against the gold sale's."""
        del rules
        if (problem := unscorable(transcript, task.id)) is not None:
            raise TaurecError(problem)
        trial, gold = TeaTools(catalog), TeaTools(catalog)
        replay(trial, trial_writes(transcript, TeaTools.write_tools))
        replay(gold, enumerate(task.gold))
        differences = state_differences(gold.final_state(), trial.final_state())
        sold = transcript.final_recommendation
        tea = catalog.get(sold) if sold else None
        listed = any(
            isinstance(e, ToolCallEvent) and e.name == "list_teas" for e in transcript.events
        )
        policy = PolicyResult(
            policy="look_before_selling",
            passed=listed or sold is None,
            severity=1.0,
            reason="the agent listed the teas first" if listed else "sold without looking",
        )
        policy_score, weighted = policy_scores([policy], strictness)
        constraint = 0.0 if differences else 1.0
        return TrialScore(
            recommendation=sold,
            abstained=transcript.stop_reason == "abstained",
            constraint_score=constraint,
            policy_score=policy_score,
            reward=constraint * policy_score,
            weighted_policy_score=weighted,
            constraints=[tc.constraint.evaluate(tea) for tc in task.constraints] if tea else [],
            constraint_reason=differences[0] if differences else "the till matches the gold sale",
            policies=[policy],
        )

    def count_proposals(self, transcript: Transcript, catalog: TeaCatalog) -> int:
        return len(transcript.recommendations)

    def baselines(self) -> Mapping[str, AgentBuilder]:
        return {
            "picker": lambda context, args: _Picker(context, careful=True),
            "first": lambda context, args: _Picker(context, careful=False),
        }

    def oracle_agents(self) -> tuple[str, ...]:
        return ("picker",)  # it reads the task; `first` sees what a submission sees
