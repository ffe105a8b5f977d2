"""The shopper in LLM mode: a model reads agent messages and a model words the replies, around the scripted shopper's decision engine.

Only grocery's data is here; the loops (call, check, fall back, count) are the user kit's
(`runner.kits.user.model`):
- the reader's prompt and answer fields (topics asked, products put forward, a request to
  confirm, "nothing fits"). The model sees the message and the records of every product whose
  name the message says (all namesakes, so it can tell brands and sizes apart); the products
  named and the names left unclear are always the resolver's (`domains.grocery.mentions`), never
  the model's, and an id it puts forward must be one the message names. Any unusable answer is
  replaced by the rule reader's reading (`ShopperReader`);
- the writer's prompt (the act as JSON, nothing of the task) and its checks: the grocery leak
  audit (`leaks.message_leaks`, with the topics asked so far and the agent's last words) on every
  message, and no product name the act does not carry; on any failure the template's words for
  the same act and variation are said. The variation key is the scripted shopper's word seed, so
  the fallback says exactly what the scripted shopper would.
The engine, its ledger and its decisions are the scripted shopper's: with a model that reads as
the rules do and words as the templates do, the conversation is the scripted one.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from domains.grocery.tasks import GroceryTask
from domains.grocery.user.acts import ReplyAct
from domains.grocery.user.engine import EngineState
from domains.grocery.user.leaks import message_leaks
from domains.grocery.user.needs import needs_of
from domains.grocery.user.reader import ConfirmKind, Reading, ShopperReader, topics_asked
from domains.grocery.user.scripted import ScriptedShopper
from domains.grocery.user.vocabulary import TOPICS, Topic
from runner.core.protocols import UserTurn
from runner.core.transcript import ComponentSpec, MessageEvent
from runner.kits.user import model as kit
from runner.kits.user.fallback import Judged
from runner.kits.user.model import ChatModel, ReadOutcome, answer_schema, parse_reading
from runner.kits.user.replay import opened
from runner.models.user_model import UserModels, user_spec_args

__all__ = [
    "READER_PROMPT",
    "WRITER_PROMPT",
    "Listed",
    "ModelShopper",
    "ShopperAnswer",
    "check_words",
    "reader_request",
    "writer_request",
]

READER_PROMPT = """\
You read one message that a grocery shopping assistant sent to a shopper, and report what the
message does. Reply with a single JSON object and nothing else:
- "asked": the shopper's wishes the message asks about, in the order it asks, from: allergies,
  diet, budget, category (what kind of product), brand, nutriscore, organic, palm_oil (oils
  avoided), processing (how processed), pack_size, origin (country), quantity (how many packs).
  Asking about a value asks its topic ("Is gluten a problem?" asks allergies). Greetings, a
  summary, a pitch of a product, small talk, and asking what the shopper thinks of a product
  offered ask nothing.
- "proposed": ids of the products the message offers the shopper, among the products given. A
  product only compared with ("cheaper than X"), one from a past order, one being returned, or
  one ruled out ("X is out of stock", "X has nuts, so I skipped it") is not offered.
- "confirm": "order" when the message asks the shopper to agree to placing the order, "return"
  when it asks to agree to a return, "substitution" when it asks to agree to a replacement
  product, else null. Announcing that it will place the order asks nothing.
- "nothing_fits": true when the message says no product suits the shopper.
The input is JSON: "message" and "products" (the records of every product whose name the
message says, namesakes included)."""

WRITER_PROMPT = """\
You write one chat message from a person who is doing their grocery shopping with an assistant.
You get what the person decided to say as JSON ("act": its parts, in order). Write only those
parts, in that order, as a short, natural first-person message: no lists, no markdown, no quotes
around it, and nothing the parts do not say. The parts:
- opening: say what you want done (buy a product type, return a product from an order, or find
  a replacement for your usual product), with the quantity, and state every need given with its
  value; for each cue only mention that the topic matters, never a value.
- inform: answer about that topic, stating each need given with its value (and the quantity).
- no_preference: no particular wish on those topics. unsure: you will know it when you see it.
- accept: take the named product. decline: turn the named product down; "broken": it misses the
  need given; "hint": only point at the topic and the direction, NEVER a value or a number;
  "not_for_me": no reason; "again": you said no to it already; "not_buying": you came to return.
- one_at_a_time: ask for the single best product. which_one: that name fits several products,
  ask which brand or size is meant.
- confirm_order / confirm_return: a clear yes. not_yet: you have not agreed to that yet.
- hold_back: too many questions at once, or no more questions. push_to_commit: ask it to move on.
- done: thank them, that is all. leave: say goodbye. nothing_fits_ack: fine, your call.
- accepted_already: you already said yes; ask it to go ahead.
Never name a product the act does not name. Reply with the message text only."""


@dataclass(frozen=True)
class Listed:
    """What a reading request tells of one product (what the resolver reads): id, name, brand,
    quantity."""

    id: str
    name: str
    brand: str
    quantity: str


class ShopperAnswer(BaseModel):
    """The model's answer, as the JSON schema asks it (validated before it is believed)."""

    model_config = ConfigDict(extra="forbid")

    asked: list[Topic]
    proposed: list[str]
    confirm: ConfirmKind | None
    nothing_fits: bool


def _listed(product: Any) -> dict[str, str]:
    return {
        "id": product.id,
        "name": product.name,
        "brand": product.brand,
        "quantity": str(getattr(product, "quantity", "") or ""),
    }


