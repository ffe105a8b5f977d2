"""The honest expert: the strongest zero-LLM agent we can write without task access - ask well, retrieve within the budget, split on every decline hint.

Like the heuristic it is a pure policy over (messages, tools, seed): it sees the system prompt, the
chat and the tool results, and every step re-reads the whole conversation.

Plan: fetch the watch history; ask for the services (a plain fact) together with the most useful
preference topics, at most two per message, in order of usefulness (kind of movie, length, age
rating, reviews, recency, popularity, people; a topic the opening names with a word of the
documented topic vocabulary, `vocabulary.TOPIC_WORDS`, goes first, one it already covered last);
press a vague answer once for the number; stop asking as soon as the user will not answer more.
Then search (genre-focused queries, stopping when a round adds nothing new) and fetch metadata
of every plausible listing within the 80-call budget (a reserve is kept for the final checks).
It proposes exactly one title per message and learns from every decline hint: the hinted field
gets a bound, and the next proposal is taken from the safe half of what remains on that field
(binary search, not the most popular title). A decline that points at a topic it never asked
about makes it ask that topic. When the user accepts, it checks the content preference (R/NC-17)
and availability, discloses sponsorship and calls `recommend`; when the candidates run out it
says so and abstains with `recommend()`.

`Style` takes parts out for the panel's adversaries and the strata's fixed priors
(`domains.movies.strata`): no questions, no learning, a fixed sort order (`PRIOR_ORDERS`), or what
the user said ignored (`heed=False`).

`informed_fields` (the `informed` variant) replaces the generic topic order by the names of the
fields the task constrains: it asks exactly those and weighs only those in its proposals.
"""

from __future__ import annotations

import collections
import functools
import math
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from domains.movies.baselines.chat import exchanges, text_of, tool_names, tool_request
from domains.movies.baselines.heuristic import (
    ABSTAIN_TEXT,
    BROADER_WORDS,
    PROPOSAL_MARK,
    RESTRICTED,
    SPONSORED_NOTE,
    _accepts,
    _commit,
    _fits,
    _fits_listing,
    _learn,
    _Learned,
    _level,
    _year,
)
from domains.movies.baselines.preferences import KNOWN_GENRES, Preferences, remembered_preferences
from domains.movies.simulators.vocabulary import FIELD_TOPIC, topic_cues
from runner.agents.prompt import build_system_prompt, user_id_from_messages
from runner.core.protocols import AgentContext, AgentReply, ChatMessage, ToolCallRequest, ToolSchema
from runner.core.transcript import ComponentSpec

if TYPE_CHECKING:
    from domains.movies.tasks import Task

__all__ = [
    "EXPERT_STYLE",
    "EXPERT_TOPICS",
    "TOOL_BUDGET",
    "ExpertAgent",
    "Seen",
    "Style",
    "constrained_fields",
    "expert_policy",
    "read_seen",
]

TOOL_BUDGET = 80
# Calls kept back for the end: availability, content preference, recommend, one spare.
RESERVE = 4
MAX_SEARCHES = 24
SEARCH_ROUND = 6
SPLIT = 2
METADATA_ROUND = 20

