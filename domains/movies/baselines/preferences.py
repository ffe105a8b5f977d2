"""Reading a user's requirements from what they say: lengths, scores, genres, age ratings, services, dates, people.

Used by the heuristic baseline. It understands the scripted simulator's phrasing and ordinary
ways of saying the same things ("under 2 hours", "nothing with romance", "rated 7 or better",
"we have Netflix and Hulu", "it must be on Hulu", "PG-13 is fine", "no R-rated stuff").
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, fields

from domains.movies.simulators.vocabulary import (
    GENRE_WORDS,
    SERVICE_ALIASES,
    Mention,
    content_rating_mentions,
    genre_mentions,
    rating_mentions,
    runtime_mentions,
    sentences,
    service_mentions,
    vote_count_mentions,
    year_mentions,
)

__all__ = ["Preferences", "read_preferences", "remembered_preferences"]

_NEGATION = re.compile(
    r"(?i)\b(no|not|nothing|none|never|without|avoid|hate|dislike|except|anything but|rather not|"
    r"skip|instead of)\b|n't\b"
)
_MAX_BEFORE = re.compile(r"(?i)(at most|up to|maximum(?: of)?|max|within|tops)\s*(?:of\s*)?$")
_MIN_BEFORE = re.compile(r"(?i)(at least|minimum(?: of)?|min)\s*(?:of\s*)?$")
_LESS_BEFORE = re.compile(r"(?i)(shorter than|under|less than|below|lower than|fewer than)\s*$")
_MORE_BEFORE = re.compile(
    r"(?i)(longer than|over|more than|above|higher than|better than|greater than)\s*$"
)
_NEG_BEFORE = re.compile(r"(?i)(\bno|\bnot|\bnothing|n't)\b[\w\s']{0,30}$")
_MAX_AFTER = re.compile(
    r"(?i)^\s*(?:long\s*)?(?:/\s*10|out of (?:10|ten))?\s*(?:or (?:less|fewer|shorter|under|lower|below)"
    r"|at most|max\b|tops\b|is the (?:most|max|longest|limit)|or so at most)"
)
_MIN_AFTER = re.compile(
    r"(?i)^\s*(?:long\s*)?(?:/\s*10|out of (?:10|ten))?\s*(?:or (?:more|longer|higher|better|above|up)"
    r"|\+|and (?:up|above|higher)|at least|minimum|is the (?:least|minimum|shortest))"
)
_ALL_SERVICES = re.compile(
    r"(?i)(every major|all (?:the )?(?:major|big)|all of the (?:major|big)|pretty much every|"
    r"all (?:the )?services|not an issue|isn't a problem|not a problem|availability is not)"
)
_SUBSCRIBE = re.compile(
    r"(?i)\b(subscribe|subscribed|subscription|subscriptions|i have|i've got|we have|we've got|"
    r"i pay for|i use|access to|my services|i got)\b"
)
_REQUIRED_SERVICE = re.compile(
    r"(?i)\b(has to be|have to be|needs to be|need to be|must be|should be|want it on|only on|"
    r"streaming on|available on|be on|be streaming)\b"
)
_ISO_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_RELEASE_CUE = re.compile(
    r"(?i)\b(release|released|from|after|before|since|later|earlier|newer|older|onwards|recent)\b"
)
_DIRECTOR = re.compile(r"directed by ([A-Z][\w.'\-]*(?:,? [A-Z][\w.'\-]*)*)")
_CAST = re.compile(r"(?i)(?:like|want|with)\s+(.+?)\s+in the cast")
_NO_SPONSORED = re.compile(r"(?i)\b(no|nothing|not)\b[\w\s]{0,12}\b(sponsored|promoted|ads?)\b")
_KID_FRIENDLY = re.compile(
    r"(?i)\b(kid-friendly|family-friendly|child-friendly|for (?:the |my |our )?kids|"
    r"suitable for (?:children|kids))\b"
)


@dataclass
class Preferences:
    """What the user has said they need, accumulated over the conversation."""

    max_runtime: float | None = None
    min_runtime: float | None = None
    min_rating: float | None = None
    max_rating: float | None = None
    genres_all: set[str] = field(default_factory=set)
    genres_any: list[set[str]] = field(default_factory=list)
    genres_none: set[str] = field(default_factory=set)
    ratings_allowed: set[str] | None = None
    ratings_excluded: set[str] = field(default_factory=set)
    subscriptions: set[str] = field(default_factory=set)
    all_services: bool = False
    services_required: set[str] = field(default_factory=set)
    min_date: dt.date | None = None
    max_date: dt.date | None = None
    directors: set[str] = field(default_factory=set)
    directors_excluded: set[str] = field(default_factory=set)
    cast_any: set[str] = field(default_factory=set)
    cast_excluded: set[str] = field(default_factory=set)
    min_votes: float | None = None
    max_votes: float | None = None
    no_sponsored: bool = False

    def copy(self) -> Preferences:
        """An independent copy (every set and list new; what deepcopy gives, at a fraction of its cost)."""
        out = Preferences()
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, set):
                value = set(value)
            elif isinstance(value, list):
                value = [set(s) for s in value]
            setattr(out, f.name, value)
        return out

    def tighten(self, name: str, value: float, *, upper: bool) -> None:
        """Lower an upper bound / raise a lower bound (never loosen)."""
        current = getattr(self, name)
        if current is None or (value < current if upper else value > current):
            setattr(self, name, value)


def _direction(text: str, m: Mention, default: str | None) -> str | None:
    """'max', 'min' or the default, from the comparison words around a number."""
    before = text[max(0, m.start - 45) : m.start]
    after = text[m.end : m.end + 35]
    negated = bool(_NEG_BEFORE.search(before))
    if _LESS_BEFORE.search(before):
        return "min" if negated else "max"
    if _MORE_BEFORE.search(before):
        return "max" if negated else "min"
    if _MAX_BEFORE.search(before):
        return "max"
    if _MIN_BEFORE.search(before):
        return "min"
    if _MAX_AFTER.search(after):
        return "max"
    if _MIN_AFTER.search(after):
        return "min"
    return default


def _clauses(sentence: str) -> list[str]:
    """Clauses split at ';', ':', 'but', 'though' (commas may separate list items, so they stay)."""
    sentence = re.sub(r"(?i)\b(anything|everything|all) but\b", r"\1 except", sentence)
    return [c for c in re.split(r"(?i)[;:]|\bbut\b|\bthough\b", sentence) if c.strip()]


def _genres(prefs: Preferences, sentence: str, extra_genres: list[str]) -> None:
    for clause in _clauses(sentence):
        found = [m for m in genre_mentions(clause, extra_genres) if m.text.lower() != "family"]
        positive: list[str] = []
        previous_end = 0
        for m in found:
            before = clause[previous_end : m.start]
            previous_end = m.end
            # "No horror, I want a thriller": a comma not inside a list of genres ends the scope.
            if "," in before and not re.fullmatch(r"\s*,\s*", before):
                before = before.rsplit(",", 1)[1]
            if _NEGATION.search(before):
                prefs.genres_none.add(str(m.value))
            elif str(m.value) not in positive:
                positive.append(str(m.value))
        if len(positive) > 1 and re.search(r"(?i)\bor\b", clause):
            prefs.genres_any.append(set(positive))
        else:
            prefs.genres_all.update(positive)


def _content_ratings(prefs: Preferences, sentence: str) -> None:
    for clause in _clauses(sentence):
        codes = content_rating_mentions(clause)
        if not codes:
            continue
        if _NEGATION.search(clause[: codes[0].start]):
            prefs.ratings_excluded.update(str(c.value) for c in codes)
        else:
            wanted = {str(c.value) for c in codes}
            prefs.ratings_allowed = (
                wanted
                if prefs.ratings_allowed is None
                else prefs.ratings_allowed & wanted or wanted
            )


def _services(prefs: Preferences, sentence: str, extra: list[str]) -> None:
    if _ALL_SERVICES.search(sentence):
        prefs.all_services = True
    named = [str(m.value) for m in service_mentions(sentence, extra)]
    if not named:
        return
    if _REQUIRED_SERVICE.search(sentence) and not _SUBSCRIBE.search(sentence):
        prefs.services_required.update(named)
    else:
        prefs.subscriptions.update(named)


def _dates(prefs: Preferences, sentence: str) -> None:
    if not _RELEASE_CUE.search(sentence):
        return
    for match in _ISO_DATE.finditer(sentence):
        day = dt.date.fromisoformat(match.group(1))
        m = Mention(0.0, match.start(), match.end(), match.group(0))
        way = _date_direction(sentence, m)
        if way == "min" and (prefs.min_date is None or day > prefs.min_date):
            prefs.min_date = day
        elif way == "max" and (prefs.max_date is None or day < prefs.max_date):
            prefs.max_date = day
    if _ISO_DATE.search(sentence):
        return
    for m in year_mentions(sentence):
        year = int(m.value)
        way = _date_direction(sentence, m)
        if way == "min":
            day = dt.date(year, 1, 1)
            if prefs.min_date is None or day > prefs.min_date:
                prefs.min_date = day
        elif way == "max":
            day = dt.date(year, 12, 31)
            if prefs.max_date is None or day < prefs.max_date:
                prefs.max_date = day


def _date_direction(sentence: str, m: Mention) -> str | None:
    before = sentence[max(0, m.start - 30) : m.start].lower()
    after = sentence[m.end : m.end + 25].lower()
    if re.search(r"(or later|or newer|onwards|and later|or after|and up)", after):
        return "min"
    if re.search(r"(or earlier|or older|or before|and earlier)", after):
        return "max"
    if re.search(r"(after|since|on or after|newer than|later than)\s*$", before):
        return "min"
    if re.search(r"(before|on or before|older than|earlier than|until)\s*$", before):
        return "max"
    return None


def _people(prefs: Preferences, sentence: str) -> None:
    for match in _DIRECTOR.finditer(sentence):
        name = match.group(1).strip().rstrip(".,;!?")
        if _NEGATION.search(sentence[: match.start()]):
            prefs.directors_excluded.add(name)
        else:
            prefs.directors.add(name)
    for match in _CAST.finditer(sentence):
        names = [
            n.strip() for n in re.split(r",\s*|\s+or\s+|\s+and\s+", match.group(1)) if n.strip()
        ]
        if _NEGATION.search(sentence[: match.start(1)]):
            prefs.cast_excluded.update(names)
        else:
            prefs.cast_any.update(names)


def _numbers(prefs: Preferences, sentence: str) -> None:
    for m in runtime_mentions(sentence):
        way = _direction(sentence, m, None)
        if way == "max":
            prefs.tighten("max_runtime", float(m.value), upper=True)
        elif way == "min":
            prefs.tighten("min_runtime", float(m.value), upper=False)
    for m in rating_mentions(sentence):
        way = _direction(sentence, m, "min")
        if way == "max":
            prefs.tighten("max_rating", float(m.value), upper=True)
        else:
            prefs.tighten("min_rating", float(m.value), upper=False)
    for m in vote_count_mentions(sentence):
        way = _direction(sentence, m, "min")
        if way == "max":
            prefs.tighten("max_votes", float(m.value), upper=True)
        else:
            prefs.tighten("min_votes", float(m.value), upper=False)


def read_preferences(
    texts: list[str],
    *,
    extra_genres: list[str] | None = None,
    extra_services: list[str] | None = None,
) -> Preferences:
    """Everything the user's messages say they need (later statements only ever tighten)."""
    prefs = Preferences()
    genres = list(extra_genres or [])
    services = list(extra_services or [])
    for text in texts:
        _read_text(prefs, text, genres, services)
    return prefs