def reader_request(
    rules: ShopperReader, by_id: dict[str, Any], text: str
) -> tuple[list[dict[str, Any]], Reading]:
    """The chat messages of one reading, and the rules' reading (its named and unclear products
    are what the model's reading keeps)."""
    found = rules.resolver.find(text)
    shown = sorted({pid for m in found for pid in m.candidates})
    payload = {"message": text, "products": [_listed(by_id[pid]) for pid in shown]}
    messages = [
        {"role": "system", "content": READER_PROMPT},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]
    return messages, rules.read(text)


def reading_schema(named: tuple[str, ...]) -> dict[str, Any]:
    """The response format: the closed topic set, and ids limited to the products named."""
    ids: dict[str, Any] = {"type": "string", "enum": list(named)} if named else {"type": "string"}
    return answer_schema(
        "reading",
        {
            "asked": {"type": "array", "items": {"type": "string", "enum": list(TOPICS)}},
            "proposed": {"type": "array", "items": ids},
            "confirm": {"enum": ["order", "return", "substitution", None]},
            "nothing_fits": {"type": "boolean"},
        },
    )


def _validate(answer: str, rules: Reading) -> Judged[Reading]:
    """The reading an answer holds, or why it holds none; products named and names left unclear
    are the resolver's."""
    parsed, problem = parse_reading(answer, ShopperAnswer, rules.named, "product")
    if parsed is None:
        return None, problem
    asked, proposed = tuple(dict.fromkeys(parsed.asked)), tuple(dict.fromkeys(parsed.proposed))
    fits = parsed.nothing_fits and not proposed
    return Reading(asked, proposed, rules.named, parsed.confirm, fits, rules.unclear), ("", "")


class ShopperModelReader(kit.ModelReader[str, Reading]):
    """Reads agent messages with a model; the rule reader answers whenever its answer is unusable."""

    def __init__(self, rules: ShopperReader, catalog: Any, endpoint: ChatModel) -> None:
        by_id = {p.id: p for p in catalog.items}

        def request(text: str) -> kit.ReadRequest[Reading]:
            messages, ruled = reader_request(rules, by_id, text)
            return messages, reading_schema(ruled.named), lambda a: _validate(a, ruled)

        super().__init__(endpoint, request, rules.read)


# -- the writer ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GuardContext:
    """What the guard checks words against: the task's needs, topics asked so far, the agent's
    last words (an echo is no leak)."""

    task: GroceryTask
    asked: frozenset[Topic]
    echo: str


def writer_request(act: ReplyAct, variation: str) -> list[dict[str, Any]]:
    """The chat messages asking for the words of one act (only the act)."""
    payload = {"act": act.model_dump(mode="json"), "variation": variation}
    return [
        {"role": "system", "content": WRITER_PROMPT},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]


def check_words(
    words: str, act: ReplyAct, reference: str, rules: ShopperReader, guard: GuardContext
) -> tuple[str, str] | None:
    """The first reason (code, detail) the words may not be said, or None: empty or too long, a
    leak by the grocery audit, or a product named that neither the template's words of the act
    nor the agent's last message name."""
    problem = kit.plain_problem(words)
    if problem is not None:
        return problem
    leaks = message_leaks(needs_of(guard.task), words, set(guard.asked), echo=guard.echo)
    if leaks:
        return "leak", leaks[0]
    allowed = set(rules.resolver.named(reference)) | set(rules.resolver.named(guard.echo))
    extra = [pid for pid in rules.resolver.named(words) if pid not in allowed]
    if extra:
        return "extra_product", f"names {extra[0]} the act does not"
    return None


class ModelShopper(ScriptedShopper):
    """A shopper for one shopping task whose reader and/or writer is a model; the decisions are
    the scripted shopper's engine's."""

    def __init__(
        self,
        task: GroceryTask,
        catalog: Any,
        seed: int,
        models: UserModels,
    ) -> None:
        super().__init__(task, catalog, seed)
        self._spec_args = user_spec_args(models.model, models.reader, models.writer)
        reader, writer = models.reader, models.writer
        self._model_reader = ShopperModelReader(self._reader, catalog, reader) if reader else None
        rules = self._reader
        self._model_writer = (
            kit.ModelWriter[ReplyAct, GuardContext](
                writer,
                writer_request,
                self._template,
                lambda words, act, reference, guard: check_words(
                    words, act, reference, rules, guard
                ),
            )
            if writer
            else None
        )

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="litellm", args=self._spec_args)

    async def _read(self, text: str) -> ReadOutcome[Reading]:
        if self._model_reader is None:
            return ReadOutcome(self._reader.read(text))
        return await self._model_reader.read_key(text)

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        spent = kit.Spent()
        if not opened(conversation):
            act, turn = self._engine.opening(), 0
        else:

            def react(reading: Reading, state: EngineState) -> None:
                self._last = self._engine.react(reading, state)

            await kit.read_unread(self._replay, conversation, self._read, react, spent)
            assert self._last is not None
            act, turn = self._last, self._replay.turn
        variation = f"write|{self._seed}|{self._task.id}|{turn}"

        def guard() -> GuardContext:
            agent = [m.content for m in conversation if m.role == "agent"]
            asked = {topic for text in agent for topic in topics_asked(text)}  # as the audit
            return GuardContext(self._task, frozenset(asked), agent[-1] if agent else "")

        words = await kit.word(self._model_writer, self._template, act, variation, guard, spent)
        return spent.turn(words, act)

    def _template(self, act: ReplyAct, variation: str) -> str:
        return self._writer.write(act, random.Random(variation))
