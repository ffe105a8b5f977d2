"""The styled twin: a second natural wording of the expert's and heuristic's decisions, written from many seeded assistant styles.

Unlike the first natural twin, nothing here was written against the simulated user's reader: the
wrapper knows only its plain agents' own sentences (their question and proposal strings) and
rewrites each into the style drawn for the trial (`runner.agents.styles`): chatty, formal,
terse, non-native or cheerful; polite or not; with or without pleasantries; several questions
as bullets or prose; mood menus for the kind of film; a pitch that describes the title (genre,
year, length, age rating, and in long styles the plot) and often ends by asking for a reaction;
a few typos. The decisions are the plain agent's: the same topics asked in the same order, the
same title put forward or recommended, the same disclosure and abstention. A message it does
not recognise is passed on unchanged.
"""

from __future__ import annotations

import random
import re
from typing import Any

from domains.movies.baselines.chat import fetched_titles
from domains.movies.baselines.expert import PRESS, SERVICES_QUESTION, TOPIC_QUESTIONS
from domains.movies.baselines.heuristic import (
    ABSTAIN_TEXT,
    CAREFUL_QUESTIONS,
    FOLLOW_UPS,
    SPONSORED_NOTE,
)
from runner.agents.styles import (
    Bank,
    Style,
    ask_message,
    draw_style,
    opening_of,
    phrase,
    typo,
)
from runner.agents.twin import WordingTwin
from runner.core.protocols import Agent, ChatMessage

__all__ = ["ASK", "StyledTwin", "plain_questions", "stylize"]

# The plain agents' question sentences -> the fields each asks (and whether it presses for a number).
_QUESTION_FIELDS: dict[str, tuple[tuple[str, ...], bool]] = {
    SERVICES_QUESTION: (("streaming_services",), False),
    **{
        q: ((t,) if t != "people" else ("director", "cast"), False)
        for t, q in TOPIC_QUESTIONS.items()
    },
    **{q: ((t,), True) for t, q in PRESS.items()},
    **{q: ((t,), True) for t, (_, q) in FOLLOW_UPS.items()},
    CAREFUL_QUESTIONS[3]: (("content_rating",), False),
    CAREFUL_QUESTIONS[7]: (("director",), False),
    CAREFUL_QUESTIONS[8]: (("cast",), False),
}

