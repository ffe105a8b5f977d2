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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domains.movies.catalog import Catalog
from domains.movies.simulators.vocabulary import GENRE_WORDS, SERVICE_ALIASES
from runner.core.memo import per_object

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
    "cry", "romcoms?", "chillers?", "mind[- ]bending", "non-?fiction", "edge of (?:your|the) seat",
    "spectacle", "big[- ]screen", "small and quiet", "quiet", "intimate", "escapist", "wholesome",
    "slow[- ]burn", "nail[- ]biters?", "feel[- ]bad", "bittersweet", "hilarious", "chilling",
)

# Field -> regex fragments (matched case-insensitively on word boundaries). Tried in this order:
# a span claimed by an earlier field is not read again ("how old are the kids" is the age
# rating, not the release date; "rated R" is the age rating, not the review score).
FIELD_PATTERNS: dict[str, tuple[str, ...]] = {
    "content_rating": (
        r"age[- ]?(?:ratings?|appropriate|appropriateness|restrictions?|limits?|range|group)",
        r"content ratings?", r"certificat(?:e|es|ion)", r"mpaa", r"parental(?: guidance)?",
        r"rated (?:g|pg|pg-13|r|nc-17|nr|rcode)", r"(?:g|pg|pg-13|r|nc-17)[- ]rated", r"pg-13", r"nc-17",
        r"pg", r"(?:an? )?r[- ]?ratings?", r"ratings? of r", r"(?:an? )?rcode(?:[- ]?(?:ratings?|rated|movies?|films?))?",
        r"rated rcode", r"everyone watching", r"everybody watching",
        r"(?:an? )?(?:g|pg|pg-13|nc-17)[- ]?ratings?", r"ratings? (?:limits?|restrictions?|caps?)",
        r"(?:kid|child|children|family|teen|tween)[- ]?(?:friendly|safe|appropriate|proof)",
        r"(?:for|with) (?:the |your |my |our |young |little |small )?(?:kids?|children|teens?|"
        r"teenagers?|little ones|grandkids|grandchildren)",
        r"(?:kids?|children|teens?|little ones|family|fam) (?:are |be |will be |is |'ll be )?(?:watching|"
        r"joining|around|there|present|in the room|too)",
        r"any (?:kids?|children|teens?|little ones|youngsters)", r"(?:young|little|small) (?:kids?|ones|children)",
        r"older (?:kids?|children)",
        r"is (?:this|it) for (?:the )?(?:kids?|children|family)", r"kids? or (?:just )?(?:adults|grown[- ]ups)",
        r"who(?:'s| is) (?:on the couch|beside you|with you)", r"just (?:you|u)\b", r"the fam\b",
        r"fighting", r"peril", r"blood(?:y)?", r"jump[- ]scares?", r"nr", r"unrated", r"not rated",
        r"(?:g|pg|pg-13|r|nc-17|nr|rcode) (?:requirement|filter|limit|cap)", r"ratings? of rcode",
        r"little ones?", r"teenagers?", r"tweens?",
        r"youngsters?", r"grand ?kids?", r"grandchildren", r"toddlers?", r"youngest", r"younger",
        r"young ones?", r"anyone young", r"grown[- ]ups?(?:[- ]only)?", r"whole family",
        r"(?:the )?family can (?:watch|enjoy)", r"everyone can watch",
        r"all ages", r"family (?:movie |film )?nights?", r"scare(?:s|d)? easily", r"gets? scared",
        r"(?:how much|any|what level of) (?:gore|violence|blood)", r"how old", r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen)[- ]years?[- ]old", r"year[- ]olds?",
        r"mature(?: content| themes)?", r"adult (?:content|themes)", r"violen(?:ce|t)", r"gore",
        r"gory", r"swearing", r"bad language", r"nudity", r"okay for (?:your|the) (?:group|kids|family|audience)",
        r"(?:anyone|someone|kids?|children|viewers?|nobody|no one) under (?:\d+|thirteen|twelve|ten|"
        r"eighteen|seventeen)", r"under[- ](?:13|12|10|18|17)s", r"bedtime story",
        r"date night", r"age[- ]rating ceiling", r"ceiling",
    ),
    "vote_count": (
        r"(?:many|few|nobody|no one|lots of|a lot of|comparatively few|a great many|almost nobody|"
        r"hardly anyone|everybody|everyone) (?:\w+ ){0,2}(?:has |have )?(?:already )?(?:rated|"
        r"ratings|votes|voted|seen|watched)", r"(?:min|minimum|max|maximum) votes?",
        r"popular(?:ity)?", r"well[- ]known", r"widely[- ](?:seen|known)", r"mainstream",
        r"obscure", r"hidden gems?", r"lesser[- ]known", r"little[- ]known", r"under[- ]the[- ]radar",
        r"crowd[- ]?pleasers?", r"blockbusters?", r"niche", r"cult (?:classics?|films?|favou?rites?)",
        r"big (?:hits?|names?|releases?)", r"everyone(?:'s| has)? (?:seen|heard)", r"votes?",
        r"off the beaten (?:path|track)", r"deep cuts?", r"known titles?", r"household names?",
        r"underground", r"(?:a lot of|lots of|most|many) people (?:have )?(?:seen|watched|know)",
        r"people have seen", r"(?:big|wide) audiences?", r"lesser[- ]seen", r"little[- ]seen",
        r"under[- ]?seen", r"overlooked", r"off[- ]radar", r"crowd[- ]favou?rites?",
        r"(?:sheer )?popularity", r"much[- ]watched", r"well[- ]loved",
        r"(?:few|not many|many|lots of|a lot of) people (?:have )?(?:seen|watched|know|rated|heard of)", r"discover(?:y|ies)",
    ),
    "runtime": (
        r"how long", r"length", r"lengthy", r"runtimes?", r"run[- ]?times?", r"running times?",
        r"durations?", r"minutes?", r"mins?", r"hours?", r"hrs?", r"long(?:er|ish)?",
        r"short(?:er|ish)?", r"epics?", r"marathons?", r"how much time",
        r"time (?:do you have|you have|you've got|have you got|budget|limit|window)",
        r"time commitment", r"(?:max(?:imum)?|how much) time", r"how much of your (?:evening|night)",
        r"willing to (?:surrender|spend|give)", r"bed ?time", r"attention span", r"clocks? in", r"drag(?:s|gy)? on",
        r"(?:\w+-)+(?:hours?|minutes?|mins?)", r"\d+\s*(?:m|h)", r"time available",
        r"available time", r"how much long", r"runs? (?:under|over)",
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
        r"helmed", r"behind the camera", r"storytellers?",
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
        r"kids?", r"children", r"child", r"teens?",
        r"language", r"graphic", r"explicit", r"ages?", r"adult", r"squeamish", r"group",
        r"too (?:scary|intense|dark|disturbing|grown[- ]up)", r"(?:your|the) audience",
        r"with (?:the|your) family",
        r"who(?:'s| is| will be| are you|'ll be| will)? (?:watching|joining)",
        r"watching (?:it )?(?:with|alone|solo)",
    ),
    "vote_count": (r"hits?", r"buzz(?:y)?", r"indie", r"famous", r"heard of", r"smash(?:es)?"),
    "runtime": (r"quick(?:er)?", r"sit through"),
    "rating": (
        r"quality", r"good ones?", r"awards?", r"award[- ]winning", r"prestige", r"praised",
        r"(?<![\d.])(?:[0-9]|10)\.\d(?![\d.])", r"(?:high|good) enough",
    ),
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
        r"(?:want|wanna|need|like|hope) to feel", r"feel (?:after|afterwards|when|at the end)",
        r"make you feel", r"feelings?",
        r"frighten\w*", r"scared?", r"escape", r"comfort(?:ed|ing)?", r"challeng(?:ed|ing)",
        r"hyped", r"uplifted", r"moved", r"hope(?:ful)?", r"frame of mind", r"lighter",
        r"sad", r"cheer(?:ed)? up", r"unwind", r"vibes?",
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
    r"your (?:call|pick)|have fun|the fun|(?:min|max)(?=\s+(?:rating|score|year|votes?|reviews?))|(?:short|long) (?:week|weekend|night|shift|drive|trip|"
    r"flight|walk)|old (?:friends?|flame|house|man|woman|life|days|self|"
    r"ways|school|colleague|partner|home|town)|lifelong|(?:release|released) (?:it|them) (?:to|for)|"
    r"rated (?:it|them) (?:highly|well))\b"
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
    r"it(?:'d| would) help (?:me )?(?:to (?:know|hear|learn|understand)|if|a lot to)|"
    r"(?:helpful|useful) to (?:know|hear)|good to (?:know|hear) (?:which|what|whether|if|how)|"
    r"i'?d be (?:curious|interested|keen) "
    r"(?:to|which|whether|if|what|how)|i'?d (?:be )?(?:love|like) to learn|"
    r"help me (?:understand|know|narrow)|give me (?:a sense|an idea|a feel)|"
    r"(?:get|have|like|want) a (?:sense|feel|feeling|read) (?:of|for)|i'?d appreciate|"
    r"appreciate (?:knowing|hearing|it if)|(?:want|need) to know|do tell|fill me in|"
    r"any preferences?|your preferences? (?:on|for|about|regarding)|(?:any|a) preference (?:on|for|"
    r"about|regarding)|(?:help|helps|helpful) (?:me )?to know|helps? me (?:judge|gauge|decide|choose)|"
    r"(?:let's|lets) (?:start|begin) with|what about|how about (?:the|your)|thoughts on|"
    r"(?:say|tell me) (?:what|which|how|whether)|drop me|just say|"
    r"feel free to (?:say|tell|share|mention)|figure out|work out|mention any|"
    r"name (?:any|a|your)|where do you (?:land|stand)|which camp|what about you|how about you|"
    r"your take|your thoughts)"
)
_QUESTION_START = re.compile(
    r"(?i)^\W*(?:(?:so|and|also|okay|ok|great|cool|alright|then|first|next|lastly|finally|oh|"
    r"and also|plus|now|one more thing|btw|quick one|and lastly|k|kk|ok so|so like|next|q\d*|"
    r"also|lol|haha|bestie|yo|hey|hi|hello|okay so|real talk|ok real talk)\b[\s,:!-]*)*(?:whether|what|"
    r"what's|whats|"
    r"wat|wht|which|wich|how|how's|do|does|did|are|is|was|were|would|wouldn't|could|should|will|"
    r"can|any|anything|have|has|shall|may|might|when|who|who's|whos|whose|where|fancy|r u|u|ur|"
    r"prefer|care|mind|mention|list|describe|share|name|feel like|in the mood|up for|open to|"
    r"ok with|okay with|fine with|happy with|good with|interested in|into|keen on|need|want|"
    r"wanna|tell)\b"
)
# A question that asks whether what was just said suits the user, or what the user thinks of it.
_SUITS_YOU = re.compile(
    r"(?i)\b(?:(?:is|would|will|was|could) (?:that|this|it)|that's|(?:that|this|it) (?:okay|ok|"
    r"fine|alright)|that fine|do you have (?:it|that|them|either)|does (?:that|this|it) (?:matter|bother)|fit (?:that|it) in|"
    r"live with (?:that|it)|manage (?:that|it)|handle (?:that|it)|a (?:problem|dealbreaker)|"
    r"an issue|too \w+|(?:have|got|use|subscribe to) (?:either|any of|both)|"
    r"(?:okay|ok|fine|alright) (?:for|with) (?:everyone|your|you|the))\b"
)
_ABOUT_PERSON = re.compile(
    r"(?i)\b(?:are you a fan|a fan of (?:his|hers|theirs|them|him|her)|(?:do|did|have) you (?:like|"
    r"liked|enjoy|enjoyed|love|loved) (?:him|her|them|their|his)|(?:does|would) (?:she|he|they) "
    r"work|(?:is|are) (?:she|he|they) (?:someone|a|an)|their (?:work|films|movies)|his work|her work)\b"
)
_SUITS_YOU_WEAK = re.compile(
    r"(?i)\b(?:does (?:that|this|it) work|(?:sound|sounds) (?:ok|okay|alright|fine)|good with you)\b"
)
_OPINION_BACK = re.compile(
    r"(?i)\b(?:where do you (?:land|stand)|which camp|what about you|how about you|and you|"
    r"your take|which do you prefer|which (?:one|way) (?:do|would) you|your preference|"
    r"which (?:is|sounds) (?:more )?(?:you|like you)|which would you (?:prefer|rather|choose|pick)|"
    r"which (?:matters|is) more|would you rather|which (?:of those|of these|option))\b"
)
_GIVEN_CLAUSE = re.compile(
    r"(?i)^\W*(?:since|given(?: that)?|as|because|now that|seeing as|with)\b[^,?]{0,60},\s*"
)
_LABEL_ONLY = re.compile(r"(?i)^\w[\w /&-]{0,24}:\s*\??$")  # "Genre:" in a questionnaire
_BULLET = re.compile(r"^\s*(?:[-*•·–]|\d+[.)]|[a-z][.)])\s+(?:\[[ xX✓]\]\s*)?")
_CHECKBOX = re.compile(r"^\s*(?:[-*•·–]|\d+[.)])\s+\[[xX✓]\]")  # a ticked box: done
# A list under a header like these restates what is known or planned; any other list under a
# header ("A few quick details:", "Quick poll", "Getting started:") is a questionnaire.
_GENRE_VALUE = re.compile(
    r"(?i)^(?:(?:" + "|".join(re.escape(w) for ws in GENRE_WORDS.values() for w in ws) + r")"
    r"(?:\s*(?:or|and|/|,)\s*)?)+$"
)
_RECAP_HEADER = re.compile(
    r"(?i)\b(?:recap|summary|summari[sz]e|so far|to sum up|to confirm|confirming|checking in|"
    r"here'?s what|what i (?:know|have|'ve got|heard|understand)|you(?:'ve| have)? (?:said|told|"
    r"mentioned|asked|want|like|need)|noted|got it|my plan|the plan|here'?s how|i'?ll|i will|"
    r"things i'?ll|what i'?ll|i (?:looked|checked|considered|searched|compared|found)|"
    r"options?|picks?|choices|candidates|contenders|ruled out|results?|why i picked|why it fits|"
    r"details|the story|what it'?s about|highlights|facts|at a glance)\b|^\s*so\s*:?\s*$"
)
_QUESTION_HEADER = re.compile(
    r"(?i)\b(?:questions?|quick (?:ones|poll|survey)|tell me|let me know|fill me in|intake|"
    r"survey|poll|before (?:i|we) (?:begin|start|search|look|recommend|dig)|(?:a )?(?:few|couple "
    r"of|more|some|three|two) (?:details|things|bits)|getting started|narrowing(?: it)? down|"
    r"let's narrow|checklist|things that(?:'ll| will| would) help|i need to know|things i need|"
    r"help me (?:narrow|pick|choose)|steer me|directions to|round (?:two|2|one|1)|last bits)\b|"
    r"\?\s*$"
)
_MARKDOWN = re.compile(r"\*\*|__|`|~~|^#+\s*|(?<!\w)_(?!\w)", re.MULTILINE)
_SPLIT = re.compile(
    r"(?<=[?!])\s*|(?<=[.;])\s+|\s+(?:—|--|–|→|->)\s+|(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF])\s+"
)
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
    "wat": "what", "wut": "what", "hw": "how", "2": "to", "4": "for", "lemme": "let me", "gimme": "give me", "ok": "okay",
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
    # Longest first; fragments of one length by their text (they came in the set's order, which
    # changed with each process's hash seed), so the pattern is the same in every process. No two
    # fragments of one length in these tables match at one place with different ends (checked
    # on strings generated from each fragment), so their order among themselves changes no
    # reading.
    ordered = sorted(set(fragments), key=lambda f: (-len(f), f))
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


