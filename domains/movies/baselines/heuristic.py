"""The honest heuristic baseline: a pure policy over (messages, tools, seed) that asks, searches, proposes, learns.

It sees only what any agent sees: the system prompt (policy + `User id:` line), the chat and the
tool results. Every step re-reads the whole conversation, so the same conversation always gives
the same reply - which is what lets the model server run it statelessly behind LiteLLM.

Plan: fetch the watch history; ask one round of the usual questions (kind of movie, length,
services); run a few searches (at most MAX_SEARCHES) built from the answers; fetch metadata of
plausible hits; propose the most popular candidate among the top few (seeded) that fits
everything said so far (one title per message, on one of the user's services, not watched,
disclosing sponsorship); learn from each decline's hint (too long -> shorter than that one, weak
reviews -> better rated, too intense -> milder rating, not on my services -> elsewhere, ...);
after an acceptance check the content rating when restricted and availability, then recommend.
If nothing fits, say so and abstain. After MAX_PROPOSALS declined proposals, or COMMIT_AFTER_TURNS
messages, it commits to its best remaining candidate (or abstains). These limits are what make
it an imperfect baseline: what it never asked, never searched for or never proposed can fail it.
"""

from __future__ import annotations

import datetime as dt
import functools
import random
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, TypeVar

from domains.movies.baselines.chat import exchanges, text_of, tool_names, tool_request
from domains.movies.baselines.preferences import (
    KNOWN_GENRES,
    Preferences,
    remembered_preferences,
)
from domains.movies.simulators.vocabulary import RATING_ORDER
from runner.agents.prompt import build_system_prompt, user_id_from_messages
from runner.core.protocols import AgentContext, AgentReply, ChatMessage, ToolCallRequest, ToolSchema
from runner.core.transcript import ComponentSpec

__all__ = ["COMMIT_AFTER_TURNS", "QUESTIONS", "HeuristicAgent", "heuristic_policy"]

COMMIT_AFTER_TURNS = 17
# A quick rule-based assistant does not quiz the user forever: after this many titles proposed in
# chat it commits to its best remaining candidate, so hidden constraints it has not surfaced by
# then can make it fail. Overridable per submission (`args: {max_proposals: N}`).
MAX_PROPOSALS = 2
# It picks among this many equally plausible top candidates, seeded, so trials vary like an LLM's.
CANDIDATE_POOL = 3
# It searches like a person would: a handful of queries built from what it was told, not a sweep
# of the whole catalog. Titles those searches never surface are invisible to it.
MAX_SEARCHES = 8
MAX_METADATA_PER_ROUND = 40
RESTRICTED = ("R", "NC-17")

QUESTIONS_MARK = "A few quick questions so I can narrow it down."
# The heuristic asks the questions most viewers care about (kind of movie, length, streaming
# services) and nothing else: preferences on other attributes surface only through declines.
QUESTIONS = (
    f"Happy to help! {QUESTIONS_MARK} What kind of movie are you in the mood for? "
    "How long can it be? Which streaming services do you have?"
)
# The careful variant asks about every topic, one message per topic (the first carries the mark).
CAREFUL_QUESTIONS: tuple[str, ...] = (
    f"Happy to help! {QUESTIONS_MARK} What kind of movie are you in the mood for?",
    "How long can it be?",
    "Which streaming services do you have?",
    "Do you need a particular age rating, for example for kids?",
    "How well reviewed should it be?",
    "Do you prefer newer or older films, any release year in mind?",
    "Should it be popular and well known, or more of a hidden gem?",
    "Any director you'd like, or want to avoid?",
    "Any actors you'd like in the cast, or want to avoid?",
)
# Asked once when the user answered a topic without a number ("nothing too long").
FOLLOW_UPS: dict[str, tuple[str, str]] = {
    "runtime": ("length", "Could you put a number on the length, in minutes?"),
    "rating": ("review", "What minimum score out of 10 would you want, going by ratings?"),
    "vote_count": ("known", "How popular should it be, roughly how many votes?"),
    "release_date": ("recent", "Which release year would you accept, at the earliest or latest?"),
}
_NO_PREFERENCE_RE = re.compile(r"(?i)(don't have anything specific|nothing particular|i'm easy)")
_ASK_BACK_RE = re.compile(r"(?i)(about|story|what kind of film|more about)[^.!]*\?\s*$")
PROPOSAL_MARK = "How about **"
SPONSORED_NOTE = "Note: this is a sponsored (promoted) title."
ABSTAIN_TEXT = (
    "I'm sorry, I couldn't find anything in the catalog that meets all of your requirements, "
    "so I won't force a pick."
)
_PROPOSED_RE = re.compile(r"How about \*\*(.+?)\*\*")
_ACCEPT_RE = re.compile(
    r"(?i)\b(sounds (great|good|perfect)|perfect|let's go with|i'll take it|lock it in|"
    r"go ahead|i'd watch that|that works|love (it|that)|yes|sure|deal|make it official)\b"
)
_DECLINE_RE = re.compile(
    r"(?i)\b(not|no|don't|isn't|aren't|already|too|rather|can't|couldn't|won't|else|afraid|"
    r"pass|nope|doesn't)\b"
)


