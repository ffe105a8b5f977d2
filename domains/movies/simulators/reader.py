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
import itertools
import re
from dataclasses import dataclass
from typing import Any

from domains.movies.catalog import Catalog
from domains.movies.simulators.vocabulary import ASKING, FIELD_PATTERNS, WEAK_PATTERNS
from runner.core.memo import per_object
from runner.kits.user.reader import BULLET, TITLE_MARK, FieldReader, nothing_fits_pattern

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


_GAP = r"[\s\"'“‘*_(~]*(?:(?:the|a|an|another|other|the other) )?[\s\"'“‘*_(~]*$"
# A cue right before a title that makes it a reference, not a proposal ("a bit like X").
_REFERENCE_BEFORE = re.compile(
    r"(?i)(?:(?:a bit|a little|a lot|much|just|kind of|sort of|rather|very|not un|something|"
    r"feels|felt|looks|films?|movies?|titles?|ones|stuff|things)\s+like|(?:^|[.!?\n]\s*)like|"
    r"similar (?:\w+ ){0,3}(?:to|as)|reminiscent of|in the (?:vein|spirit|style|mould|mold|"
    r"tradition) of|same (?:\w+ ){0,2}as|\b(?:as|so) \w+ as|compared? (?:to|with)|fans? of|"
    r"if you (?:liked|loved|enjoyed|dug|like|love|enjoy)|since you (?:liked|loved|enjoyed|rated|"
    r"watched|saw)|you (?:liked|loved|enjoyed|rated|watched|saw)|you've (?:seen|watched|enjoyed|"
    r"liked|loved|rated)|you have (?:seen|watched)|\bthan|\bunlike|instead of|rather than|"
    r"other than|apart from|\bbesides|\bexcept|\bechoes|\brecalls|\bevokes|nods to|akin to|"
    r"cousin (?:of|to)|\bmeets|crossed with|successor to|sequel to|follow[- ]up to|"
    r"from the (?:team|director|makers|people|writer) (?:behind|of)|makers of|director of|"
    r"creators? of|(?:premise|plot|story|idea|tone|spirit|style|feel|mood|vibe|energy|pacing|"
    r"architecture|conceit|structure|template|formula|shape|dna|quality|qualities) of|"
    r"\bloved|\benjoyed|\bliked|\bskip(?:ped)?|ruled out|\bbeyond|\bwatched|\bseen|\balready|"
    r"~~)" + _GAP
)
_AFTER_LEAD = r"^[\s\"'”’*)_~]*"
# What follows a title that makes it a reference or rules it out ("X, which you've seen").
_REFERENCE_AFTER = re.compile(
    r"(?i)"
    + _AFTER_LEAD
    + r"(?:[,(\-—–]\s*)?(?:(?:which|that|one|something) you(?: said you| told "
    r"me you| mentioned you)?(?:'ve| have| already)?\s*(?:already |just |recently |really |once "
    r")?(?:seen|watched|saw|loved|liked|enjoyed|rated|gave|found)|(?:is|was|runs?|feels?|seems?|"
    r"would be|'s)\s+(?:\w+\s+){0,3}(?:too|already)\b|(?:didn't|did not|doesn't|does not|won't|"
    r"wouldn't|isn't|is not|wasn't|was not) (?:fit|work|make|on|available|streaming|an option|"
    r"right)|(?:is|was) out\b|(?:from|in) your (?:history|list)|on your list|(?:fans|lovers) "
    r"(?:will|would|should)|(?:and|or) (?:its|the) sequel|(?:would|could|might) have been|"
    r"(?:is|was) (?:a )?(?:miss|no-go|non-starter)|among them|for (?:instance|example)|e\.g\.)"
)
_FRAME_BEFORE = re.compile(
    r"(?i)(?:how about|what about|why not|\btry|consider|i'?d (?:recommend|suggest|go with|go for|"
    r"pick|choose|say)|i (?:recommend|suggest)|recommend(?:ing|ed)?|suggest(?:ing|ion)?|my (?:top |"
    r"final |best |first )?(?:pick|recommendation|suggestion|choice|vote|bet|answer)(?: for (?:you|"
    r"tonight))?(?: is| would be| tonight)?|go (?:with|for)|check out|i'?m thinking(?: of)?|"
    r"you(?:'d| would| might| may| could|'ll) (?:really )?(?:like|love|enjoy|dig)|perfect (?:fit|"
    r"match|pick)|\bpick|instead|better(?: bet| option| choice| fit)?|(?:that|which) leaves|"
    r"landed on|found (?:it|one|your movie|a match)?|here'?s|meet|introduc\w+ you to|"
    r"give \w+ a (?:try|shot|go)|tonight'?s pick|the one|winner|✅|👉|⭐|🎬|🍿|best (?:fit|match|bet)|"
    r"alt(?:ernative)?|proceed with|(?:strong )?case for|i would put|put forward)"
    r"[\s:,—–-]*(?:is|would be)?[\s\"'“‘*_(~:]*(?:(?:the|a|an) )?[\s\"'“‘*_(~]*$"
)
_FRAME_AFTER = re.compile(
    r"(?i)^[\s*_\"'”’)]*(?:\(\d{4}\))?[\s*_]*(?:,\s*)?(?:is|would be|could be|might be|seems|looks|feels|"
    r"sounds|—|–|-|:)?\s*(?:my (?:top |final )?(?:pick|recommendation|choice|suggestion)|(?:a |the |"
    r"your )?(?:perfect|great|ideal|best|safe|safer|solid|strong|better|top) (?:fit|match|pick|"
    r"recommendation|"
    r"choice|bet|option)|exactly what|just what|the one|a winner|(?:it )?fits (?:everything|all|"
    r"your|the bill)|ticks every|checks every|is better|(?:is |'s )?(?:much )?(?:safer|better))"
)
_RULED_OUT_BEFORE = re.compile(
    r"(?i)(?:\bnot|skip(?:ped)?|ruled out:?|rules? out|instead of|rather than|other than|whereas|"
    r"except|apart from|besides|considered|passed on|dropped|❌|✗|✘|🚫|~~|neither|\bnor|unlike|"
    r"avoid(?:ed)?|\bthan|\bover|more|less|looked at|left out|cut|wanted to suggest|was going "
    r"to suggest|thought about|almost (?:suggested|went with)|if|exclud\w*|drop|removed?|"
    r"steer (?:you )?(?:away|clear) from|over)"
    r"[\s:,—–-]*[\s\"'“‘*_(~]*(?:(?:the|a|an) )?[\s\"'“‘*_(~]*$"
)
_RULED_OUT_AFTER = re.compile(
    r"(?i)^[^.!?\n]{0,70}?\b(?:too (?:long|short|old|new|recent|mature|intense|scary|violent|dark|"
    r"tame|obscure|mainstream|grim|slow)|weak reviews|poorly|(?:is|was|'s) (?:out|off the table|a no|"
    r"ruled out)|that'?s out|off the table|didn't make the cut|doesn't (?:fit|work|qualify|make)|"
    r"isn't (?:on|available|streaming|an option|right|a fit)|not (?:on|available|streaming|a fit|an "
    r"option)|would(?:'ve| have) been|only \d|fails?|misses|breaks|falls short|(?:over|past|above|"
    r"below|under) your|exceeds|(?:scores|rated|sits) (?:even )?lower|worse|no longer|neither|"
    r"is (?:brilliant|great|good|fine) but|but (?:runs|it'?s|at \d|its|the reviews|reviewers)|"
    r"crowd favou?rite|everyone knows|tons of votes|than|meets|crossed with|was (?:too|a)|"
    r"passing on|pass on|but you said|(?:was|is) your thing|worked for you|was a hit|hit the spot)\b"
)
_OFFERS_SEVERAL = re.compile(
    r"(?i)\b(?:options|choices|alternatives|candidates|contenders|here are|a few (?:picks|titles|"
    r"films|movies|ideas)|either of|either one|any of (?:these|them|those)|which (?:one|of these|of "
    r"them|would you|sounds|appeals|grabs)|pick one|choose one|shortlist|picks|ideas|suggestions|"
    r"programme|program|line-?up|double bill|double feature|"
    r"recommendations|one of these|a couple|(?:two|three|four|five|2|3|4|5) (?:[\w-]+ ){0,3}"
    r"(?:picks|titles|films|movies|options|ideas|moods|thrillers|romances|comedies|dramas|ones|"
    r"documentaries|choices))\b"
)
# Words that say the titles a message names are set aside, not offered.
_RULING_OUT = re.compile(
    r"(?i)\b(?:skip(?:ping|ped)?|exclud\w+|drop(?:ped)?|ruled? out|rules out|leav(?:e|ing) (?:it|them) "
    r"(?:off|out)|left (?:it|them) out|won'?t recommend|not recommend|wouldn'?t recommend|"
    r"(?:as|only as) a warning|not on your services|off (?:your|the) list|why not|no match|"
    r"0 (?:valid )?results|filtered out|isn'?t worth|warn|fun fact|trivia|set (?:it|them) aside|"
    r"scratch that|never mind|nothing (?:here )?(?:fits|matches|meets)|neither|(?:making|make|made) "
    r"the cut|remov(?:e|ed|ing)|already watched|isn'?t (?:one of )?your services|i'?ll keep "
    r"(?:looking|searching)|re-?checking|different pick incoming|keep searching)\b"
)
# A recommending word undone by what comes before it ("I won't recommend", "no shot i'm").
_NEGATED = re.compile(
    r"(?i)(?:\bnot|n't|never|no shot|no way|steer (?:you )?(?:away|clear) from|rather not|hardly)"
    r"\b[\w\s']{0,14}$"
)
_RETRACTED = re.compile(
    r"(?i)^[^.!?\n]{0,12}\b(?:no,? scratch that|scratch that|no,? wait|never ?mind)"
)


