"""The simulated user's reader: one agent message in, the acts it holds out (fields asked, titles put forward, a nothing-fits claim).

The reader is the only part of the user that interprets the agent's words; the decision engine
(`scripted.py`) sees only its `Reading`. It is rule-based and reads people as they write:
- a question is a sentence ending in "?", one opening like a question ("which apps do you
  have"), an indirect request ("I'd love to know whether this is for the kids", "let me know how
  much time you have"), a casual either-or ("new stuff or older movies ok"), or an item of a
  bullet-list questionnaire; greetings, recaps and pitches around it change nothing;
- a question is about a field when it names the field in any common form: plurals and word forms
  ("types of movies", "reviews"), a value of it ("Do you like scary movies?" asks the genre,
  "Should it be kid-friendly?" the age rating, "Is a two-hour film okay?" the length), a person
  of the catalog ("Are you a fan of <actor>?"), or when it asks whether a fact just stated about
  a title suits the user ("It's rated R. Is that okay?");
- a catalog title counts as put forward only when it is not a comparison ("a bit like X", "X,
  which you've seen"), not a place or name inside the plot of another title the message names,
  and not ruled out ("X runs far too long", "instead of X").
Abstention is never read from words: only `recommend()` without an id abstains; `nothing_fits`
only lets the user answer such a message in kind.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from domains.movies.catalog import Catalog
from domains.movies.simulators.vocabulary import (
    ASKING,
    FIELD_PATTERNS,
    WEAK_PATTERNS,
    age_rating_meant,
)
from runner.core.memo import per_object
from runner.kits.user.proposals import ProposalReader
from runner.kits.user.reader import (
    REFERENCE_MARK,
    TITLE_MARK,
    FieldReader,
    nothing_fits_pattern,
    readable,
)

__all__ = [
    "FIELD_PATTERNS",
    "NOTHING_FITS_RE",
    "WEAK_PATTERNS",
    "Reading",
    "RuleReader",
    "TitleIndex",
    "fields_asked",
    "question_segments",
    "rule_reader",
    "title_index",
]


@dataclass(frozen=True)
class Reading:
    """What one agent message does, as the user understands it."""

    asked: tuple[str, ...]
    """Catalog fields the message asks the user about, in the order it asks them."""
    proposed: tuple[str, ...]
    """Item ids the message puts forward for the user to watch, in order."""
    named: tuple[str, ...]
    """Every item id the message names (proposed, compared, quoted in a plot, ruled out)."""
    nothing_fits: bool
    """The message says nothing in the catalog fits (words only; it decides nothing)."""
    described: tuple[str, ...] = ()
    """Item ids the message describes (a pitch: their kind of film or their story)."""


# -- questions ---------------------------------------------------------------------------------

_FIELDS = FieldReader(ASKING)


def question_segments(text: str) -> list[tuple[str, bool]]:
    """The message's sentences (and list items), each with whether it asks something."""
    return _FIELDS.segments(text)


@functools.lru_cache(maxsize=8192)  # pure; agents repeat their questions across trials
def _fields_asked(text: str) -> tuple[str, ...]:
    return _FIELDS.read_fields(text)


def fields_asked(text: str) -> tuple[str, ...]:
    """The catalog fields a message asks the user about, in order (titles should be blanked first)."""
    return _fields_asked(text)


# -- nothing fits ------------------------------------------------------------------------------

NOTHING_FITS_RE = nothing_fits_pattern(("movie", "film", "title"))


# -- titles ------------------------------------------------------------------------------------

# Words (an underscore joins a word only inside an id: "_Title_" is markdown italics) and marks.
_TOKEN_RE = re.compile(r"tmdb_\w+|[^\W_]+|[^\w\s]|_")


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN_RE.finditer(text))


