"""The account shopper in LLM mode: a model reads agent messages and a model words the replies, around the account decision engine.

Only the account desk's data is here; the loops (call, check, fall back, count) are the user
kit's (`runner.kits.user.model`):
- the reader's prompt and answer fields (the topics asked, a yes asked for, a result reported, a
  transfer offered). The order ids, streets and sums a message names are always the rule
  reader's (found by string), never the model's; any unusable answer is replaced by the rule
  reader's reading (`AccountReader`);
- the writer's prompt (the act as JSON, nothing of the task) and its leak audit on every
  message (`account_leaks`): no order id, sum of money, email, name, zip code, street, payment
  method or cancel reason of the account that neither the template's words of the act nor the
  agent's last message say. The act carries only what the engine decided to say (asked for, or
  volunteered by the task's stratum), so such a fact is one said before it was asked. On any
  failure the template's words for the same act and key are said, which are the scripted
  shopper's.
The engine, its state and its decisions are the scripted account shopper's: with a model that
reads as the rules do and words as the grammar does, the conversation is the scripted one.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from pydantic import BaseModel, ConfigDict

from domains.grocery.tasks import GroceryTask
from domains.grocery.user.account import AccountShopper
from domains.grocery.user.account_acts import AccountAct
from domains.grocery.user.account_leaks import account_facts, account_leaks
from domains.grocery.user.account_reader import (
    ACCOUNT_TOPICS,
    POLICY_REASONS,
    AccountReader,
    AccountReading,
)
from domains.grocery.user.account_writer import account_words
from runner.core.protocols import UserTurn
from runner.core.transcript import ComponentSpec, MessageEvent
from runner.kits.user import model as kit
from runner.kits.user.fallback import Judged
from runner.kits.user.model import answer_schema, parse_answer
from runner.kits.user.replay import opened
from runner.models.user_model import UserModels, user_spec_args

__all__ = [
    "ACCOUNT_READER_PROMPT",
    "ACCOUNT_WRITER_PROMPT",
    "AccountAnswer",
    "AccountModelShopper",
    "account_facts",
    "account_leaks",
    "account_reader_request",
    "account_writer_request",
]

ACCOUNT_READER_PROMPT = """\
You read one message that a grocery shop's account assistant sent to a customer, and report what
the message does. Reply with a single JSON object and nothing else:
- "asked": what the message asks the customer for, in the order it asks, from: who (their email,
  or full name and zip code, to find the account), order (which order), items (which items or
  sizes), address (which or what new address), reason (why they want the change), payment (which
  payment method). A summary of the change, a result, thanks and small talk ask nothing.
- "asks_yes": true when the message asks the customer to say yes to a change (to confirm, or
  whether to go ahead or proceed).
- "reports": true when the message reports a result (a change made, a request filed).
- "transfer": true when the message offers or announces a transfer to a person.
- "refuses": when the message says something cannot be done, the grounds it gives, from:
  processed (the order is already on its way), past_window (more than 30 days ago),
  modified_once (the order's items were already changed once), refund_elsewhere (a refund can
  only go to the payment that paid the order), other_product (an exchange only for another pack
  of the same product; a return offered instead). Otherwise an empty list.