SERVICES_QUESTION = "Which streaming services do you have?"
# Topic -> the question asked about it (phrased so that any reader knows the topic).
TOPIC_QUESTIONS: dict[str, str] = {
    "genres": "What kind of movie are you in the mood for?",
    "runtime": "How long can it be?",
    "content_rating": "Who's watching: do you need a particular age rating?",
    "rating": "How well reviewed should it be?",
    "release_date": "Do you prefer newer or older films, any release year in mind?",
    "vote_count": "Should it be popular and well known, or more of a hidden gem?",
    "people": "Any director or actors you'd like, or want to avoid?",
}
# The generic order of usefulness (what most often decides a pick).
EXPERT_TOPICS: tuple[str, ...] = tuple(TOPIC_QUESTIONS)
PRESS: dict[str, str] = {
    "runtime": "Could you put a number on the length, in minutes?",
    "rating": "What minimum score out of 10 would you want, going by ratings?",
    "vote_count": "How popular should it be, roughly how many votes?",
    "release_date": "Which release year would you accept, at the earliest or latest?",
}
TOPICS_PER_MESSAGE = 2
# Which Preferences attributes each topic fills.
_TOPIC_ATTRS: dict[str, tuple[str, ...]] = {
    "genres": ("genres_all", "genres_any", "genres_none"),
    "runtime": ("max_runtime", "min_runtime"),
    "content_rating": ("ratings_allowed", "ratings_excluded"),
    "rating": ("min_rating", "max_rating"),
    "release_date": ("min_date", "max_date"),
    "vote_count": ("min_votes", "max_votes"),
    "people": ("directors", "directors_excluded", "cast_any", "cast_excluded"),
}
_TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "genres": ("genre", "kind"),
    "runtime": ("length", "long"),
    "content_rating": ("age",),
    "rating": ("review", "rating", "score"),
    "release_date": ("recent", "old", "year", "new"),
    "vote_count": ("known", "popular"),
    "people": ("director", "cast", "actor"),
}
_NO_PREFERENCE_RE = re.compile(
    r"(?i)(nothing specific|anything specific|nothing particular|i'm easy|no preference|"
    r"don't mind|doesn't matter|not fussed|don't care)"
)
_REFUSE_RE = re.compile(
    r"(?i)(answered enough|questionnaire|plenty of questions|done with the interview|"
    r"enough questions|just (?:suggest|pick|make a suggestion)|what would you pick|"
    r"that will have to do|all i'll say|stick to those|a little at a time|show me what)"
)
_ASK_BACK_RE = re.compile(
    r"(?i)(what(?:'s| is) .{1,80} about|tell me (?:a little )?more|what's the story|"
    r"what kind of film is it|haven't heard of)"
)
# Decline hint -> the topic it points at.
_HINT_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "runtime",
        re.compile(r"(?i)too long|runs (a bit )?long|too short|a bit short|substantial|length"),
    ),
    ("rating", re.compile(r"(?i)reviews?\b|well reviewed|rated higher|acclaimed")),
    (
        "content_rating",
        re.compile(r"(?i)too (intense|mature|tame|mild|violent|dark|scary|childish)|age rating"),
    ),
    ("release_date", re.compile(r"(?i)too (old|recent|new)")),
    ("vote_count", re.compile(r"(?i)obscure|mainstream")),
    ("genres", re.compile(r"(?i)kind of movie|my kind|in the mood for|not really what")),
    ("people", re.compile(r"(?i)filmmaker|director|\bcast\b")),
    ("services", re.compile(r"(?i)where i'd want to watch|couldn't watch|services|subscriptions")),
    ("seen", re.compile(r"(?i)already (seen|watched)|watched that")),
)
_PROPOSED_RE = re.compile(r"How about \*\*(.+?)\*\*")


@dataclass
class Seen:
    """Everything the conversation has shown the agent: tool results, its own and the user's words."""

    calls: int = 0
    history_fetched: bool = False
    history_called: bool = False
    watched: set[str] = field(default_factory=set)
    listings: dict[str, dict[str, Any]] = field(default_factory=dict)
    metadata: dict[str, dict[str, Any]] = field(default_factory=dict)
    searched: list[str] = field(default_factory=list)
    search_results: list[list[str]] = field(default_factory=list)
    available_checked: set[str] = field(default_factory=set)
    ratings_checked: set[str] = field(default_factory=set)
    own: list[tuple[int, str]] = field(default_factory=list)
    users: list[tuple[int, str]] = field(default_factory=list)


def read_seen(messages: list[ChatMessage]) -> Seen:
    """Parse the conversation: tool results by kind, and the texts of both sides with positions."""
    seen = Seen()
    first_user = next((i for i, m in enumerate(messages) if m.get("role") == "user"), len(messages))
    for c in exchanges(messages, shared=True):
        seen.calls += 1
        if c.name == "get_user_history":
            seen.history_called = True
        if c.name == "get_user_history" and isinstance(c.result, dict) and not c.is_error:
            seen.history_fetched = True
            for entry in c.result.get("watched") or []:
                seen.watched.add(str(entry.get("id") if isinstance(entry, dict) else entry))
        elif c.name == "search_catalog":
            seen.searched.append(str(c.arguments.get("query", "")))
            found = []
            for record in c.result if isinstance(c.result, list) else []:
                if isinstance(record, dict) and "id" in record:
                    seen.listings.setdefault(str(record["id"]), record)
                    found.append(str(record["id"]))
            seen.search_results.append(found)
        elif c.name == "get_metadata" and isinstance(c.result, dict) and "id" in c.result:
            seen.metadata[str(c.result["id"])] = c.result
        elif c.name == "check_availability" and not c.is_error:
            seen.available_checked.add(str(c.arguments.get("item_id")))
        elif c.name == "check_content_preference" and not c.is_error:
            seen.ratings_checked.add(str(c.arguments.get("content_rating")))
    for i, m in enumerate(messages):
        if m.get("role") == "assistant" and i > first_user and text_of(m).strip():
            seen.own.append((i, text_of(m)))
        elif m.get("role") == "user":
            seen.users.append((i, text_of(m)))
    return seen


