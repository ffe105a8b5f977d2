"""The shopper's models on the local model server: LLM mode's reader and writer answered by the rule reader and the template writer.

`taurec-shopper-reader` reads the request's message with a rule reader built from the products
(or, for the account shopper, the order ids) the request carries (all it knows, as a provider's
model would) and answers the schema's JSON; `taurec-shopper-writer` says the template words of
the act it is sent, seeded by the variation key; `taurec-shopper` is both. Each answers the
shopping shopper's or the account shopper's request by its system prompt (`both_roles`). So
grocery's LLM mode runs offline through the real client path, deterministically, and says what
the scripted shopper says, on shopping and account tasks alike.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from domains.grocery.user.account_model import ACCOUNT_READER_PROMPT, ACCOUNT_WRITER_PROMPT
from domains.grocery.user.model import READER_PROMPT
from runner.core.protocols import AgentReply, ChatMessage, ChatPolicy, ToolSchema
from runner.models.user_model import both_roles

__all__ = [
    "SHOPPER_MODELS",
    "account_reader_policy",
    "account_writer_policy",
    "shopper_reader_policy",
    "shopper_writer_policy",
]


def _request(messages: list[ChatMessage]) -> dict[str, Any]:
    last = next((m for m in reversed(messages) if m.get("role") == "user"), {})
    content = last.get("content")
    data = json.loads(content if isinstance(content, str) else "{}")
    if not isinstance(data, dict):
        raise ValueError("the request's last user message is not a JSON object")
    return data


def shopper_reader_policy(
    messages: list[ChatMessage], tools: list[ToolSchema], seed: int
) -> AgentReply:
    """`taurec-shopper-reader`: the rule reader's reading of the message, as the schema's JSON."""
    from domains.grocery.user.model import Listed
    from domains.grocery.user.reader import ShopperReader

    data = _request(messages)
    products = [Listed(**p) for p in data.get("products") or [] if isinstance(p, dict)]
    reading = ShopperReader(products).read(str(data.get("message", "")))
    answer = {
        "asked": list(reading.asked),
        "proposed": list(reading.proposed),
        "confirm": reading.confirm,
        "nothing_fits": reading.nothing_fits,
    }
    return AgentReply(content=json.dumps(answer), tool_calls=[], usage=[])


def shopper_writer_policy(
    messages: list[ChatMessage], tools: list[ToolSchema], seed: int
) -> AgentReply:
    """`taurec-shopper-writer`: the template words of the act it is sent, seeded by its variation
    key (the same act and key give the scripted shopper's words)."""
    from domains.grocery.user.acts import ReplyAct
    from domains.grocery.user.writer import TemplateWriter

    data = _request(messages)
    act = ReplyAct.model_validate(data["act"])
    words = TemplateWriter().write(act, random.Random(str(data.get("variation", seed))))
    return AgentReply(content=words, tool_calls=[], usage=[])


def _answering(answer: Callable[[dict[str, Any], int], str]) -> ChatPolicy:
    """A stand-in whose reply is `answer` of the request's JSON payload (and the call's seed)."""

    def policy(messages: list[ChatMessage], tools: list[ToolSchema], seed: int) -> AgentReply:
        return AgentReply(content=answer(_request(messages), seed), tool_calls=[], usage=[])

    return policy


def _account_reading(data: dict[str, Any], seed: int) -> str:
    """The account rule reader's reading of the message, built from the order ids the request
    carries, as the schema's JSON."""
    from domains.grocery.user.account_reader import AccountReader

    orders = [str(o) for o in data.get("orders") or []]
    reading = AccountReader(orders).read(str(data.get("message", "")))
    fields = ("asks_yes", "reports", "transfer")
    listed = {"asked": list(reading.asked), "refuses": sorted(reading.refuses)}
    return json.dumps(listed | {f: getattr(reading, f) for f in fields})


def _account_words(data: dict[str, Any], seed: int) -> str:
    """The grammar's words of the act sent, under its key (the scripted account shopper's)."""
    from domains.grocery.user.account_acts import AccountAct
    from domains.grocery.user.account_writer import account_words

    return account_words(AccountAct.model_validate(data["act"]), str(data.get("variation", seed)))


# The account shopper's stand-ins: its rule reader, and its grammar writer.
account_reader_policy = _answering(_account_reading)
account_writer_policy = _answering(_account_words)

# Each role's stand-in answers the shopping or the account shopper's request, by system prompt.
_READER = both_roles(ACCOUNT_READER_PROMPT, account_reader_policy, shopper_reader_policy)
_WRITER = both_roles(ACCOUNT_WRITER_PROMPT, account_writer_policy, shopper_writer_policy)

# The shopper's models by the name the server answers to (`GroceryDomain.served_models`).
SHOPPER_MODELS: dict[str, ChatPolicy] = {
    "taurec-shopper": both_roles(
        READER_PROMPT, shopper_reader_policy, both_roles(ACCOUNT_READER_PROMPT, _READER, _WRITER)
    ),
    "taurec-shopper-reader": _READER,
    "taurec-shopper-writer": _WRITER,
}