# A list item that states a value ("Under 100 min", "HBO Max", "Romance", "Rated at least 7"),
# as a recap or a pitch does, rather than naming a topic to answer ("Genre", "Time available").
_VALUE_ITEM = re.compile(
    r"(?i)^(?:no|any|not|only|under|over|at least|at most|rated|available|released|on|long|short|"
    r"adults?|kids?|you|i|i'?m|i'?ll|it'?s|it|something|nothing|must|max|min|less|more|streams?|"
    r"stars?|directed|from|with|by|in|a|an|the)\b|\d|\b(?:is fine|only|max|or (?:higher|more|"
    r"less|lower|better)|at least|no preference|mentioned|said)\b|" + _TITLE_MARK
)
_TOPIC_WORD = re.compile(
    r"(?i)\b(?:genres?|kind|type|mood|tone|length|runtime|time|minutes|services?|streaming|"
    r"subscriptions?|apps?|platforms?|age|rating|ratings|certificate|reviews?|score|critics|era|"
    r"year|decade|release|recent|new|old|actors?|cast|stars|directors?|filmmakers?|popular\w*|"
    r"known|famous|preferences?|dealbreakers?|limits?|ceiling|must[- ]haves?|who)\b"
)


def _list_kinds(lines: list[str]) -> list[bool]:
    """Per line: is it an item of a questionnaire (True) rather than of a recap, pitch or plan?"""
    kinds = [False] * len(lines)
    number = 0
    while number < len(lines):
        if not _BULLET.match(lines[number]):
            number += 1
            continue
        header = lines[number - 1] if number else ""
        block = []
        while number < len(lines) and _BULLET.match(lines[number]):
            block.append(number)
            number += 1
        items = [re.sub(r"\([^)]*\)", "", _BULLET.sub("", lines[i])).strip() for i in block]
        if any(_CHECKBOX.match(lines[i]) for i in block):
            asks = False  # a checklist of what is done
        elif _QUESTION_HEADER.search(header):
            asks = True
        elif _RECAP_HEADER.search(header) or _TITLE_MARK in header:
            asks = False
        else:
            # No telling header: a list of topics asks, a list of values restates.
            topics = sum(
                1 for item in items if _TOPIC_WORD.search(item) and not _VALUE_ITEM.search(item)
            )
            values = sum(
                1 for item in items if _VALUE_ITEM.search(item) or _GENRE_VALUE.search(item)
            )
            asks = topics > values
        for i in block:
            kinds[i] = asks
    return kinds