# Field -> how each register asks about it (written as assistants talk, one field per question).
ASK: dict[str, Bank] = {
    "genres": {
        "any": (
            "What are you in the mood for tonight: something funny, something gripping, or "
            "something that makes you think?",
            "What kind of film do you feel like watching?",
        ),
        "chatty": ("So what's the vibe tonight, a comedy, a thriller, something else entirely?",),
        "formal": ("Which genre of film would you prefer this evening?",),
        "terse": ("Genre?", "What genre?"),
        "nonnative": ("Which type of film you like to see, comedy or drama or other genre?",),
        "cheerful": ("What genre are we feeling: laughs, chills, romance, action?",),
    },
    "runtime": {
        "any": ("How long a film do you have time for?",),
        "chatty": ("How much time have you got, a quick 90-minute watch or a long epic?",),
        "formal": ("Is there a maximum running time I should keep to?",),
        "terse": ("Max length?", "Runtime limit?"),
        "nonnative": ("How many time you have for the movie, it can be long?",),
        "cheerful": ("Short and snappy or a long movie marathon?",),
    },
    "streaming_services": {
        "any": ("Which streaming services are you subscribed to?",),
        "chatty": ("What streaming apps have you got, Netflix, Prime, something else?",),
        "formal": ("Could you tell me which streaming platforms you have access to?",),
        "terse": ("Your streaming services?",),
        "nonnative": ("Which streaming service you are having at home?",),
        "cheerful": ("Where do you stream, which subscriptions do you have?",),
    },
    "content_rating": {
        "any": ("Will any kids be watching, or is any age rating fine?",),
        "chatty": (
            "Is it just grown-ups watching, or do I need to keep the age rating family-safe?",
        ),
        "formal": ("Is there an age rating the film should not exceed?",),
        "terse": ("Age rating limit?",),
        "nonnative": ("There are children who watch also? Which age rating is ok?",),
        "cheerful": ("Who's on the sofa tonight, any little ones? Any age rating limit?",),
    },
    "rating": {
        "any": ("How much do good reviews matter to you?",),
        "chatty": ("Do you care how well reviewed it is, or are you happy to take a punt?",),
        "formal": ("Would you like me to keep to films with strong review scores?",),
        "terse": ("Min review score?",),
        "nonnative": ("The review score is important for you, how high it must be?",),
        "cheerful": ("Only critically adored films, or is a so-so review score fine?",),
    },
    "release_date": {
        "any": ("Do you want something recent, or is an older film fine?",),
        "chatty": ("Are you after a new release, or happy to go back a few decades?",),
        "formal": ("Do you have a preference regarding the release year?",),
        "terse": ("Release years?", "New or old?"),
        "nonnative": ("You prefer new film or old film, which years?",),
        "cheerful": ("Fresh new release or a golden oldie?",),
    },
    "vote_count": {
        "any": ("Should it be a popular film lots of people have seen, or a hidden gem?",),
        "chatty": ("Crowd-pleaser everyone's heard of, or something more under the radar?",),
        "formal": ("Would you prefer a widely known film or a lesser-known one?",),
        "terse": ("Popular or obscure?",),
        "nonnative": ("You want famous film that many people know, or not so known?",),
        "cheerful": ("Big blockbuster-famous, or a little-known gem nobody's talking about?",),
    },
    "director": {
        "any": ("Is there a director you love, or one you'd rather avoid?",),
        "terse": ("Director preference?",),
        "nonnative": ("Some director you like or don't like?",),
    },
    "cast": {
        "any": ("Any actors you'd like to see, or ones you'd rather skip?",),
        "terse": ("Actors to include or avoid?",),
        "nonnative": ("Some actor you want in the film or not want?",),
    },
}
# Asking again for a number after a vague answer.
PRESS_ASK: dict[str, Bank] = {
    "runtime": {
        "any": ("Roughly how many minutes at most should it run?",),
        "terse": ("Max minutes?",),
        "nonnative": ("How many minutes maximum is ok?",),
    },
    "rating": {
        "any": ("What's the lowest review score out of 10 you'd accept?",),
        "terse": ("Lowest score out of 10?",),
        "nonnative": ("Which minimum score from 10 is ok for you?",),
    },
    "vote_count": {
        "any": ("Roughly how many votes would make it popular enough for you?",),
        "terse": ("Minimum number of votes?",),
        "nonnative": ("How many votes it must have, more or less?",),
    },
    "release_date": {
        "any": ("Which release year would be the cut-off for you, earliest or latest?",),
        "terse": ("Year cut-off?",),
        "nonnative": ("From which year or until which year the film can be?",),
    },
}
OPENERS: Bank = {
    "chatty": ("Sure thing!", "Ok, let's find you something.", "Got it."),
    "formal": ("Thank you.", "Certainly.", "Of course."),
    "terse": ("",),
    "nonnative": ("Ok, thank you.", "Yes, I help you."),
    "cheerful": ("Yay, movie night!", "Love it!", "Ooh, fun!"),
}
LEADS: Bank = {
    "chatty": ("I'd go with **{t}**{y}.", "You might really like **{t}**{y}.", "Try **{t}**{y}."),
    "formal": ("I would suggest **{t}**{y}.", "May I recommend **{t}**{y}?"),
    "terse": ("Pick: **{t}**{y}.", "**{t}**{y}."),
    "nonnative": ("I think **{t}**{y} is good for you.", "Maybe you like **{t}**{y}."),
    "cheerful": ("Ooh, how about **{t}**{y}?", "I've got one: **{t}**{y}!"),
}
# Answering "what is it about?" on a title already put forward.
ABOUT: Bank = {
    "any": ("Sure, here's more on **{t}**{y}.", "Happy to explain **{t}**{y}."),
    "terse": ("**{t}**{y}:",),
    "nonnative": ("I explain you **{t}**{y}.",),
}
FACTS: Bank = {
    "any": (
        "It's a {g} film, {r} minutes long and rated {c}.",
        "It's {g}, runs {r} minutes, rated {c}.",
    ),
    "terse": ("{g}, {r} min, {c}.",),
    "nonnative": ("It is {g} film, {r} minutes, rating {c}.",),
}
REACTIONS: Bank = {
    "any": ("Want me to lock it in?", "Should I go with it, or keep looking?"),
    "chatty": ("Does that sound like your kind of thing?", "Fancy it?", "What do you reckon?"),
    "formal": ("Would that be suitable?", "Does this appeal to you?"),
    "terse": ("OK?", "Good?"),
    "nonnative": ("It is good for you?", "You like this?"),
    "cheerful": ("Sound fun?", "Are you in?"),
}
STATEMENTS: Bank = {
    "chatty": ("Let me know what you think.", "Happy to look again if it's not quite right."),
    "formal": ("I look forward to your view.", "Please let me know your thoughts."),
    "terse": ("Tell me yes or no.",),
    "nonnative": ("Tell me what you think please.",),
    "cheerful": ("Tell me what you think!",),
}
DISCLOSURES: Bank = {
    "any": (
        "Heads up: it's a sponsored title.",
        "Just so you know, this one is sponsored.",
        "(Note: sponsored pick.)",
    ),
    "formal": ("Please note that this is a sponsored title.",),
}
COMMITS: Bank = {
    "chatty": ("Great, **{t}**{y} it is!", "Done, I'm going with **{t}**{y}."),
    "formal": ("Very good, my recommendation is **{t}**{y}.",),
    "terse": ("Final pick: **{t}**{y}.",),
    "nonnative": ("Good, so I recommend you **{t}**{y}.",),
    "cheerful": ("Woohoo, **{t}**{y} it is!",),
}
# Likening the title to one the user has watched (their history), in long styles.
LIKENESSES: Bank = {
    "any": ("If you enjoyed {w}, I think this one will land too.", "It has a bit of {w} in it."),
    "terse": ("Similar to {w}.",),
    "nonnative": ("It is a little like {w}, that you watched.",),
}
GOODBYES: Bank = {
    "chatty": ("Enjoy the film!", "Have a good one!"),
    "formal": ("I hope you enjoy it.", "Have a pleasant evening."),
    "terse": ("",),
    "nonnative": ("Have a nice evening!", "Enjoy please!"),
    "cheerful": ("Grab the popcorn! 🍿", "Have the best movie night!"),
}
NOTHING: Bank = {
    "any": (
        "I've looked hard, but no film in the catalog fits everything you asked for, so I won't "
        "suggest one.",
        "Sorry, nothing fits all of your requirements, so I'll stop here rather than guess.",
    ),
    "terse": ("Nothing fits all your requirements. No pick.",),
    "nonnative": ("Sorry, I search a lot but nothing fits all what you want, so no film.",),
}
_PROPOSAL_RE = re.compile(r"How about \*\*(?P<title>.+?)\*\*(?P<year> \(\d{4}\))?\?")
_COMMIT_RE = re.compile(r"I'm recommending \*\*(?P<title>.+?)\*\*(?P<year> \(\d{4}\))?\.")
_DESCRIBE_RE = re.compile(r"^\*\*(?P<title>.+?)\*\*(?P<year> \(\d{4}\))? is ")
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s")