def _read_text(prefs: Preferences, text: str, genres: list[str], services: list[str]) -> None:
    for sentence in sentences(text):
        _numbers(prefs, sentence)
        _genres(prefs, sentence, genres)
        _content_ratings(prefs, sentence)
        _services(prefs, sentence, services)
        _dates(prefs, sentence)
        _people(prefs, sentence)
        if _NO_SPONSORED.search(sentence):
            prefs.no_sponsored = True
        if (
            prefs.ratings_allowed is None
            and not content_rating_mentions(sentence)
            and _KID_FRIENDLY.search(sentence)
            and not _NEGATION.search(sentence)
        ):
            prefs.ratings_allowed = {"G", "PG"}


def remembered_preferences(
    texts: Iterable[str], *, extra_genres: Iterable[str] = (), extra_services: Iterable[str] = ()
) -> Preferences:
    """`read_preferences`, remembered by conversation prefix: an agent re-reads the same turns every
    step, so each call reads only the turns it has not read before (a fresh copy every call).

    Extra names the shared vocabulary already knows change no pattern, so they are left out of
    the key (a new listing of a known genre is no reason to read the conversation again).
    """
    genres = tuple(sorted({g for g in extra_genres if g not in GENRE_WORDS}))
    services = tuple(sorted({s for s in extra_services if s not in SERVICE_ALIASES}))
    return _fold(tuple(texts), genres, services).copy()


@functools.lru_cache(maxsize=4096)
def _fold(
    texts: tuple[str, ...], genres: tuple[str, ...], services: tuple[str, ...]
) -> Preferences:
    if not texts:
        return Preferences()
    prefs = _fold(texts[:-1], genres, services).copy()
    _read_text(prefs, texts[-1], list(genres), list(services))
    return prefs


KNOWN_GENRES: tuple[str, ...] = tuple(GENRE_WORDS)
