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
import weakref
from dataclasses import dataclass

from runner.catalog import Catalog
from runner.simulators.vocabulary import GENRE_WORDS, SERVICE_ALIASES

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
    "cry", "romcoms?", "chillers?", "mind[- ]bending",
)

# Field -> regex fragments (matched case-insensitively on word boundaries). Tried in this order:
# a span claimed by an earlier field is not read again ("how old are the kids" is the age
# rating, not the release date; "rated R" is the age rating, not the review score).
FIELD_PATTERNS: dict[str, tuple[str, ...]] = {
    "content_rating": (
        r"age[- ]?(?:ratings?|appropriate|appropriateness|restrictions?|limits?|range|group)",
        r"content ratings?", r"certificat(?:e|es|ion)", r"mpaa", r"parental(?: guidance)?",
        r"rated (?:g|pg|pg-13|r|nc-17)", r"(?:g|pg|pg-13|r|nc-17)[- ]rated", r"pg-13", r"nc-17",
        r"pg", r"(?:an? )?r[- ]?ratings?", r"ratings? of r", r"(?:an? )?rcode(?:[- ]?(?:ratings?|rated|movies?|films?))?",
        r"rated rcode", r"everyone watching", r"everybody watching",
        r"(?:an? )?(?:g|pg|pg-13|nc-17)[- ]?ratings?", r"ratings? (?:limits?|restrictions?|caps?)",
        r"(?:kid|child|children|family|teen|tween)[- ]?(?:friendly|safe|appropriate|proof)",
        r"kids?", r"children", r"child", r"little ones?", r"teens?", r"teenagers?", r"tweens?",
        r"youngsters?", r"grand ?kids?", r"grandchildren", r"toddlers?", r"youngest", r"younger",
        r"young ones?", r"anyone young", r"grown[- ]ups?(?:[- ]only)?", r"whole family",
        r"(?:the )?family can (?:watch|enjoy)", r"everyone can watch",
        r"all ages", r"family (?:movie |film )?nights?", r"scare(?:s|d)? easily", r"gets? scared",
        r"(?:how much|any|what level of) (?:gore|violence|blood)", r"how old", r"years? old",
        r"mature(?: content| themes)?", r"adult (?:content|themes)", r"violen(?:ce|t)", r"gore",
        r"gory", r"swearing", r"bad language", r"nudity", r"okay for (?:your|the) (?:group|kids|family|audience)",
    ),
    "vote_count": (
        r"popular(?:ity)?", r"well[- ]known", r"widely[- ](?:seen|known)", r"mainstream",
        r"obscure", r"hidden gems?", r"lesser[- ]known", r"little[- ]known", r"under[- ]the[- ]radar",
        r"crowd[- ]?pleasers?", r"blockbusters?", r"niche", r"cult (?:classics?|films?|favou?rites?)",
        r"big (?:hits?|names?|releases?)", r"everyone(?:'s| has)? (?:seen|heard)", r"votes?",
        r"off the beaten (?:path|track)", r"deep cuts?", r"known titles?", r"household names?",
        r"underground", r"(?:a lot of|lots of|most|many) people (?:have )?(?:seen|watched|know)",
        r"people have seen", r"(?:big|wide) audiences?", r"lesser[- ]seen", r"little[- ]seen",
        r"under[- ]?seen", r"overlooked", r"off[- ]radar",
    ),
    "runtime": (
        r"how long", r"length", r"lengthy", r"runtimes?", r"run[- ]?times?", r"running times?",
        r"durations?", r"minutes?", r"mins?", r"hours?", r"hrs?", r"long(?:er|ish)?",
        r"short(?:er|ish)?", r"epics?", r"marathons?", r"how much time",
        r"time (?:do you have|you have|you've got|have you got|budget|limit|window)",
        r"time commitment", r"bed ?time", r"attention span", r"clocks? in", r"drag(?:s|gy)? on",
        r"(?:\w+-)+(?:hours?|minutes?|mins?)", r"\d+\s*(?:m|h)",
    ),
    "rating": (
        r"reviews?", r"reviewed", r"reviewers?", r"ratings?", r"rated", r"highly[- ]rated",
        r"well[- ]rated", r"top[- ]rated", r"scores?", r"scored", r"critics?", r"critical(?:ly)?",
        r"acclaim(?:ed)?", r"imdb", r"tmdb", r"rotten tomatoes", r"\d(?:\.\d)?\+? stars?",
        r"out of (?:10|ten)", r"/ ?10", r"well[- ]received", r"audience scores?", r"raved?",
    ),
    "streaming_services": (
        r"streaming(?: services?| platforms?| apps?)?", r"streams?", r"services?",
        r"subscri(?:be|bed|bes|ption|ptions|ber)", r"platforms?", r"apps?", r"providers?",
        r"where (?:can|do|would|will) you (?:watch|stream)", r"what do you (?:have|use|watch on)",
        r"on your (?:tv|telly|television)",
        r"(?:what|which) (?:\w+ ){0,4}(?:watch|stream) (?:it |things |stuff |movies |films )?on",
    ),
    "release_date": (
        r"recent(?:ly)?", r"newer", r"newest", r"latest", r"old(?:er|ie|ies)?", r"classics?",
        r"vintage", r"releases?", r"released", r"release dates?", r"decades?", r"eras?",
        r"(?:19|20)\d\d'?s?", r"'?\d0s", r"nineties", r"eighties", r"seventies", r"sixties",
        r"this century", r"just came out", r"came out", r"up[- ]to[- ]date", r"brand[- ]new",
        r"past (?:year|few years|decade)", r"this year", r"last year",
        r"(?:new|recent|old|fresh|modern) enough",
    ),
    "director": (
        r"directors?", r"directed", r"direction", r"filmmakers?", r"film[- ]makers?", r"auteurs?",
        r"helmed", r"behind the camera",
    ),
    "cast": (
        r"actors?", r"actress(?:es)?", r"cast", r"casting", r"stars?", r"starring", r"starred",
        r"lead roles?", r"who(?:'s| is) in it", r"celebrit(?:y|ies)",
        r"(?:anyone|someone|who) you (?:like|love|enjoy) (?:to see|seeing|watching)",
    ),
    "genres": (
        r"genres?", r"genre-wise", r"(?:kinds?|types?|sorts?|styles?) of " + _FILM,
        r"fan of " + _FILM, *_GENRE_FORMS,
    ),
}