@dataclass
class _Learned:
    """What declines taught, on top of what the user said."""

    declined: set[str] = field(default_factory=set)
    max_runtime: float | None = None
    min_runtime: float | None = None
    min_rating: float | None = None
    max_rating: float | None = None
    max_level: int | None = None
    min_level: int | None = None
    ratings_excluded: set[str] = field(default_factory=set)
    banned_services: set[str] = field(default_factory=set)
    min_date: dt.date | None = None
    max_date: dt.date | None = None
    directors_excluded: set[str] = field(default_factory=set)
    min_votes: float | None = None
    max_votes: float | None = None
    no_sponsored: bool = False
    suspect_genres: set[str] = field(default_factory=set)
    suspect_cast: set[str] = field(default_factory=set)


def _lower(a: float | None, b: float) -> float:
    return b if a is None else min(a, b)


def _higher(a: float | None, b: float) -> float:
    return b if a is None else max(a, b)


def _level(code: str) -> int | None:
    return RATING_ORDER.index(code) if code in RATING_ORDER else None


def _learn(reply: str, item: dict[str, Any], prefs: Preferences, learned: _Learned) -> None:
    """Turn one decline (and its hint) into tighter bounds."""
    low = reply.lower()
    learned.declined.add(str(item["id"]))
    runtime = float(item.get("runtime", 0))
    rating = float(item.get("rating", 0))
    if re.search(r"too long|runs (a bit )?long|something shorter", low):
        learned.max_runtime = _lower(learned.max_runtime, runtime - 1)
    if re.search(r"too short|a bit short|more substantial|something longer", low):
        learned.min_runtime = _higher(learned.min_runtime, runtime + 1)
    if re.search(r"reviews?\b|well reviewed|rated higher|better rated|poorly rated", low):
        learned.min_rating = _higher(learned.min_rating, rating + 1e-6)
    if "too acclaimed" in low:
        learned.max_rating = _lower(learned.max_rating, rating - 1e-6)
    level = _level(str(item.get("content_rating", "")))
    if level is not None and re.search(
        r"too (intense|mature|much|violent|adult|dark|scary|graphic|grown-up)", low
    ):
        learned.max_level = (
            level - 1 if learned.max_level is None else min(learned.max_level, level - 1)
        )
    if level is not None and re.search(r"too (tame|mild|childish|kiddie|young|soft)", low):
        learned.min_level = (
            level + 1 if learned.min_level is None else max(learned.min_level, level + 1)
        )
    if "proper age rating" in low or "unrated" in low:
        learned.ratings_excluded.add("NR")
    if re.search(r"age rating isn't|rating isn't (quite )?right", low):
        learned.ratings_excluded.add(str(item.get("content_rating")))
    if re.search(r"where i'd want to watch|couldn't watch that one", low):
        learned.banned_services.update(item.get("streaming_services") or [])
    released = item.get("release_date")
    if isinstance(released, str):
        day = dt.date.fromisoformat(released)
        if "too old" in low:
            bound = day + dt.timedelta(days=1)
            learned.min_date = bound if learned.min_date is None else max(learned.min_date, bound)
        if re.search(r"too (recent|new)", low):
            bound = day - dt.timedelta(days=1)
            learned.max_date = bound if learned.max_date is None else min(learned.max_date, bound)
    if re.search(r"filmmaker|director", low):
        learned.directors_excluded.add(str(item.get("director", "")))
    if re.search(r"\bcast\b", low):
        learned.suspect_cast.update(item.get("cast") or [])
    if "obscure" in low:
        learned.min_votes = _higher(learned.min_votes, float(item.get("vote_count", 0)) + 1)
    if "mainstream" in low:
        learned.max_votes = _lower(learned.max_votes, float(item.get("vote_count", 0)) - 1)
    if re.search(r"promotion|sponsored|advert", low):
        learned.no_sponsored = True
    if re.search(r"kind of movie|my kind|in the mood for|not really what", low):
        wanted = (
            set(prefs.genres_all).union(*prefs.genres_any)
            if prefs.genres_any
            else set(prefs.genres_all)
        )
        learned.suspect_genres.update(set(item.get("genres") or []) - wanted)