class TitleIndex:
    """Finds catalog items named in a text, by id or by title, in time independent of the catalog size.

    Built once per catalog: a dict from each title's token sequence (words and punctuation,
    lowercased) to its item, so a message is scanned position by position against n-grams of the
    title lengths that exist - never against every title. One-word titles match case-sensitively
    (so "Up" is a title, "up" is not); longer titles match in any case.
    """

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog
        self._by_tokens: dict[tuple[str, ...], list[tuple[str, str, bool]]] = {}
        starts: dict[str, set[int]] = {}
        for item in sorted(catalog.items, key=lambda i: i.id):
            key = tuple(m.group(0).lower() for m in _tokens(item.title))
            if not key:
                continue
            one_word = len(item.title.split()) == 1
            self._by_tokens.setdefault(key, []).append((item.title, item.id, one_word))
            starts.setdefault(key[0], set()).add(len(key))
        # First token -> the lengths of the titles that start with it, longest first: a position
        # whose word starts no title (most of them) costs one dict lookup.
        self._starts = {word: sorted(ns, reverse=True) for word, ns in starts.items()}
        # Agents repeat their messages across trials (templates, proposals): scan each text once.
        self._memo = functools.lru_cache(maxsize=4096)(self._scan)

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, item id) of every id or title named in the text, left to right, longest first."""
        return list(self._memo(text))

    def _scan(self, text: str) -> tuple[tuple[int, int, str], ...]:
        tokens = _tokens(text)
        lowered = [m.group(0).lower() for m in tokens]
        found: list[tuple[int, int, str]] = []
        i = 0
        while i < len(tokens):
            word = tokens[i].group(0)
            if word.startswith("tmdb_") and word in self._catalog:
                found.append((tokens[i].start(), tokens[i].end(), word))
                i += 1
                continue
            matched = 0
            for n in self._starts.get(lowered[i], ()):
                if i + n > len(tokens):
                    continue
                entries = self._by_tokens.get(tuple(lowered[i : i + n]))
                if not entries:
                    continue
                start, end = tokens[i].start(), tokens[i + n - 1].end()
                surface = text[start:end]
                # A one-word title in lower case counts when marked up as a title ("*lumwater*").
                marked = text[start - 1 : start] in "*_\"'“‘" and text[end : end + 1] in "*_\"'”’"
                for title, item_id, one_word in entries:
                    if not one_word or surface == title or (marked and start > 0):
                        found.append((start, end, item_id))
                        matched = n
                        break
                if matched:
                    break
            i += matched or 1
        return tuple(found)

    def find(self, text: str) -> list[str]:
        """Distinct item ids named in the text, in order of first appearance."""
        return list(dict.fromkeys(item_id for _s, _e, item_id in self.spans(text)))

    def blank(self, text: str) -> str:
        """The text with every named title or id replaced by spaces (so "Long Night" asks nothing)."""
        out = text
        for start, end, _id in reversed(self.spans(text)):
            out = out[:start] + " " * (end - start) + out[end:]
        return out


@per_object
def title_index(catalog: Catalog) -> TitleIndex:
    """The (cached) title index of a catalog."""
    return TitleIndex(catalog)


# The usual ways English names a film's director beside the name: "directed / helmed / shot /
# made by <person>", "a <person> film", "<person>'s direction", "<person> directs", "director
# <person>" (a person named so is asked about as the director).
_DIRECTED_BEFORE = (
    r"(?:direct(?:ed|or)|helm(?:ed|er)|shot|made|filmed|written and directed|film(?:maker)?|"
    r"movie|it'?s|its|one) by |(?:director|filmmaker|auteur|helmer),? "
)
_DIRECTED_AFTER = (
    r" (?:directs|directed|helms|helmed|is behind the camera|behind the camera)\b|"
    r"(?:'s?)? (?:direction|directing|directorial)\b"
)
_A_FILM_BY = r"\b(?:a|an|another|the (?:latest|new|newest|last|first)) "
_FILM_WORD = r"(?:'s?)? (?:film|movie|picture|flick|joint|production|feature)\b"
_EMPHASIS_BEFORE = re.compile(r"(?:\*\*|\*|_|\"|“|‘|')\s*$|^\s*(?:[-*•·–]|\d+[.)])\s*$")
_PLACE_BEFORE = re.compile(
    r"(?i)\b(?:from|in|of|at|near|above|below|off|around|outside|to|across|into|beyond|by|on|"
    r"under|over|through|towards?)\s+(?:the\s+)?(?:[a-z][\w'-]*\s+){0,3}$"
)


class RuleReader:
    """The offline reader: rules over one catalog's titles, ids, people and plots."""

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog
        self._titles = title_index(catalog)
        self._overviews = {item.id: item.overview for item in catalog.items}
        self._title_of = {item.id: item.title for item in catalog.items}
        cast = sorted({p for item in catalog.items for p in item.cast}, key=len, reverse=True)
        directors = sorted({i.director for i in catalog.items if i.director}, key=len, reverse=True)
        both = set(cast) & set(directors)
        self._cast = _PeopleMatcher(cast)
        self._director = _PeopleMatcher(directors)
        self._both = _PeopleMatcher(sorted(both, key=len, reverse=True))
        self._proposals = ProposalReader(
            segments=question_segments, nothing_fits=NOTHING_FITS_RE, plot_word=self._is_plot_word
        )
        self._memo = functools.lru_cache(maxsize=4096)(self._read)

    def read(
        self, text: str, *, watched: frozenset[str] = frozenset(), pending: str | None = None
    ) -> Reading:
        """The acts of one agent message, given the user's watched ids and the title it asked about."""
        return self._memo(readable(text), watched, pending)

    def _read(self, text: str, watched: frozenset[str], pending: str | None) -> Reading:
        spans = self._titles.spans(text)
        named = list(dict.fromkeys(item_id for _s, _e, item_id in spans))
        proposed = self._proposals.proposed(text, spans, watched, pending)
        # Fields are read with every title replaced by a marker (so "Long Night" asks nothing);
        # in a message that puts a title forward, a request for a reaction asks about no field.
        # A title named only as a reference ("something like X?", "since you enjoyed X, more
        # from its director?") is blanked: the question around it asks about tastes.
        marked = blanked = text
        for start, end, item_id in reversed(spans):
            marked = marked[:start] + TITLE_MARK + marked[end:]
            mark = TITLE_MARK if item_id in proposed else REFERENCE_MARK
            blanked = blanked[:start] + mark + blanked[end:]
        return Reading(
            asked=_FIELDS.read_fields(
                age_rating_meant(blanked),
                functools.partial(self._people, text=blanked),
                reacting=bool(proposed),
            ),
            proposed=tuple(proposed),
            named=tuple(named),
            nothing_fits=bool(NOTHING_FITS_RE.search(text)) and not proposed,
            described=tuple(named) if _FIELDS.describes(marked) else (),
        )

    def described(self, text: str) -> tuple[str, ...]:
        """The titles a message names and describes (a pitch: their kind of film or story)."""
        return self._memo(readable(text), frozenset(), None).described

    def _people(self, segment: str, text: str = "") -> list[str]:
        """cast / director when a segment names a person of the catalog (by role when both; a
        person the message has just named as the one a film is by is its director)."""
        fields: list[str] = []
        directing = bool(re.search(r"(?i)\b(?:direct\w*|filmmaker\w*|auteur\w*|helm\w*)", segment))
        cast = self._cast.search(segment)
        director = self._director.search(segment)
        if director and not directing:
            directing = _named_as_director(segment[director[0] : director[1]], text)
        overlap = bool(cast and director and cast[0] < director[1] and director[0] < cast[1])
        if cast and directing and (overlap or self._both.fullmatch(segment[cast[0] : cast[1]])):
            cast = None  # a person who both acts and directs, named as a director
        if (
            director
            and not directing
            and (overlap or self._both.fullmatch(segment[director[0] : director[1]]))
        ):
            director = None
        if cast:
            fields.append("cast")
        if director:
            fields.append("director")
        return fields

    def _is_plot_word(self, item_id: str, others: set[str], before: str, after: str) -> bool:
        """Is this title a place or name inside the plot of another title the message names?"""
        title = self._title_of.get(item_id, "")
        if not title or not any(
            other != item_id and title in self._overviews.get(other, "") for other in others
        ):
            return False
        plain = re.sub(r"[*_\"'“‘~]+$", "", before)
        if _PLACE_BEFORE.search(plain):
            return True  # "a trucker from the salt flats of **Saltvarrow**": a place
        if _EMPHASIS_BEFORE.search(before):
            return False  # **Lumwater**, "Lumwater", a list item: named as a title
        adjective = bool(re.match(r"\s+[a-z]", after)) and bool(
            re.search(r"(?i)\b(?:a|an|the|another|other)\s+$", before)
        )
        return bool(_PLACE_BEFORE.search(before)) or adjective