# Cues that name a field only when nothing stronger in the same question does: "Are you into
# horror?" asks the genre, "Are you into older films?" the release date, not the genre too.
WEAK_PATTERNS: dict[str, tuple[str, ...]] = {
    "content_rating": (
        r"family", r"families", r"son", r"daughter", r"suitable", r"appropriate", r"sensitive",
        r"language", r"graphic", r"explicit", r"ages?", r"adult", r"squeamish", r"group",
        r"too (?:scary|intense|dark|disturbing|grown[- ]up)", r"(?:your|the) audience",
        r"with (?:the|your) family",
        r"who(?:'s| is| will be| are you)? (?:watching|joining)",
        r"watching (?:it )?(?:with|alone|solo)",
    ),
    "vote_count": (r"hits?", r"buzz(?:y)?", r"indie", r"famous", r"heard of", r"smash(?:es)?"),
    "runtime": (r"quick(?:er)?", r"brief", r"sit through"),
    "rating": (r"quality", r"good ones?", r"awards?", r"award[- ]winning", r"prestige", r"praised"),
    "streaming_services": (
        r"accounts?", r"channels?", r"access to", r"sign(?:ed)? up", r"plugged into",
        r"watch(?:ing)? (?:it |things |stuff )?on",
    ),
    "release_date": (
        r"new", r"fresh", r"current", r"modern", r"contemporary", r"timeless", r"years?", r"dated",
    ),
    "cast": (r"faces?", r"leads?", r"performances?", r"performers?"),
    "genres": (
        r"into", r"feel like", r"up for", r"fancy", r"moods?", r"in the mood", r"vibes?", r"tones?",
        r"flavou?rs?", r"themes?", r"subject", r"plot", r"premise", r"story", r"dark",
        r"light(?:er)?", r"tense", r"weird", r"quirky", r"silly", r"cosy", r"cozy", r"gritty",
        r"space", r"epic", r"heavy", r"weighty", r"serious", r"fun",
        r"what (?:kind|sort|type|style)", r"which (?:kind|sort|type|style)",
        r"like to watch", r"(?:usually|normally|typically) watch", r"what do you (?:like|love|enjoy)",
        r"what (?:would|do) you (?:like|love|enjoy|watch)", r"kinds? of (?:thing|mood)",
    ),
}

