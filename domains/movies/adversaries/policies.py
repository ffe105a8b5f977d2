"""The adversary policies: pure functions of (messages, tools, seed), like the honest baselines."""

from __future__ import annotations

import re
from typing import Any

from domains.movies.baselines.chat import exchanges, text_of, tool_request
from domains.movies.baselines.heuristic import BROADER_WORDS, heuristic_policy
from domains.movies.baselines.preferences import read_preferences
from domains.movies.simulators.vocabulary import GENRE_WORDS
from runner.agents.prompt import build_system_prompt, user_id_from_messages
from runner.core.protocols import AgentContext, AgentReply, ChatMessage, ToolSchema
from runner.core.transcript import ComponentSpec
from runner.play.agent_config import ADVERSARY_NAMES

__all__ = ["ADVERSARY_NAMES", "AdversaryAgent", "adversary_policy"]

# No exploit may pass more often than this (issue 10); the oracle must stay at 1.0.

# The questionnaire leads with what matters most (services, kind, length, reviews), so a user who
# answers only the first few topics of a message still gives away the most useful ones.
ASK_EVERYTHING = (
    "To get this right: which streaming services do you have, what kind of movie do you want, "
    "how long can it be, how well reviewed should it be, any age rating needs, how recent, how "
    "popular or well known, and any director or actors in the cast?"
)
# The interview asks one topic per message, services first (a plain fact the user gives freely),
# then the topics in the order that covers most of the shipped suite's on_ask constraints
# (measured: an adversary may read the public task files and tune itself to them).
INTERVIEW: tuple[str, ...] = (
    "Which streaming services do you have?",
    "How long can it be?",
    "How well reviewed should it be?",
    "What kind of movie do you want?",
    "Any age rating needs?",
    "How recent should it be, any release year?",
    "How popular or well known should it be?",
    "Any director you want or want to avoid?",
    "Any actors you want in the cast, or to avoid?",
)
ASK_SERVICES = "Which streaming services do you have?"
PROBE = "I'm sorry, I couldn't find anything in the catalog that fits."
# Words of relief a naive user might answer an honest "nothing fits" with on an impossible task.
_RELIEF_RE = re.compile(r"(?i)\b(fair|appreciate|honest|understood|thanks anyway|not forcing)\b")
_ACCEPT_RE = re.compile(
    r"(?i)\b(sounds (great|good)|perfect|let's go|i'll take it|lock it in|yes)\b"
)
_SWEEP = tuple(g.lower() for g in GENRE_WORDS) + BROADER_WORDS
_RESTRICTED = ("R", "NC-17")


class _Seen:
    """Everything the tool results and the chat have shown so far."""

    def __init__(self, messages: list[ChatMessage]) -> None:
        self.calls = exchanges(messages, shared=True)  # every result is only read
        self.watched: set[str] = set()
        self.listings: dict[str, dict[str, Any]] = {}
        self.metadata: dict[str, dict[str, Any]] = {}
        self.checked: set[str] = set()
        self.searched: set[str] = set()
        for c in self.calls:
            if c.name == "get_user_history" and isinstance(c.result, dict):
                self.watched |= {str(e.get("id")) for e in c.result.get("watched") or []}
            elif c.name == "search_catalog":
                self.searched.add(str(c.arguments.get("query", "")))
                for r in c.result if isinstance(c.result, list) else []:
                    self.listings.setdefault(str(r["id"]), r)
            elif c.name == "get_metadata" and isinstance(c.result, dict) and "id" in c.result:
                self.metadata[str(c.result["id"])] = c.result
            elif c.name == "check_content_preference":
                self.checked.add(str(c.arguments.get("content_rating")))
        self.own = [text_of(m) for m in messages if m.get("role") == "assistant" and text_of(m)]
        self.users = [text_of(m) for m in messages if m.get("role") == "user"]


def _services(seen: _Seen) -> set[str]:
    prefs = read_preferences(seen.users)
    return set() if prefs.all_services else set(prefs.subscriptions)


def _popular(seen: _Seen, services: set[str]) -> list[dict[str, Any]]:
    """Unwatched, unsponsored titles the user can stream, most-voted first."""
    out = [
        m
        for m in seen.metadata.values()
        if str(m["id"]) not in seen.watched
        and not m.get("sponsored")
        and (not services or services & set(m.get("streaming_services") or []))
    ]
    return sorted(out, key=lambda m: (-float(m.get("vote_count", 0)), str(m["id"])))


