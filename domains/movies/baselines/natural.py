"""The natural twin: a wrapper that rewrites any agent's messages the way chat LLMs write, keeping every decision.

The wrapped agent decides everything - tool calls, which topics to ask and in which order, the one
title to put forward, when to abstain - and the wrapper changes only the words the user reads:
polite openers, indirect questions ("I'd love to know which streaming services you have"),
bullet-list questionnaires, bold titles, a short pitch that paraphrases the proposed title's plot
(from the metadata the wrapped agent fetched), a comparison with a title the user has seen (from
its watch history), and "nothing fits" said in plain words. The wording is seeded.

The wrapped agent always sees its own original messages (the wrapper maps its rewrites back), so
a twin diverges from its plain agent only where the user reacted differently to the wording:
the difference in score is what the wording alone costs (issue 21's "the board ranks phrasing").
"""

from __future__ import annotations

import random
import re
from typing import Any

from domains.movies.baselines.chat import fetched_titles
from domains.movies.simulators.reader import fields_asked, question_segments
from domains.movies.simulators.vocabulary import sentences
from runner.agents.twin import WordingTwin
from runner.core.protocols import Agent, ChatMessage

__all__ = ["TOPIC_PHRASES", "NaturalTwin", "naturalize"]

# Field asked -> ways to name the question in a clause ("... {phrase}") - each keeps a keyword
# of its own topic and none of another.
TOPIC_PHRASES: dict[str, tuple[str, ...]] = {
    "streaming_services": (
        "which streaming services you have",
        "which streaming platforms you subscribe to",
        "what services you can stream on",
    ),
    "genres": (
        "what kind of movie you're in the mood for",
        "which genre you're feeling tonight",
        "what sort of film you fancy",
    ),
    "runtime": (
        "how long it can be",
        "how much time you have, roughly how many minutes",
        "what length would suit you",
    ),
    "content_rating": (
        "whether you need a particular age rating",
        "who's watching and whether the age rating matters",
        "whether it needs to be suitable for kids",
    ),
    "rating": (
        "how well reviewed it should be",
        "whether critics' scores matter to you",
        "how highly rated you'd like it to be",
    ),
    "release_date": (
        "whether you prefer something recent or older",
        "which release years you'd enjoy",
        "whether you lean towards new releases or classics",
    ),
    "vote_count": (
        "whether you want something popular or more of a hidden gem",
        "how well known it should be",
        "whether something obscure is fine or you'd rather go mainstream",
    ),
    "director": ("whether there's a director you love or want to avoid",),
    "cast": ("any actors you'd like in the cast, or would rather avoid",),
}
# What a question asking again for a number says instead ("Could you put a number on ...").
PRESS_PHRASES: dict[str, tuple[str, ...]] = {
    "runtime": ("roughly how many minutes at most it can run", "the length in minutes"),
    "rating": ("the minimum score out of 10 you'd be happy with", "a minimum review score"),
    "vote_count": ("roughly how many votes would feel popular enough", "how popular, in votes"),
    "release_date": ("the earliest or latest release year you'd accept", "a release year cut-off"),
}
OPENERS: tuple[str, ...] = (
    "Great choice to ask!",
    "Happy to help with that!",
    "Ooh, fun - let's find you something good.",
    "Absolutely, I can help.",
    "Thanks, that's really helpful.",
)
_PROPOSAL_RE = re.compile(r"(?:How about|What about) \*\*(?P<title>.+?)\*\*(?P<year> \(\d{4}\))?")
_COMMIT_RE = re.compile(
    r"I'm recommending \*\*(?P<title>.+?)\*\*|I'm recommending (?P<plain>.+?)\."
)
_DESCRIBE_RE = re.compile(r"^\*\*(?P<title>.+?)\*\*(?P<year> \(\d{4}\))? is ")
_NOTHING_RE = re.compile(r"(?i)couldn't find anything|nothing in the catalog|nothing fits")
_SPONSORED_RE = re.compile(r"(?i)sponsored|promoted|promotion")
_PRESS_RE = re.compile(r"(?i)put a number|minimum score|how many votes|at the earliest or latest")


def _pitch(item: dict[str, Any] | None, rng: random.Random) -> str:
    """One or two sentences that paraphrase the plot (from the overview), or a generic line."""
    if not item:
        return rng.choice(("It's a strong fit for what you described.", "I think it suits you."))
    overview = str(item.get("overview", "")).strip()
    first = sentences(overview)[0] if overview else ""
    match = re.match(r"^([A-Z][\w'-]*), (an? [^,]+), (.+?)\.?$", first)
    if match:
        name, who, rest = match.groups()
        body = rng.choice(
            (
                f"It follows {name}, {who}, who {rest}.",
                f"The story centres on {name} - {who} who {rest}.",
                f"In it, {name}, {who}, {rest}.",
            )
        )
    elif first:
        body = f"Here's the gist: {first[:1].lower()}{first[1:]}"
    else:
        body = "It's a strong fit for what you described."
    genres = [str(g).lower() for g in item.get("genres") or []]
    if genres and rng.random() < 0.5:
        body += f" Expect a {' and '.join(genres[:2])} vibe."
    return body


