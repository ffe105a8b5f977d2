"""The words of a recommendation chat: which attribute a question asks about, and which values a text names.

One table per idea, shared by the user's reader and writer, the leak audit (to find values a user
message states) and the heuristic baseline (to read the user's answers). What counts as asking
about a field lives with the reader (`reader.py`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "DIRECTION_PATTERNS",
    "FIELD_TOPICS",
    "GENRE_WORDS",
    "NO_PREFERENCE_RE",
    "RATING_ORDER",
    "REFERS_TO_PROPOSAL",
    "SERVICE_ALIASES",
    "TOPIC_WORDS",
    "Mention",
    "content_rating_mentions",
    "genre_mentions",
    "number_word_value",
    "rating_mentions",
    "runtime_mentions",
    "sentences",
    "service_mentions",
    "topic_cues",
    "vote_count_mentions",
    "year_mentions",
]

# How the simulated user names each field when it has nothing to say about it.
FIELD_TOPICS: dict[str, str] = {
    "content_rating": "the age rating",
    "runtime": "the length",
    "genres": "the genre",
    "rating": "how well reviewed it is",
    "streaming_services": "streaming services",
    "release_date": "how recent it is",
    "director": "the director",
    "cast": "the cast",
    "vote_count": "how well known it is",
    "sponsored": "promotions",
    "title": "the title",
    "overview": "the story",
    "id": "that",
}

# Words that name a topic without a value or a direction ("the cast", "the release year"): a user
# who uses one says the topic matters to them. The expert reads its opening with these (it asks
# such a topic first); the generated personas' cue wording always contains one (tests check).
TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "content_rating": (
        "certificate", "certificates", "kids", "children", "grandchildren", "teenagers",
        "suitable", "who can watch",
    ),
    "people": (
        "director", "directors", "filmmaker", "filmmakers", "actor", "actors", "actress",
        "the cast", "performers",
    ),
    "release_date": (
        "release", "releases", "release year", "release date", "which year", "the year",
        "came out", "come out", "comes out",
    ),
    "runtime": ("the length", "how long", "running length", "minutes it runs"),
    "rating": ("reviews", "the score", "review scores"),
    "vote_count": ("how many people", "audience size", "number of votes"),
}  # fmt: skip

# Canonical genre name -> the words that name it.
GENRE_WORDS: dict[str, tuple[str, ...]] = {
    "Action": ("action",),
    "Adventure": ("adventure", "adventures"),
    "Animation": ("animation", "animated", "cartoon", "cartoons"),
    "Comedy": ("comedy", "comedies", "comedic", "rom-com", "romcom"),
    "Crime": ("crime",),
    "Documentary": ("documentary", "documentaries"),
    "Drama": ("drama", "dramas"),
    "Family": ("family film", "family movie", "family genre", "family"),
    "Fantasy": ("fantasy",),
    "History": ("history", "historical"),
    "Horror": ("horror",),
    "Music": ("music", "musical", "musicals"),
    "Mystery": ("mystery", "mysteries", "whodunit", "whodunnit"),
    "Romance": ("romance", "romances", "romantic", "rom-com", "romcom"),
    "Science Fiction": ("science fiction", "science-fiction", "sci-fi", "scifi"),
    "TV Movie": ("tv movie",),
    "Thriller": ("thriller", "thrillers"),
    "War": ("war",),
    "Western": ("western", "westerns"),
}

# Canonical streaming service name -> extra ways to name it (the name itself always counts).
SERVICE_ALIASES: dict[str, tuple[str, ...]] = {
    "Netflix": (),
    "Hulu": (),
    "Amazon Prime Video": ("prime video", "amazon prime", "amazon video"),
    "HBO Max": ("hbo",),
    "Disney+": ("disney plus", "disney"),
    "Paramount+": ("paramount plus", "paramount"),
    "Peacock": (),
    "Apple TV+": ("apple tv plus", "apple tv"),
    "Philo": (),
    "AMC+": ("amc plus", "amc"),
    "Starz": (),
    "Shudder": (),
    "MUBI": (),
    "Angel Studios": (),
    "Criterion Channel": ("criterion",),
    "fuboTV": ("fubo",),
    "MGM+": ("mgm plus", "mgm"),
    "Sundance Now": (),
    "Tubi": (),
    "Pluto TV": (),
    "Kanopy": (),
    "BritBox": (),
    "Crunchyroll": (),
}

# Content ratings from least to most mature; NR (not rated) sits outside the scale.
RATING_ORDER: tuple[str, ...] = ("G", "PG", "PG-13", "R", "NC-17")

_NUMBER_WORDS: dict[str, float] = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "forty-five": 45,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "a hundred": 100,
    "one hundred": 100,
}


@dataclass(frozen=True)
class Mention:
    """A value a text names for one field, with where it was found."""

    value: float | str
    start: int
    end: int
    text: str


def _word_pattern(phrase: str) -> str:
    return r"(?<![A-Za-z0-9])" + re.escape(phrase) + r"(?![A-Za-z0-9])"


def sentences(text: str) -> list[str]:
    """Split text into sentences (keeping the final punctuation)."""
    parts = re.split(r"(?<=[.!?])\s+|\n+", text)
    return [p.strip() for p in parts if p.strip()]


def _alternation(phrases: Iterable[str]) -> str:
    ordered = sorted({p.lower() for p in phrases if p}, key=len, reverse=True)
    return "|".join(_word_pattern(p) for p in ordered) or r"(?!x)x"


@functools.lru_cache(maxsize=1024)
def _regex(source: str) -> re.Pattern[str]:
    """A pattern compiled on its first use: most genre and service patterns never are in a run."""
    return re.compile(source)


@functools.lru_cache(maxsize=256)
def _genre_patterns(
    extra: tuple[str, ...],
) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(genre, pattern of its words, the words) per genre; a text without one of the words as a
    substring cannot match the pattern, so the scan is skipped (the same mentions, less CPU) and
    the pattern is compiled only once a text holds one of them."""
    table = dict(GENRE_WORDS)
    for genre in extra:
        table.setdefault(genre, (genre.lower(),))
    out = []
    for g, words in table.items():
        phrases = {w.lower() for w in (*words, g) if w}
        out.append((g, _alternation(phrases), tuple(sorted(phrases))))
    return tuple(out)