# Phrases where a field word means something else; blanked before the fields are read.
_NOT_A_FIELD = re.compile(
    r"(?i)\b(?:a long (?:day|week|time|while|list)|long (?:day|week|list)|so long|as long as|"
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
    r"heard of (?:it|that|this|them)|(?:recently|lately) (?:seen|watched|loved|enjoyed|liked)|(?:on|in) (?:my|our) (?:end|side)|"
    r"your (?:call|pick)|have fun|the fun)\b"
)
# fmt: on

# Sentences that ask although they end in a full stop (or nothing): indirect requests.
_ASKING_CUE = re.compile(
    r"(?i)(?:^|\b)(?:let me know|let us know|lemme know|tell me|lmk|gimme|"
    r"i'?d (?:love|like|want) to (?:know|hear)|i would (?:love|like) to (?:know|hear)|"
    r"(?:i'?m|i am) (?:wondering|curious|not sure)|i wonder|"
    r"wondering (?:if|whether|what|which|how)|curious (?:whether|if|about|what|which|how)|"
    r"(?:could|can|would) you (?:share|say|tell|let|give|describe|list|mention|clarify|confirm|"
    r"point|mind)|please (?:share|tell|let|list|describe|say|mention|confirm)|"
    r"share (?:with me|your|which|what|how|whether|if|any)|mind sharing|"
    r"it(?:'d| would) help (?:me )?(?:to know|if|a lot to)|(?:helpful|good|useful) to know|"
    r"help me (?:understand|know|narrow)|give me (?:a sense|an idea|a feel)|"
    r"(?:get|have|like|want) a (?:sense|feel|feeling|read) (?:of|for)|i'?d appreciate|"
    r"appreciate (?:knowing|hearing|it if)|(?:want|need) to know|do tell|fill me in|"
    r"(?:any|your) preferences?|preference (?:on|for|about|regarding)|"
    r"(?:let's|lets) (?:start|begin) with|what about|how about (?:the|your)|thoughts on|"
    r"(?:say|tell me) (?:what|which|how|whether)|drop me|just say|"
    r"feel free to (?:say|tell|share|mention)|figure out|work out|mention any|"
    r"name (?:any|a|your)|where do you (?:land|stand)|which camp|what about you|how about you|"
    r"your take|your thoughts)"
)
_QUESTION_START = re.compile(
    r"(?i)^\W*(?:so|and|also|okay|ok|great|cool|alright|then|first|next|lastly|finally|oh|"
    r"and also|plus|now|one more thing|btw|quick one|and lastly)?[\s,:!-]*(?:whether|what|what's|whats|"
    r"wat|wht|which|wich|how|how's|do|does|did|are|is|was|were|would|wouldn't|could|should|will|"
    r"can|any|anything|have|has|shall|may|might|when|who|who's|whos|whose|where|fancy|r u|u|ur|"
    r"prefer|care|mind|mention|list|describe|share|name|feel like|in the mood|up for|open to|"
    r"ok with|okay with|fine with|happy with|good with|interested in|into|keen on|need|want|"
    r"wanna|tell)\b"
)
# A question that asks whether what was just said suits the user, or what the user thinks of it.
_SUITS_YOU = re.compile(
    r"(?i)\b(?:(?:is|would|will|was|could) (?:that|this|it)|that's|(?:that|this|it) (?:okay|ok|"
    r"fine|alright)|too \w+|(?:have|got|use|subscribe to) (?:either|any of|both)|"
    r"(?:okay|ok|fine|alright) (?:for|with) (?:everyone|your|you|the))\b"
)
_OPINION_BACK = re.compile(
    r"(?i)\b(?:where do you (?:land|stand)|which camp|what about you|how about you|and you|"
    r"your take|which do you prefer|which (?:one|way) (?:do|would) you|your preference|"
    r"which (?:is|sounds) (?:more )?(?:you|like you))\b"
)
_GIVEN_CLAUSE = re.compile(
    r"(?i)^\W*(?:since|given(?: that)?|as|because|now that|seeing as|with)\b[^,?]{0,60},\s*"
)
_LABEL_ONLY = re.compile(r"(?i)^\w[\w /&-]{0,24}:\s*\??$")  # "Genre:" in a questionnaire
_BULLET = re.compile(r"^\s*(?:[-*•·–]|\d+[.)]|[a-z][.)])\s+")
_QUESTIONNAIRE_HEADER = re.compile(
    r"(?i)\b(?:questions?|survey|quick ones|narrow|tell me|let me know|share|preferences?|"
    r"need to know|help me|ask|a few things|couple of things|checklist|fill in|answer|"
    r"for each|please|steer|directions?|(?:two|three|few|couple of|last) (?:things|bits|questions)|"
    r"before i (?:recommend|suggest|search|look))\b|\?\s*$"
)
_MARKDOWN = re.compile(r"\*\*|__|`|~~|^#+\s*|(?<!\w)_(?!\w)", re.MULTILINE)
_SPLIT = re.compile(r"(?<=[?!])\s*|(?<=[.;])\s+|\s+(?:—|--|–)\s+")
_TITLE_MARK = "TITLEREF"
# fmt: off
# Words misspelt often enough in chat to be read as meant.
_TYPOS: dict[str, str] = {
    "lenght": "length", "legnth": "length", "lengh": "length", "lenth": "length",
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
    "dirctor": "director", "realease": "release", "relase": "release", "recnet": "recent",
    "reccent": "recent", "recnt": "recent", "minits": "minutes", "hrs": "hours",
    "scarey": "scary", "comdy": "comedy", "comady": "comedy", "horor": "horror",
    "thriler": "thriller", "documentry": "documentary", "animted": "animated", "kidz": "kids",
    "popluar": "popular", "poplar": "popular", "pg13": "pg-13", "tonite": "tonight",
    "wich": "which", "whos": "who's", "anythin": "anything", "somethin": "something",
    "jus": "just", "doesnt": "doesn't", "dont": "don't", "ur": "your", "u": "you",
    "wat": "what", "wut": "what", "lemme": "let me", "gimme": "give me", "ok": "okay",
}
# fmt: on
_TYPO_RE = re.compile(r"(?i)(?<![\w'-])(" + "|".join(re.escape(k) for k in _TYPOS) + r")(?![\w'-])")
_UPPER_R = re.compile(r"(?<![\w-])R(?![\w-])")  # "Is R okay?": the age rating, not a letter
_ARE_R = re.compile(
    r"(?<![\w-])r(?= (?:u|you|we|they|there|on|in|ur|your)\b)"
)  # "r u", "r on ur tv"
_SEEN_LATELY = re.compile(
    r"(?i)\b((?:seen|watched|saw|loved|enjoyed|liked|watching|rewatched)(?: \w+){0,4} )"
    r"(recently|lately|this year|last year|this month|last week|this week)\b"
)