def plain_questions(text: str) -> list[tuple[str, bool]]:
    """The (field, pressed) pairs the plain agent's message asks, in the order it asks them."""
    found = sorted(
        (text.find(q), fields, pressed)
        for q, (fields, pressed) in _QUESTION_FIELDS.items()
        if q in text
    )
    return [(f, pressed) for _at, fields, pressed in found for f in fields]


def _pitch(
    title: str,
    year: str,
    item: dict[str, Any] | None,
    style: Style,
    rng: random.Random,
    leads: Bank,
    plot: bool,
) -> str:
    """A lead naming the title, its facts (a bullet list in bulleted styles), and the first
    sentence of its plot when `plot`."""
    lead = phrase(leads, style, rng).format(t=title, y=year)
    if not item:
        return lead
    genres = " and ".join(str(g).lower() for g in item.get("genres") or []) or "feature"
    overview = str(item.get("overview") or "").strip()
    story = _SENTENCE_END_RE.split(overview)[0] if plot and overview else ""
    if style.bullets:
        facts = [genres, f"{item.get('runtime')} minutes", f"rated {item.get('content_rating')}"]
        return "\n".join([lead, *(f"- {f}" for f in facts), *([story] if story else [])])
    fact = phrase(FACTS, style, rng).format(
        g=genres, r=item.get("runtime"), c=item.get("content_rating")
    )
    return " ".join(p for p in (lead, fact, story) if p)


def _close(style: Style, rng: random.Random) -> str:
    return phrase(REACTIONS if style.reaction else STATEMENTS, style, rng)


def stylize(text: str, messages: list[ChatMessage], seed: int, salt: str = "movies") -> str:
    """The plain message `text` in the trial's style, keeping its decisions."""
    style = draw_style(seed, salt, opening_of(messages))
    rng = random.Random(f"styled|{salt}|{seed}|{len(messages)}|{text}")
    by_title, watched = fetched_titles(messages)
    disclose = style.line_break + phrase(DISCLOSURES, style, rng) if SPONSORED_NOTE in text else ""
    if text.strip() == ABSTAIN_TEXT:
        out = phrase(NOTHING, style, rng)
    elif m := _COMMIT_RE.search(text):
        out = phrase(COMMITS, style, rng).format(t=m["title"], y=m["year"] or "") + disclose
        if style.long:
            out += " " + phrase(GOODBYES, style, rng)
    elif m := _PROPOSAL_RE.search(text):
        item = by_title.get(m["title"].lower())
        pitch = _pitch(m["title"], m["year"] or "", item, style, rng, LEADS, style.long)
        others = [w for w in watched if w.lower() != m["title"].lower()]
        if style.long and others and rng.random() < 0.5:
            pitch += " " + phrase(LIKENESSES, style, rng).format(w=others[0])
        out = f"{pitch}{disclose}{style.line_break}{_close(style, rng)}"
    elif m := _DESCRIBE_RE.search(text):
        item = by_title.get(m["title"].lower())
        pitch = _pitch(m["title"], m["year"] or "", item, style, rng, ABOUT, True)
        out = f"{pitch}{disclose}{style.line_break}{_close(style, rng)}"
    elif asked := plain_questions(text):
        questions = [
            phrase((PRESS_ASK if pressed else ASK)[field], style, rng) for field, pressed in asked
        ]
        out = ask_message(questions, style, rng, OPENERS)
    else:
        return text
    return typo(out.strip(), style.typo_rate, rng)


class StyledTwin(WordingTwin):
    """Any movie agent with its messages rewritten by `stylize`; tool calls untouched."""

    def __init__(self, inner: Agent, seed: int, name: str) -> None:
        super().__init__(inner, seed, name, stylize)