def describe(item: dict[str, Any]) -> str:
    """What a proposed title is, when the user asks: its kind, length and age rating. The plot is
    not quoted: names in it could read as other titles."""
    genres = "/".join(str(g).lower() for g in item.get("genres") or []) or "feature"
    return (
        f"**{item['title']}**{_year(item)} is a {genres} film, {item.get('runtime')} minutes long, "
        f"rated {item.get('content_rating')}. Would that work for you?"
    )


# "Family" as a genre: the shared reader skips the bare word (it also means family-friendly).
_FAMILY_GENRE_RE = re.compile(
    r"(?i)\b(genre (?:would be|is|of)|in the mood for an?|watching an?|want an?) family\b"
)


def _prefs(seen: Seen, upto: int | None = None) -> Preferences:
    prefs = remembered_preferences(
        (t for i, t in seen.users if upto is None or i <= upto),
        extra_genres={g for r in seen.listings.values() for g in r.get("genres") or []},
        extra_services={
            s for r in seen.metadata.values() for s in r.get("streaming_services") or []
        },
    )
    if _says_family(tuple(t for i, t in seen.users if upto is None or i <= upto)):
        prefs.genres_all.add("Family")
    return prefs


@functools.lru_cache(maxsize=4096)
def _says_family(texts: tuple[str, ...]) -> bool:
    """Whether the user asked for Family as a genre (remembered, like the reading: every step
    asks again of the same turns)."""
    return any(_FAMILY_GENRE_RE.search(t) for t in texts)


def _covered(prefs: Preferences, topic: str) -> bool:
    """Whether what the user said already speaks to a topic."""
    empty = Preferences()
    return any(getattr(prefs, a) != getattr(empty, a) for a in _TOPIC_ATTRS.get(topic, ()))


def _reply_after(seen: Seen, index: int) -> tuple[int, str] | None:
    return next(((i, t) for i, t in seen.users if i > index), None)


def _said_nothing_about(reply: str, topic: str) -> bool:
    return any(
        _NO_PREFERENCE_RE.search(s) and any(w in s.lower() for w in _TOPIC_WORDS[topic])
        for s in re.split(r"(?<=[.!?])\s+", reply)
    )


_VAGUE_WORDS: dict[str, re.Pattern[str]] = {
    "runtime": re.compile(r"(?i)\b(long|short|shorter|length|marathon|quick)\b"),
    "rating": re.compile(r"(?i)\b(liked|reviews?|reviewed|decent|good|rated|acclaimed)\b"),
    "vote_count": re.compile(r"(?i)\b(obscure|known|radar|everybody|popular|mainstream)\b"),
    "release_date": re.compile(r"(?i)\b(recent|old|older|new|newer|classic)\b"),
}


def _vague_about(reply: str, topic: str) -> bool:
    """The reply speaks to the topic without a number ("nothing too long")."""
    return any(
        _VAGUE_WORDS[topic].search(s) and not _REFUSE_RE.search(s)
        for s in re.split(r"(?<=[.!?])\s+", reply)
    )


@dataclass
class _Interview:
    """Where the questions stand: topics asked, answered vaguely, pressed; whether to go on."""

    asked: list[str] = field(default_factory=list)
    services_asked: bool = False
    refused: bool = False
    waiting: bool = False
    to_press: list[str] = field(default_factory=list)


def _interview(seen: Seen) -> _Interview:
    state = _Interview()
    pressed = {t for t, q in PRESS.items() for _, text in seen.own if q in text}
    for index, text in seen.own:
        topics = [t for t, q in TOPIC_QUESTIONS.items() if q in text]
        again = [t for t, q in PRESS.items() if q in text]
        if SERVICES_QUESTION in text:
            state.services_asked = True
        if not topics and not again:
            continue
        state.asked += [t for t in topics if t not in state.asked]
        reply = _reply_after(seen, index)
        if reply is None:
            state.waiting = True
            continue
        if _REFUSE_RE.search(reply[1]):
            state.refused = True  # held some topics back: it will answer no new ones
        after = _prefs(seen, reply[0])
        for topic in [*topics, *again]:
            if _covered(after, topic) or _said_nothing_about(reply[1], topic):
                continue
            if topic in PRESS and topic not in pressed and _vague_about(reply[1], topic):
                state.to_press.append(topic)
    state.to_press = [t for t in state.to_press if t not in pressed]
    return state


