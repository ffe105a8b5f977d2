"""The scripted user's template bank (our own wording): how it states a constraint, hints, accepts and pushes."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from domains.movies.catalog import CatalogItem
from domains.movies.simulators.vocabulary import RATING_ORDER
from domains.movies.tasks import Constraint
from runner.kits.user.grammar import Grammar
from runner.kits.user.writer import join_list

__all__ = [
    "ACCEPT",
    "ALREADY_SEEN",
    "ASK_AGAIN_AFTER_ACCEPT",
    "ASK_BACK",
    "LEAVE_AFTER_DECLINES",
    "LEAVE_ON_LIST",
    "NOTHING_FITS_REPLY",
    "NOT_FOR_ME",
    "NOT_ON_MY_SERVICES",
    "NO_PREFERENCE",
    "OPENINGS",
    "PUSH_TO_COMMIT",
    "STATE_GRAMMAR",
    "TOO_MANY_QUESTIONS",
    "decline_hint",
    "fmt_number",
    "join_list",
    "state_constraint",
    "subscription_sentence",
    "vague_constraint",
]

OPENINGS: tuple[str, ...] = (
    "Hi! I'm trying to find a movie to watch.",
    "Hey, I could use some help picking a movie.",
    "Hello! Can you help me choose a film for tonight?",
    "Hi there, I'm looking for something to watch.",
)
ACCEPT: tuple[str, ...] = (
    "That sounds great, let's go with it.",
    "Perfect, that's exactly the kind of thing I wanted. Go ahead.",
    "Yes, I'd watch that. Please lock it in.",
    "Sounds good to me, I'll take it.",
)
ASK_AGAIN_AFTER_ACCEPT: tuple[str, ...] = (
    "I already said yes to that one, so please go ahead and recommend it.",
    "We're good, just make it official.",
)
PUSH_TO_COMMIT: tuple[str, ...] = (
    "Could you just suggest the one you think fits best?",
    "I'd rather not go back and forth too much. What's your pick?",
    "Just pick something for me and I'll tell you what I think.",
    "What would you recommend, then?",
)
# The same neutral reply to "I found nothing", whether or not the task has a valid answer.
NOTHING_FITS_REPLY: tuple[str, ...] = (
    "Hm, okay. It's your call.",
    "Alright. Do what you think is right.",
    "I see. I'll leave that with you.",
    "Okay, noted. Up to you how we go from here.",
)
# The user walks away when several titles are pushed at once...
LEAVE_ON_LIST: tuple[str, ...] = (
    "That's a whole list, and I asked for one good pick. I'll find something myself, bye.",
    "I don't want a catalogue read out to me. Never mind, I'm off.",
    "Too many names at once. Forget it, I'll just put something on myself.",
)
# ...or when it has turned down as many proposals as its patience allows.
LEAVE_AFTER_DECLINES: tuple[str, ...] = (
    "I think I've heard enough suggestions for tonight. Thanks, I'll figure it out.",
    "This isn't going anywhere, I'll pick something on my own. Bye.",
    "I'm running out of steam here. Let's call it, thanks anyway.",
)
# Asked back about a proposed title before deciding; {title} is what the agent named.
ASK_BACK: tuple[str, ...] = (
    "Before I decide: what is {title} about?",
    "Hmm, tell me a little more about {title} first?",
    "What's the story of {title}?",
    "I haven't heard of {title}. What kind of film is it?",
)
ALREADY_SEEN: tuple[str, ...] = (
    "I've already seen that one, so something else please.",
    "Oh, I've watched that before. Anything else?",
)
# A decline that says nothing about why: the title breaks a preference the agent never asked about.
NOT_FOR_ME: tuple[str, ...] = (
    "Hmm, that one's not for me.",
    "I don't think that's for me, sorry.",
    "Not that one, I'm afraid.",
    "That's not something I'd pick.",
)
NOT_ON_MY_SERVICES: tuple[str, ...] = (
    "I don't think I can stream that on any of the services I have.",
    "That one isn't on any of my subscriptions, I'm afraid.",
)
# What the user says about the questions it holds back: "at_once" when one message asked more than
# it answers in one go (it answered the first ones), "patience" when it has answered all it will.
TOO_MANY_QUESTIONS: dict[str, tuple[str, ...]] = {
    "at_once": (
        "That's a lot of questions at once, so that's all I'll say for now.",
        "Let's not do all of those at once; that will have to do.",
        "Phew, that's a whole form. I'll stick to those for now.",
        "A little at a time, please - that's where I'd start.",
    ),
    "patience": (
        "I think I've answered enough questions. Could you just suggest something?",
        "Honestly, I'd rather not go through a whole questionnaire. What would you pick?",
        "That's plenty of questions for me. Show me what you've got.",
        "I'm done with the interview, to be honest. Just make a suggestion.",
    ),
}
NO_PREFERENCE: tuple[str, ...] = (
    "I don't have anything specific in mind about {topic}.",
    "Nothing particular comes to mind about {topic}.",
    "I'm easy on {topic}.",
)


# How the user states a constraint: a grammar (our own words) whose rules are openers, hedges,
# clause orders, synonym sets and connectors, drawn with the writer's rng, and whose slots are a
# value's spellings ("120 minutes", "two hours", "2h"). Each constraint kind has several frames
# and each frame thousands of surface forms, so the sentences of one seed are mostly shapes the
# sentences of other seeds never had. Every word is chosen so the sentence names no other
# field's value or direction (the leak audit) and the reader of a user's words (the heuristic
# agent's `read_preferences`) hears the same requirement as from the plainest phrasing.
STATE_GRAMMAR = Grammar.load(Path(__file__).with_name("statement_grammar.txt"))

_NUMBER_NAMES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
)  # fmt: skip


def fmt_number(value: float | int) -> str:
    """6.0 -> '6', 6.5 -> '6.5', 120 -> '120'."""
    number = float(value)
    return str(int(number)) if number.is_integer() else f"{number:g}"


def _minutes(value: float) -> list[str]:
    """Ways to say a duration of `value` minutes ("120 minutes", "two hours", "2h")."""
    n = fmt_number(value)
    out = [f"{n} minutes", f"{n} mins", f"{n} min"]
    hours, rest = divmod(float(value), 60)
    whole = int(hours)
    if hours and rest == 0:
        unit = "hour" if whole == 1 else "hours"
        out += [f"{whole} {unit}", f"{whole}h", f"{whole} hrs" if whole > 1 else "1 hr"]
        out.append("an hour" if whole == 1 else f"{_NUMBER_NAMES[whole]} hours")
    elif hours and rest == 30 and whole < len(_NUMBER_NAMES):
        out += [f"{whole}.5 hours", f"{_NUMBER_NAMES[whole]} and a half hours"]
        if whole == 1:
            out.append("an hour and a half")
    return out


def _score(value: float) -> list[str]:
    """Ways to say a review score out of 10."""
    n = fmt_number(value)
    out = [f"{n} out of 10", f"{n}/10", f"{n} out of ten"]
    number = float(value)
    if number.is_integer() and 2 <= number <= 10:
        out.append(f"{_NUMBER_NAMES[int(number)]} out of 10")
    elif (number * 2).is_integer() and 2 <= number < 10:
        out.append(f"{_NUMBER_NAMES[int(number)]} and a half out of 10")
    return out


def _votes(value: float) -> list[str]:
    """Ways to say a vote count."""
    n = fmt_number(value)
    out = [f"{n} votes", f"{n}+ votes", f"{n} voters"]
    if float(value) >= 1000 and float(value) % 1000 == 0:
        out.append(f"{int(float(value) // 1000)}k votes")
    return out


def _genre(name: str) -> str:
    return name if name.isupper() else ("TV movie" if name == "TV Movie" else name.lower())


def _genre_words(name: str) -> list[str]:
    """Ways to name one genre ("science fiction", "sci-fi")."""
    extra = {"Science Fiction": ["sci-fi"], "Animation": ["animated"], "History": ["historical"]}
    return [_genre(name), *extra.get(name, [])]


def _with_article(phrase: str) -> str:
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


def _code(code: str) -> str:
    return "unrated (NR)" if code == "NR" else code


def _date_phrases(value: str, op: str) -> list[str]:
    day = dt.date.fromisoformat(value)
    y = day.year
    if op == ">=" and (day.month, day.day) == (1, 1):
        return [f"from {y} or later", f"from {y} onwards", f"released in {y} or later",
                f"from {y} or newer", f"released {y} or later"]  # fmt: skip
    if op == "<=" and (day.month, day.day) == (12, 31):
        return [f"from {y} or earlier", f"released in {y} or earlier", f"from {y} or before",
                f"released {y} or earlier"]  # fmt: skip
    word = {">=": "on or after", "<=": "on or before", "==": "on", "!=": "on any day but"}[op]
    return [f"released {word} {day.isoformat()}"]


def _values(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _frame(c: Constraint) -> tuple[str, dict[str, list[str]]]:
    """The grammar rule that states `c`, and its slots' spellings."""
    v = c.value
    match (c.field, c.op):
        case ("runtime", "<=" | ">="):
            rule = "runtime_le" if c.op == "<=" else "runtime_ge"
            return rule, {"n": _minutes(float(v))}  # type: ignore[arg-type]
        case ("rating", ">=" | "<="):
            return ("rating_ge" if c.op == ">=" else "rating_le"), {"x": _score(float(v))}  # type: ignore[arg-type]
        case ("vote_count", ">=" | "<="):
            return ("votes_ge" if c.op == ">=" else "votes_le"), {"n": _votes(float(v))}  # type: ignore[arg-type]
        case ("genres", "contains") if v == "Family":  # "family" alone names no genre
            return "genre_in", {"g": ["family film", "family movie"], "film": [""]}
        case ("genres", "contains"):
            words = _genre_words(str(v))
            return "genre_in", {"g": words}
        case ("genres", "contains_any"):
            return "genre_any", {"g": [join_list([_genre(x) for x in _values(v)], "or")]}
        case ("genres", "not_contains"):
            return "genre_out", {"g": _genre_words(str(v))}
        case ("content_rating", "==" | "in"):
            return "code_in", {"codes": [join_list([_code(x) for x in _values(v)], "or")]}
        case ("content_rating", "!="):
            return "code_out", {"code": [_code(str(v))]}
        case ("streaming_services", "contains" | "contains_any"):
            return "service_in", {"s": [join_list(_values(v), "or")]}
        case ("streaming_services", "not_contains"):
            return "service_out", {"s": [str(v)]}
        case ("release_date", op):
            return "date", {"when": _date_phrases(str(v), op)}
        case ("director", "contains" | "=="):
            return "director_in", {"p": [str(v)]}
        case ("director", "not_contains" | "!="):
            return "director_out", {"p": [str(v)]}
        case ("cast", "contains" | "contains_any"):
            return "cast_in", {"p": [join_list(_values(v), "or")]}
        case ("cast", "not_contains"):
            return "cast_out", {"p": [str(v)]}
        case ("sponsored", _):
            return ("sponsored_ok" if (c.op == "==") == bool(v) else "sponsored_out"), {}
    shown = join_list(_values(v), "or")
    return "other", {"f": [c.field.replace("_", " ")], "op": [c.op], "v": [shown]}