def _compile(fragments: tuple[str, ...]) -> re.Pattern[str]:
    ordered = sorted(set(fragments), key=len, reverse=True)
    return re.compile(r"(?i)(?<!\w)(?:" + "|".join(ordered) + r")(?!\w)")


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


_FIELD_RES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (field, _compile(_strong(field))) for field in FIELD_PATTERNS
)
_WEAK_RES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (field, _compile(WEAK_PATTERNS[field])) for field in FIELD_PATTERNS if field in WEAK_PATTERNS
)


def _normalise(text: str) -> str:
    text = _ARE_R.sub("are", _UPPER_R.sub("rcode", text))
    text = _SEEN_LATELY.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)
    return _TYPO_RE.sub(lambda m: _TYPOS.get(m.group(1).lower(), m.group(1)), text)


def question_segments(text: str) -> list[tuple[str, bool]]:
    """The message's sentences (and list items), each with whether it asks something."""
    clean = _MARKDOWN.sub("", text)
    lines = [line for line in clean.splitlines() if line.strip()]
    out: list[tuple[str, bool]] = []
    header = ""
    for line in lines:
        bullet = bool(_BULLET.match(line))
        if not bullet:
            header = line
        body = _BULLET.sub("", line)
        parts = [p.strip() for p in _SPLIT.split(body) if p.strip()]
        for part in parts:
            unpunctuated = not re.search(r"[.!]$", part)
            asks = (
                part.endswith("?")
                or bool(_QUESTION_START.match(part))
                or bool(_ASKING_CUE.search(part))
                or (
                    bullet
                    and bool(_QUESTIONNAIRE_HEADER.search(header))
                    and len(part.split()) <= 12
                )
                or (bool(_LABEL_ONLY.match(part)) and bool(_QUESTIONNAIRE_HEADER.search(header)))
                or (
                    unpunctuated
                    and not bullet
                    and " or " in f" {part.lower()} "
                    and len(lines) == 1
                )
            )
            out.append((part, asks))
    return out