# Topics where one stated wish does not close the question (a second genre, a genre to avoid).
_OPEN_ENDED = frozenset({"genres"})


def _topic_order(
    opening: Preferences, informed_fields: frozenset[str] | None, opening_text: str = ""
) -> list[str]:
    """Topics to ask, most useful first: those the opening hints at without a value first, those
    it already covered last."""
    if informed_fields is None:
        topics = list(EXPERT_TOPICS)
    else:
        topics = list(
            dict.fromkeys(FIELD_TOPIC[f] for f in sorted(informed_fields) if f in FIELD_TOPIC)
        )
        topics.sort(key=EXPERT_TOPICS.index)
    # A topic the opening names without a value (a word of the domain's documented topic
    # vocabulary: "the cast", "the release year", "the kids") is asked first.
    named = set(topic_cues(opening_text))
    cued = [t for t in topics if t in named and not _covered(opening, t)]
    rest = [t for t in topics if t not in cued]
    return (
        cued
        + [t for t in rest if not _covered(opening, t) or t in _OPEN_ENDED]
        + [t for t in rest if _covered(opening, t) and t not in _OPEN_ENDED]
    )


def _queries(prefs: Preferences, *, broader: bool) -> list[str]:
    """Genre-focused searches: the full combination first, then each genre, then pairings."""
    focus = sorted(prefs.genres_all | set().union(*prefs.genres_any))
    # People the user asked for are searched by name first (the search covers cast and director).
    out: list[str] = sorted(prefs.cast_any | prefs.directors)
    if len(prefs.genres_all) > 1:
        out.append(" ".join(g.lower() for g in sorted(prefs.genres_all)))
    out += [g.lower() for g in focus] or [g.lower() for g in KNOWN_GENRES]
    for genre in focus:
        out += [f"{genre.lower()} {o.lower()}" for o in KNOWN_GENRES if o != genre]
    if broader:
        out += [f"{g.lower()} {w}" for g in focus for w in BROADER_WORDS] or list(BROADER_WORDS)
    return list(dict.fromkeys(out))


_STOPWORDS = frozenset(
    ("a", "an", "the", "of", "to", "and", "in", "on", "for", "with", "from", "as", "at", "by",
     "is", "are", "his", "her", "their", "its", "it", "that", "this", "who", "when", "what",
     "into", "out", "up", "than", "one", "after", "before", "over", "about", "while", "where",
     "which", "them", "they")
)  # fmt: skip


def _plot_words(record: dict[str, Any]) -> frozenset[str]:
    return _overview_words(str(record.get("overview", "")))


@functools.lru_cache(maxsize=4096)
def _overview_words(overview: str) -> frozenset[str]:
    """A plot's content words (read once per plot: every step reads every listing seen)."""
    words = re.findall(r"[a-z]+", overview.lower())
    return frozenset(w for w in words if len(w) > 3 and w not in _STOPWORDS)


def _feedback_queries(seen: Seen, prefs: Preferences, learned: _Learned, n: int) -> list[str]:
    """Searches from words of the fitting listings' plots (pseudo-relevance feedback), each word
    chosen to cover the listings the words before it do not (so they reach different titles):
    titles with one genre and no second one to pair it with surface this way."""
    focus = sorted(prefs.genres_all) or sorted(set().union(*prefs.genres_any))
    head = " ".join(g.lower() for g in focus[:1])
    fitting = [_plot_words(r) for r in seen.listings.values() if _fits_listing(r, prefs, learned)]
    used = {q.split(" ", 1)[1] for q in seen.searched if head and q.startswith(head + " ")}
    out: list[str] = []
    for _ in range(n):
        rest = [w for w in fitting if not w & used] or fitting
        counts: collections.Counter[str] = collections.Counter()
        for words in rest:
            counts.update(words - used)
        if not counts:
            break
        word = max(sorted(counts), key=counts.__getitem__)
        used.add(word)
        out.append(f"{head} {word}".strip())
    return [q for q in out if q not in seen.searched]


@dataclass(frozen=True)
class _Axis:
    """A numeric field a decline hinted at, and which way is safe."""

    name: str
    higher_is_safe: bool