def state_constraint(c: Constraint, rng: random.Random) -> str:
    """One sentence that states the constraint's value plainly (volunteered or asked for), drawn
    from `STATE_GRAMMAR` with the writer's rng."""
    rule, slots = _frame(c)
    return STATE_GRAMMAR.say(rule, rng, **slots)


def vague_constraint(c: Constraint, rng: random.Random) -> str | None:
    """A first, value-free answer for a numeric or date constraint ("nothing too long"), or None.

    The user gives the number only when asked about the same topic again.
    """
    options: tuple[str, ...]
    match (c.field, c.op):
        case ("runtime", "<="):
            options = ("Nothing too long.", "Not a marathon, anyway.", "On the shorter side.")
        case ("runtime", ">="):
            options = ("Something with some length to it.", "Not too short.")
        case ("rating", ">="):
            options = ("Something people liked.", "It should be decent, reviews-wise.")
        case ("vote_count", ">="):
            options = ("Nothing too obscure.", "Something reasonably well known.")
        case ("vote_count", "<="):
            options = ("Something a bit under the radar.", "Not one everybody has seen.")
        case ("release_date", ">="):
            options = ("Something fairly recent.", "Not too old.")
        case ("release_date", "<="):
            options = ("Something older.", "Not a recent one.")
        case _:
            return None
    return rng.choice(options)