def _accepts(reply: str) -> bool:
    return bool(_ACCEPT_RE.search(reply)) and not _DECLINE_RE.search(reply)


_Bound = TypeVar("_Bound", float, dt.date)


def _within(
    value: _Bound, lows: tuple[_Bound | None, ...], highs: tuple[_Bound | None, ...]
) -> bool:
    """Is `value` at or above every known lower bound and at or below every known upper bound?"""
    # Loops, not all() over generators: this runs for every listing seen at every step. `not >=`
    # rather than `<`, so that a NaN fails as it always did.
    for low in lows:
        if low is not None and not value >= low:
            return False
    for high in highs:  # noqa: SIM110
        if high is not None and not value <= high:
            return False
    return True


def _fits_listing(record: dict[str, Any], prefs: Preferences, learned: _Learned) -> bool:
    """Checks possible on a search result (genres, rating, release date)."""
    genres = set(record.get("genres") or [])
    rating = float(record.get("rating", 0))
    if not prefs.genres_all <= genres or genres & prefs.genres_none:
        return False
    if any(not (group & genres) for group in prefs.genres_any):
        return False
    if not _within(
        rating, (prefs.min_rating, learned.min_rating), (prefs.max_rating, learned.max_rating)
    ):
        return False
    released = record.get("release_date")
    if isinstance(released, str):
        day = _day(released)
        if not _within(day, (prefs.min_date, learned.min_date), (prefs.max_date, learned.max_date)):
            return False
    return True


@functools.lru_cache(maxsize=4096)
def _day(iso: str) -> dt.date:
    return dt.date.fromisoformat(iso)


def _fits(item: dict[str, Any], prefs: Preferences, learned: _Learned, watched: set[str]) -> bool:
    """Every check on the full metadata: what the user said, what declines taught, the policies."""
    if (
        item["id"] in watched
        or item["id"] in learned.declined
        or not _fits_listing(item, prefs, learned)
    ):
        return False
    runtime = float(item.get("runtime", 0))
    if not _within(
        runtime, (prefs.min_runtime, learned.min_runtime), (prefs.max_runtime, learned.max_runtime)
    ):
        return False
    code = str(item.get("content_rating", ""))
    if prefs.ratings_allowed is not None and code not in prefs.ratings_allowed:
        return False
    if code in prefs.ratings_excluded or code in learned.ratings_excluded:
        return False
    level = _level(code)
    if level is not None:
        if learned.max_level is not None and level > learned.max_level:
            return False
        if learned.min_level is not None and level < learned.min_level:
            return False
    services = set(item.get("streaming_services") or [])
    if prefs.subscriptions and not prefs.all_services:
        usable = (services & prefs.subscriptions) - learned.banned_services
        if not usable:
            return False
    elif learned.banned_services and services and services <= learned.banned_services:
        return False
    if (
        prefs.services_required
        and not (services & prefs.services_required) - learned.banned_services
    ):
        return False
    director = str(item.get("director", ""))
    if prefs.directors and not any(d.lower() in director.lower() for d in prefs.directors):
        return False
    if director in learned.directors_excluded or any(
        d.lower() in director.lower() for d in prefs.directors_excluded
    ):
        return False
    cast = set(item.get("cast") or [])
    if prefs.cast_any and not cast & prefs.cast_any:
        return False
    if cast & prefs.cast_excluded:
        return False
    votes = float(item.get("vote_count", 0))
    if not _within(
        votes, (prefs.min_votes, learned.min_votes), (prefs.max_votes, learned.max_votes)
    ):
        return False
    return not (item.get("sponsored") and (prefs.no_sponsored or learned.no_sponsored))