The input is JSON: "message", and "orders" (the customer's order ids the message names)."""

ACCOUNT_WRITER_PROMPT = """\
You write one chat message from a person sorting out their grocery shop account with an
assistant. You get what the person decided to say as JSON ("act": its parts, in order). Write
only those parts, in that order, as a short, natural first-person message: no lists, no
markdown, no quotes around it, and nothing the parts do not say. The parts:
- account_hello: you need help with your account.
- who_i_am: give the email, or the full name and zip code, exactly as given.
- wants: what you want done ("request": cancel, modify_items, modify_address, modify_payment,
  return, exchange, change_address), with exactly the facts given: the order is always "one of
  my orders" (never an id), the reason, the payment method, the address, and each line
  (product, pack and the price paid; units; the new pack and its price; a line with "other" is
  a return asked as an exchange for that other product).
  "lead": first (start of the message), also (one more thing), next (thank them, then the next
  request), restate (say it again, clearly).
- gives: answer with the day you placed the order ("placed"), the reason, or the payment method.
- take_instead: you accept what the assistant offered instead: the refund to "pay", or (no
  "pay") the return instead of the exchange. insist: you understand, but you still need it
  done. give_up: you leave it there, that is all.
- confirm_action: a clear yes, go ahead. done: thank them, that is all. leave: you give up
  for now.
Never state an order id, a sum of money, an email, a name, a zip code, an address, a payment
method or a reason the act does not give. Reply with the message text only."""


class AccountAnswer(BaseModel):
    """The model's answer, as the JSON schema asks it (validated before it is believed)."""

    model_config = ConfigDict(extra="forbid")

    asked: list[str]
    asks_yes: bool
    reports: bool
    transfer: bool
    refuses: list[str]


ACCOUNT_READING_SCHEMA = answer_schema(
    "account_reading",
    {
        "asked": {"type": "array", "items": {"type": "string", "enum": list(ACCOUNT_TOPICS)}},
        "asks_yes": {"type": "boolean"},
        "reports": {"type": "boolean"},
        "transfer": {"type": "boolean"},
        "refuses": {"type": "array", "items": {"type": "string", "enum": list(POLICY_REASONS)}},
    },
)


def account_reader_request(rules: AccountReader, text: str) -> list[dict[str, Any]]:
    """The chat messages of one reading: the message and the order ids it names (the rules')."""
    payload = {"message": text, "orders": list(rules.named_orders(text))}
    return [
        {"role": "system", "content": ACCOUNT_READER_PROMPT},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]


def _validate(answer: str, ruled: AccountReading) -> Judged[AccountReading]:
    """The reading an answer holds, or why it holds none; what the message names (orders,
    streets, sums) is the rules'."""
    parsed, problem = parse_answer(answer, AccountAnswer)
    if parsed is None:
        return None, problem
    unknown = [t for t in parsed.asked if t not in ACCOUNT_TOPICS]
    if unknown:
        return None, ("invalid_answer", f"asked: {unknown[0]!r} is not an account topic")
    wrong = [r for r in parsed.refuses if r not in POLICY_REASONS]
    if wrong:
        return None, ("invalid_answer", f"refuses: {wrong[0]!r} is not a policy ground")
    asked = tuple(t for t in dict.fromkeys(parsed.asked) if t in ACCOUNT_TOPICS)
    refuses = frozenset(r for r in POLICY_REASONS if r in parsed.refuses)
    kept = parsed.model_dump(exclude={"asked", "refuses"})
    return replace(ruled, **kept, asked=asked, refuses=refuses), ("", "")


class AccountModelReader(kit.ModelReader[str, AccountReading]):
    """Reads agent messages with a model; the rule reader answers whenever its answer is unusable."""

    def __init__(self, rules: AccountReader, endpoint: kit.ChatModel) -> None:
        def request(text: str) -> kit.ReadRequest[AccountReading]:
            ruled = rules.read(text)
            messages = account_reader_request(rules, text)
            return messages, ACCOUNT_READING_SCHEMA, lambda a: _validate(a, ruled)

        super().__init__(endpoint, request, rules.read)


def account_writer_request(act: AccountAct, variation: str) -> list[dict[str, Any]]:
    """The chat messages asking for the words of one act (only the act, and the words' key)."""
    payload = {"act": act.model_dump(mode="json"), "variation": variation}
    return [
        {"role": "system", "content": ACCOUNT_WRITER_PROMPT},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]


class AccountModelShopper(AccountShopper):
    """An account shopper whose reader and/or writer is a model; the decisions are the account
    engine's."""

    def __init__(self, task: GroceryTask, catalog: Any, seed: int, models: UserModels) -> None:
        super().__init__(task, catalog, seed)
        self._spec_args = user_spec_args(models.model, models.reader, models.writer)
        self._read_one = (
            AccountModelReader(self._reader, models.reader).read_key
            if models.reader
            else kit.by_rules(self._reader.read)
        )
        facts = account_facts(task, catalog)

        def check(words: str, act: AccountAct, reference: str, echo: str) -> tuple[str, str] | None:
            leaks = account_leaks(facts, words, reference, echo)
            return kit.plain_problem(words) or (("leak", leaks[0]) if leaks else None)

        self._model_writer = (
            kit.ModelWriter[AccountAct, str](
                models.writer, account_writer_request, account_words, check
            )
            if models.writer
            else None
        )

    @property
    def spec(self) -> ComponentSpec:
        """`litellm`, with the model of each role (or `rules` / `templates`)."""
        return ComponentSpec(name="litellm", args=self._spec_args)

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        spent = kit.Spent()
        head = self.head(conversation)
        act: AccountAct | None
        if not opened(conversation):
            act, key = self._engine.opening(), head
        else:
            await kit.read_unread(
                self._replay, conversation, self._read_one, self._engine.react, spent
            )
            act, key = self.last(head)
        if act is None:
            return UserTurn(content="", usage=spent.usage, notes=spent.notes)
        echo = next((m.content for m in reversed(conversation) if m.role == "agent"), "")
        words = await kit.word(self._model_writer, account_words, act, key, lambda: echo, spent)
        return spent.turn(words, act)