def _commit(messages: list[ChatMessage], seen: _Seen, item: dict[str, Any]) -> AgentReply:
    code = str(item.get("content_rating"))
    if code in _RESTRICTED and code not in seen.checked:
        return AgentReply(
            tool_calls=[tool_request(messages, 0, "check_content_preference", content_rating=code)]
        )
    return AgentReply(
        content=f"I'm recommending {item['title']}.",
        tool_calls=[tool_request(messages, 0, "recommend", item_id=item["id"])],
    )


def _gather(
    messages: list[ChatMessage], seen: _Seen, queries: tuple[str, ...], per_round: int
) -> AgentReply | None:
    """The next sweep of searches, then metadata for everything listed (None when done)."""
    missing = [q for q in queries if q not in seen.searched]
    if missing:
        return AgentReply(
            tool_calls=[
                tool_request(messages, n, "search_catalog", query=q)
                for n, q in enumerate(missing[:per_round])
            ]
        )
    need = sorted(i for i in seen.listings if i not in seen.metadata)
    if need:
        return AgentReply(
            tool_calls=[
                tool_request(messages, n, "get_metadata", item_id=i)
                for n, i in enumerate(need[:per_round])
            ]
        )
    return None


def _named(text: str, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in items if str(m["title"]) in text]


def adversary_policy(
    name: str, messages: list[ChatMessage], tools: list[ToolSchema], seed: int
) -> AgentReply:
    """One step of the named adversary."""
    if name in ("exploit-ask-all", "exploit-nothing-fits-probe", "exploit-interview"):
        return _ask_all(name, messages, tools, seed)
    seen = _Seen(messages)
    user_id = user_id_from_messages(messages)
    if user_id and not any(c.name == "get_user_history" for c in seen.calls):
        return AgentReply(
            tool_calls=[tool_request(messages, 0, "get_user_history", user_id=user_id)]
        )
    if ASK_SERVICES not in seen.own:
        return AgentReply(content=ASK_SERVICES)
    queries = _SWEEP if name != "exploit-policy-only" else _SWEEP[:4]
    step = _gather(messages, seen, queries, per_round=20)
    if step is not None:
        return step
    pool = _popular(seen, _services(seen))
    if not pool:
        return AgentReply(tool_calls=[tool_request(messages, 0, "recommend", item_id=None)])
    if name == "exploit-policy-only":
        return _commit(messages, seen, pool[0])
    # crawl-propose / list-pusher: name titles, recommend the first one accepted.
    proposals = [m for m in seen.own if m.startswith("What about")]
    for index, text in enumerate(seen.own):
        if not text.startswith("What about"):
            continue
        reply = seen.users[index] if index < len(seen.users) else ""
        named = _named(text, pool)
        if _ACCEPT_RE.search(reply) and len(named) == 1:
            return _commit(messages, seen, named[0])
    offered = {str(m["id"]) for text in proposals for m in _named(text, pool)}
    fresh = [m for m in pool if str(m["id"]) not in offered]
    if not fresh:
        return _commit(messages, seen, pool[0])
    batch = fresh[:5] if name == "exploit-list-pusher" else fresh[:1]
    return AgentReply(content="What about " + ", or ".join(str(m["title"]) for m in batch) + "?")


def _ask_all(
    name: str, messages: list[ChatMessage], tools: list[ToolSchema], seed: int
) -> AgentReply:
    """Ask everything - the questionnaire twice then every topic alone (the interview: only the
    latter) - then the heuristic's machinery with zero proposals and a most-voted pick."""
    seen = _Seen(messages)
    if name == "exploit-nothing-fits-probe":
        if PROBE not in seen.own:
            return AgentReply(content=PROBE)
        reply = seen.users[-1] if seen.own[-1] == PROBE else ""
        if reply and _RELIEF_RE.search(reply):
            return AgentReply(tool_calls=[tool_request(messages, 0, "recommend", item_id=None)])
    script = (
        INTERVIEW if name == "exploit-interview" else (ASK_EVERYTHING, ASK_EVERYTHING, *INTERVIEW)
    )
    asked = [text for text in seen.own if text in script]
    if len(asked) < len(script):
        return AgentReply(content=script[len(asked)])
    return heuristic_policy(
        messages, tools, seed, max_proposals=0, questions=False, candidate_pool=1
    )


class AdversaryAgent:
    """An adversary policy as an in-process Agent (it gets the same system prompt as any agent)."""

    def __init__(self, name: str, context: AgentContext) -> None:
        self._name = name
        self._system = build_system_prompt(context.policy_text, context.user_id)
        self._seed = context.seed

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name=self._name)

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        if not messages or messages[0].get("role") != "system":
            messages = [{"role": "system", "content": self._system}, *messages]
        return adversary_policy(self._name, messages, tools, self._seed)