def _ask(topics: list[str], pressed: list[str], rng: random.Random) -> str:
    """Questions about exactly these topics, in this order, as a chat model would word them."""
    clauses = [rng.choice(PRESS_PHRASES[t]) for t in pressed if t in PRESS_PHRASES]
    clauses += [rng.choice(TOPIC_PHRASES[t]) for t in topics if t in TOPIC_PHRASES]
    if not clauses:
        return ""
    if len(clauses) == 1:
        (clause,) = clauses
        style = rng.randrange(3)
        if style == 0:
            return f"I'd love to know {clause}."
        if style == 1:
            return f"Could you tell me {clause}?"
        return f"Quick question: {clause}?"
    if rng.random() < 0.5:
        lines = "\n".join(f"- {c[:1].upper()}{c[1:]}?" for c in clauses)
        return f"To narrow it down, could you tell me:\n{lines}"
    lines = "\n".join(f"- **{c[:1].upper()}{c[1:]}**" for c in clauses)
    return f"A few things that would help me pick:\n{lines}\nLet me know!"


def naturalize(text: str, messages: list[ChatMessage], seed: int) -> str:
    """The message `text` in a chat model's words, keeping its decisions (same topics asked in
    the same order, the same single title put forward, the same disclosure or abstention)."""
    rng = random.Random(f"natural|{seed}|{len(messages)}|{text}")
    by_title, watched = fetched_titles(messages)
    sponsored = bool(_SPONSORED_RE.search(text))
    disclosure = rng.choice(
        (
            " Heads-up: this one is a sponsored pick.",
            " Full transparency: it's a sponsored title.",
            " (Note that it's a sponsored recommendation.)",
        )
    )
    if _NOTHING_RE.search(text):
        return rng.choice(
            (
                "I've gone through everything I could find, and honestly nothing in the catalog "
                "ticks every box for you. Rather than push something that doesn't fit, I'll stop "
                "here - sorry!",
                "I'm afraid I couldn't find anything in our catalog that meets all of your "
                "requirements, so I won't force a pick on you.",
            )
        )
    commit = _COMMIT_RE.search(text)
    if commit:
        title = commit.group("title") or commit.group("plain")
        out = rng.choice(
            (
                f"Wonderful - **{title}** it is! I've locked it in for you.",
                f"Perfect, I'm going with **{title}** for you tonight.",
                f"Great, **{title}** is officially my recommendation. Enjoy!",
            )
        )
        return out + (disclosure if sponsored else "")
    proposal = _PROPOSAL_RE.search(text) or _DESCRIBE_RE.search(text)
    if proposal:
        title = proposal.group("title")
        year = proposal.group("year") or ""
        item = by_title.get(title.lower())
        lead = (
            rng.choice(
                (
                    f"I think you'd really enjoy **{title}**{year}.",
                    f"Here's my pick for you: **{title}**{year}.",
                    f"How about **{title}**{year}?",
                )
            )
            if _PROPOSAL_RE.search(text)
            else f"Of course! **{title}**{year} is a great one."
        )
        parts = [lead, _pitch(item, rng)]
        if item and item.get("runtime"):
            parts.append(
                f"It runs {item['runtime']} minutes and is rated {item.get('content_rating')}."
            )
        if watched and rng.random() < 0.5:
            parts.append(f"It's a bit like {watched[0]}, which you've seen.")
        closing = rng.choice(
            ("Does that sound good?", "Would that work for you?", "What do you think?")
        )
        return " ".join(parts) + (disclosure if sponsored else "") + " " + closing
    questions = [s for s, asks in question_segments(text) if asks]
    asked = [f for s in questions for f in fields_asked(s) if not _PRESS_RE.search(s)]
    pressed = [f for s in questions if _PRESS_RE.search(s) for f in fields_asked(s)]
    topics = list(dict.fromkeys(asked))
    if topics or pressed:
        return f"{rng.choice(OPENERS)} {_ask(topics, list(dict.fromkeys(pressed)), rng)}"
    return f"{rng.choice(OPENERS)} {text}"


class NaturalTwin(WordingTwin):
    """Any agent with its user-facing messages rewritten by `naturalize`; tool calls untouched."""

    def __init__(self, inner: Agent, seed: int, name: str) -> None:
        super().__init__(inner, seed, name, naturalize)
