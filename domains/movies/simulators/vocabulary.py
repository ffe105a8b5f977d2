"""The words of a recommendation chat: which attribute a question asks about, and which values a text names.

One table per idea, shared by the user's reader and writer, the leak audit (to find values a user
message states) and the heuristic baseline (to read the user's answers). What counts as asking
about a field (`ASKING`) is read by the user kit's field reader.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from runner.kits.user.reader import TITLE_MARK, FieldVocabulary, near_miss_fixer, spelling_fixer

__all__ = [
    "ASKING",
    "DIRECTION_PATTERNS",
    "FIELD_PATTERNS",
    "FIELD_TOPIC",
    "FIELD_TOPICS",
    "GENRE_WORDS",
    "NO_PREFERENCE_RE",
    "RATING_ORDER",
    "REFERS_TO_PROPOSAL",
    "SERVICE_ALIASES",
    "TOPIC_WORDS",
    "VALUE_FINDERS",
    "WEAK_PATTERNS",
    "Mention",
    "age_rating_meant",
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

# A task field -> the topic that asks about it (the expert's questions, the generator's cues).
FIELD_TOPIC: dict[str, str] = {
    "genres": "genres",
    "runtime": "runtime",
    "content_rating": "content_rating",
    "rating": "rating",
    "release_date": "release_date",
    "vote_count": "vote_count",
    "director": "people",
    "cast": "people",
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


# -- asking about a field ------------------------------------------------------------------------

# -- questions ---------------------------------------------------------------------------------

_FILM = (
    r"(?:movies?|films?|flicks?|pictures?|stories|story|things?|stuff|titles?|shows?|watch(?:es)?)"
)

# fmt: off
_GENRE_FORMS: tuple[str, ...] = (
    "action", "action-packed", "actioner", "adventures?", "adventurous", "animated", "animations?",
    "anime", "biopics?", "cartoons?", "comed(?:y|ies)", "comedic", "creepy", "crime", "crime dramas?",
    "detective", "documentar(?:y|ies)", "docs?", "docu\\w*", "dramas?", "dramatic", "family films?",
    "family movies?", "fantas(?:y|ies)", "feel[- ]good", "funny", "ghosts?", "heists?",
    "heartwarming", "historical", "history", "horrors?", "laughs?", "light[- ]hearted",
    "lighthearted", "martial arts", "monsters?", "music", "musicals?", "myster(?:y|ies)",
    "period (?:drama|piece)s?", "rom[- ]?coms?", "romances?", "romantic", "sci[- ]?fi", "scifi",
    "science[- ]fiction", "scary", "slashers?", "spooky", "spy", "spies", "superhero(?:es)?",
    "suspense(?:ful)?", "tear[- ]?jerkers?", "thrillers?", "thrilling", "true crime", "uplifting",
    "war", "war (?:films?|movies?|stories)", "westerns?", "whodunn?its?", "zombies?", "tv movies?",
    "cry", "romcoms?", "chillers?", "mind[- ]bending", "non-?fiction", "edge of (?:your|the) seat",
    "spectacle", "big[- ]screen", "small and quiet", "escapist", "wholesome",
    "slow[- ]burn", "nail[- ]biters?", "feel[- ]bad", "bittersweet", "hilarious", "chilling",
)

# Field -> regex fragments (matched case-insensitively on word boundaries). Tried in this order:
# a span claimed by an earlier field is not read again ("how old are the kids" is the age
# rating, not the release date; "rated R" is the age rating, not the review score).
FIELD_PATTERNS: dict[str, tuple[str, ...]] = {
    "content_rating": (
        r"age[- ]?(?:ratings?|appropriate|appropriateness|restrictions?|limits?|range|group)",
        r"content ratings?", r"certificat(?:e|es|ion)", r"mpaa", r"parental(?: guidance)?",
        r"classifi(?:cation|cations|ed)", r"certifi(?:ed|cations?)", r"maturity(?: levels?| ratings?)?",
        r"more (?:adult|mature|grown[- ]up|explicit|violent|family[- ]friendly|kid[- ]friendly|tame)",
        r"(?:adults?|grown[- ]ups?|over[- ](?:18|eighteen)s?)[- ]only", r"for (?:adults|grown[- ]ups)",
        r"(?:highest|strictest|most mature|max(?:imum)?) (?:age )?rating (?:you'?d|you would|you will|you can|"
        r"we can|i can|to) (?:allow|permit|let)", r"1[2-8]\+", r"(?:from|ab|aged?|ages?) (?:[6-9]|1[0-8])(?: ?\+| years?(?: old)?| yrs?| and (?:up|over|older))?",
        r"age (?:brackets?|bands?|levels?|categor(?:y|ies)|ceiling)",
        r"(?:suitable|safe|appropriate|okay|ok|fine) for (?:all|everyone|all ages|young viewers)",
        r"(?:for )?who(?:'ll| will| is going to| are going to| would)? (?:be )?(?:watch|see|view)(?:ing)? "
        r"?(?:it|this|that|the (?:film|movie))?(?=\W*$|\W*\?)",
        r"rated (?:g|pg|pg-13|r|nc-17|nr|rcode)", r"(?:g|pg|pg-13|r|nc-17)[- ]rated", r"pg-13", r"nc-17",
        r"pg", r"(?:an? )?r[- ]?ratings?", r"ratings? of r", r"(?:an? )?rcode(?:[- ]?(?:ratings?|rated|movies?|films?))?",
        r"rated rcode", r"everyone watching", r"everybody watching",
        r"(?:an? )?(?:g|pg|pg-13|nc-17)[- ]?ratings?", r"ratings? (?:limits?|restrictions?|caps?)",
        r"(?:kid|child|children|family|teen|tween)[- ]?(?:friendly|safe|appropriate|proof)",
        r"(?:for|with) (?:the |your |my |our |young |little |small )?(?:kids?|children|teens?|"
        r"teenagers?|little ones|grandkids|grandchildren)",
        r"(?:kids?|children|teens?|little ones|family|fam) (?:are |be |will be |is |'ll be )?(?:watching|"
        r"joining|around|there|present|in the room|too)",
        r"any (?:kids?|children|teens?|little ones|youngsters)", r"(?:young|younger|little|small) (?:kids?|ones|children|viewers|watchers|audiences?|eyes|people)",
        r"older (?:kids?|children)", r"(?<=kids or )older(?: ones)?", r"(?<=children or )older(?: ones)?",
        # the age rating's content descriptors ("mild cartoon violence")
        r"cartoon (?:violence|slapstick|action|peril|mayhem|fighting)",
        r"is (?:this|it) for (?:the )?(?:kids?|children|family)", r"kids? or (?:just )?(?:adults|grown[- ]ups)",
        r"who(?:'s| is) (?:on the couch|beside you|with you)", r"just (?:you|u)\b", r"the fam\b",
        r"fighting", r"peril", r"blood(?:y)?", r"jump[- ]scares?", r"nr", r"unrated", r"not rated",
        r"(?:g|pg|pg-13|r|nc-17|nr|rcode) (?:requirement|filter|limit|cap)", r"ratings? of rcode",
        r"little ones?", r"teenagers?", r"tweens?",
        # the usual words for children, fond or casual ("the kiddos", "the tots", "wee ones")
        r"kiddos?", r"kiddies", r"kiddie", r"tots?", r"nippers?", r"munchkins?", r"rugrats?",
        r"wee ones?", r"little (?:guys|people|kids|folks)", r"sprogs?", r"bairns?",
        r"youngsters?", r"minors?",
        # children in the words non-native writers carry over ("bambini", "niños", "crianças",
        # "dzieci", "bacche"); adults alone however it is put ("only adults", "just grown-ups")
        r"bambin[io]", r"bimbi", r"ni[nñ](?:o|os|as)", r"crian[cç]as", r"dzieci", r"bacc?h?e",
        r"kinder(?= (?:that|who|are|watch|too|also|with))", r"enfants", r"hijos", r"figli",
        r"(?:only|just|solely|purely) (?:for )?(?:adults|grown[- ]ups|over[- ]18s|18\+)", r"under[- ]?age", r"grand ?kids?", r"grandchildren", r"toddlers?", r"youngest", r"younger",
        r"young ones?", r"anyone young", r"grown[- ]ups?(?:[- ]only)?", r"whole family",
        r"(?:the )?family can (?:watch|enjoy)", r"everyone can watch",
        r"all ages", r"family (?:movie |film )?nights?", r"scare(?:s|d)? easily", r"gets? scared",
        r"(?:how much|any|what level of) (?:gore|violence|blood)", r"how old(?! (?:is |can |could |should |may |might |was )?(?:it|the (?:film|movie)|this one|that one)\b)", r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen)[- ]years?[- ]old", r"(?<!\ba )year[- ]olds?",
        r"mature(?: content| themes)?", r"adult (?:content|themes)", r"violen(?:ce|t)", r"gore",
        r"gory", r"swearing", r"bad language", r"nudity", r"okay for (?:your|the) (?:group|kids|family|audience)",
        r"(?:anyone|someone|kids?|children|viewers?|nobody|no one) under (?:\d+|thirteen|twelve|ten|"
        r"eighteen|seventeen)", r"under[- ](?:13|12|10|18|17)s", r"bedtime story",
        r"date night", r"age[- ]rating ceiling", r"ceiling",
        r"ratings? (?:is |are )?(?:ok|okay|fine|alright|suitable|appropriate|good) for (?:your |the )?"
        r"(?:family|kids?|children|little ones|teens?|group)",
    ),
    "vote_count": (
        r"\d[\d,.]*k? (?:people|viewers|users|voters|members|critics and fans) (?:have )?(?:rated|voted|"
        r"reviewed|seen|watched)",
        r"(?:many|few|fewer|nobody|no one|lots of|a lot of|comparatively few|a great many|almost nobody|"
        r"hardly anyone|barely anyone|scarcely anyone|almost no one|next to nobody|everybody|everyone) (?:\w+ ){0,2}(?:has |have )?(?:already )?(?:rated|"
        r"ratings|votes|voted|seen|watched)", r"(?:min|minimum|max|maximum) votes?",
        r"popular(?:ity)?", r"well[- ]known", r"widely[- ](?:seen|known)", r"mainstream",
        r"(?:less|lesser|more|better|best|widely|little|barely|hardly|least|most|not (?:so|very|"
        r"that|too|well)|un)[- ]?known", r"known enough", r"enough known",
        r"known (?:to|by) (?:many|most|lots|a lot|few|everyone|everybody|a wide|the (?:public|world))",
        r"(?:everybody|everyone|nobody|no one|most people|few people|the whole world|the world)"
        r"(?:'s| has| have)? (?:already )?(?:seen|heard of|watched|knows?(?: about)?|rated|discovered|"
        r"talks? about|talking about)",
        r"(?:widely|universally|much|hugely|massively|broadly) (?:celebrated|loved|seen|watched|"
        r"popular|liked|known|discussed)", r"(?:un)?discovered", r"sleeper(?: hits?)?",
        r"box[- ]office", r"(?:mass|broad|wide) appeal", r"talked[- ]about", r"trending",
        r"(?:how many|number of|count of) (?:people|viewers|votes|ratings|reviews)",
        r"ratings? counts?",
        # how widely it was reviewed or rated is how many did it ("widely reviewed", "rarely rated")
        r"(?:widely|much|broadly|heavily|massively|rarely|seldom|little|barely|hardly|often|"
        r"frequently)[- ](?:reviewed|rated|discussed|talked[- ]about|written[- ]about)",
        # a count of ratings or reviews is how many people rated it ("only 225 ratings")
        r"(?<![\d.])(?:\d{2,}[\d,]*|\d+(?:\.\d+)?\s*k)\+? (?:user |audience |viewer )?(?:ratings|reviews|votes|voters)", r"(?:everyone|everybody)'?s (?:favou?rite|darling|pick)", r"(?:little |hidden |rare )?gems?", r"big (?:names?|titles?|films?|movies?)(?= or\b)",
        r"obscure", r"hidden gems?", r"lesser[- ]known", r"little[- ]known", r"under[- ]the[- ]radar",
        r"crowd[- ]?pleasers?", r"blockbusters?", r"niche", r"cult (?:classics?|films?|favou?rites?|status|hits?)", r"(?:cult|big|huge|small|devoted|loyal|wide) following", r"crowd[- ]pleasing",
        r"big (?:hits?|releases?)", r"big names?(?! in (?:it|the cast|them))", r"everyone(?:'s| has)? (?:seen|heard)", r"votes?",
        r"off the beaten (?:path|track)", r"deep cuts?", r"known titles?", r"household names?",
        r"underground", r"(?:a lot of|lots of|most|many) people (?:have )?(?:seen|watched|know)",
        r"people have seen", r"(?:big|wide) audiences?", r"lesser[- ]seen", r"little[- ]seen",
        r"under[- ]?seen", r"overlooked", r"off[- ]radar", r"crowd[- ]favou?rites?",
        r"(?:sheer )?popularity", r"much[- ]watched", r"well[- ]loved",
        r"(?:few|not many|many|lots of|a lot of|most|more|fewer|hardly any|almost no) (?:people|viewers|"
        r"persons|folks) (?:have |had )?(?:seen|saw|watched|know|knew|rated|heard of|see|watch)",
        r"(?:very|quite|really|pretty|super|so|too|much|well|largely) (?:well[- ])?known", r"discover(?:y|ies)",
    ),
    "runtime": (
        r"how long", r"length", r"lengthy", r"runtimes?", r"run[- ]?times?", r"running times?",
        r"durations?", r"minutes?", r"mins?", r"hours?", r"hrs?", r"long(?:er|ish)?",
        r"short(?:er|ish)?", r"epics?", r"marathons?", r"how much time",
        r"time (?:do you have|you have|you've got|have you got|budget|limit|window)",
        r"time commitment", r"(?:film|movie|viewing|watching) time(?= how| limit| budget| max| available| do you| you have)", r"(?:max(?:imum)?|how much) time", r"how much of (?:your|the) (?:evening|night)", r"(?:be )?(?:done|finished|wrapped up) (?:by|before)",
        r"(?:that|this|so) much (?:of your )?(?:time|evening|night)",
        r"willing to (?:surrender|spend|give)", r"bed ?time", r"attention span", r"clocks? in", r"drag(?:s|gy)? on",
        r"(?:\w+-)+(?:hours?|minutes?|mins?)", r"\d+\s*(?:m|h)", r"\d+\s*(?:mins?|minutes?|hrs?|hours?)", r"\d\s*h\s*\d{1,2}(?:\s*m(?:ins?)?)?",
        r"time available",
        r"available time", r"how much long", r"runs? (?:under|over)", r"hard stop", r"stay up",
        r"how late", r"bite[- ]?sized",
        # how long it lasts, in the verb and the non-native "how many time"
        r"lasts", r"to last", r"how many time",
        # when it must be over ("the latest you'd want the credits to roll"; "when the credits
        # roll" alone is how a story leaves you, a mood)
        r"the latest(?= (?:you'?d|you would|you can|you could|"
        r"it can|it could|it should|you want)\b)",
        # length as a meal or a programme ("snack-sized or a full three-course feature?")
        r"snack[- ]?(?:sized?|able)", r"(?:a )?snack", r"(?:full |three[- ]|four[- ]|multi[- ])course",
        r"feature[- ]length", r"full[- ]length", r"(?:a )?full (?:feature|meal|evening)", r"(?:until|till|til|up to|by) (?:what|which) (?:time|hour)",
        r"what time (?:do|must|should|will|would|can) (?:you|u) (?:stop|finish|need to|have to|go|be)", r"(?:be |go |get )?(?:in|to) bed", r"wrap(?: it)? up by",
        r"before (?:dinner|bed|midnight|the kids'? bedtime)", r"by (?:\d{1,2}(?::\d\d)?|ten|eleven|midnight)"
        r"(?: ?(?:pm|am|o'clock))?",
    ),
    "rating": (
        r"reviews?", r"reviewed", r"reviewers?", r"ratings?", r"rated", r"highly[- ]rated",
        r"well[- ]rated", r"top[- ]rated", r"scores?", r"scored", r"critics?", r"critical(?:ly)?",
        r"acclaim(?:ed)?", r"imdb", r"tmdb", r"rotten tomatoes",
        # a score written on its scale ("7.2/10", "6 out of 10") is the review score
        r"(?:10|\d(?:\.\d)?)\s*/\s*10", r"(?:10|\d(?:\.\d)?) out of (?:10|ten)", r"\d(?:\.\d)?\+? stars?",
        r"out of (?:10|ten)", r"/ ?10",
        # the score by its other nouns ("grades", "marks", "points") and the words non-native
        # writers bring ("puntuation", "punctuation", "pontuação", "punteggio", "valutazione")
        r"(?:high|higher|low|lower|good|top|decent|strong|minimum|min|max|average|better|best) "
        r"(?:grades?|marks|points|notes|evaluations?)", r"graded", r"puntua(?:tion|ción|cion)s?",
        r"punctuations?", r"notas?", r"pontua(?:ção|cao|ções)", r"punteggi[oi]", r"valutazion[ei]", r"bewertung(?:en)?",
        r"ocen[ay]", r"star ratings?", r"well[- ]received", r"audience scores?", r"raved?",
        r"(?:one|two|three|four|five|\d)(?: or (?:one|two|three|four|five|\d))? stars?",
    ),
    "streaming_services": (
        r"streaming(?: services?| platforms?| apps?)?", r"streams?", r"services?",
        r"subscri(?:be|bed|bes|ption|ptions|ber)", r"platforms?", r"apps?", r"providers?",
        r"where (?:can|do|would|will|are|r|should) (?:you|u) (?:\w+ ){0,2}(?:watch|stream)(?:ing)?",
        r"where (?:you|u) (?:usually |normally |mostly |tend to |can )?(?:watch|stream)\b",
        r"(?:what|which) (?:\w+ )?(?:can|do) (?:you|u) (?:access|stream|get) (?:at home|on your|from)", r"what do you (?:have|use|watch on)",
        r"on your (?:tv|telly|television)", r"online (?:cinemas?|theat(?:re|er)s?|video|services?)",
        r"video[- ]on[- ]demand", r"vod", r"video (?:services?|platforms?|websites?|sites?|apps?)",
        # Max, HBO Max's short name, where a service goes ("it's on max. u have max?")
        r"(?:on|have|got|use|with|subscribe to) max(?=\s*(?:[?.!,;]|$))",
        r"(?:what|which) (?:\w+ ){0,4}(?:watch|stream) (?:it |things |stuff |movies |films )?on",
    ),
    "release_date": (
        r"recent(?:ly)?", r"newer", r"newest", r"latest", r"old(?:er|ie|ies)?", r"classics?",
        r"vintage", r"releases?", r"released", r"release dates?", r"decades?", r"eras?",
        r"(?:19|20)\d\d'?s?", r"'?\d0s", r"nineties", r"eighties", r"seventies", r"sixties",
        r"this century", r"just came out", r"came out", r"up[- ]to[- ]date", r"brand[- ]new",
        r"past (?:year|few years|decade)", r"this year", r"last year",
        r"(?:new|recent|old|fresh|modern) enough", r"years? (?:range|window|span|limit|cut-?off|filter)",
        r"range of years", r"how far back", r"go (?:further |farther )?back (?:to|as far as|in time)", r"(?:which|what|any) (?:years?|decades?)", r"nostalgi(?:c|a)",
        r"(?:its|the (?:film|movie)'?s|the (?:film|movie)|a (?:film|movie)'?s) age",
        r"how old (?:is |can |could |should |may |might |was )?(?:it|the (?:film|movie)|this one|that one)"
        r"(?: (?:is|be|was))?",
        r"(?:the|which|what) years? (?:of|it came out|it was made)\b",
        r"when (?:the |a |this |that )?(?:films?|movies?|it|they|pictures?)? ?(?:was|were|is|are|got|get)? ?"
        r"(?:made|released|shot|filmed|produced|out)\b", r"(?:production|release) years?",
        r"years? (?:of )?(?:production|release|making)", r"how (?:recent|new|old-fashioned)",
        # "the year" named as a field among others ("the length, the age rating, or the year?")
        r"(?<=, )(?:or |and )?the (?:release )?year(?=\W*(?:\?|$|,))",
    ),
    "director": (
        r"directors?", r"directed", r"direction", r"filmmakers?", r"film[- ]makers?", r"auteurs?",
        r"helmed", r"behind the camera",
        # the director in the words non-native writers carry over ("regista", "Regisseur")
        r"regist[ai]", r"regisseur(?:in|e)?", r"re[zż]yser(?:a|ów|zy)?", r"r[ée]alisat(?:eur|rice)s?",
        r"diretor(?:a|es)?", r"who directs", r"directs", r"behind the lens",
        r"(?<=camera or )behind(?: it| them)?", r"(?<=camera, or )behind(?: it| them)?",
        r"(?:who|person|someone|anyone) (?:who )?(?:made|makes) (?:a |the )?(?:films?|movies?) you",
        r"(?:who|person|people|someone|anyone|anybody) (?:who |that )?(?:makes?|made|directs?|directed) "
        r"(?:films?|movies?|pictures?)",
    ),
    "cast": (
        r"actors?", r"actress(?:es)?", r"cast", r"casting", r"stars?", r"starring", r"starred",
        r"lead roles?", r"performers?", r"(?:which|what|any|favou?rite|fav|your) (?:heroe?s?|heroines?)\b", r"thespians?", r"leading (?:man|men|lady|ladies|roles?|actors?|actress(?:es)?|players?)", r"who(?:'s| is) in it", r"celebrit(?:y|ies)", r"acting",
        r"(?:watch|see) (?:\w+ )?(?:in anything|act)\b", r"in front of the camera",
        # a person on screen; "on-screen violence", "hope on screen" are not the cast
        r"(?:who|anyone|someone|faces?|people|person) (?:[\w']+ ){0,5}on[- ]screen",
        r"(?:anyone|someone|who) you (?:like|love|enjoy) (?:to see|seeing|watching)",
        r"(?:anyone|anybody|someone|somebody|who) (?:you|u) (?:\w+ )?(?:wanna|want to|would like to|'d like "
        r"to|love to|like to|hope to) see (?:in it|in the (?:film|movie)|on screen|star)",
        r"(?:whatever|no matter what|anything) (?:they'?re|theyre|they are|he'?s|she'?s) in",
        r"(?:with|starring|featuring) (?:them|him|her) in (?:it|the lead|a lead role)",
    ),
    "genres": (
        r"genres?", r"genre-wise", r"(?:kinds?|types?|sorts?|styles?|categor(?:y|ies)) of " + _FILM,
        r"fan of " + _FILM, *_GENRE_FORMS,
    ),
}

# Cues that name a field only when nothing stronger in the same question does: "Are you into
# horror?" asks the genre, "Are you into older films?" the release date, not the genre too.
WEAK_PATTERNS: dict[str, tuple[str, ...]] = {
    "content_rating": (
        r"family", r"families", r"son", r"daughter", r"suitable", r"appropriate", r"sensitive",
        r"kids?", r"children", r"child", r"teens?",
        r"language", r"graphic", r"explicit", r"ages?", r"adult", r"squeamish", r"group",
        r"too (?:scary|intense|dark|disturbing|grown[- ]up)", r"(?:your|the) audience",
        r"with (?:the|your) family",
        r"who(?:'s| is| will be| are you|'ll be| will)? (?:watching|joining)",
        # who will be with the user, however it is said ("who's going to be watching?", "who'll
        # be snuggled up on the sofa with you?")
        r"who(?:'s|'ll| is| will| are)? (?:going to |gonna )?(?:be )?(?:\w+ ){0,3}?(?:watching|"
        r"joining|on the (?:sofa|couch|settee)|with you|beside you|next to you|in the room)",
        r"(?:everyone|everybody|all of you|the whole (?:group|gang|crew)) can (?:enjoy|watch|handle)",
        r"watching (?:it )?(?:with|alone|solo)", r"alone", r"solo", r"solitary", r"company",
        r"(?:with )?other people", r"by yourself", r"on your own", r"for whom",
        r"who(?:'s| is)? (?:it|the (?:film|movie)|this) (?:for|intended for|meant for)",
        r"intended (?:for|audience)",
    ),
    "vote_count": (
        r"hits?", r"buzz(?:y)?", r"indie", r"famous", r"heard of", r"smash(?:es)?", r"celebrated",
        r"recogni[sz]ed", r"rare",
    ),
    "runtime": (r"quick(?:er)?", r"sit through"),
    "rating": (
        r"quality", r"good ones?", r"awards?", r"award[- ]winning", r"prestige", r"praised",
        r"(?<![\d.])(?:[0-9]|10)\.\d(?!\d|\.\d)", r"(?:high|good) enough",
    ),
    "streaming_services": (
        r"accounts?", r"channels?", r"access to", r"sign(?:ed)? up", r"plugged into",
        r"watch(?:ing)? (?:it |things |stuff )?on",
    ),
    "release_date": (
        r"new", r"fresh", r"current", r"modern", r"contemporary", r"timeless", r"years?", r"dated",
    ),
    "director": (r"storytellers?",),  # "a bold storyteller" is a mood as often as a person
    "cast": (
        r"faces?", r"leads?", r"performances?", r"heroes", r"hero", r"heroines?", r"crush(?:es)?", r"heart[- ]?throbs?",
    ),
    "genres": (
        r"into", r"feel like", r"up for", r"fancy", r"moods?", r"in the mood", r"vibes?", r"tones?",
        r"flavou?rs?", r"themes?", r"subject", r"plot", r"premise", r"story", r"dark",
        r"light(?:er)?", r"quiet", r"intimate", r"tense", r"weird", r"quirky", r"silly", r"cosy", r"cozy", r"gritty",
        r"space", r"epic", r"heavy", r"weighty", r"serious", r"fun", r"chill(?:ed|y)?", r"intense",
        r"(?:want|wanna|need|like|hope) to feel", r"feel (?:after|afterwards|when|at the end)",
        r"make you feel", r"feelings?",
        r"frighten\w*", r"scared?", r"escape", r"comfort(?:ed|ing)?", r"challeng(?:ed|ing)",
        r"hyped", r"uplifted", r"moved", r"hope(?:ful)?", r"frame of mind", r"lighter",
        r"sad", r"cheer(?:ed)? up", r"unwind", r"vibes?",
        # how a story leaves its audience ("grinning or shaken?")
        r"grinning", r"smiling", r"shaken", r"rattled", r"teary", r"in tears", r"on edge", r"giddy",
        r"sobbing", r"creeped out", r"spooked", r"laughing",
        r"what (?:kind|sort|type|style)", r"which (?:kind|sort|type|style)",
        r"like to watch", r"(?:usually|normally|typically) watch", r"what do you (?:like|love|enjoy)",
        r"what (?:would|do) you (?:like|love|enjoy|watch)", r"kinds? of (?:thing|mood)",
    ),
}

# Phrases where a field word means something else; blanked before the fields are read.
_NOT_A_FIELD = re.compile(
    r"(?i)\b(?:well[- ]known(?= (?:directors?|filmmakers?|actors?|actress(?:es)?|cast))|"
    r"(?:hear|read|see|get|know|tell you|give you|share) (?:a |the |its )?(?:quick |short |brief )?"
    r"(?:plot|story|synopsis|summary|premise|rundown|recap)(?: of (?:the|its) (?:plot|story))?|"
    r"(?:quick |short |brief )?(?:summary|rundown|recap) of (?:the|its) (?:plot|story)|"
    # an offer of more about the pick: "a quick spoiler-free summary of the plot", "a short
    # teaser", "a brief look at the story" ("quick" and "plot" ask neither length nor genre)
    r"(?:quick|short|brief|little|fuller?|longer|detailed|one[- ]line|two[- ]line|[\w]+[- ]free)"
    r"(?: (?!(?:to|or|and|for|but|so)\b)[\w-]+){0,2} (?:summary|summaries|rundown|recap|synopsis|"
    r"overview|outline|teaser|blurb|trailer|preview)(?: of (?:the|its) (?:plot|story|premise|film|movie))?|"
    r"(?:tell you|hear|know|read) (?:a bit |a little |more )?about (?:the|its) (?:story|plot)|story behind|"
    r"feel like (?!watching|seeing)\w+ing|(?:describe|explain|outline|summari[sz]e|go (?:over|through)|run (?:you )?through|sketch|spoil)"
    r" (?:a bit of |a little of |more of )?(?:the |its |that |this )?(?:plot|story|premise|synopsis|"
    r"storyline)|more (?:info|information|details) (?:on|about) (?:the |its )?(?:plot|story|premise)|"
    r"(?:hear|read|see|know|tell you|show you) (?:what|how) (?:the )?(?:critics|reviewers|reviews|"
    r"people) (?:said|say|thought|think|rated)|(?:up for|fancy|want|like) (?:a few|some|a couple(?: of)?|another|more|one more)"
    r"(?: more)? (?:questions?|suggestions?|picks?|options?|ideas?|recommendations?)|"
    r"what (?:would|do) you (?:like|want|prefer) (?:me )?to do(?: next)?|how would you like (?:me )?to proceed|"
    r"a long (?:day|week|time|while|list)|long (?:day|week|list)|so long|as long as|"
    r"before long|all along|long story short|short list|shortlist|in short|for short|"
    r"short on (?:ideas|options)|quick (?:questions?|check|one|ones|look|search|note|few|things?|"
    r"survey|poll|check-in)|(?:a|one more|another|the) (?:new|fresh) (?:suggestion|option|idea|"
    r"pick|recommendation|one|choice|search|list|set|direction|angle|title|film|movie)|new to you|"
    r"(?:any|a|the|your) (?:other )?(?:questions?|thoughts?)|(?:help|serve|assist) you|"
    r"the story of (?:it|that)|what (?:it|that|this)'s about|what (?:it|that|this) is about|"
    r"(?:is|was) (?:it|that|this) (?:any )?good|(?:sound|sounds|look|looks|seem|seems) "
    r"(?:good|great|fine|right|interesting|fun)|right up your alley|in the mood for (?:it|that|this)|"
    r"up for (?:it|that|this)|into (?:it|that|this)|old favou?rites?|how old is (?:it|that|this)|"
    r"dive into|look into|check (?:out )?(?:the )?(?:reviews|ratings)|get into|"
    r"(?:our|the|my) (?:catalog|search|tools?|service)|this service|customer service|"
    r"(?<!'s )(?<!body )(?<!one )heard of (?:it|that|this|them)|(?:recently|lately) (?:seen|watched|loved|enjoyed|liked)|(?:on|in) (?:my|our) (?:end|side)|"
    r"(?:which|what|any|another|a different|the same|a new|new) directions?\b(?! of)|"
    r"your (?:call|pick)|have fun|the fun|(?:into|on|by all|on no|on this|on that) accounts?|account for|(?:min|max)(?=\s+(?:rating|score|year|votes?|reviews?))|(?:short|long) (?:week|weekend|night|shift|drive|trip|"
    r"flight|walk)|old (?:friends?|flame|house|man|woman|life|days|self|"
    r"ways|school|colleague|partner|home|town)|lifelong|(?:release|released) (?:it|them) (?:to|for)|"
    r"rated (?:it|them) (?:highly|well)|"
    # the child's own grown-up, in an app for children, is a person, not the audience's age
    r"(?:your|ask (?:a|an)) grown[- ]ups?|"
    # what the user's people have already seen asks for titles, not who is watching
    r"(?:kids?|children|family|you|u|they|he|she) (?:have |has |'ve )?(?:already |all )?(?:watched|seen)|"
    # a setting for a fright, not who is watching
    r"(?:when|while|if) (?:you'?re|you are|you'?re home|you are home) alone(?: in the house| at home)?|"
    r"alone in the (?:house|dark)|home alone|"
    # a mood whose object names another field ("in the mood for something brand new?")
    # a mood asked of another field's value ("What decade are you in the mood for?")
    r"(?:(?<=decade )|(?<=era )|(?<=year )|(?<=years )|(?<=length )|(?<=actor )|(?<=director )|"
    r"(?<=period )|(?<=service )|(?<=app )|(?<=decades )|(?<=actress ))(?:are you|you're|r u|are u|"
    r"would you be) in the mood(?: for)?|"
    r"in the mood for (?=(?:something|anything|a film|a movie|one) (?:brand[- ]new|new|newer|"
    r"recent|older|old|classic|short|shorter|long|longer|popular|well[- ]known|obscure)\b))\b"
)
# fmt: on


# A list under a header like these restates what is known or planned; any other list under a
# header ("A few quick details:", "Quick poll", "Getting started:") is a questionnaire.
_GENRE_VALUE = re.compile(
    r"(?i)^(?:(?:" + "|".join(re.escape(w) for ws in GENRE_WORDS.values() for w in ws) + r")"
    r"(?:\s*(?:or|and|/|,)\s*)?)+$"
)

# fmt: off
# Words misspelt often enough in chat to be read as meant.
_TYPOS: dict[str, str] = {
    "lenght": "length", "lnog": "long", "logn": "long", "legnth": "length", "lengh": "length", "lenth": "length",
    "genere": "genre", "genra": "genre", "gener": "genre", "jenre": "genre", "genr": "genre",
    "generes": "genres", "servises": "services", "servies": "services", "sevices": "services",
    "serivces": "services", "servcies": "services", "streming": "streaming",
    "streeming": "streaming", "steaming": "streaming", "streamin": "streaming",
    "subsciption": "subscription", "subscripton": "subscription", "subscriptons": "subscriptions",
    "rateing": "rating", "ratting": "rating", "raiting": "rating", "ratins": "ratings",
    "reveiws": "reviews", "reviws": "reviews", "reviewes": "reviews", "reveiw": "review",
    "moive": "movie", "movei": "movie", "moives": "movies", "flim": "film", "flims": "films",
    "favourate": "favourite", "favorit": "favorite", "fav": "favourite", "fave": "favourite",
    "acter": "actor", "acters": "actors", "actres": "actress", "directer": "director",
    "actr": "actor", "actrs": "actors", "actrss": "actress", "drctr": "director", "dirctr": "director",
    "gnre": "genre", "gnres": "genres", "thats": "that's", "tho": "though", "isnt": "isn't",
    "dirctor": "director", "realease": "release", "relase": "release", "recnet": "recent",
    "reccent": "recent", "recnt": "recent", "minits": "minutes", "hrs": "hours",
    "scarey": "scary", "comdy": "comedy", "comady": "comedy", "horor": "horror",
    "thriler": "thriller", "documentry": "documentary", "animted": "animated", "kidz": "kids",
    "popluar": "popular", "poplar": "popular", "pg13": "pg-13", "tonite": "tonight",
    "wich": "which", "thier": "their", "theyre": "they're", "kinda": "kind of", "sorta": "sort of", "wold": "would", "woud": "would",
    "len": "length", "svc": "service", "svcs": "services", "yr": "year", "yrs": "years",
    "dir": "director", "any1": "anyone", "some1": "someone", "sum1": "someone", "ppl": "people",
    "pref": "preference", "prefs": "preferences", "nothin": "nothing", "diff": "different", "wud": "would", "cud": "could", "shud": "should", "whatcha": "what are you", "watcha": "what are you", "whos": "who's", "anythin": "anything", "somethin": "something",
    "jus": "just", "doesnt": "doesn't", "dont": "don't", "ur": "your", "u": "you",
    "wat": "what", "wut": "what", "hw": "how", "2": "to", "4": "for", "lemme": "let me", "gimme": "give me", "ok": "okay",
}
# fmt: on
_FIX_SPELLING = spelling_fixer(_TYPOS)
# The field words a slip of the keyboard is read through ("strmeaing", "reveiws").
# fmt: off
_FIX_SLIPS = near_miss_fixer(
    (
        "streaming", "services", "subscribed", "subscriptions", "platforms", "runtime", "minutes",
        "length", "ratings", "reviews", "reviewed", "critics", "directors", "director",
        "filmmaker", "actors", "actress", "genres", "popular", "release", "released", "recent",
        "classic", "comedy", "horror", "thriller", "documentary", "animated", "romance",
        "science", "fiction", "fantasy", "mystery", "adventure", "children", "family", "watching",
        "service", "subscription", "streams",
        "blockbuster", "famous", "little", "certificate", "rating", "movies", "explain",
        "describe", "premise",
    ),
    # English words one slip from a cue word: a word of its own, never a slip ("screaming" is
    # not "streaming", "a promise" not "a premise", "racing" not "rating")
    english=(
        "scream", "screams", "screamed", "screaming", "screamer", "screamers", "racing", "friction",
        "moves", "promise", "promises", "mastery", "regent", "raking", "raring", "relapse",
        "comely",
    ),
)
# fmt: on
_UPPER_R = re.compile(r"(?<![\w-])R(?![\w-])")  # "Is R okay?": the age rating, not a letter
_ARE_R = re.compile(
    r"(?<![\w-])r(?= (?:u|you|we|they|there|on|in|ur|your)\b)"
)  # "r u", "r on ur tv"
_SEEN_LATELY = re.compile(
    r"(?i)\b((?:seen|watched|saw|loved|enjoyed|liked|watching|rewatched)(?: \w+){0,4} )"
    r"(recently|lately|this year|last year|this month|last week|this week)\b"
)


_SERVICE_NAMES = tuple(
    re.escape(n.lower())
    for service, aliases in SERVICE_ALIASES.items()
    for n in (service, *aliases)
)
_GENRE_NAMES = tuple(re.escape(w) for words in GENRE_WORDS.values() for w in words if w != "family")


def _strong(field: str) -> tuple[str, ...]:
    weak = set(WEAK_PATTERNS.get(field, ()))
    extra = {"streaming_services": _SERVICE_NAMES, "genres": _GENRE_NAMES}.get(field, ())
    return tuple(f for f in FIELD_PATTERNS[field] if f not in weak) + extra


# "2 long??": chat's "2" before an adjective of degree that a question ends on is "too"
# (elsewhere it is read as "to").
_TOO = re.compile(
    r"(?i)(?<![\w.])2 (?=(?:long|short|old|new|late|early|much|many|scary|dark|violent|intense|"
    r"mature|adult|slow|high|low|big|small|obscure|popular)\W*\?)"
)


def _normalise(text: str) -> str:
    text = _TOO.sub("too ", _ARE_R.sub("are", _UPPER_R.sub("rcode", text)))
    text = _SEEN_LATELY.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)
    return _FIX_SLIPS(_FIX_SPELLING(text))


_BARE_RATING = re.compile(r"(?i)\b(the|its|that|this|their|an?) ratings?\b")
_REVIEW_WORD = re.compile(
    r"(?i)\b(?:reviews?|reviewers?|critics?|scores?|stars?|imdb|tmdb|votes?)\b"
)


def age_rating_meant(text: str) -> str:
    """The text with a bare "the rating" read as the age rating when the message states an age
    rating (a code: "it's rated R") and no review score or review word ("..., the length or the
    rating?" asks which to give up of the two it just named)."""
    if (
        not _BARE_RATING.search(text)
        or not content_rating_mentions(text)
        or rating_mentions(text)
        or _REVIEW_WORD.search(text)
    ):
        return text
    return _BARE_RATING.sub(lambda m: f"{m.group(1)} age rating", text)


# A list item that states a value ("Under 100 min", "HBO Max", "Romance", "Rated at least 7"),
# as a recap or a pitch does, rather than naming a topic to answer ("Genre", "Time available").
_VALUE_ITEM = re.compile(
    r"(?i)^(?:no|any|not|only|under|over|at least|at most|rated|available|released|on|long|short|"
    r"adults?|kids?|you|i|i'?m|i'?ll|it'?s|it|something|nothing|must|max|min|less|more|streams?|"
    r"stars?|directed|from|with|by|in|a|an|the)\b|\d|\b(?:is fine|only|max|or (?:higher|more|"
    r"less|lower|better)|at least|no preference|mentioned|said)\b|" + TITLE_MARK
)
_TOPIC_WORD = re.compile(
    r"(?i)\b(?:genres?|kind|type|mood|tone|length|runtime|time|minutes|services?|streaming|"
    r"subscriptions?|apps?|platforms?|age|rating|ratings|certificate|reviews?|score|critics|era|"
    r"year|decade|release|recent|new|old|actors?|cast|stars|directors?|filmmakers?|popular\w*|"
    r"known|famous|preferences?|dealbreakers?|limits?|ceiling|must[- ]haves?|who)\b"
)


# What asks about each field, for the user kit's field reader.
ASKING = FieldVocabulary(
    strong={field: _strong(field) for field in FIELD_PATTERNS},
    weak=WEAK_PATTERNS,
    not_a_field=_NOT_A_FIELD,
    normalise=_normalise,
    topic_word=_TOPIC_WORD,
    value_item=_VALUE_ITEM,
    value_list=_GENRE_VALUE,
    mood_field="genres",
    described_field="genres",
    person_fields=("cast", "director"),
)


# What finds a stated value of each numeric, date and age-rating field (the leak audit and the model
# writer's guard use this one table).
VALUE_FINDERS: dict[str, Callable[[str], list[Mention]]] = {
    "runtime": runtime_mentions,
    "rating": rating_mentions,
    "vote_count": vote_count_mentions,
    "release_date": year_mentions,
    "content_rating": content_rating_mentions,
}