def _fields_in(segment: str, *, described: bool) -> list[tuple[int, str]]:
    """(position, field) of each field a question segment is about, earlier fields first."""
    if described and not _SUITS_YOU.search(segment):
        return []
    body = _GIVEN_CLAUSE.sub(lambda m: " " * len(m.group(0)), segment)
    lowered = _NOT_A_FIELD.sub(lambda m: " " * len(m.group(0)), _normalise(body).lower())
    taken = [False] * len(lowered)
    found: list[tuple[int, str]] = []
    for table in (_FIELD_RES, _WEAK_RES):
        if found:
            break  # weak cues count only in a question no strong word is about
        for field, pattern in table:
            if described and field == "genres":
                continue  # "Would you like X, a tense thriller?" describes X, asks no genre
            for match in pattern.finditer(lowered):
                if any(taken[match.start() : match.end()]):
                    continue
                for i in range(match.start(), match.end()):
                    taken[i] = True
                found.append((match.start(), field))
    return found


def _statement_fields(segment: str) -> list[str]:
    """The fields a statement gives facts on ("It's 109 minutes." -> runtime)."""
    return list(
        dict.fromkeys(field for _pos, field in sorted(_fields_in(segment, described=False)))
    )


@functools.lru_cache(maxsize=8192)  # pure; agents repeat their questions across trials
def _fields_asked(text: str) -> tuple[str, ...]:
    order: dict[str, None] = {}
    segments = question_segments(text)
    for index, (segment, asks) in enumerate(segments):
        if not asks:
            continue
        described = _TITLE_MARK in segment
        found = [field for _pos, field in sorted(_fields_in(segment, described=described))]
        if not found and index > 0 and not segments[index - 1][1]:
            # "It's rated R. Is that okay?" asks about the fact just stated, when it is one fact;
            # "Some love new releases, others older films. Where do you land?" about all of them.
            before = [f for f in _statement_fields(segments[index - 1][0]) if f != "genres"]
            if _OPINION_BACK.search(segment) or (len(before) == 1 and _SUITS_YOU.search(segment)):
                found = before
        for field in found:
            order.setdefault(field, None)
    return tuple(order)


def fields_asked(text: str) -> tuple[str, ...]:
    """The catalog fields a message asks the user about, in order (titles should be blanked first)."""
    return _fields_asked(text)


# -- nothing fits ------------------------------------------------------------------------------

NOTHING_FITS_RE = re.compile(
    r"(?i)\b(?:nothing (?:in|that|fits|matches|quite|meets|ticks|checks|satisfies|here|really|"
    r"i (?:found|could|can)|comes close|works)|no (?:movie|film|title|match|option|single|one)s?\b|"
    r"(?:couldn't|could not|can't|cannot|unable to|wasn't able to|was not able to|didn't|did not|"
    r"don't|do not|failed to) (?:find|locate|turn up|come up with|surface|spot|see|have)|"
    r"none (?:of|that|fit|match|meet|satisf)|doesn't exist|does not exist|"
    r"(?:isn't|is not|aren't|are not|wasn't|there's no|there is no) (?:anything|a (?:single )?"
    r"(?:movie|film|title|match|option)|any (?:movie|film|title|match|option)s?)|no good match|"
    r"no suitable|abstain|came up (?:empty|short|dry)|com(?:e|es|ing) up (?:empty|short|dry)|"
    r"draw(?:n|ing)? a blank|no luck|out of (?:luck|options)|empty[- ]handed|"
    r"(?:not|no) (?:a )?(?:single )?(?:one|film|movie|title)s? (?:that )?(?:fits|meets|matches|"
    r"satisfies|ticks|checks)|(?:falls?|fell) short|won't (?:force|push) a pick|"
    r"(?:rather|better) not (?:recommend|suggest|force)|can't (?:in good conscience )?recommend|"
    r"without (?:breaking|bending|compromising)|every (?:option|candidate|title) (?:breaks|misses|"
    r"fails)|nothing (?:left|else)|(?:no|zero) (?:results|hits|matches))"
)


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
                for title, item_id, one_word in entries:
                    if not one_word or surface == title:
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


_INDEXES: weakref.WeakKeyDictionary[Catalog, TitleIndex] = weakref.WeakKeyDictionary()


