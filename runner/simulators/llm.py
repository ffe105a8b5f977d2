"""The LiteLLM user simulator: a model plays the user from our prompt and answers in JSON (message + verdict)."""

from __future__ import annotations

import json
import os
import random
import re
from typing import Any

from runner.agent_config import RetryConfig
from runner.catalog import Catalog
from runner.errors import InfraFailure
from runner.keys import LOCAL_PLACEHOLDER_KEY, simulator_key_env
from runner.protocols import ModelCall, UserTurn
from runner.simulators.templates import fmt_number, join_list
from runner.tasks import Constraint, Task
from runner.transcript import ComponentSpec, MessageEvent

__all__ = ["LiteLLMUser", "build_user_prompt", "parse_user_turn"]

_VERDICTS = ("continue", "accept", "decline", "abstain_ok")

_RULES = """\
You are playing a person who is chatting with a movie recommendation assistant. Stay in
character and talk like a real person: short, natural messages, no lists, no markdown.

What you know about yourself is below. Some of your requirements you say up front, some only
when the assistant asks about that topic, and some you never say out loud.

How to behave:
- In your first message, say what you are looking for and every requirement marked SAY UP FRONT.
- A requirement marked SAY WHEN ASKED: state it only after the assistant asks about that topic
  (for example its length, genre, age rating, how well reviewed it is, streaming services).
  Never mention it before that.
- A requirement marked NEVER SAY: never state it, its number, its genre or its rating code,
  not even as a hint with a different number. If the assistant suggests a movie that breaks it,
  turn the movie down with a vague reason that points the way without the value (for example
  "that sounds too long for tonight" is fine; "I want under 100 minutes" is not).
- When the assistant suggests one specific movie in the chat: if it meets every requirement
  (including the unspoken ones) and you have not seen it, accept it warmly; otherwise decline.
- If the assistant asks which streaming services you have, tell them.
- If the assistant keeps asking questions without suggesting anything, ask it to pick one.
{ending}

Answer with one JSON object and nothing else:
{{"message": "<what you say>", "verdict": "continue" | "accept" | "decline" | "abstain_ok"}}
Use "accept" when you accept a suggested movie, "decline" when you turn one down,
"abstain_ok" when you accept that nothing fits, and "continue" otherwise."""

_ENDING_VALID = (
    "- Something in the catalog does fit you. If the assistant says nothing fits, push back and "
    "ask it to look again."
)
_ENDING_NVR = (
    "- Your requirements cannot all be met by anything in the catalog. If the assistant honestly "
    "says nothing fits, accept that graciously (verdict abstain_ok). If it pushes a movie anyway, "
    "decline it."
)

_LABEL = {"volunteer": "SAY UP FRONT", "on_ask": "SAY WHEN ASKED", "hidden": "NEVER SAY"}


def _describe(c: Constraint) -> str:
    v = c.value
    shown = join_list([str(x) for x in v]) if isinstance(v, list) else str(v)
    if c.field == "runtime" and not isinstance(v, list | str | bool):
        shown = f"{fmt_number(v)} minutes"
    words = {
        "<=": "at most",
        ">=": "at least",
        "==": "exactly",
        "!=": "anything but",
        "contains": "includes",
        "contains_any": "includes one of",
        "not_contains": "does not include",
        "in": "one of",
    }[c.op]
    return f"the movie's {c.field.replace('_', ' ')} {words} {shown}"


def build_user_prompt(task: Task) -> str:
    """The simulated user's system prompt for one task, in our own words."""
    lines = [
        _RULES.format(ending=_ENDING_NVR if task.no_valid_recommendation else _ENDING_VALID),
        "",
        "# Who you are",
        task.persona.strip(),
    ]
    if task.soft_preferences:
        lines += ["", "Nice to have (not requirements): " + "; ".join(task.soft_preferences)]
    lines += ["", "# Your requirements"]
    lines += [f"- [{_LABEL[tc.reveal]}] {_describe(tc.constraint)}" for tc in task.constraints]
    lines += ["", "# Your streaming services"]
    if task.user_services:
        lines.append("You subscribe to: " + ", ".join(task.user_services) + ".")
    else:
        lines.append("You have every major service; availability is not a concern for you.")
    if task.watched:
        lines += ["", "You have already seen these catalog ids: " + ", ".join(task.watched)]
    return "\n".join(lines)