def question_segments(text: str) -> list[tuple[str, bool]]:
    """The message's sentences (and list items), each with whether it asks something."""
    clean = _MARKDOWN.sub("", text)
    lines = [line for line in clean.splitlines() if line.strip()]
    out: list[tuple[str, bool]] = []
    kinds = _list_kinds(lines)
    for number, line in enumerate(lines):
        bullet = bool(_BULLET.match(line))
        questionnaire = bullet and kinds[number]
        body = _BULLET.sub("", line)
        parts = [p.strip() for p in _SPLIT.split(body) if p.strip()]
        for part in parts:
            unpunctuated = not re.search(r"[.!]$", part)
            asks = part.endswith("?") or (
                (not bullet or questionnaire)
                and (
                    part.endswith("?")
                    or bool(_QUESTION_START.match(part))
                    or bool(_ASKING_CUE.search(part))
                    or (bullet and questionnaire and len(part.split()) <= 12)
                    or (bool(_LABEL_ONLY.match(part)) and questionnaire)
                    or (
                        unpunctuated
                        and not bullet
                        and " or " in f" {part.lower()} "
                        and len(lines) == 1
                        and len(part.split()) <= 10
                        and not re.search(r"(?i)\b(?:i|i'm|i've|we|there)\b", part)
                    )
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


def _read_fields(text: str, people: Callable[[str], list[str]] | None) -> tuple[str, ...]:
    order: dict[str, None] = {}
    segments = question_segments(text)

    def fields_of(segment: str, *, asks: bool) -> list[str]:
        described = asks and _TITLE_MARK in segment
        found = [field for _pos, field in sorted(_fields_in(segment, described=described))]
        return found + [f for f in (people(segment) if people else []) if f not in found]

    for index, (segment, asks) in enumerate(segments):
        if not asks:
            continue
        found = fields_of(segment, asks=True)
        if not found:
            # "It's rated R. Is that okay?" asks about the fact just stated, when it is one fact;
            # "Some love new releases, others older films. Where do you land?" about all of them;
            # "It stars <actor>. Are you a fan?" about the cast.
            gathered: list[str] = []
            if _OPINION_BACK.search(segment) and _TITLE_MARK not in text:
                # "Options: - drop the age-rating filter - switch genre. Which would you prefer?"
                for back in (1, 2, 3):
                    if index - back < 0 or segments[index - back][1]:
                        break
                    gathered += fields_of(segments[index - back][0], asks=False)
            if gathered:
                found = list(dict.fromkeys(reversed(gathered)))
            for back in (1, 2):
                if found or index - back < 0 or segments[index - back][1]:
                    break
                previous = segments[index - back][0]
                before = list(
                    dict.fromkeys(f for f in fields_of(previous, asks=False) if f != "genres")
                )
                if not before:
                    if re.search(r"\d", previous):
                        continue  # "reviewers weren't kind - it sits at 4.7. Can you live with that?"
                    break
                people_only = [f for f in before if f in ("cast", "director")]
                # "It's rated PG-13 - does that work?": one sentence; "It's on Hulu. Does that
                # work?" asks whether the pick as a whole suits, not about the services.
                short = len(previous.split()) <= 5 and not re.search(r"[.!]$", previous)
                tiny_check = len(segment.split()) <= 4 and re.search(
                    r"(?i)\b(?:ok|okay|fine|alright)\b", segment
                )
                elif_suits = _SUITS_YOU.search(segment) or tiny_check
                if _ABOUT_PERSON.search(segment) and people_only:
                    found = people_only
                elif _OPINION_BACK.search(segment) or (
                    len(before) == 1 and (elif_suits or (short and _SUITS_YOU_WEAK.search(segment)))
                ):
                    found = before
                break
        for field in found:
            order.setdefault(field, None)
    return tuple(order)


@functools.lru_cache(maxsize=8192)  # pure; agents repeat their questions across trials
def _fields_asked(text: str) -> tuple[str, ...]:
    return _read_fields(text, None)


def fields_asked(text: str) -> tuple[str, ...]:
    """The catalog fields a message asks the user about, in order (titles should be blanked first)."""
    return _fields_asked(text)


# -- nothing fits ------------------------------------------------------------------------------

NOTHING_FITS_RE = re.compile(
    r"(?i)\b(?:nothing (?:in|that|fits|matches|quite|meets|ticks|checks|satisfies|here|really|"
    r"i (?:found|could|can)|comes close|works)|no (?:movie|film|title|match|option|single|one)s?\b|"
    r"(?:i|we)(?:'m| am)? (?:couldn't|could not|can't|cannot|unable to|wasn't able to|was not able "
    r"to|didn't|did not|don't|do not|failed to) (?:find|locate|turn up|come up with|surface|spot|"
    r"see|have)|(?:couldn't|could not|wasn't able to|was unable to|failed to) (?:find|locate|turn "
    r"up|come up with|surface)|"
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
        if stripped.startswith("#") or (stripped.endswith(":") and not _BULLET.match(line)):
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
        return _read_fields(blanked, self._people)

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