def _section_header(text: str, line_start: int) -> str:
    """The nearest heading or "Label:" line above a list item or table row (else "")."""
    if not re.match(r"\s*(?:[-*•·–]|\d+[.)]|\|)", text[line_start:]):
        return ""
    for line in reversed(text[:line_start].splitlines()):
        stripped = line.strip()
        if stripped.startswith("#") or (stripped.endswith(":") and not BULLET.match(line)):
            return stripped
        if stripped and not re.match(r"(?:[-*•·–]|\d+[.)]|\|)", stripped):
            return stripped
    return ""


def _offers_after(tail: str) -> bool:
    """Does a question follow the last title ("the closest is X - is that too long?", "want it?")?

    A question that opens a new topic ("Next: do you have Hulu?") does not offer the title.
    """
    for segment, asks in question_segments(tail):
        if not asks or len(re.findall(r"\w+", segment)) < 2:
            continue
        if re.match(
            r"(?i)\W*(?:next|also|separately|meanwhile|btw|by the way|moving on|on another note)\b",
            segment,
        ):
            continue
        return True
    return False


_JOINED = re.compile(
    r"(?i)^[\s*_\"'”’“‘]*(?:,|;|/|or|and|,\s*or|,\s*and|&)[\s*_\"'”’“‘]*(?:maybe |perhaps |even )?$"
)
_LIST_LINE = re.compile(r"^\s*(?:[-*•·–]|\d+[.)]|\|)\s*[\W_]*$")
_SEEN_WORDS = re.compile(
    r"(?i)\byou(?:'ve| have)? (?:already )?(?:seen|watched|saw|loved|liked|enjoyed|rated)|"
    r"your (?:favou?rite|history|list)|last time|(?:re-?)?watch(?:ed)? (?:it )?(?:before|again)|"
    r"already seen|you mentioned"
)
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
        self._memo = functools.lru_cache(maxsize=4096)(self._read)

    def read(
        self, text: str, *, watched: frozenset[str] = frozenset(), pending: str | None = None
    ) -> Reading:
        """The acts of one agent message, given the user's watched ids and the title it asked about."""
        return self._memo(text, watched, pending)

    def _read(self, text: str, watched: frozenset[str], pending: str | None) -> Reading:
        spans = self._titles.spans(text)
        named = list(dict.fromkeys(item_id for _s, _e, item_id in spans))
        proposed = self._proposed(text, spans, watched, pending)
        # Fields are read with every title replaced by a marker (so "Long Night" asks nothing);
        # in a message that puts a title forward, a request for a reaction asks about no field.
        blanked = text
        for start, end, _id in reversed(spans):
            blanked = blanked[:start] + TITLE_MARK + blanked[end:]
        return Reading(
            asked=_FIELDS.read_fields(blanked, self._people, reacting=bool(proposed)),
            proposed=tuple(proposed),
            named=tuple(named),
            nothing_fits=bool(NOTHING_FITS_RE.search(text)) and not proposed,
            described=tuple(named) if _FIELDS.describes(blanked) else (),
        )

    def described(self, text: str) -> tuple[str, ...]:
        """The titles a message names and describes (a pitch: their kind of film or story)."""
        return self._memo(text, frozenset(), None).described

    def _people(self, segment: str) -> list[str]:
        """cast / director when a segment names a person of the catalog (by role when both)."""
        fields: list[str] = []
        directing = bool(re.search(r"(?i)\b(?:direct\w*|filmmaker\w*|auteur\w*|helm\w*)", segment))
        cast = self._cast.search(segment)
        director = self._director.search(segment)
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

    def _proposed(
        self,
        text: str,
        spans: list[tuple[int, int, str]],
        watched: frozenset[str],
        pending: str | None,
    ) -> list[str]:
        ids = {item_id for _s, _e, item_id in spans} | ({pending} if pending else set())
        out: list[str] = []
        framed: set[str] = set()
        ruled_out: set[str] = set()
        listed: set[str] = set()
        references: set[str] = set()
        previous_end = 0
        for n, (start, end, item_id) in enumerate(spans):
            before = text[previous_end:start]
            previous_end = end
            next_start = spans[n + 1][0] if n + 1 < len(spans) else len(text)
            after = text[end : min(next_start, end + 80)]
            line_start = text.rfind("\n", 0, start) + 1
            if self._is_plot_word(item_id, ids, before, after):
                continue
            if _REFERENCE_BEFORE.search(before[-80:]) or _REFERENCE_AFTER.search(after):
                references.add(item_id)
                continue
            window = before[-60:]
            frame = _FRAME_BEFORE.search(window)
            if frame and _NEGATED.search(window[: frame.start()]):
                ruled_out.add(item_id)  # "I won't recommend X", "no shot i'm recommending X"
            elif frame or _FRAME_AFTER.search(after):
                framed.add(item_id)
            if (
                _RULED_OUT_BEFORE.search(before[-40:])
                or _RULED_OUT_AFTER.search(after)
                or _RULING_OUT.search(_section_header(text, line_start))
            ):
                ruled_out.add(item_id)
            if _RETRACTED.search(after):
                framed.discard(item_id)
                ruled_out.add(item_id)
            if _LIST_LINE.match(text[line_start:start]):
                listed.add(item_id)
            if item_id not in out:
                out.append(item_id)
        out = [i for i in out if i not in references or i in framed]
        # Watched titles named as seen, and titles ruled out beside others, are references.
        if _SEEN_WORDS.search(text):
            out = [i for i in out if i not in watched]  # "you've already seen A and B"
        last = max((e for _s, e, i in spans if i in out), default=0)
        offered_after = _offers_after(text[last:])  # "the closest is X, though ... - want it?"
        setting_aside = bool(_RULING_OUT.search(text) or NOTHING_FITS_RE.search(text))
        if len(out) <= 1:
            ruled = out and out[0] not in framed and (out[0] in ruled_out or setting_aside)
            if ruled and not offered_after:
                return []  # "nothing fits; the nearest miss is X, but it's rated R", "skipping X"
            return out
        if setting_aside and not offered_after and not any(i in framed for i in out):
            return []  # "A and B are both rated R, so neither makes the cut"
        kept = [i for i in out if i not in ruled_out or i in framed]
        if len(kept) <= 1:
            return kept
        if (
            _OFFERS_SEVERAL.search(text)
            or len([i for i in kept if i in listed]) > 1
            or self._enumerated(text, spans, kept)
        ):
            return kept  # a list of options: all of them are put forward
        offered = [i for i in kept if i in framed]
        if offered:
            return offered
        return kept[-1:]  # references come first, the pick last ("X is the favourite; go for Y")

    @staticmethod
    def _enumerated(text: str, spans: list[tuple[int, int, str]], kept: list[str]) -> bool:
        """Are two of the kept titles named one after the other, joined by a comma, "or" or "and"?"""
        places = [(s, e) for s, e, i in spans if i in kept]
        for (_s1, e1), (s2, _e2) in itertools.pairwise(places):
            between = re.sub(r"\([^)]*\)", "", text[e1:s2])
            if _JOINED.match(between):
                return True
        return False

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