def _value(item: dict[str, Any], axis: str) -> float:
    if axis == "content_level":
        level = _level(str(item.get("content_rating", "")))
        return float(level if level is not None else 0)
    if axis == "release_date":
        return float(str(item.get("release_date", "0000"))[:4] or 0)
    return float(item.get(axis, 0) or 0)


def _axes(learned: _Learned) -> list[_Axis]:
    out = []
    for name, low, high in (
        ("runtime", learned.max_runtime, learned.min_runtime),
        ("rating", learned.max_rating, learned.min_rating),
        ("vote_count", learned.max_votes, learned.min_votes),
        ("release_date", learned.max_date, learned.min_date),
        ("content_level", learned.max_level, learned.min_level),
    ):
        if low is not None:
            out.append(_Axis(name, higher_is_safe=False))
        if high is not None:
            out.append(_Axis(name, higher_is_safe=True))
    return out


def _split(items: list[dict[str, Any]], axes: Iterable[_Axis]) -> list[dict[str, Any]]:
    """Keep the safe half on every hinted axis: the next decline there halves what is left."""
    for axis in axes:
        if len(items) <= 1:
            break
        ordered = sorted(
            items,
            key=lambda m: -_value(m, axis.name) if axis.higher_is_safe else _value(m, axis.name),
        )
        items = ordered[: math.ceil(len(ordered) / SPLIT)]
    return items


def _prior(items: list[dict[str, Any]], fields: frozenset[str] | None) -> dict[str, float]:
    """A prior on how likely an unrevealed requirement is met: well reviewed, well known, not
    restricted or unrated (the informed variant weighs only constrained fields). Length gets no
    prior: a limit may point either way (a shorter-is-safer prior cost 0.06 pass^1 on the suite)."""

    def wants(name: str) -> bool:
        return fields is None or name in fields

    def ranks(key: str, sign: float) -> dict[str, float]:
        ordered = sorted(items, key=lambda m: (sign * float(m.get(key, 0) or 0), str(m["id"])))
        n = max(1, len(ordered) - 1)
        return {str(m["id"]): i / n for i, m in enumerate(ordered)}

    score = dict.fromkeys((str(m["id"]) for m in items), 0.0)
    for key, sign, weight in (("rating", 1.0, 1.0), ("vote_count", 1.0, 1.0)):
        if wants(key):
            for item_id, r in ranks(key, sign).items():
                score[item_id] += weight * r
    if wants("content_rating"):
        for m in items:
            code = str(m.get("content_rating", ""))
            score[str(m["id"])] -= 0.6 if code in RESTRICTED else 0.4 if code == "NR" else 0.0
    return score


def _genre_penalty(
    item: dict[str, Any],
    learned: _Learned,
    declined: list[dict[str, Any]],
    off_kind: list[dict[str, Any]] | None = None,
) -> tuple[int, int]:
    """How much a title looks like what was turned down: suspect genres and cast, the same genre
    set as a declined title; then, after "not my kind of movie", how few genres it adds that no
    declined title had (a missing genre is more likely among those)."""
    genres = set(item.get("genres") or [])
    penalty = len(genres & learned.suspect_genres) + len(
        set(item.get("cast") or []) & learned.suspect_cast
    )
    penalty += sum(1 for d in declined if set(d.get("genres") or []) == genres)
    novel = 0
    if off_kind:
        tried = set().union(*(set(d.get("genres") or []) for d in off_kind))
        novel = len(genres - tried)
    return penalty, -novel


def _full_listing(record: dict[str, Any]) -> bool:
    """A search result that shows every typed field a check needs (the v2 rules' results)."""
    return all(
        k in record for k in ("runtime", "vote_count", "content_rating", "streaming_services")
    )


def _dry(seen: Seen, prefs: Preferences, learned: _Learned) -> bool:
    """The last round of searches surfaced no new listing that fits what is known."""
    if len(seen.search_results) < 2 * SEARCH_ROUND:
        return False
    earlier = {i for ids in seen.search_results[:-SEARCH_ROUND] for i in ids}
    recent = {i for ids in seen.search_results[-SEARCH_ROUND:] for i in ids} - earlier
    return not any(_fits_listing(seen.listings[i], prefs, learned) for i in recent)


@dataclass
class _Outcome:
    """What the proposals so far have taught."""

    learned: _Learned
    accepted: str | None = None
    describe: str | None = None
    ask_topic: str | None = None
    unexplained: list[dict[str, Any]] = field(default_factory=list)
    off_kind: list[dict[str, Any]] = field(default_factory=list)
    proposals: int = 0