def subscription_sentence(services: list[str], rng: random.Random) -> str:
    """What the user says about the services they subscribe to."""
    if not services:
        return rng.choice(
            (
                "I have pretty much every major streaming service, so that's not an issue.",
                "Streaming isn't a problem, I've got all the big services.",
            )
        )
    listed = join_list(services, "and")
    return rng.choice((f"I subscribe to {listed}.", f"I have {listed}."))


def _level(code: str) -> int | None:
    return RATING_ORDER.index(code) if code in RATING_ORDER else None


def _content_rating_hint(c: Constraint, item: CatalogItem) -> str:
    allowed = _values(c.value)
    actual = item.content_rating
    if c.op == "!=":
        return "That age rating isn't right for who's watching."
    if actual == "NR":
        return "That one has no proper age rating, I'd rather not."
    levels = [lv for lv in (_level(x) for x in allowed) if lv is not None]
    mine = _level(actual)
    if mine is not None and levels and mine > max(levels):
        return "That sounds a bit too intense for us tonight."
    if mine is not None and levels and mine < min(levels):
        return "That sounds a bit too tame for me."
    return "That age rating isn't quite right for who's watching."


def decline_hint(c: Constraint, item: CatalogItem, rng: random.Random) -> str:
    """Why the item is not right, without stating the constraint's value (hidden-safe)."""
    match (c.field, c.op):
        case ("runtime", "<="):
            return rng.choice(
                ("That sounds too long for tonight.", "Hmm, that one runs a bit long for me.")
            )
        case ("runtime", ">="):
            return rng.choice(
                (
                    "That feels too short, I want something more substantial.",
                    "That one's a bit short.",
                )
            )
        case ("runtime", _):
            return "The length of that one isn't right for me."
        case ("rating", ">=" | "=="):
            return rng.choice(
                (
                    "I've heard the reviews on that one aren't great.",
                    "That one isn't well reviewed enough for me.",
                )
            )
        case ("rating", _):
            return "That one sounds a bit too acclaimed and heavy for tonight."
        case ("content_rating", _):
            return _content_rating_hint(c, item)
        case ("genres", "not_contains"):
            return rng.choice(
                (
                    "There's something about that kind of movie I'm not in the mood for.",
                    "That's not really my kind of movie.",
                )
            )
        case ("genres", _):
            return rng.choice(
                (
                    "That isn't quite the kind of movie I'm after.",
                    "Not really what I'm in the mood for.",
                )
            )
        case ("streaming_services", _):
            return "I couldn't watch that one where I'd want to watch it tonight."
        case ("release_date", ">="):
            return "That feels a bit too old for me."
        case ("release_date", "<="):
            return "That one's a bit too recent for what I have in mind."
        case ("director", _):
            return "That's not the filmmaker I had in mind."
        case ("cast", _):
            return "That's not the cast I was hoping for."
        case ("vote_count", ">="):
            return "That seems a bit too obscure."
        case ("vote_count", _):
            return "That one's a bit too mainstream for me."
        case ("sponsored", _):
            return "That feels like a promotion, I'd rather have something else."
        case _:
            return "That's not quite what I had in mind."