def genre_mentions(text: str, extra_genres: Iterable[str] = ()) -> list[Mention]:
    """Genres a text names (canonical names), via GENRE_WORDS and any extra genre names given."""
    found: list[Mention] = []
    lowered = text.lower()
    for genre, pattern, phrases in _genre_patterns(tuple(sorted(set(extra_genres)))):
        if not any(phrase in lowered for phrase in phrases):
            continue
        for match in _regex(pattern).finditer(lowered):
            found.append(
                Mention(genre, match.start(), match.end(), text[match.start() : match.end()])
            )
    return sorted(found, key=lambda m: (m.start, str(m.value)))


@functools.lru_cache(maxsize=256)
def _service_patterns(extra: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """(pattern, service, alias) per alias, longest alias first; an alias that is not a substring
    of a text cannot match there, so its scan is skipped (and its pattern is compiled only once a
    text holds it)."""
    table: dict[str, set[str]] = {s: {s.lower(), *a} for s, a in SERVICE_ALIASES.items()}
    for service in extra:
        table.setdefault(service, set()).add(service.lower())
    pairs = sorted(
        ((alias, service) for service, aliases in table.items() for alias in aliases),
        key=lambda p: len(p[0]),
        reverse=True,
    )
    return tuple((_word_pattern(alias), service, alias) for alias, service in pairs)


def service_mentions(text: str, extra_services: Iterable[str] = ()) -> list[Mention]:
    """Streaming services a text names (canonical names), longest names first."""
    lowered = text.lower()
    taken = [False] * len(lowered)
    found: list[Mention] = []
    for pattern, service, alias in _service_patterns(tuple(sorted(set(extra_services)))):
        if alias not in lowered:
            continue
        for match in _regex(pattern).finditer(lowered):
            if any(taken[match.start() : match.end()]):
                continue
            for i in range(match.start(), match.end()):
                taken[i] = True
            found.append(
                Mention(service, match.start(), match.end(), text[match.start() : match.end()])
            )
    return sorted(found, key=lambda m: m.start)


_CODE_RE = re.compile(
    r"(?<![A-Za-z0-9-])(PG-13|NC-17|PG|NR|G|R)(?![A-Za-z0-9]|-(?:13|17))"
    r"|(?i:\b(unrated|not rated)\b)"
)


def content_rating_mentions(text: str) -> list[Mention]:
    """Content-rating codes a text names (G, PG, PG-13, R, NC-17; NR also as 'unrated')."""
    found = []
    for match in _CODE_RE.finditer(text):
        code = match.group(1) or "NR"
        found.append(Mention(code, match.start(), match.end(), match.group(0)))
    return found


def number_word_value(word: str) -> float | None:
    """The value of a number written in words ('two', 'ninety'), if it is one."""
    return _NUMBER_WORDS.get(word.lower())


_NUM = r"(\d+(?:\.\d+)?|" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")"
_RUNTIME_RE = re.compile(
    r"(?i)(?<![\w.])"
    + _NUM
    + r"(?:\s+and\s+a\s+half)?\s*\+?\s*-?\s*(minutes?|mins?|hours?|hrs?|h)\b"
)
_HOUR_PHRASES = (
    (re.compile(r"(?i)\ban hour and a half\b"), 90.0),
    (re.compile(r"(?i)\bhalf an hour\b"), 30.0),
    (re.compile(r"(?i)\ban hour\b"), 60.0),
)


def _to_number(token: str) -> float:
    try:
        return float(token)
    except ValueError:
        return float(_NUMBER_WORDS[token.lower()])


def runtime_mentions(text: str) -> list[Mention]:
    """Durations a text states, in minutes ("120 minutes", "2 hours", "an hour and a half")."""
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for pattern, minutes in _HOUR_PHRASES:
        for match in pattern.finditer(text):
            if any(s <= match.start() < e for s, e in taken):
                continue
            taken.append((match.start(), match.end()))
            found.append(Mention(minutes, match.start(), match.end(), match.group(0)))
    for match in _RUNTIME_RE.finditer(text):
        if any(s <= match.start() < e for s, e in taken):
            continue
        value = _to_number(match.group(1))
        if "and a half" in match.group(0).lower():
            value += 0.5
        unit = match.group(2).lower()
        minutes = value * 60 if unit.startswith("h") else value
        found.append(Mention(round(minutes, 2), match.start(), match.end(), match.group(0)))
    return sorted(found, key=lambda m: m.start)


_RATING_CONTEXT = re.compile(
    r"(?i)\b(rating|ratings|rated|score|scores|scored|reviews?|stars?|imdb|tmdb|out of (?:10|ten)|/\s*10)\b|/\s*10"
)
_PLAIN_NUMBER = re.compile(r"(?i)(?<![\w.+-])" + _NUM + r"(?:\s+and\s+a\s+half)?(?![\w]|-\d|\.\d)")


def rating_mentions(text: str) -> list[Mention]:
    """Review scores a text states: numbers from 0 to 10 next to rating words ("6.5 out of 10")."""
    found: list[Mention] = []
    blocked = [(m.start, m.end) for m in runtime_mentions(text)]
    blocked += [(m.start(), m.end()) for m in re.finditer(r"PG-13|NC-17", text)]
    for match in _PLAIN_NUMBER.finditer(text):
        if any(s <= match.start() < e for s, e in blocked):
            continue
        if match.group(1).lower() == "one":
            continue  # "one" is far more often a pronoun ("a good one") than a score
        if re.search(r"(?i)(out of|/)\s*$", text[max(0, match.start() - 8) : match.start()]):
            continue  # the scale ("out of 10"), not a score
        value = _to_number(match.group(1))
        if "and a half" in match.group(0).lower():
            value += 0.5
        if not 0 <= value <= 10:
            continue
        window = text[max(0, match.start() - 45) : match.end() + 25]
        if _RATING_CONTEXT.search(window):
            found.append(Mention(value, match.start(), match.end(), match.group(0)))
    return found


_YEAR_RE = re.compile(r"(?<!\d)((?:19|20)\d{2})(?:s)?(?!\d)")


def year_mentions(text: str) -> list[Mention]:
    """Years a text names (1900-2099), e.g. a release year or decade."""
    return [
        Mention(float(m.group(1)), m.start(), m.end(), m.group(0)) for m in _YEAR_RE.finditer(text)
    ]


_VOTES_RE = re.compile(
    r"(?i)(\d[\d,]*(?:\.\d+)?)\s*(k)?\s*\+?\s*(?:votes?|ratings? count|ratings|reviews|voters)\b"
)


def vote_count_mentions(text: str) -> list[Mention]:
    """Vote counts a text names ("at least 500 votes")."""
    return [
        Mention(
            float(m.group(1).replace(",", "")) * (1000 if m.group(2) else 1),
            m.start(),
            m.end(),
            m.group(0),
        )
        for m in _VOTES_RE.finditer(text)
    ]


# Value-free statements of a direction on a field ("nothing too long", "something well known").
DIRECTION_PATTERNS: dict[str, re.Pattern[str]] = {
    "runtime": re.compile(
        r"(?i)\b(too (long|short|lengthy)|(not|nothing|anything|none)( \w+)?( too| very| that| "
        r"overly)? (long|lengthy|short)|(shorter|longer) side|shortish|longish|marathon|"
        r"quick watch|some length|epic|runtime|running time)\b"
    ),
    "rating": re.compile(
        r"(?i)\b(well[- ](reviewed|rated|received|regarded)|highly (rated|regarded)|good reviews|"
        r"bad reviews|great reviews|people liked|acclaimed|reviews-wise|critics|top[- ]rated|"
        r"high(ly)? scor\w*|decent reviews|low[- ]rated)\b"
    ),
    "vote_count": re.compile(
        r"(?i)\b(obscure|well[- ]known|under the radar|everybody has seen|everyone has seen|"
        r"hidden gem|mainstream|popular|crowd[- ]pleaser|blockbuster|niche|lots of votes)\b"
    ),
    "release_date": re.compile(
        r"(?i)\b(recent|newer|older|too old|classic|old[- ]school|modern|this century|"
        r"last (few|couple of) years|vintage|new release|new one|old one)\b"
    ),
    "content_rating": re.compile(
        r"(?i)\b((family|kid|child)[- ]friendly|for (the |my |our )?kids|too (intense|tame|mature|"
        r"violent|scary|graphic|adult)|nothing (scary|violent|graphic|adult|mature)|grown[- ]up|"
        r"age rating|suitable for (children|kids))\b"
    ),
}
# A sentence about the title just proposed (a decline hint), not a general statement.
REFERS_TO_PROPOSAL = re.compile(
    r"(?i)\b(that|this) (one|film|movie)\b|^\W*(hmm,?\s*|oh,?\s*)?(that|this)\b|"
    r"\bthat(?:'s| sounds| feels| seems)\b"
)
# "I don't have anything specific in mind about the length": no direction given.
NO_PREFERENCE_RE = re.compile(r"(?i)(don't have anything specific|nothing particular|i'm easy on)")


def _topic_word_patterns() -> dict[str, re.Pattern[str]]:
    return {
        topic: re.compile(r"(?i)\b(?:" + "|".join(re.escape(w) for w in words) + r")\b")
        for topic, words in TOPIC_WORDS.items()
    }


_TOPIC_WORD_RES = _topic_word_patterns()


def topic_cues(text: str) -> list[str]:
    """The topics whose words (`TOPIC_WORDS`) the text uses, in `TOPIC_WORDS` order."""
    return [t for t, pattern in _TOPIC_WORD_RES.items() if pattern.search(text)]