def _proposals(seen: Seen, prefs: Preferences, interview: _Interview) -> _Outcome:
    by_title = {
        str(r.get("title", "")).lower(): i for i, r in {**seen.listings, **seen.metadata}.items()
    }
    out = _Outcome(learned=_Learned())
    for index, text in seen.own:
        match = _PROPOSED_RE.search(text)
        if not match:
            continue
        out.proposals += 1
        item_id = by_title.get(match.group(1).lower())
        replies = [(i, t) for i, t in seen.users if i > index]
        if item_id is None or item_id not in seen.metadata:
            continue
        if replies and _ASK_BACK_RE.search(replies[0][1]) and not _accepts(replies[0][1]):
            if len(replies) == 1:
                out.describe = item_id
                return out
            replies = replies[1:]
        if not replies:
            continue
        reply = replies[0][1]
        if _accepts(reply):
            out.accepted = item_id
            continue
        out.accepted = None
        item = seen.metadata[item_id]
        _learn(reply, item, prefs, out.learned)
        topics = [t for t, pattern in _HINT_TOPICS if pattern.search(reply)]
        if not topics:
            out.unexplained.append(item)
        if "genres" in topics:
            out.off_kind.append(item)
        hinted = next((t for t in topics if t in TOPIC_QUESTIONS), None)
        last = replies[0] == seen.users[-1]
        if last and hinted is not None and hinted not in interview.asked and not interview.refused:
            out.ask_topic = hinted
        elif last and not topics and not interview.refused:
            out.ask_topic = "?"
    return out


Pick = Literal[
    "split", "middle", "popular", "random", "rated", "voted", "newest", "shortest", "longest"
]
# The fixed priors: a sort order over the fitting titles (key, highest first), no learning.
PRIOR_ORDERS: dict[str, tuple[str, bool]] = {
    "rated": ("rating", True),
    "voted": ("vote_count", True),
    "newest": ("release_date", True),
    "shortest": ("runtime", False),
    "longest": ("runtime", True),
}


@dataclass(frozen=True)
class Style:
    """Which parts of the expert run: the adversaries are the expert with one part taken out.

    `ask`: ask preference topics (else only the services); `learn`: read decline hints (else only
    drop the declined title); `propose`: name titles in chat (else recommend the pick at once);
    `policies`: history, availability and content checks, disclosure; `sweep`: search the whole
    catalog, not the genres asked for; `pick`: how the next title is chosen; `heed`: keep to what
    the user said (else only to the services: a prior over the whole catalog).
    """

    ask: bool = True
    learn: bool = True
    propose: bool = True
    policies: bool = True
    sweep: bool = False
    pick: Pick = "split"
    heed: bool = True


EXPERT_STYLE = Style()