def title_index(catalog: Catalog) -> TitleIndex:
    """The (cached) title index of a catalog."""
    index = _INDEXES.get(catalog)
    if index is None:
        index = _INDEXES[catalog] = TitleIndex(catalog)
    return index


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
    r"creators? of|(?:premise|plot|story|idea|tone|spirit|style|feel|mood|vibe|energy|pacing) of|"
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
    r"(?:is|was) (?:a )?(?:miss|no-go|non-starter))"
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
        self._cast_re = _people_pattern(cast)
        self._director_re = _people_pattern(directors)
        self._both_re = _people_pattern(sorted(both, key=len, reverse=True))
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
        return Reading(
            asked=self._asked(text, spans),
            proposed=tuple(proposed),
            named=tuple(named),
            nothing_fits=bool(NOTHING_FITS_RE.search(text)) and not proposed,
        )

    def _asked(self, text: str, spans: list[tuple[int, int, str]]) -> tuple[str, ...]:
        """Fields asked, read with every title replaced by a marker (so "Long Night" asks nothing)."""
        blanked = text
        for start, end, _id in reversed(spans):
            blanked = blanked[:start] + _TITLE_MARK + blanked[end:]
        fields = list(_fields_asked(blanked))
        for segment, asks in question_segments(blanked):
            if not asks:
                continue
            directing = bool(re.search(r"(?i)\bdirect", segment))
            cast = self._cast_re.search(segment)
            director = self._director_re.search(segment)
            overlap = bool(
                cast
                and director
                and cast.start() < director.end()
                and director.start() < cast.end()
            )
            if cast and directing and (overlap or self._both_re.fullmatch(cast.group(0))):
                cast = None  # a person who both acts and directs, named as a director
            if (
                director
                and not directing
                and (overlap or self._both_re.fullmatch(director.group(0)))
            ):
                director = None
            if cast and "cast" not in fields:
                fields.append("cast")
            if director and "director" not in fields:
                fields.append("director")
        return tuple(fields)

    def _proposed(
        self,
        text: str,
        spans: list[tuple[int, int, str]],
        watched: frozenset[str],
        pending: str | None,
    ) -> list[str]:
        ids = {item_id for _s, _e, item_id in spans} | ({pending} if pending else set())
        out: list[str] = []
        previous_end = 0
        for n, (start, end, item_id) in enumerate(spans):
            before = text[previous_end:start]
            previous_end = end
            next_start = spans[n + 1][0] if n + 1 < len(spans) else len(text)
            after = text[end : min(next_start, end + 80)]
            if item_id in out:
                continue
            if self._is_plot_word(item_id, ids, before, after):
                continue
            if _REFERENCE_BEFORE.search(before[-80:]) or _REFERENCE_AFTER.search(after):
                continue
            out.append(item_id)
        # A watched title named beside a fresh one is a reference to it.
        if len(out) > 1:
            fresh = [i for i in out if i not in watched]
            if fresh:
                out = fresh
        return out

    def _is_plot_word(self, item_id: str, others: set[str], before: str, after: str) -> bool:
        """Is this title a place or name inside the plot of another title the message names?"""
        title = self._title_of.get(item_id, "")
        if not title or not any(
            other != item_id and title in self._overviews.get(other, "") for other in others
        ):
            return False
        if _EMPHASIS_BEFORE.search(before):
            return False  # **Lumwater**, "Lumwater", a list item: named as a title
        adjective = bool(re.match(r"\s+[a-z]", after)) and bool(
            re.search(r"(?i)\b(?:a|an|the|another|other)\s+$", before)
        )
        return bool(_PLACE_BEFORE.search(before)) or adjective


def _people_pattern(names: list[str]) -> re.Pattern[str]:
    if not names:
        return re.compile(r"(?!x)x")
    parts = [re.escape(n) for n in names]
    # A surname alone names the person too ("a fan of Ostrander?").
    surnames = {n.split()[-1] for n in names if len(n.split()) > 1 and len(n.split()[-1]) > 3}
    parts += [re.escape(s) for s in surnames]
    ordered = sorted(set(parts), key=len, reverse=True)
    return re.compile(r"(?i)(?<![\w-])(?:" + "|".join(ordered) + r")(?![\w-])")


_READERS: weakref.WeakKeyDictionary[Catalog, RuleReader] = weakref.WeakKeyDictionary()


def rule_reader(catalog: Catalog) -> RuleReader:
    """The (cached) rule-based reader of a catalog."""
    reader = _READERS.get(catalog)
    if reader is None:
        reader = _READERS[catalog] = RuleReader(catalog)
    return reader