@functools.lru_cache(maxsize=4096)
def _director_pattern(name: str) -> re.Pattern[str]:
    """The ways a message names this person as the one a film is by ("directed by X", "a X
    film", "X directs"): compiled once per person, not once per message."""
    person = re.escape(name)
    return re.compile(
        rf"(?i)(?:{_DIRECTED_BEFORE}){person}(?![\w-])(?!'s? (?:performance|role|acting))|"
        rf"(?<![\w-]){person}(?:{_DIRECTED_AFTER})|{_A_FILM_BY}{person}{_FILM_WORD}"
    )


def _named_as_director(name: str, text: str) -> bool:
    """Does the message name this person as the one a film is by?"""
    return bool(_director_pattern(name).search(text))


class _PeopleMatcher:
    """Finds catalog people named in a text: a trie over the names (and lone surnames).

    It reads exactly as the single regex ``(?i)(?<![\\w-])(?:name|...)(?![\\w-])`` with the names
    longest first would - the leftmost name, the longest at that place, case-insensitively, a
    lone surname only with the capital it starts with (``(?-i:L)ong``) - but
    costs a trie walk instead of compiling an alternation of every person in the catalog. Case is
    matched as `re` matches it: each character is folded to the first name character the `re`
    engine finds equal to it under IGNORECASE (asked of `re` itself, once per character).
    """

    def __init__(self, names: list[str]) -> None:
        full = set(names)
        # A surname alone names the person too ("a fan of Ostrander?"), when written as a name:
        # with its capital. Written small it is a word first ("how long can it be?" does not ask
        # about Shelley Long).
        surnames = {
            n.split()[-1] for n in names if len(n.split()) > 1 and len(n.split()[-1]) > 3
        } - full
        parts = full | surnames
        self._alphabet = sorted({ch for part in parts for ch in part})
        self._folded: dict[str, str] = {}
        for ch in self._alphabet:
            self._fold(ch)
        table = str.maketrans(self._folded)
        self._trie: dict[str, Any] = {}
        for part in parts:
            key = part.translate(table)  # every character of a name is in the alphabet
            node = self._trie
            for ch in key:
                node = node.setdefault(ch, {})
            if part in full:
                node[_END] = True
            else:
                node.setdefault(_SURNAME, set()).add(part[0])

    def _fold(self, text: str) -> str:
        folded = self._folded
        out = []
        for ch in text:
            f = folded.get(ch)
            if f is None:
                f = folded[ch] = next(
                    (a for a in self._alphabet if _same_letter(a).fullmatch(ch)), ch
                )
            out.append(f)
        return "".join(out)

    def search(self, text: str) -> tuple[int, int] | None:
        """(start, end) of the first person named in the text (the longest at that place), else None."""
        root = self._trie
        if not root:
            return None
        n = len(text)
        for start in range(n + 1):
            if start and _is_word(text[start - 1]):
                continue
            node = root
            best = start if _END in node and (start == n or not _is_word(text[start])) else -1
            at = start
            while at < n:
                child = node.get(self._folded.get(text[at]) or self._fold(text[at]))
                if child is None:
                    break
                node = child
                at += 1
                if (at == n or not _is_word(text[at])) and (
                    _END in node or text[start] in node.get(_SURNAME, ())
                ):
                    best = at
            if best >= 0:
                return start, best
        return None

    def fullmatch(self, text: str) -> bool:
        """Is the whole text one of the names (in any case), or a lone surname with its capital?"""
        node = self._trie
        for ch in self._fold(text):
            child = node.get(ch)
            if child is None:
                return False
            node = child
        return _END in node or (bool(text) and text[0] in node.get(_SURNAME, ()))


_END = ""  # the trie key that ends a name (no character folds to the empty string)
# The trie key that ends a lone surname (no character folds to it); its value: the capitals.
_SURNAME = "<lone surname>"


@functools.cache
def _same_letter(ch: str) -> re.Pattern[str]:
    return re.compile("(?i)" + re.escape(ch))


@functools.cache
def _is_word(ch: str) -> bool:
    """`[\\w-]` as `re` reads it: the characters the people patterns' look-arounds refuse."""
    return _WORD_OR_HYPHEN.match(ch) is not None


_WORD_OR_HYPHEN = re.compile(r"[\w-]")


@per_object
def rule_reader(catalog: Catalog) -> RuleReader:
    """The (cached) rule-based reader of a catalog."""
    return RuleReader(catalog)