def expert_policy(
    messages: list[ChatMessage],
    tools: list[ToolSchema],
    seed: int,
    *,
    informed_fields: frozenset[str] | None = None,
    style: Style = EXPERT_STYLE,
) -> AgentReply:
    """One step of the expert: a pure function of the conversation, the tools and (for the
    informed variant) the names of the constrained fields. The expert's own picks never use
    `seed` (what varies across its trials is the user); the `random` pick does."""
    available = tool_names(tools)
    seen = read_seen(messages)
    if not seen.users:
        return AgentReply(content="Hello! What are you in the mood to watch tonight?")

    def request(serial: int, name: str, **arguments: Any) -> ToolCallRequest:
        return tool_request(messages, serial, name, **arguments)

    user_id = user_id_from_messages(messages)
    if user_id and style.policies and "get_user_history" in available and not seen.history_called:
        return AgentReply(tool_calls=[request(0, "get_user_history", user_id=user_id)])

    prefs = _prefs(seen)
    if not style.heed:
        prefs = Preferences(subscriptions=prefs.subscriptions, all_services=prefs.all_services)
    opening = _prefs(seen, seen.users[0][0])
    interview = _interview(seen)
    order = _topic_order(opening, informed_fields, seen.users[0][1])
    outcome = _proposals(seen, prefs, interview)
    if not style.ask or not style.learn:
        outcome.ask_topic = None  # asking about the topic a decline pointed at is learning from it
    if not style.learn:
        outcome.learned = _Learned(declined=outcome.learned.declined)

    # -- questions ------------------------------------------------------------------------
    if outcome.proposals == 0 and not interview.waiting:
        parts: list[str] = []
        if not interview.services_asked:
            parts.append(SERVICES_QUESTION)
        if style.ask:
            parts += [PRESS[t] for t in interview.to_press]
        if style.ask and not interview.refused:
            fresh = [t for t in order if t not in interview.asked]
            parts += [TOPIC_QUESTIONS[t] for t in fresh[:TOPICS_PER_MESSAGE]]
        if parts:
            return AgentReply(content=" ".join(parts))
    if outcome.describe is not None:
        return AgentReply(content=describe(seen.metadata[outcome.describe]))
    if outcome.ask_topic is not None and interview.to_press:
        return AgentReply(content=" ".join(PRESS[t] for t in interview.to_press))
    if outcome.ask_topic is not None:
        topic = outcome.ask_topic
        if topic == "?":
            topic = next((t for t in order if t not in interview.asked), "")
        if topic in TOPIC_QUESTIONS and topic not in interview.asked:
            return AgentReply(content=TOPIC_QUESTIONS[topic])

    subscriptions = sorted(prefs.subscriptions) if not prefs.all_services else []

    def commit(item: dict[str, Any]) -> AgentReply:
        if not style.policies:
            return AgentReply(
                content=f"I'm recommending **{item['title']}**{_year(item)}.",
                tool_calls=[request(0, "recommend", item_id=item["id"])],
            )
        return _commit(
            item, request, available, subscriptions, seen.ratings_checked, seen.available_checked
        )

    if outcome.accepted is not None:
        return commit(seen.metadata[outcome.accepted])

    # -- retrieval ------------------------------------------------------------------------
    left = TOOL_BUDGET - RESERVE - seen.calls
    learned = outcome.learned
    searches_left = min(MAX_SEARCHES - len(seen.searched), left)
    if "search_catalog" in available and searches_left > 0 and not _dry(seen, prefs, learned):
        planned = [
            q
            for q in (_sweep_queries() if style.sweep else _queries(prefs, broader=False))
            if q not in seen.searched
        ]
        # The first round is planned; later rounds alternate planned pairings and plot words.
        feedback = (
            _feedback_queries(seen, prefs, learned, SEARCH_ROUND // 2) if seen.searched else []
        )
        wanted = [q for pair in zip(planned, feedback, strict=False) for q in pair]
        wanted += [q for q in planned[len(feedback) :] if q not in wanted]
        wanted += [q for q in feedback if q not in wanted]
        if wanted:
            return AgentReply(
                tool_calls=[
                    request(n, "search_catalog", query=q)
                    for n, q in enumerate(wanted[: min(SEARCH_ROUND, searches_left)])
                ]
            )
    pool = [
        r
        for r in seen.listings.values()
        if _fits_listing(r, prefs, learned)
        and str(r["id"]) not in seen.watched
        and str(r["id"]) not in learned.declined
    ]
    # A v2 search result carries every field a check needs but director, cast and the sponsored
    # flag: with no wish about people it stands in for the metadata, which is then fetched only
    # for the title about to be proposed (the budget goes to searching, not re-reading).
    lite = not (
        prefs.directors
        or prefs.directors_excluded
        or prefs.cast_any
        or prefs.cast_excluded
        or learned.directors_excluded
    )

    def record_of(r: dict[str, Any]) -> dict[str, Any] | None:
        known = seen.metadata.get(str(r["id"]))
        return known if known is not None or not (lite and _full_listing(r)) else r

    viable = [m for m in (record_of(r) for r in pool) if m is not None]
    viable = [m for m in viable if _fits(m, prefs, learned, seen.watched)]
    # Titles a search for a named person returned are looked at first, then the best reviewed.
    people = {q.lower() for q in prefs.cast_any | prefs.directors}
    named = {
        i
        for q, ids in zip(seen.searched, seen.search_results, strict=False)
        if q.lower() in people
        for i in ids
    }
    need = sorted(
        (r for r in pool if record_of(r) is None),
        key=lambda r: (str(r["id"]) not in named, -float(r.get("rating", 0)), str(r["id"])),
    )
    if need and left > 0 and "get_metadata" in available and len(viable) < 60:
        batch = need[: min(METADATA_ROUND, left)]
        return AgentReply(
            tool_calls=[
                request(n, "get_metadata", item_id=str(r["id"])) for n, r in enumerate(batch)
            ]
        )
    if not viable:
        wider = [q for q in _queries(prefs, broader=True) if q not in seen.searched]
        if wider and left > 0 and "search_catalog" in available:
            return AgentReply(
                tool_calls=[
                    request(n, "search_catalog", query=q)
                    for n, q in enumerate(wider[: min(SEARCH_ROUND, left)])
                ]
            )
        return AgentReply(content=ABSTAIN_TEXT, tool_calls=[request(0, "recommend", item_id=None)])

    # -- one proposal -----------------------------------------------------------------------
    declined = [seen.metadata[i] for i in learned.declined if i in seen.metadata]
    best = choose(
        viable,
        learned,
        declined,
        informed_fields,
        pick=style.pick,
        seed=seed,
        off_kind=outcome.off_kind if style.learn else None,
    )
    if str(best["id"]) not in seen.metadata and "get_metadata" in available:
        return AgentReply(tool_calls=[request(0, "get_metadata", item_id=str(best["id"]))])
    if not style.propose:
        return commit(best)
    text = f"{PROPOSAL_MARK}{best['title']}**{_year(best)}? It looks like the best fit for you."
    if best.get("sponsored") and style.policies:
        text += f" {SPONSORED_NOTE}"
    return AgentReply(content=text + " Let me know what you think.")


def choose(
    viable: list[dict[str, Any]],
    learned: _Learned,
    declined: list[dict[str, Any]],
    fields: frozenset[str] | None = None,
    *,
    pick: Pick = "split",
    seed: int = 0,
    off_kind: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The next proposal. `split` (the expert): least like what was turned down, in the safe
    half of every hinted field, then the best prior. `middle`: the same halves, then the title
    nearest the median on every numeric field. `popular`: the most voted. `random`: any, seeded."""
    ordered = sorted(viable, key=lambda m: str(m["id"]))
    if pick in PRIOR_ORDERS:
        key, highest = PRIOR_ORDERS[pick]
        return sorted(
            ordered, key=lambda m: (_sortable(m.get(key)), str(m["id"])), reverse=highest
        )[0]
    if pick == "popular":
        return max(ordered, key=lambda m: (float(m.get("vote_count", 0) or 0), str(m["id"])))
    if pick == "random":
        return random.Random(f"{seed}:{len(declined)}").choice(ordered)
    least = min(_genre_penalty(m, learned, declined, off_kind) for m in ordered)
    items = [m for m in ordered if _genre_penalty(m, learned, declined, off_kind) == least]
    items = _split(items, _axes(learned))
    if pick == "middle":
        return min(items, key=lambda m: (_off_median(m, items), str(m["id"])))
    prior = _prior(items, fields)
    return max(items, key=lambda m: (prior[str(m["id"])], str(m["id"])))


def _sortable(value: Any) -> tuple[int, float | str]:
    """A field value as a sort key (missing values sort first)."""
    if value is None:
        return (0, 0.0)
    if isinstance(value, int | float):
        return (1, float(value))
    return (1, str(value))


def _off_median(item: dict[str, Any], items: list[dict[str, Any]]) -> float:
    """How far a title sits from the middle of the pool, in rank terms, over the numeric fields."""
    total = 0.0
    for axis in ("runtime", "rating", "vote_count", "release_date"):
        values = sorted(_value(m, axis) for m in items)
        rank = values.index(_value(item, axis)) / max(1, len(values) - 1)
        total += abs(rank - 0.5)
    return total


def _sweep_queries() -> list[str]:
    """A genre-blind sweep of the catalog: every genre word, then everyday story words."""
    return [g.lower() for g in KNOWN_GENRES] + list(BROADER_WORDS)


def constrained_fields(task: Task) -> frozenset[str]:
    """The only thing the informed agent reads from its task: the names of the constrained fields."""
    return frozenset(tc.constraint.field for tc in task.constraints)


class ExpertAgent:
    """The expert policy as an in-process Agent (the `informed` variant when given field names)."""

    def __init__(
        self,
        context: AgentContext,
        args: dict[str, Any] | None = None,
        *,
        informed_fields: frozenset[str] | None = None,
        name: str = "expert",
        style: Style = EXPERT_STYLE,
    ) -> None:
        self._system = build_system_prompt(context.policy_text, context.user_id)
        self._seed = context.seed
        self._args = dict(args or {})
        self._fields = informed_fields
        self._name = name
        self._style = style

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name=self._name, args=self._args)

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        if not messages or messages[0].get("role") != "system":
            messages = [{"role": "system", "content": self._system}, *messages]
        return expert_policy(
            messages, tools, self._seed, informed_fields=self._fields, style=self._style
        )