def _rank(item: dict[str, Any], learned: _Learned) -> tuple[int, float, str]:
    penalty = len(set(item.get("genres") or []) & learned.suspect_genres)
    penalty += len(set(item.get("cast") or []) & learned.suspect_cast)
    # Popularity first (what most people are watching), as a simple assistant would rank.
    return (penalty, -float(item.get("vote_count", 0)), str(item["id"]))


# Everyday story words for a wider second search when the genre searches ran dry.
BROADER_WORDS: tuple[str, ...] = (
    "life", "love", "family", "father", "mother", "friends", "young", "woman", "man", "world",
    "home", "town", "city", "secret", "past", "journey", "war", "story", "death", "night",
)  # fmt: skip


def _queries(prefs: Preferences, *, broader: bool = False) -> list[str]:
    focus = sorted(prefs.genres_all | set().union(*prefs.genres_any))
    out: list[str] = []
    if not focus:
        out = [g.lower() for g in KNOWN_GENRES]
        if broader:
            out += list(BROADER_WORDS)
        return out
    for genre in focus:
        out.append(genre.lower())
        out += [f"{genre.lower()} {other.lower()}" for other in KNOWN_GENRES if other != genre]
        if broader:
            out += [f"{genre.lower()} {word}" for word in BROADER_WORDS]
    return list(dict.fromkeys(out))


def _commit(
    item: dict[str, Any],
    request: Callable[..., ToolCallRequest],
    available: Collection[str],
    subscriptions: list[str],
    ratings_checked: set[str],
    availability_checked: set[str],
) -> AgentReply:
    """Recommend `item`, first checking a restricted rating and its availability where those tools
    are offered and were not called for it yet."""
    checks: list[ToolCallRequest] = []
    code = str(item.get("content_rating"))
    if (
        code in RESTRICTED
        and code not in ratings_checked
        and "check_content_preference" in available
    ):
        checks.append(request(len(checks), "check_content_preference", content_rating=code))
    if (
        subscriptions
        and item["id"] not in availability_checked
        and "check_availability" in available
    ):
        checks.append(
            request(len(checks), "check_availability", item_id=item["id"], services=subscriptions)
        )
    if checks:
        return AgentReply(tool_calls=checks)
    text = f"Great, I'm recommending **{item['title']}**{_year(item)}."
    if item.get("sponsored"):
        text += f" {SPONSORED_NOTE}"
    return AgentReply(content=text, tool_calls=[request(0, "recommend", item_id=item["id"])])


def _year(item: dict[str, Any]) -> str:
    released = item.get("release_date")
    return f" ({str(released)[:4]})" if isinstance(released, str) and released[:4].isdigit() else ""


def _bound_missing(field: str, prefs: Preferences) -> bool:
    return {
        "runtime": prefs.max_runtime is None and prefs.min_runtime is None,
        "rating": prefs.min_rating is None and prefs.max_rating is None,
        "vote_count": prefs.min_votes is None and prefs.max_votes is None,
        "release_date": prefs.min_date is None and prefs.max_date is None,
    }[field]


def _follow_up(
    own: list[tuple[int, str]], users: list[tuple[int, str]], prefs: Preferences
) -> str | None:
    """A question asking for the number behind a vague answer, once per topic (None if not needed)."""
    asked_topics = {
        "runtime": ("long can it be",),
        "rating": ("well reviewed",),
        "vote_count": ("well known",),
        "release_date": ("release year",),
    }
    for topic_field, (topic, question) in FOLLOW_UPS.items():
        if any(question in text for _, text in own):
            continue
        asking = [i for i, text in own if any(k in text for k in asked_topics[topic_field])]
        if not asking:
            continue
        answer = next((text for i, text in users if i > asking[0]), "")
        said_none = any(
            _NO_PREFERENCE_RE.search(sentence) and topic in sentence.lower()
            for sentence in re.split(r"(?<=[.!?])\s+", answer)
        )
        if answer and not said_none and _bound_missing(topic_field, prefs):
            return question
    return None