def parse_user_turn(text: str) -> tuple[str, str]:
    """Read the model's JSON answer (tolerating code fences or text around it)."""
    candidates = [text.strip()]
    match = re.search(r"\{.*\}", text, re.DOTALL)
    if match:
        candidates.append(match.group(0))
    for candidate in candidates:
        try:
            data = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and isinstance(data.get("message"), str):
            verdict = data.get("verdict", "continue")
            return data["message"].strip(), verdict if verdict in _VERDICTS else "continue"
    raise ValueError("the reply is not a JSON object with a string 'message'")


class LiteLLMUser:
    """A LiteLLM model playing the user of one task, under the shared retry policy."""

    def __init__(
        self,
        model: str,
        task: Task,
        catalog: Catalog,
        seed: int,
        *,
        api_base: str | None = None,
        api_key_env: str | None = None,
        temperature: float | None = None,
        timeout_s: float = 120.0,
        retry: RetryConfig | None = None,
    ) -> None:
        self._model = model
        self._task = task
        self._catalog = catalog
        self._seed = seed
        self._api_base = api_base
        self._api_key_env = api_key_env
        self._temperature = temperature
        self._timeout_s = timeout_s
        self._retry = retry or RetryConfig()
        self._rng = random.Random(f"user|{seed}|{task.id}")
        self._prompt = build_user_prompt(task)

    @property
    def spec(self) -> ComponentSpec:
        args: dict[str, Any] = {"model": self._model}
        if self._api_base:
            args["api_base"] = self._api_base
        if self._temperature is not None:
            args["temperature"] = self._temperature
        return ComponentSpec(name="litellm", args=args)

    def _messages(self, conversation: list[MessageEvent]) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = [{"role": "system", "content": self._prompt}]
        for event in conversation:
            # From the user model's side, the assistant's words are its input ("user" role).
            role = "user" if event.role == "agent" else "assistant"
            if role == "assistant":
                content = json.dumps({"message": event.content}, ensure_ascii=False)
            else:
                content = event.content
            messages.append({"role": role, "content": content})
        return messages

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        import asyncio

        from runner.llm_client import chat_completion, response_cost
        from runner.llm_client import response_field as _field
        from runner.retry import call_with_retry

        kwargs: dict[str, Any] = {
            "model": self._model,
            "messages": self._messages(conversation),
            "timeout": self._timeout_s,
            "max_retries": 0,
        }
        if self._api_base:
            kwargs["api_base"] = self._api_base
        if self._temperature is not None:
            kwargs["temperature"] = self._temperature
        # The key table decides, as for entries: a provider key only on its provider's hosts;
        # anywhere else an explicit placeholder, so LiteLLM never picks a key up by itself.
        name = simulator_key_env(self._model, self._api_base, self._api_key_env)
        key = os.environ.get(name) if name else None
        if self._api_key_env and not key:
            raise InfraFailure(
                "AuthenticationError",
                f"user model {self._model}: environment variable {self._api_key_env} is not set",
            )
        if key:
            kwargs["api_key"] = key
        elif name is None:
            kwargs["api_key"] = LOCAL_PLACEHOLDER_KEY

        async def call() -> Any:
            async with asyncio.timeout(self._timeout_s + 5.0):
                return await chat_completion(**kwargs)

        response = await call_with_retry(
            call,
            self._retry,
            what=f"user model {self._model}",
            rng=self._rng,
            secrets=[key] if key else [],
        )
        choices = _field(response, "choices") or []
        if not choices or not isinstance(choices, list):
            raise InfraFailure("MalformedResponse", f"user model {self._model}: no choices")
        text = _field(_field(choices[0], "message"), "content") or ""
        if not isinstance(text, str):
            raise InfraFailure("MalformedResponse", f"user model {self._model}: content not text")
        try:
            content, verdict = parse_user_turn(text)
        except ValueError as exc:
            raise InfraFailure(
                "MalformedResponse", f"user model {self._model}: {exc} (got {text[:120]!r})"
            ) from None
        usage = _field(response, "usage")
        prompt_tokens = int(_field(usage, "prompt_tokens") or 0)
        completion_tokens = int(_field(usage, "completion_tokens") or 0)
        cost = response_cost(response, self._model)
        return UserTurn(
            content=content,
            verdict=verdict,
            usage=[
                ModelCall(
                    model=self._model,
                    prompt_tokens=prompt_tokens,
                    completion_tokens=completion_tokens,
                    cost_usd=round(cost, 10),
                )
            ],
        )