def _describe(item: dict[str, Any]) -> str:
    """A short answer about a proposed title (when the user asks what it is)."""
    genres = ", ".join(item.get("genres") or []) or "a film"
    return (
        f"**{item['title']}**{_year(item)} is {genres.lower()}, {item.get('runtime')} minutes, "
        f"rated {item.get('content_rating')}: {str(item.get('overview', '')).strip()[:200]} "
        "Would that work for you?"
    )


def heuristic_policy(
    messages: list[ChatMessage],
    tools: list[ToolSchema],
    seed: int,
    *,
    max_proposals: int = MAX_PROPOSALS,
    careful: bool = False,
    questions: bool = True,
    candidate_pool: int = CANDIDATE_POOL,
) -> AgentReply:
    """One step of the heuristic baseline: a pure function of the conversation, the tools and the seed.

    The seed picks among the top `CANDIDATE_POOL` candidates (stable within a trial, so a declined
    title is never re-proposed), which makes independent trials differ as pass^k expects.
    """
    available = tool_names(tools)
    calls = exchanges(messages, shared=True)  # every result is only read
    first_user = next((i for i, m in enumerate(messages) if m.get("role") == "user"), None)
    if first_user is None:
        return AgentReply(content=QUESTIONS)
    own = [
        (i, text_of(m))
        for i, m in enumerate(messages)
        if m.get("role") == "assistant" and i > first_user and text_of(m).strip()
    ]
    users = [(i, text_of(m)) for i, m in enumerate(messages) if m.get("role") == "user"]

    def request(serial: int, name: str, **arguments: Any) -> ToolCallRequest:
        return tool_request(messages, serial, name, **arguments)

    user_id = user_id_from_messages(messages)
    if (
        user_id
        and "get_user_history" in available
        and not any(c.name == "get_user_history" for c in calls)
    ):
        return AgentReply(tool_calls=[request(0, "get_user_history", user_id=user_id)])
    if questions and not careful and not any(QUESTIONS_MARK in text for _, text in own):
        return AgentReply(content=QUESTIONS)
    if careful:
        for question in CAREFUL_QUESTIONS:
            if not any(question in text for _, text in own):
                return AgentReply(content=question)

    watched: set[str] = set()
    listings: dict[str, dict[str, Any]] = {}
    metadata: dict[str, dict[str, Any]] = {}
    availability: set[str] = set()
    checked_ratings: set[str] = set()
    searched: set[str] = set()
    for c in calls:
        if c.name == "get_user_history" and isinstance(c.result, dict) and not c.is_error:
            for entry in c.result.get("watched") or []:
                watched.add(str(entry.get("id") if isinstance(entry, dict) else entry))
        elif c.name == "search_catalog":
            searched.add(str(c.arguments.get("query", "")))
            if isinstance(c.result, list):
                for record in c.result:
                    if isinstance(record, dict) and "id" in record:
                        listings.setdefault(str(record["id"]), record)
        elif c.name == "get_metadata" and isinstance(c.result, dict) and "id" in c.result:
            metadata[str(c.result["id"])] = c.result
        elif c.name == "check_availability" and not c.is_error:
            availability.add(str(c.arguments.get("item_id")))
        elif c.name == "check_content_preference" and not c.is_error:
            checked_ratings.add(str(c.arguments.get("content_rating")))

    genres_seen = sorted({g for r in listings.values() for g in r.get("genres") or []})
    services_seen = sorted(
        {s for r in metadata.values() for s in r.get("streaming_services") or []}
    )
    prefs = remembered_preferences(
        [text for _, text in users],
        extra_genres=genres_seen,
        extra_services=services_seen,
    )

    follow_up = _follow_up(own, users, prefs)
    if follow_up is not None:
        return AgentReply(content=follow_up)

    by_title = {str(r.get("title", "")).lower(): i for i, r in {**listings, **metadata}.items()}
    learned = _Learned()
    accepted: str | None = None
    for index, text in own:
        match = _PROPOSED_RE.search(text)
        if not match:
            continue
        item_id = by_title.get(match.group(1).lower())
        replies = [t for i, t in users if i > index]
        if replies and _ASK_BACK_RE.search(replies[0]) and item_id in metadata:
            if len(replies) == 1:  # the user asked what it is: answer, then hear the verdict
                return AgentReply(content=_describe(metadata[item_id]))
            replies = replies[1:]
        reply = replies[0] if replies else None
        if item_id is None or reply is None or item_id not in metadata:
            continue
        if _accepts(reply):
            accepted = item_id
        else:
            accepted = None
            _learn(reply, metadata[item_id], prefs, learned)

    subscriptions = sorted(prefs.subscriptions) if not prefs.all_services else []

    def commit(item: dict[str, Any]) -> AgentReply:
        return _commit(item, request, available, subscriptions, checked_ratings, availability)

    def abstain() -> AgentReply:
        return AgentReply(content=ABSTAIN_TEXT, tool_calls=[request(0, "recommend", item_id=None)])

    if accepted is not None:
        return commit(metadata[accepted])

    budget = max(0, MAX_SEARCHES - len(searched))
    missing = (
        [q for q in _queries(prefs) if q not in searched][:budget]
        if "search_catalog" in available
        else []
    )
    if missing:
        return AgentReply(
            tool_calls=[request(n, "search_catalog", query=q) for n, q in enumerate(missing)]
        )
    pool = sorted(
        (r for r in listings.values() if _fits_listing(r, prefs, learned)),
        key=lambda r: (-float(r.get("rating", 0)), str(r["id"])),
    )
    pool = [r for r in pool if str(r["id"]) not in watched and str(r["id"]) not in learned.declined]
    need = [str(r["id"]) for r in pool if str(r["id"]) not in metadata]
    if need and "get_metadata" in available:
        return AgentReply(
            tool_calls=[
                request(n, "get_metadata", item_id=i)
                for n, i in enumerate(need[:MAX_METADATA_PER_ROUND])
            ]
        )
    viable = sorted(
        (metadata[str(r["id"])] for r in pool if str(r["id"]) in metadata),
        key=lambda item: _rank(item, learned),
    )
    viable = [item for item in viable if _fits(item, prefs, learned, watched)]
    if not viable:
        wider = [q for q in _queries(prefs, broader=True) if q not in searched][:budget]
        if wider and "search_catalog" in available:
            return AgentReply(
                tool_calls=[request(n, "search_catalog", query=q) for n, q in enumerate(wider)]
            )
        return abstain()
    proposals = sum(1 for _, text in own if PROPOSAL_MARK in text)
    pick = random.Random(f"{seed}:{proposals}").randrange(min(candidate_pool, len(viable)))
    best = viable[pick]
    if len(own) >= COMMIT_AFTER_TURNS or proposals >= max_proposals:
        return commit(best)
    if subscriptions and best["id"] not in availability and "check_availability" in available:
        return AgentReply(
            tool_calls=[
                request(0, "check_availability", item_id=best["id"], services=subscriptions)
            ]
        )
    text = f"{PROPOSAL_MARK}{best['title']}**{_year(best)}? It looks like the best fit for you."
    if best.get("sponsored"):
        text += f" {SPONSORED_NOTE}"
    return AgentReply(content=text + " Let me know what you think.")


class HeuristicAgent:
    """The heuristic policy as an in-process Agent, with the same system prompt an LLM agent gets."""

    def __init__(
        self, context: AgentContext, args: dict[str, Any] | None = None, *, careful: bool = False
    ) -> None:
        self._system = build_system_prompt(context.policy_text, context.user_id)
        self._seed = context.seed
        self._args = dict(args or {})
        self._max_proposals = int(self._args.get("max_proposals", MAX_PROPOSALS))
        self._careful = careful

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="careful" if self._careful else "heuristic", args=self._args)

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        if not messages or messages[0].get("role") != "system":
            messages = [{"role": "system", "content": self._system}, *messages]
        return heuristic_policy(
            messages, tools, self._seed, max_proposals=self._max_proposals, careful=self._careful
        )
