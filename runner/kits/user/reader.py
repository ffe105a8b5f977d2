"""The reader's domain-free machinery: what an agent message *does*, whatever the domain.

A domain's reader finds its own items in a message (titles, products) and hands the kit the text
with each one replaced by `TITLE_MARK`; the kit splits it into sentences and list items, tells
which of them ask something, and which preference fields each question is about, from the
domain's `FieldVocabulary` (fields and their words, as data). It separates what a message does:
- a **preference question** names a field (in any common form, or by a value of it, or by asking
  whether one fact just stated suits the user); only these spend the user's question budget;
- a **reaction request** asks what the user thinks of the item put forward ("does that sound like
  your kind of thing?", "want me to check where it streams?", "shall I add it?"): in a message
  that puts an item forward its words ask about no field, so the engine answers the proposal;
- **small talk** and closing pleasantries ("have a good one", "enjoy!") ask nothing;
- a **mood, vibe or tone** question ("what are you in the mood for: something that makes you
  laugh, something gripping?") asks about the domain's mood field, never a field whose words
  merely appear in the menu by accident;
- a **pitch** describes the item (its kind or its story): the user has heard it (`describes`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

__all__ = [
    "CODE_UNDERSCORE",
    "REFERENCE_MARK",
    "SMALL_TALK",
    "TITLE_MARK",
    "FieldReader",
    "FieldVocabulary",
    "asks_reaction",
    "compile_words",
    "describes",
    "is_small_talk",
    "near_miss_fixer",
    "nothing_fits_pattern",
    "spelling_fixer",
]

TITLE_MARK = "TITLEREF"
# What a simulated user reads of one agent message: its first READ_LIMIT characters, as a person
# skims. The loop lets a reply of 250,000 characters through; reading all of it would let one
# message cost the runner minutes (the longest labelled corpus message is 623 characters).
READ_LIMIT = 4_000


def readable(text: str) -> str:
    """The part of an agent message a simulated user reads (its first `READ_LIMIT` characters)."""
    return text[:READ_LIMIT]


# An item named only as a reference ("something like X?"): a noun that asks nothing.
REFERENCE_MARK = "OTHERREF"

# "If one comes to mind, telling me would help.": a request put as the help an answer would be.
_HELP_IF = (
    r"^\W*(?:(?:but|and|so|no pressure(?: at all)?)\W+)*if (?:you|u|there'?s|there is|one|any)\b[^.?!]*,\s*"
    r"(?:that|it|this|telling me|knowing|sharing)(?:'d| would| could) (?:really |greatly |truly |also |"
    r"so )?help"
)
_HELP_IF_RE = re.compile(_HELP_IF, re.IGNORECASE)
_ASKING_CUE = re.compile(
    r"(?i)(?:^|\b)(?:let me know|let us know|lemme know|tell me|lmk|gimme|"
    r"i'?d (?:love|like|want) to (?:know|hear)|i would (?:love|like) to (?:know|hear)|"
    r"(?:i'?m|i am) (?:wondering|curious|not sure)|i wonder|"
    r"wondering (?:if|whether|what|which|how)|curious (?:whether|if|about|what|which|how)|"
    # possessive runs: a long run of symbols ("&&&…", which \W and \S both match) must not be
    # split every way before the match fails (quadratic on a 250 KB message)
    r"^(?!.*\b(?:i|i'm|i'll|we|we're|moment|sec|second|bear)\b)\W*+(?:\S++\s++){0,5}(?:pls|plz|please)\W*+$|"
    r"(?:permit|allow) me to (?:ask|enquire|inquire)|(?:i'?d|i would|let me|may i|might i) (?:like to )?"
    r"(?:ask|enquire|inquire) (?:whether|if|what|which|how|who|about)|"
    r"(?:i'?d|i would|we'?d|we would) be (?:grateful|thankful|obliged|glad|delighted) (?:for (?:a |an |"
    r"some |any |the |your |\w+ )?(?:\w+ ){0,2}(?:details?|answers?|information|info|input|thoughts|"
    r"preferences|pointers|hints|points)|if (?:you|u) (?:could|would|can|'d|might)|to (?:know|hear|"
    r"learn|have|get|receive))|kindly (?:share|tell|let|send|provide|give|indicate|inform|notify|"
    r"specify|confirm|list|advise|answer|state)|(?:please|pls|plz) (?:send|give|write|answer|"
    r"indicate|advise|state|note)|send (?:me|us|over)\b|"
    r"(?:could|can|would) you (?:share|say|tell|let|give|describe|list|mention|clarify|confirm|"
    r"point|mind)|please (?:share|tell|let|list|describe|say|mention|confirm|provide|specify|fill in|enter|supply|"
    r"fill (?:these|them|those|it) in)|(?:please )?reply (?:with )?[\"'“‘]?(?:yes|y|ok)\b|"
    r"share (?:with me|your|which|what|how|whether|if|any)|mind sharing|"
    r"it(?:'d| would| will)? (?:really |greatly |truly |also |so )?helps? (?:me |us )?(?:a lot |loads )?"
    r"(?:to (?:know|hear|learn|understand|have|get)|if|a lot to)|"
    r"(?:helpful|useful) to (?:know|hear)|good to (?:know|hear) (?:which|what|whether|if|how)|"
    # "if you have a rough idea of X, that would help.": the help closes the request
    + _HELP_IF
    + r"|"
    r"i'?d be (?:curious|interested|keen) "
    r"(?:to|which|whether|if|what|how)|i'?d (?:be )?(?:love|like) to learn|"
    r"help me (?:understand|know|narrow)|give me (?:a sense|an idea|a feel)|"
    r"(?:get|have|like|want) a (?:sense|feel|feeling|read) (?:of|for)|i'?d appreciate|"
    r"(?:please |kindly |do )?(?:inform|advise|update|enlighten|notify) (?:me|us)\b|"
    r"appreciate (?:knowing|hearing|it if)|(?:want|need) to know|do tell|fill me in|"
    # what the writer says it needs ("I'll need three things: ...")
    r"(?:i'?ll|i will|i'?d|i would|i|we'?ll|we) (?:just )?need (?:a few|some|two|three|four|five|\d|"
    r"these|the following|a couple of|a couple|your) ?(?:quick )?(?:things|details|answers|bits|"
    r"points|pieces of info(?:rmation)?|info(?:rmation)?)|"
    r"any preferences?|your preferences? (?:on|for|about|regarding)|(?:any|a) preference (?:on|for|"
    r"about|regarding)|(?:help|helps|helpful) (?:me )?to know|helps? me (?:judge|gauge|decide|choose)|"
    r"(?:let's|lets) (?:start|begin) with|what about|how about (?:the|your)|thoughts on|"
    r"(?:pick|choose|select) (?:one|a letter|an option|your answer)|"
    r"tell me (?:what|which|how|whether)|(?:^|just |please |free to |(?:you|u) (?:can |could |"
    r"would |might )?)say (?:what|which|how|whether)|drop me|just say|"
    r"feel free to (?:say|tell|share|mention)|(?:figure|work) out (?:what|which|how|whether|if)|mention any|"
    r"name (?:any|a|your)|where do you (?:land|stand)|which camp|what about you|how about you|"
    r"your take|your thoughts)"
)
_QUESTION_START = re.compile(
    r"(?i)^\W*(?:(?:so|and|also|okay|ok|great|cool|alright|then|first|next|lastly|finally|oh|"
    r"and also|plus|now|one more thing|btw|quick one|and lastly|k|kk|ok so|so like|next|q\d*|"
    r"also|lol|haha|bestie|yo|hey|hi|hello|okay so|real talk|ok real talk|wait|hmm+|um+|well|"
    # the points of an enumeration ("Second, roughly how much time you have.")
    r"firstly|second|secondly|third|thirdly|fourth|roughly|approximately|broadly|more or less)"
    r"\b[\s,:!-]*)*(?:whether|what|"
    r"what's|whats|whatcha|watcha|whaddya|wyd|any1|ne1|"
    r"wat|wht|wut|which|wich|how|hw|how's|do|does|did|are|is|was|were|would|wouldn't|could|should|will|"
    r"can|any(?! \w+ (?:is|are) (?:fine|ok|okay|good|great|alright)\b)|anything|have|has|shall|may|"
    r"might|when|who|who's|whos|whose|where|fancy|r u|u|ur|"
    r"prefer|care|mind|mention|list|describe|share|name|feel like|in the mood|up for|open to|"
    r"ok with|okay with|fine with|happy with|good with|interested in|into|keen on|need|want|"
    r"wanna|tell)\b"
)
# A question that asks whether what was just said suits the user, or what the user thinks of it.
_SUITS_YOU = re.compile(
    r"(?i)\b(?:(?:is|would|will|was|could) (?:that|this|it)|that's|(?:that|this|it) (?:okay|ok|"
    r"fine|alright)|that fine|do you have (?:it|that|them|either)|(?:does|would|will) (?:that|this|it) (?:matter|bother|worry|concern|trouble|faze|deter|put (?:you|u) off|"
    r"annoy)|(?:do|would) (?:you|u) mind|fit (?:that|it) in|"
    r"live with (?:that|it)|manage (?:that|it)|handle (?:that|it)|a (?:problem|dealbreaker)|"
    r"an issue|too \w+|(?:have|got|use|subscribe to) (?:either|any of|both)|"
    r"(?:does|would|did) (?:that|this|it) (?:sound|seem) (?:right|good|ok|okay|fine|alright)|"
    r"(?:does|would|will) (?:that|this|it) (?:fit|suit|match) (?:your|you)|"
    r"(?:okay|ok|fine|alright|happy|good|acceptable) (?:for|with) (?:everyone|your|you|u|the|that|"
    r"this|it)|"
    r"enough|(?:that|this|it) (?:\w+ )?(?:is|would be|will be) (?:okay|ok|fine|alright|acceptable|"
    r"good|enough)|allowed|permitted|permissible|manageable|doable|feasible|workable|bearable|"
    r"tolerable|(?:stretch|extend|go|push|drop|lower|raise|bump|move|widen|relax|loosen)(?: it| that)?"
    r"(?: (?:up|down|back|out))? to\b|(?:still )?within\b|works? (?:with|around) (?:your|you|u)|no problem|not a problem|"
    r"any (?:problem|issue)s?|can (?:everyone|everybody|all of you|the whole \w+|they|the kids|the "
    r"children|your \w+) (?:watch|see|handle|enjoy)|can (?:you|u) (?:get|access|reach|watch|stream|open|"
    r"use) (?:it|that|this|there|them)|(?:are|r) (?:you|u) (?:a member|subscribed|signed up|on (?:it|"
    r"that|there))|(?:under|within|over|above|below|inside|past) "
    r"(?:your|the|ur|my|our) (?:limit|max(?:imum)?|cap|range|budget|ceiling|threshold)|"
    r"(?:have|got|get|with) access|(?:have|got|hold|own) (?:the |a |an )?(?:keys?|access|logins?|"
    r"pass(?:es|word)?|subscriptions?|accounts?|memberships?) (?:to|for)\b|"
    r"(?:is|be|'s) (?:not |no )?(?:a |an )?(?:problem|issue)|(?:you|u) (?:have|got|own|use)(?=\W*$)|(?:you|u) (?:got|have|own|use|pay for|subscribe to) (?:it|that|"
    r"this|them|either|one)|"
    r"still (?:interested|keen|game|tempted|up for (?:it|that)|want (?:it|that|them|those|these|"
    r"one)))\b"
)
_ABOUT_PERSON = re.compile(
    r"(?i)^\W*(?:like|love|enjoy|rate|dig|know) (?:him|her|them)\b|\b(?:are you a fan|(?:a |big |huge )?fan of (?:his|hers|theirs|them|him|her)|(?:(?:do|did|have) )?(?:you|u) "
    r"(?:like|liked|enjoy|enjoyed|love|loved|rate|rated|know|follow|admire|dig) (?:him|her|them|"
    r"their|his)|(?:does|would) (?:she|he|they) "
    r"work|(?:is|are) (?:she|he|they) (?:someone|a|an)|(?:their|his|her) (?:work|films|movies|stuff|output|body of work|back catalog(?:ue)?)|"
    r"(?:someone|somebody|anyone|anybody) else|(?:that|this|the same|such an?) (?:actor|actress|"
    r"performer|star|lead|director|filmmaker)s?)\b"
)
# "..., or are you after something else?": an alternative that asks about the user's tastes.
_OR_ASKS_YOU = re.compile(
    r"(?i)\bor (?:(?:are|do|would|will|did|have|were|r) (?:you|u)\b|"
    # the auxiliary dropped, as non-native writers do ("..., or you prefer other years?")
    r"(?:you|u) (?:prefer|want|like|rather|need|wish|choose)\b)"
)
# A question about the kind a pitch gave, named as a mix ("Do you like such a mixture?"):
# it asks the kind itself, not for a verdict on the pick.
_ABOUT_THE_KIND = re.compile(
    r"(?i)\b(?:such|that|this|the|these) (?:a |kind of |sort of )?(?:mix(?:ture)?|blend|combo|"
    r"combination|fusion|mash-?up|hybrid|cocktail|pairing)s?\b"
)
# A question that itself puts the item forward ("I suggest X, okay?", "How about X?").
_PUTS_FORWARD = re.compile(
    r"(?i)\b(?:i(?:'d| would)? (?:suggest|recommend|propose|go (?:with|for)|pick|choose)|"
    r"how about|what about|why not|maybe|perhaps|my (?:pick|suggestion|choice) is)\b[^?]*"
    + TITLE_MARK
)
_SUITS_YOU_WEAK = re.compile(
    r"(?i)\b(?:does (?:that|this|it) work|(?:sound|sounds) (?:ok|okay|alright|fine)|good with you)\b"
)
# "It's rated R. Do you still want it?": a check that asks whether the fact just stated is a
# dealbreaker, however it is worded.
_DESPITE = re.compile(r"(?i)\b(?:still|anyway|regardless|even so)\b")
_OPINION_BACK = re.compile(
    r"(?i)\b(?:where do you (?:land|stand|fall|sit)|which camp|what about you|how about you|and you|"
    r"(?:relax|loosen|drop|give up|bend|change|sacrifice|let go of|compromise on|ease|lift|"
    r"relaxing|loosening|dropping|giving up|bending|changing|sacrificing|letting go of|"
    r"compromising on|easing|lifting|widening|broadening|adjusting) (?:one|"
    r"either|any|some|both|which) of (?:them|those|these|the two)|if so,? which|"
    r"which (?:way|direction|route|path|road) (?:should|shall|do|would|will) (?:i|we|you|u)|"
    r"your take|which do you prefer|which (?:one|way) (?:do|would) you|your preference|"
    r"which (?:is|sounds) (?:more )?(?:you|like you)|which would you (?:prefer|rather|choose|pick)|"
    r"which (?:matters|is) more|would you rather|which (?:one |option )?(?:you|u)(?: would|'d)? (?:prefer|"
    r"choose|pick|want|like (?:more|better|best))|which (?:would|will|could) you (?:drop|give up|relax|loosen|let go|sacrifice|bend|change)|which (?:of those|of these|option)|"
    r"which (?:one )?(?:is it|will it be|is it to be|'s it gonna be|is it going to be))\b"
)
# "... or 😱 or 😭 - which one tonight?": a bare choice among the options just listed.
_WHICH_ONE = re.compile(
    r"(?i)\bwhich (?:one|of (?:them|these|those))(?: (?:tonight|today|now|then))?\W*$"
)
# The agent offers to act on the item put forward ("want me to check where it streams?", "shall I
# send the cast list?"): the user is asked what to do, not about a field, unless the offer
# changes the search ("shall I look for something shorter?").
_OFFER = re.compile(
    r"(?i)^\W*(?:(?:so|and|ok|okay|or|also)\W+)?(?:(?:do |would )?(?:you|u) (?:want|wanna|'d like|"
    r"would like|like) me to|want me to|wanna me to|shall i|should i|can i|could i|may i|let me "
    r"know if i should|happy for me to|ok(?:ay)? if i)\b"
)
_CHANGES_SEARCH = re.compile(
    r"(?i)\b(?:something|anything|another|others?|else|different|instead|similar|more like|"
    r"shorter|longer|newer|older|lighter|darker|widen|loosen|relax|drop|switch|broaden|narrow|"
    r"filter|look for|search for|keep looking|find (?:you )?(?:a|an|some|one|more)|keep (?:it|things|the "
    r"search)|stick (?:to|with)|stay (?:under|below|within|over|above)|limit (?:it|the search|myself))\b"
)
# A question about the item as a whole, named as the recommendation ("Was this recommendation
# helpful?"): it asks for a verdict on the pick, not on the last fact stated about it.
_ABOUT_THE_PICK = re.compile(
    r"(?i)\b(?:this|that|my|the|these|those|your) (?:recommendation|suggestion|pick|choice|"
    r"selection|proposal)s?\b"
)
# A question the writer answers at once ("rated R? nah, it's fine.", "Done? No."): rhetorical.
_SELF_ANSWER = re.compile(
    r"(?i)^\W*(?:no|nah|nope|yes|yep|yeah|not really|not at all|of course|sure|hardly)"
    r"(?!\s+or\b)(?!\s+(?:worries|pressure|rush|problem|stress|need|hurry|obligation)\b)\b[^?]{0,30}[.!]?$"
)
_GIVEN_CLAUSE = re.compile(
    r"(?i)^\W*(?:since|given(?: that)?|as|because|now that|seeing as|with|being)\b[^,?]{0,60},\s*"
)
_LABEL_ONLY = re.compile(r"(?i)^\w[\w /&-]{0,24}:\s*\??$")  # "Genre:" in a questionnaire
# A list item's marker: a bullet, "1." / "1)" / "a." / "a)", or an option in brackets ("(a)", "(2)").
BULLET = re.compile(
    r"^\s*(?:[-*•·–]|\d+[.)]|[a-z][.)]|\((?:[A-Za-z]|\d{1,2})\))\s+(?:\[[ xX✓]\]\s*)?"
)
_CHECKBOX = re.compile(r"^\s*(?:[-*•·–]|\d+[.)])\s+\[[xX✓]\]")  # a ticked box: done
_RECAP_HEADER = re.compile(
    r"(?i)\b(?:recap|summary|summari[sz]e|so far|to sum up|to confirm|confirming|checking in|"
    r"here'?s what|what i (?:know|have|'ve got|heard|understand)|you(?:'ve| have)? (?:said|told|"
    r"mentioned|asked|want|like|need)|noted|got it|my plan|the plan|here'?s how|i'?ll|i will|"
    r"things i'?ll|what i'?ll|i (?:looked|checked|considered|searched|compared|found)|"
    r"options?|picks?|choices|candidates|contenders|ruled out|results?|why i picked|why it fits|"
    r"details|the story|what it'?s about|highlights|facts|at a glance|"
    # where the conversation stands, however it is put ("Where we are:", "State of play:")
    r"where (?:we|things) (?:are|stand)|where we'?re at|status|progress|state of play|"
    r"current (?:filters?|settings|criteria|picture)|(?:the )?story so far)\b|^\s*so\s*:?\s*$"
)
_QUESTION_HEADER = re.compile(
    r"(?i)\b(?:questions?|quick (?:ones|poll|survey)|tell me|let me know|fill me in|intake|"
    r"survey|poll|before (?:i|we) (?:begin|start|search|look|recommend|dig)|(?:a )?(?:few|couple "
    r"of|more|some|several|two|three|four|five|\d) (?:\w+ ){0,2}(?:details|things|bits|points|"
    r"facts|answers|pieces of information)|(?:grateful|obliged|thankful) for|(?:kindly|please|pls|"
    r"plz) (?:send|give|share|provide|tell|list|answer|reply|fill|indicate|specify|confirm|state)|"
    r"getting started|narrowing(?: it)? down|"
    r"let's narrow|checklist|things that(?:'ll| will| would) help|i need to know|things i need|"
    r"help me (?:narrow|pick|choose)|steer me|directions to|round (?:two|2|one|1)|last bits|"
    r"(?:pick|choose|select) (?:a|one|your|from|between)|reply with|vote|which (?:one|of these))\b|"
    r"\?\s*$"
)
# A short lead-in before the question itself ("Before I search: do you follow a diet;").
# A statement without its subject, as non-native writers put one ("Is horror film from 2025."):
# ending in a full stop, it describes rather than asks.
_DROPPED_SUBJECT = re.compile(
    r"(?i)^\W*(?:is|are|has|have|was) (?!(?:it|that|this|there|these|those|the|your|you|u|any|"
    r"anything|something|he|she|they|we|i|one|either|all|everything|organic|price)\b)\w"
)
# "Should the mood take you, I have a war film in reserve.": a condition, then a statement.
_CONDITIONAL = re.compile(
    r"(?i)^\W*(?:should|were|had) (?:the|you|it|your|anyone|a|an|they)\b[^,?]*,\s"
)
_REPLY_CHOICE = (
    r"^\W*(?:(?:please|pls|plz|just|now|then)\W+)?(?:reply|answer|respond|type|send|say|write|text|"
    r"pick|choose|select)(?: with)? [\"'“(]?(?:\d|[a-d])\b[\"'”)]?(?:\s*(?:,|or|/)\s*[\"'“(]?(?:\d|[a-d])\b[\"'”)]?)+"
)
# Sentence shapes read by structure (one pattern each, compiled together):
(
    # "a film in the vein of X, which is to say a war drama of some length, ...": words that
    # describe an item named only as a reference describe it, and ask nothing.
    _DESCRIBES_REFERENCE,
    # "If you accept a lower review score, I find some options. You accept?": an offer to loosen
    # what the condition names; the bare check after it asks about every field it names.
    _LOOSENING_IF,
    # A bare yes/no check ("You accept?", "Would that be agreeable?", "Okay?").
    _BARE_CHECK,
    # "Knowing that helps me judge ...": a sentence that says what the answer just asked is for.
    _PURPOSE_BACK,
    # A bare choice between the items put forward ("Which would you prefer?", "Which one?").
    _CHOOSE_AMONG,
    # "I have noted your preference for comedy.": the writer records what it was told.
    _NOTED,
    # "Where it's made doesn't matter either.": a clause as the subject of a statement.
    _DOES_NOT_MATTER,
    # "Good value, right?": a tag question asserts and asks for agreement, not about a field.
    _TAG_QUESTION,
    # "missing_fields: [allergies, diet]\nplease provide values.": a request for the values of
    # the fields listed just before it.
    _FILL_IN,
    # "..., even if it costs a bit more?": a concession names the price of a choice, not its topic.
    _CONCESSION,
    # Voice-typed messages carry no punctuation: a question starts at its auxiliary and subject
    # ("X is made in France is that alright", "before i suggest anything do you have allergies").
    _RUN_ON_QUESTION,
    # A sentence mark; a field's name in code ("country_of_origin"); a clause that flags a
    # shortcoming ("but it ...", ", only 225 votes", "fair warning: ...", "though ...").
    _PUNCTUATED,
    CODE_UNDERSCORE,
    _BUT_CLAUSE,
    # A casual either-or ("new stuff or older movies ok"); "8 or above" is a bound, not a choice.
    _EITHER_OR,
    # "..., so that I may take them into account?": what the question before it is for, not a
    # question of its own.
    _PURPOSE_CLAUSE,
    # "Anyone you have a crush on? I can find a movie with that actor.": a statement of what the
    # writer will do with the answer, pointing back at it; its field is what the question asks.
    _USES_THE_ANSWER,
    _POINTS_BACK,
    # A form's blank to fill ("Genre: ___", "Max length: [ ]", "Budget: ??"; markdown leaves one "_").
    _BLANK_FIELD,
    # A numbered question label ("Q1: genre.", "Question 3 of 5: ...") asks whatever follows it.
    _QUESTION_LABEL,
    # An imperative asking the user to choose or name something ("pick a genre.", "Pick mood: ...").
    _IMPERATIVE_ASK,
) = (
    re.compile(pattern)
    for pattern in (
        REFERENCE_MARK
        + r"\b[^?;]*?,? (?P<clause>(?:which is to say|that is(?: to say)?|i\.e\.,?|namely)\b[^,?;]*)",
        r"(?i)\bif (?:you|u) (?:(?:would|could|can|will|are willing to|were willing to) )?(?:accept|"
        r"allow|loosen|relax|drop|widen|consider|live with|bend|go (?:a bit )?(?:over|under|past))\b|"
        r"^\W*were (?:you|u) (?:willing|open|happy|ready) to\b",
        r"(?i)^\W*(?:(?:do |would |will |can )?(?:you|u) (?:accept|agree|want|mind)(?: (?:it|that|"
        r"this))?|(?:would|is|will) (?:that|this|it) (?:be )?(?:ok|okay|fine|agreeable|acceptable|"
        r"alright|possible)|ok|okay|deal|agreed|yes or no|y/n)\W*$",
        r"(?i)^\W*(?:knowing (?:that|this)|(?:that|this|your answer)(?:'ll| will| would)?) "
        r"(?:helps?|will help|would help|lets?|tells?) (?:me|us)\b",
        r"(?i)^\W*which (?:one |of (?:them|these|those|the two) )?(?:would|do|will) (?:you|u) "
        r"(?:prefer|pick|choose|go for|go with|rather|like|want|fancy)\W*(?:tonight|today|now)?\W*$",
        r"(?i)^\W*(?:thanks?\W+)?(?:i|we)(?:'ve| have)? (?:noted|recorded|logged|saved|registered|"
        r"made a note of|taken note of|written down)\b",
        r"(?i)^\W*(?:what|where|which|how|who|when|whether)\b[^?]*\b(?:doesn'?t|does not|don'?t|"
        r"do not|won'?t|will not|isn'?t|is not) (?:matter|bother|count)",
        r"(?i),\s*(?:right|isn'?t it|aren'?t they|eh|yeah|no|don'?t you think|agreed|huh)\W*$",
        r"(?i)\bfill (?:these|them|those|it|each|the blanks|the fields) in\b|\b(?:provide|fill in|"
        r"specify|supply|enter|give me|answer|complete)\b[^?]*\b(?:values?|answers?|details|these|"
        r"them|those|the blanks|the fields|each|nulls?|gaps|empty ones|missing ones)\b|\b(?:pick|choose|"
        r"select|tick|circle|mark)\b[^?]*\b(?:each|every)\b|"
        # "Filters left: A, B. Set either or skip.": a value for one or all of those just listed
        r"^\W*(?:(?:please|pls|plz|now|then|just)\W+)?(?:set|fill|specify|pick|choose|enter|give|"
        r"provide|apply|add|answer) (?:either|both|any|one|all|each)(?: of (?:them|those|these|the "
        r"two|the above))?\b|" + _REPLY_CHOICE,
        # "Reply 1 or 2.", "answer a, b or c": a choice among the options just listed
        r"(?i),?\s*\beven (?:if|though|when)\b[^?]*",
        r"(?i)(?<!\bwhat)(?<!\bwhich)(?<!\bhow)(?<!\bwhere)(?<!\bwhen)(?<!\bwhy)(?<!\bwho)"
        r"(?<!\bif)(?<!\bwhether)(?<!\bthat)(?<!\band)(?<!\bor)(?<!\bso)(?<!\bwhat's)"
        r"\s+(?=(?:is|are|does|do|did|would|could|can|should|will|shall) (?:that|this|it|you|u|"
        r"they|there)\b|(?:would|could|should|will|can|might) (?:a|an|the|another|some|something|"
        r"anything)\b)",
        r"[.?!;:,]",
        r"(?<=[A-Za-z])_(?=[A-Za-z])",
        # "only" flags a count that falls short (votes, a score), not a length it praises
        r"(?i)\b(?:only|just|merely|barely)(?= (?:[\d,.]+k?|a few|a handful of|[a-z]+ hundred) "
        r"(?:votes|ratings|reviews|voters|people|stars|out of|/\s*10))|"
        r"\bbut (?=(?:it|it's|its|they|they're|this|that|the|not|is|has|runs|only)\b)|"
        r"(?:^|[,;:(]\s*|\s-+\s|\bbut\s+)(?:(?:fair |a )?(?:warning|heads[- ]up|caveat)|be warned|mind you|(?:al)?though|however|"
        r"the (?:catch|downside|snag)(?: is)?)\b",
        r"(?i)\bor\b(?! (?:above|below|higher|lower|less|worse|later|earlier|so|fewer|over|"
        r"under)\b)(?! (?:more|better)\b(?!\s+\w))",
        r"(?i)^\W*(?:so (?:that )?(?:i|we)|in order (?:to|that)|that way (?:i|we)|to help me)\b",
        r"(?i)^\W*(?:(?:so|then|and|ok|okay)\W+)?(?P<condition>(?:if|when|once|should)\b[^,?]{3,60},\s*)?"
        r"(?:i|we)(?:'ll| will| can| could|'d| would| may| might| shall)? (?:\w+ ){0,2}?(?:find|look|"
        r"search|pick|filter|match|choose|dig|hunt|narrow|use|get|restrict|limit|keep|tailor|adjust|"
        r"track down|pull up)\b(?P<rest>[^?]*)",
        r"(?i)\b(?:that|those|these|them|they|their|such)\b",
        r"^\w[\w /&'-]{0,30}:\s*(?:_+|\.{3}|…|\[\s*\]|\?{2,}|<[^>\n]*>)\s*$",
        r"(?i)^\W*(?:q|question)\s*\d+(?:\s*(?:of|/)\s*\d+)?(?:\s*[:.)-]|\s+(?=\w))",
        r"(?i)^\W*(?:(?:please|pls|plz|now|next|then|first|just|so|ok|okay)\W+)?(?:pick|choose|select|"
        r"name|list|specify|enter|type|state|indicate|rank|describe) (?:(?:a|an|one|your|the|any|which|"
        r"what|how|whether|up to|\d)\b|\w+:)|"
        # a tool agent's imperative to set a filter ("Set max age rating.", "Set either or skip.")
        r"^\W*(?:(?:please|pls|plz|now|next|then|first|just|optionally)\W+)?(?:(?:set|define|apply|"
        r"add|give|provide) (?:(?:a|an|your|the|any|one)\s+)?(?:(?:max(?:imum)?|min(?:imum)?|preferred|"
        r"required|optional|either|both|upper|lower)\b|(?:\w+ )?(?:filters?|limits?|caps?|bounds?|"
        r"values?)\b)|set (?!(?:in|on|during|against|at|around|amid|among|off|up|out|aside|apart|to|"
        r"for|about|back|free|sail|the|a|an|it|this|that|them|me|you|us)\b)\w+(?: \w+)?(?:,| and| or|\W*$))|"
        + _REPLY_CHOICE,
    )
)
# Praise of the pick, however it is said ("critics rave about it", "audiences adored it").
_PRAISE = re.compile(
    r"(?i)\b(?:prais\w*|lov(?:e|es|ed|ing)|ador\w*|rav(?:e|es|ed|ing)|acclaim\w*|applaud\w*|"
    r"admir\w*|hail(?:s|ed)?|laud\w*|celebrat\w*|gush\w*|swoon\w*|commend\w*|"
    r"(?:big |huge )?hit with|darling of|glowing|warmly received|well received)\b"
)
# "..., or send the cast?": an offer's other option is another act, not another value.
_ACTION_OPTION = re.compile(
    r"(?i)\bor (?:(?:should|shall|can|could|would|do) (?:i|we) |maybe |perhaps |rather |instead |"
    r"just |would you (?:like|prefer) (?:me )?(?:to )?)?(?:send|check|look|show|tell|give|add|find|get|"
    r"put|pull|play|share|save|book|order|search|list|keep|start|open|read|email|text|ping|remind|"
    r"note|compare|suggest|recommend|try|see|go|do|make|leave|skip|stop|hold|wait|bookmark|queue|"
    r"reserve|remove|drop|swap|switch|change|set|write|explain|describe|summari[sz]e)\b"
)
# A bound asked of the field just named ("Scores vary, so what floor would you set?").
_BOUND = re.compile(
    r"(?i)\b(?:floor|ceiling|cut-?off|limit|minimum|maximum|min|max|threshold|cap|upper bound|"
    r"lower bound|bottom line)\b"
)
# A point of an enumeration ("Second, your diet.", "Third, what you want to spend.").
_ENUMERATED_POINT = re.compile(
    r"(?i)^\W*(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth(?:ly)?|finally|lastly)\s*[,:]"
)
# The pick as the subject of one predicate that states a fact ("X rated PG-13.", "X runs 2 h.").
_PICK_THEN_FACT = re.compile(
    r"(?i)^\W*"
    + TITLE_MARK
    + r"\s+(?:is |'s |was |has been )?(?:rated|runs|ran|lasts|has|gets|got|"
    r"scores|scored|sits|clocks|carries|holds|came|comes|streams|is|was|costs|contains)\b[^()]*$"
)
# A short question whose object is a pronoun standing for a noun named before ("Is there one?",
# "Got any?", "Anyone come to mind?"): it asks about what that noun names.
_STANDS_FOR = re.compile(
    r"(?i)^\W*(?:(?:so|and|well|then|ok|okay)\W+)?(?:(?:is|are) there (?:one|any|some|such)|"
    r"(?:do|did|would) (?:you|u) have (?:one|any|some|such)|(?:have )?(?:(?:you|u) )?got (?:one|any)|"
    r"any(?:one|body)?(?: (?:you|u) \w+)?(?: (?:come|comes|spring|springs) to mind)?|"
    r"which (?:one )?is yours|what'?s yours)\b[^?]{0,20}\?\s*$"
)
# An offer about the pick itself ("want me to check where it's streaming?"), not about the user.
_ON_THE_PICK = re.compile(
    r"(?i)^(?!.*\b(?:your|you|u|ur)\b).*\b(?:it|it's|this one|that one|them)\b"
)
# Options lettered or numbered on one line after a question ("A) funny B) scary").
_LETTERED = re.compile(r"^\W*(?:[A-Da-d]|[1-4])[).:]\s+\w[^\n]*\s(?:[B-Eb-e]|[2-5])[).:]\s+\w")
_LEAD_IN = re.compile(r"^[^:?\n]{3,40}:\s+(?=[a-z])")
_PAREN = re.compile(r"\([^()\n]*\)")
_MARKDOWN = re.compile(r"\*\*|__|`|~~|^#+\s*|(?<!\w)_(?!\w)", re.MULTILINE)
_SPLIT = re.compile(
    r"(?<=[?!])\s*|(?<=[.;])\s+|(?<=,)\s+(?=so\s)|\s+(?:—|--|–|→|->)\s+|(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF\u2300-\u23FF\uFE0F])\s+"
)

# A bare call for a verdict, alone or two in a row ("vibe check, yay or nay?").
_VERDICT = (
    r"interested|tempted|keen|game|yes or no|y/n|deal|sound good|good(?: enough)?|any good|vibes?|verdict|"
    r"yay or nay|yea or nay|in or out|wanna|(?:are |r )?(?:you|u) (?:in|down)|"
    r"sounds? (?:ok|okay|alright|fine|right|great)|vibe ?check"
)
# A request for the user's reaction to the item just put forward: what it thinks of it, or
# whether the agent should act on it. Its words ask about no field (read only in a message that
# puts an item forward; "Does that sound like your kind of thing?" alone, after a statement about
# tastes, still asks about them).
REACTION_REQUEST = re.compile(
    r"(?i)\b(?:(?:does|would|will|did|do) (?:that|this|it|these|those|either|any of (?:these|them|"
    r"those)|one of (?:these|them|those))(?: (?:one|story|film|movie|plot|premise|idea|pick|option|"
    r"title|product|item|choice|suggestion))? (?:sound|seem|look|feel|strike you|appeal|grab "
    r"you|interest you|tempt you|suit you|please you|satisfy you|speak to you|calls? to you|work for "
    r"you|work instead|do instead|do the trick|tickle your fancy|take your fancy|float your boat|"
    r"catch your eye|pique your interest|do it for you)|(?:sounds?|seems?|looks?) "
    r"(?:like )?(?:your (?:kind|sort|type|cup)|something you)|how (?:does|do|would) (?:that|this|"
    r"it|they|these|those)(?: one)? (?:sound|look|seem|strike you)|(?:is|would|could|might) "
    r"(?:that|this|it|either|one of (?:these|them))(?: one)? (?:be )?(?:your (?:kind|sort|type|"
    r"cup)|something you(?:'d| would)?(?: \w+)? (?:like|enjoy|want|watch|try|buy|be into|go for)|up "
    r"your (?:street|alley)|a (?:fit|match|yes|winner|good fit|contender|keeper))|(?:do you )?"
    r"(?:want|wanna|would you like|would you want|shall i|should i|can i|may i|could i|happy for "
    r"me|okay if i|ok if i)(?: me)?(?: to)? (?:go ahead and )?(?:check|look up|find out|see|add|"
    r"queue|book|put|save|lock|pull up|order|reserve|get|grab|confirm|start|set|pop|stick|line "
    r"up|note|bookmark|make it|finali[sz]e)\b|(?:want|wanna|would you like|do you want|fancy|"
    r"keen)(?: to)? (?:watch|see|try|give|giving|trying|watching|seeing|go with|go for|take|have)? ?(?:it|that|this|that one|"
    r"this one|them)\b|(?:you|u) (?:like|love|want|wanna|'d like|would like) to (?:watch|see|try|"
    r"give) (?:it|that|this|them)\b|what (?:do )?(?:you|u) (?:think|reckon)|(?:do )?(?:you|u) (?:like|love|want) "
    r"(?:it|that|this|them|that one|this one)(?=\W*$)|(?:(?:is|it is|it's) )?(?:it|that|this)(?: one)? "
    r"(?:is )?(?:ok|okay|good|fine|alright) for (?:you|u)(?=\W*$)|(?:any|your) thoughts|thoughts\?|your kind of "
    r"(?:thing|film|movie|vibe|product)|hits? the spot|up your (?:alley|street)|"
    r"(?:is|was|would) (?:that|this|it)(?: one)? (?:be )?(?:the |a )?(?:kind|sort|type|vibe|mood|feel|"
    r"style|thing)(?: of \w+)? (?:you|u)\b|(?:is|was|would) (?:that|this|it)(?: one)? (?:be )?(?:what "
    r"you|acceptable|agreeable|suitable|to your liking|more your speed|your speed|right for you|a good "
    r"(?:choice|pick|option|fit|match))|(?:does|would|will|did) "
    r"(?:that|this|it)(?: one)? (?:match|fit|suit) (?:your|the|what)|^\W*(?:is (?:it|that|this) )?"
    r"(?:good|ok|okay|fine|alright) (?:for|with) (?:you|u)\W*$|^\W*(?:is |any )(?:good|ok|okay|fine|"
    r"alright) (?:for|with) (?:you|u)\b|^\W*(?:is )?(?:good|ok|okay)\W*$|your cup of tea|worth a (?:try|"
    r"shot|watch|look|go)|give it a (?:try|shot|go|whirl)|^\W*(?:"
    + _VERDICT
    + r")(?:\W+(?:"
    + _VERDICT
    + r"))?\W*$)"
    r"(?:(?! or )[^?.!,;])*"
)
# An offer of facts about the item put forward ("Would you like the age rating too?", "Want more
# details about the plot or the cast?", "let me know if you want the runtime"): its object is the
# item's own (definite: "the", "its") or more information, not what the user wants of a film.
_INFO_OFFER = re.compile(
    r"(?i)\b(?:would you like|do you want|(?:you |u )?want|wanna|need|care for|(?:let me know|tell me|"
    r"just say|say) if (?:you|u) (?:want|'?d like|would like|need))(?: (?:me to (?:send|share|give "
    r"you|tell you|check|look up|pull up)|to (?:see|know|hear|get|have|read)))? (?:(?:the|its|their)"
    r"\b(?! (?:kids?|children|family|little ones|whole|same|other|next|first|second|last|one|film to|"
    r"movie to|product to|item to)\b)|(?:more|some|any|further|extra|full|a few|a bit more)\s+"
    r"(?:details?|info(?:rmation)?|facts|specifics|notes|about)\b)[^?.!;]*"
)
# Closing pleasantries and small talk: they ask nothing, whatever their words.
SMALL_TALK = re.compile(
    r"(?i)\b(?:have an? (?:good|great|nice|lovely|fun|wonderful|fab|brilliant|excellent) (?:one|"
    r"night|evening|day|weekend|time|watch|meal|week)|enjoy(?: (?:the|your) (?:\w+ ){0,2}\w+)?"
    r"(?=\W*$)|happy (?:watching|viewing|streaming|shopping|cooking|eating)|take care|good ?night|"
    r"cheers|(?:is there )?anything else (?:i can (?:help (?:you )?with|do for you)|you (?:need|want)|"
    r"you'?re after)|hope you (?:enjoy|like|love)(?: it| them| the \w+)?|hope (?:it|that|this) (?:helps|works|"
    r"suits|fits|does the trick)|talk "
    r"soon|see you|bye|thanks? (?:so much|a lot|again)?(?: for (?:chatting|your time|the chat))?|"
    r"my pleasure|you'?re welcome|glad (?:i could|to) help|any time|anytime|(?:gimme|give me|just|one) "
    r"(?:a )?(?:sec|second|moment|minute|mo)|hang on|hold on|"
    # asking for the user's time ("Got a minute?", "Do you have one more minute?")
    r"(?:got|have|spare|(?:do|can) (?:you|u) (?:have|spare)|have (?:you|u) got) (?:a |one |another |"
    r"one more |a few |two |a couple of )?(?:more )?(?:secs?|seconds?|moments?|minutes?|mins?|mo)"
    r"(?: (?:more|to spare|for me))?(?=\W*$))\b(?: (?:tonight|today|this (?:evening|weekend)|now|again|all|everyone))?"
)
# What a mood menu is made of: a mood, vibe or tone, and what a story makes one feel or do.
MOOD_CUE = (
    r"moods?",
    r"in the mood",
    r"vibes?",
    r"tones?",
    r"feel like watching",
    r"frame of mind",
    r"makes? (?:you|me|us) (?:laugh|cry|think|smile|jump|scream|gasp|feel \w+)",
    # not the pleasure of doing something ("the thrill of finding one nobody has seen")
    r"(?:a )?(?:good )?(?:laugh|cry|weep|scare|fright|thrill)(?! of \w+ing\b)",
    # what a story gives its audience, in the plural the usual English uses ("giggles or
    # goosebumps?", "chills, laughs or tears?")
    r"(?:belly )?laughs",
    r"giggles",
    r"chuckles",
    r"goose ?bumps",
    r"chills",
    r"thrills",
    r"shivers",
    r"tears",
    r"scares",
    r"frights",
    r"swoon(?:s|ing|y)?",
    r"butterflies",
    r"adrenaline",
    r"(?:a )?(?:good )?(?:sob|weepie|tear[- ]?jerker)",
    r"gripping",
    r"heart[- ]?warming",
    r"thought[- ]provoking",
    r"edge[- ]of[- ](?:your|the)[- ]seat",
    r"crav(?:e|ing)",
    r"cathar(?:sis|tic)",
    r"(?:a )?distraction",
    r"escapis[mt]",
    r"switch off",
    # The faces of a menu of moods written in emoji ("😂 or 😱 or 😭?").
    r"[\U0001F602\U0001F923\U0001F606\U0001F631\U0001F628\U0001F62D\U0001F972\U0001F622]",
)
# A pitch: what the item is (a kind of story, a plot) rather than a question about tastes.
_PITCH = re.compile(
    r"(?i)\b(?:(?:it'?s|this is|that'?s|is) an? (?:[\w,'-]+ ){0,8}(?:film|movie|story|tale|"
    r"picture|flick|documentary|drama|comedy|thriller|romance|western|mystery|adventure|"
    r"fantasy|musical)\b|follows|following|tells? (?:the )?story|cent(?:er|re)s? on|set (?:in|"
    r"on|during|against)|about (?:a|an|the|two|three|how)\b(?! (?:year|month|week|day|hour|minute|"
    r"decade|half|same|score|price)s?\b)|in which|where (?:a|an|the|two)\b|"
    r"plot|premise|synopsis|storyline|the story)"
)


def _ends_a_list(segment: str, text: str) -> bool:
    """Is this segment the last item of a list in the text (a check after it is about the whole
    list, not its last item)?"""
    return bool(_list_item(segment[:30]).search(_MARKDOWN.sub("", text)))


@functools.lru_cache(maxsize=4096)
def _list_item(head: str) -> re.Pattern[str]:
    """A list item starting with `head` (compiled once per head: a new pattern per call pushed
    the module's own patterns out of `re`'s cache, which then compiled them again)."""
    return re.compile(r"(?m)^\s*(?:[-*•·–]|\d+[.)])\s+(?:\[[ xX✓]\]\s*)?\W*" + re.escape(head))


def _names_next(segment: str, text: str) -> bool:
    """Is this segment followed, across a dash or a colon, by the item it puts forward ("how
    about another romance with music - X, where ...")?"""
    return bool(re.search(re.escape(segment) + r"\s*(?:—|--|–|:)\s*[\W_]{0,3}" + TITLE_MARK, text))


def is_small_talk(segment: str) -> bool:
    """Does this sentence only chat (a closing pleasantry, thanks), asking nothing?"""
    rest = SMALL_TALK.sub(" ", segment)
    return bool(SMALL_TALK.search(segment)) and not re.search(r"\w{3,}", rest)


def asks_reaction(segment: str) -> bool:
    """Does this question ask for a reaction to the item put forward (or to act on it)?"""
    return bool(REACTION_REQUEST.search(segment) or _INFO_OFFER.search(segment))


def describes(statement: str) -> bool:
    """Does this sentence describe an item: its kind of story, or its plot?"""
    return bool(_PITCH.search(statement))


def nothing_fits_pattern(nouns: Iterable[str]) -> re.Pattern[str]:
    """The words that say nothing in the catalog fits, for a domain's item nouns ("movie",
    "product"). Words only: abstaining is what a domain's tools say (`recommend()` with no id);
    a reading's `nothing_fits` lets the user answer such a message in kind."""
    item = "|".join(sorted({re.escape(n) for n in nouns}, key=lambda n: (-len(n), n)))
    return re.compile(
        r"(?i)\b(?:nothing (?:in|that|fits|matches|quite|meets|ticks|checks|satisfies|here|really|"
        r"suitable|available|we (?:have|carry|stock)|i (?:found|could|can)|comes close|works)|"
        rf"no (?:{item}|match|option|single|one)s?\b|"
        r"(?:i|we)(?:'m| am)? (?:couldn'?t|could not|can'?t|cannot|unable to|wasn'?t able to|was not "
        r"able to|didn'?t|did not|don'?t|do not|failed to) (?:find|locate|turn up|come up with|"
        r"surface|spot|see|have)|(?:couldn'?t|could not|wasn'?t able to|was unable to|failed to|"
        r"unable to) (?:find|locate|turn up|come up with|surface)|"
        r"none (?:of|that|fit|match|meet|satisf)|doesn'?t exist|does not exist|"
        r"(?:isn'?t|is not|aren'?t|are not|wasn'?t|there'?s no|there is no) (?:anything|a (?:single )?"
        rf"(?:{item}|match|option)|any (?:{item}|match|option)s?)|no good match|"
        r"no suitable|abstain|came up (?:empty|short|dry)|com(?:e|es|ing) up (?:empty|short|dry)|"
        r"draw(?:n|ing)? a blank|no luck|out of (?:luck|options)|empty[- ]handed|"
        rf"(?:not|no) (?:a )?(?:single )?(?:one|{item})s? (?:that )?(?:fits|meets|matches|"
        r"satisfies|ticks|checks)|(?:falls?|fell) short|won'?t (?:force|push) a pick|"
        r"(?:rather|better) not (?:recommend|suggest|force)|can'?t (?:in good conscience )?recommend|"
        r"without (?:breaking|bending|compromising)|every (?:option|candidate|title|item|product) "
        r"(?:breaks|misses|fails)|nothing (?:left|else)|(?:no|zero) (?:results|hits|matches))"
    )


def spelling_fixer(typos: Mapping[str, str]) -> Callable[[str], str]:
    """A function that rewrites each whole word of `typos` (a chat spelling or a common slip,
    lower case) as the word meant, in any case ("Whats your budegt" -> "Whats your budget")."""
    if not typos:
        return lambda text: text
    words = sorted(typos, key=lambda w: (-len(w), w))
    pattern = re.compile(
        r"(?i)(?<![\w'.-])(" + "|".join(re.escape(w) for w in words) + r")(?![\w'-]|\.\w)"
    )
    return lambda text: pattern.sub(lambda m: typos.get(m.group(1).lower(), m.group(1)), text)


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def near_miss_fixer(
    words: Iterable[str], shortest: int = 6, english: Iterable[str] = ()
) -> Callable[[str], str]:
    """A function that rewrites a slip of the keyboard on one of `words` as the word ("procsesed",
    "prcoessed", "reveiws" -> "processed", "reviews"): one letter swapped with its neighbour,
    changed, missing or doubled, in a word of at least `shortest` letters that begins and ends
    as the word does. Words already spelt right, the English words one slip from a cue that
    `english` lists ("screams" is not "streams"), and every other word, are left alone."""
    known = {w.lower() for w in words if len(w) >= shortest}
    real = {w.lower() for w in english}
    nearest: dict[str, str] = {}
    for word in sorted(known):
        for key in (word, *sorted(_deletions(word))):
            nearest.setdefault(key, word)

    def fix(match: re.Match[str]) -> str:
        token = match.group(0)
        lowered = token.lower()
        if lowered in known or lowered in real or len(lowered) < shortest - 1:
            return token
        for key in (lowered, *sorted(_deletions(lowered))):
            word = nearest.get(key)
            if word and word[0] == lowered[0] and word[-1] == lowered[-1] and word != lowered:
                return word
        return token

    return lambda text: re.sub(r"[A-Za-z]{5,}", fix, text)


def compile_words(fragments: Iterable[str], boundary: str = r"\w") -> re.Pattern[str]:
    """One case-blind pattern matching any fragment as whole words, the longest first (a word
    is bounded by no `boundary` character on either side).

    Fragments of one length are ordered by their text (they may come in a set's order, which
    changes with each process's hash seed), so the pattern is the same in every process.
    """
    ordered = sorted(set(fragments), key=lambda f: (-len(f), f))
    return re.compile(rf"(?i)(?<!{boundary})(?:" + "|".join(ordered) + rf")(?!{boundary})")


def _blank(pattern: re.Pattern[str], text: str) -> str:
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


@dataclass(frozen=True)
class FieldVocabulary:
    """What a domain gives the kit's field reader: its fields and the words that ask about them.

    `strong` are tried in order (a span claimed by an earlier field is not read again); `weak`
    cues count only in a question no strong word is about. `not_a_field` blanks phrases whose
    field words mean something else; `normalise` fixes typos and chat spellings first.
    `mood_field` is the field a mood, vibe or tone question asks about; `described_field` a field
    that words in a question naming an item describe rather than ask (a pitch's "a tense
    thriller"); `person_fields` the fields of people, read by the domain's `people` callback.
    `topic_word` and `value_item` tell a questionnaire's items ("Genre", "Time available") from a
    recap's ("Under 100 min"); `value_list` matches an item made only of values.
    """

    strong: Mapping[str, tuple[str, ...]]
    weak: Mapping[str, tuple[str, ...]]
    not_a_field: re.Pattern[str]
    normalise: Callable[[str], str]
    topic_word: re.Pattern[str]
    value_item: re.Pattern[str]
    value_list: re.Pattern[str]
    mood_field: str | None = None
    described_field: str | None = None
    person_fields: tuple[str, ...] = ()
    boundary: str = r"\w"


People = Callable[[str], list[str]]


class FieldReader:
    """Segments messages and reads the fields their questions ask, for one domain's vocabulary."""

    def __init__(self, vocabulary: FieldVocabulary) -> None:
        self.vocabulary = vocabulary
        v = vocabulary
        mood = (v.mood_field,) if v.mood_field else ()
        self._strong = tuple(
            (f, compile_words(words + (MOOD_CUE if f in mood else ()), v.boundary))
            for f, words in v.strong.items()
        )
        self._weak = tuple(
            (f, compile_words(v.weak[f], v.boundary)) for f in v.strong if f in v.weak
        )
        self._mood = compile_words(MOOD_CUE) if v.mood_field else None

    def _list_kinds(self, lines: list[str]) -> list[bool]:
        """Per line: is it an item of a questionnaire (True) rather than of a recap, pitch or plan?"""
        v = self.vocabulary
        kinds = [False] * len(lines)
        number = 0
        while number < len(lines):
            if not BULLET.match(lines[number]):
                number += 1
                continue
            header = v.normalise(lines[number - 1]) if number else ""
            block = []
            while number < len(lines) and BULLET.match(lines[number]):
                block.append(number)
                number += 1
            items = [re.sub(r"\([^)]*\)", "", BULLET.sub("", lines[i])).strip() for i in block]
            if any(_CHECKBOX.match(lines[i]) for i in block):
                asks = False  # a checklist of what is done
            elif TITLE_MARK in header and not any(item.endswith("?") for item in items):
                asks = False  # the facts of the item just put forward ("How about X?" + a list)
            elif _QUESTION_HEADER.search(header) or (
                header.rstrip().endswith(":")
                and _QUESTION_START.match(re.split(r"(?<=[.!?])\s+", header)[-1])
                and not _RECAP_HEADER.search(header)
            ):
                asks = True  # "Would you accept:" over its options asks, as "Questions:" does
            elif _RECAP_HEADER.search(header) or TITLE_MARK in header:
                asks = False
            else:
                # No telling header: a list of topics asks, a list of values restates.
                topics = sum(
                    1
                    for item in items
                    if v.topic_word.search(item) and not v.value_item.search(item)
                )
                values = sum(
                    1 for item in items if v.value_item.search(item) or v.value_list.search(item)
                )
                asks = topics > values
            for i in block:
                kinds[i] = asks
        return kinds

    def segments(self, text: str) -> list[tuple[str, bool]]:
        """The message's sentences (and list items), each with whether it asks something.

        Small talk asks nothing ("Have a good one?", "Enjoy!")."""
        text = readable(text)
        # A parenthesis is one aside (a pitch's "(€1.84; Nutri-Score B)"): never split.
        clean = _PAREN.sub(lambda m: m.group(0).replace(";", ","), _MARKDOWN.sub("", text))
        lines = [line for line in clean.splitlines() if line.strip()]
        out: list[tuple[str, bool]] = []
        kinds = self._list_kinds(lines)
        for number, line in enumerate(lines):
            bullet = bool(BULLET.match(line))
            questionnaire = bullet and kinds[number]
            body = BULLET.sub("", line)
            parts = [p.strip() for p in _SPLIT.split(body) if p.strip()]
            if (
                not bullet
                and len(lines) == 1
                and not _PUNCTUATED.search(body)
                and not _QUESTION_START.match(body)
            ):
                parts = [p.strip() for p in _RUN_ON_QUESTION.split(body) if p.strip()]
            # "Tell me:" over a questionnaire: its items ask, the header itself asks nothing.
            heads_questionnaire = (
                not bullet
                and line.rstrip().endswith(":")
                and number + 1 < len(lines)
                and kinds[number + 1]
            )
            for part in parts:
                unpunctuated = not re.search(r"[.!]$", part)
                if heads_questionnaire and part is parts[-1]:
                    out.append((part, False))
                    continue
                if part is not parts[0] and out and out[-1][1] and _PURPOSE_CLAUSE.match(part):
                    out.append((part, False))  # what the question just asked is for
                    continue
                recap = _LEAD_IN.match(part)
                if (
                    part.endswith(".")
                    and recap
                    and _RECAP_HEADER.search(recap.group(0))
                    and not _ASKING_CUE.search(part)
                ):
                    # "Where we are: you want a horror film, you have Shudder.": a recap under
                    # its lead-in states what the user said, however its clauses begin
                    out.append((part, False))
                    continue
                if part.endswith(".") and (_NOTED.match(part) or _DOES_NOT_MATTER.match(part)):
                    # what the writer has noted, or says does not matter, however it is worded
                    out.append((part, False))
                    continue
                if (
                    part.endswith(".")
                    and (
                        _DROPPED_SUBJECT.match(part)
                        or _CONDITIONAL.match(part)
                        or (describes(part) and not _QUESTION_START.match(part))
                    )
                    and not _ASKING_CUE.search(part)
                ):
                    out.append((part, False))  # a pitch or a described item, not a question
                    continue
                asks = part.endswith("?") or (
                    (not bullet or questionnaire)
                    and (
                        bool(_QUESTION_START.match(part))
                        or bool(_QUESTION_START.match(_LEAD_IN.sub("", part, count=1)))
                        or bool(_IMPERATIVE_ASK.match(part))
                        or bool(_IMPERATIVE_ASK.match(_LEAD_IN.sub("", part, count=1)))
                        or bool(_QUESTION_LABEL.match(part))
                        or bool(_BLANK_FIELD.match(part))
                        or bool(_ASKING_CUE.search(part))
                        or (bullet and questionnaire and len(part.split()) <= 12)
                        or (bool(_LABEL_ONLY.match(part)) and questionnaire)
                        or (
                            unpunctuated
                            and not bullet
                            and not part.endswith(",")  # the sentence goes on ("..., so ...")
                            and bool(_EITHER_OR.search(part))
                            and len(lines) == 1
                            and len(part.split()) <= 10
                            and not re.search(r"(?i)\b(?:i|i'm|i've|we|there)\b", part)
                        )
                    )
                )
                out.append((part, asks and not is_small_talk(part)))
        return out

    def fields_in(
        self, segment: str, *, described: bool, reacting: bool = False, strong_only: bool = False
    ) -> list[tuple[int, str]]:
        """(position, field) of each field a question segment is about, earlier fields first.

        `described`: the question names an item (its words describe it, and ask only whether
        it suits); `reacting`: the message puts an item forward (a reaction request asks nothing);
        `strong_only`: read no weak cue.
        """
        v = self.vocabulary
        if described and not _SUITS_YOU.search(v.normalise(segment)):
            return []
        body = _GIVEN_CLAUSE.sub(lambda m: " " * len(m.group(0)), segment)
        described_reference = _DESCRIBES_REFERENCE.search(body)
        if described_reference:
            start, end = described_reference.span("clause")
            body = body[:start] + " " * (end - start) + body[end:]
        body = _blank(SMALL_TALK, body)
        if reacting:
            body = _blank(_INFO_OFFER, _blank(REACTION_REQUEST, body))
        # a field's name in code ("nutriscore_min", "country_of_origin") is its words
        body = CODE_UNDERSCORE.sub(" ", body)
        lowered = _blank(v.not_a_field, v.normalise(body).lower())
        conceded = _CONCESSION.search(lowered)
        if conceded and self._names_a_field(lowered[: conceded.start()]):
            lowered = _blank(_CONCESSION, lowered)  # "X only, even if it costs more?" asks X
        taken = [False] * len(lowered)
        found: list[tuple[int, str]] = []
        for table in (self._strong,) if strong_only else (self._strong, self._weak):
            if found:
                break  # weak cues count only in a question no strong word is about
            for field, pattern in table:
                if described and field == v.described_field:
                    continue  # "Would you like X, a tense thriller?" describes X, asks no genre
                for match in pattern.finditer(lowered):
                    if any(taken[match.start() : match.end()]):
                        continue
                    for i in range(match.start(), match.end()):
                        taken[i] = True
                    found.append((match.start(), field))
        return found

    def _names_a_field(self, lowered: str) -> bool:
        return any(pattern.search(lowered) for _field, pattern in self._strong)

    def statement_fields(self, segment: str) -> list[str]:
        """The fields a statement gives facts on ("It's 109 minutes." -> runtime)."""
        found = self.fields_in(segment, described=False)
        return list(dict.fromkeys(field for _pos, field in sorted(found)))

    def read_fields(
        self, text: str, people: People | None = None, *, reacting: bool = False
    ) -> tuple[str, ...]:
        """The fields a message (items replaced by `TITLE_MARK`) asks about, in order."""
        text = readable(text)
        order: dict[str, None] = {}
        segments = self.segments(text)

        def fields_of(segment: str, *, asks: bool) -> list[str]:
            described = asks and (TITLE_MARK in segment or _names_next(segment, text))
            # A question that asks for a reaction to the item reads only words that name a field
            # outright ("does that appeal, or is it too heavy?" asks how it lands, not the genre).
            # an offer of a choice between values asks the field they are values of
            to_pick = reacting and not (asks and self._offers_alternatives(segment))
            found = self.fields_in(
                segment,
                described=described,
                reacting=asks and to_pick,
                strong_only=asks
                and to_pick
                and asks_reaction(segment)
                and not _OR_ASKS_YOU.search(segment),
            )
            fields = [field for _pos, field in sorted(found)]
            if described:
                plain = self.vocabulary.normalise(segment)  # chat spellings ("u like thier stuff?")
                if not (_SUITS_YOU.search(plain) or _ABOUT_PERSON.search(plain)):
                    return fields  # "May I put forward X, in which <actor> shines?" describes X
            return fields + [f for f in (people(segment) if people else []) if f not in fields]

        for index, (segment, asks) in enumerate(segments):
            if not asks:
                continue
            answer, answer_asks = segments[index + 1] if index + 1 < len(segments) else ("", True)
            if not answer_asks and _SELF_ANSWER.match(answer):
                continue  # "rated R? nah, it's fine.": the writer answers it at once
            if (
                (reacting or _ON_THE_PICK.search(_OFFER.sub("", segment)))
                and _OFFER.match(segment)
                and not _CHANGES_SEARCH.search(segment)
                and not self._offers_alternatives(segment)
            ):
                continue  # "want me to check where it streams?": an offer to act on the pick
            if _TAG_QUESTION.search(segment):
                continue  # "Good value, right?": the writer asserts, asking only for agreement
            if (
                answer_asks
                and _PURPOSE_BACK.match(answer)
                and self.fields_in(answer, described=False, strong_only=True)
            ):
                # "Scary or upsetting - what's the difference for you? Knowing that helps me judge
                # how much violence you're comfortable with.": the next sentence names what the
                # answer is for; the question's own words are only the way to get at it.
                continue
            lead, lead_asks = segments[index - 1] if index else ("", False)
            if self._continues_mood_menu(segment, lead, lead_asks):
                found = [self.vocabulary.mood_field or ""]
            elif menu_of := self._menu_of(segment, lead, lead_asks, text):
                # "Which services can you reach - MUBI, Criterion, something more mainstream?":
                # the options of the question before the dash ask what it asks.
                found = [f for f in fields_of(segment, asks=True) if f in menu_of]
            elif (
                not (reacting and asks_reaction(segment))
                and self._is_lead(lead, segment, text)
                and not self.fields_in(segment, described=False, strong_only=True)
            ):
                # "Palm oil - avoid it?": the question's topic is named just before the dash.
                found = fields_of(f"{lead}, {segment}", asks=True)
            else:
                found = fields_of(segment, asks=True)
            if not found and not answer_asks and _LETTERED.match(answer):
                # "Which one do you like more? A) funny B) scary C) sad": the options that follow
                found = fields_of(answer, asks=False)
            if not found:
                found = self._asked_back(segments, index, fields_of, text, reacting=reacting)
            plain = not (found or answer_asks or (reacting and asks_reaction(segment)))
            uses = _USES_THE_ANSWER.match(answer) if plain else None
            if uses and (uses.group("condition") or _POINTS_BACK.search(uses.group("rest"))):
                found = fields_of(answer, asks=False)  # "... I can find a film with that actor"
            for field in found:
                order.setdefault(field, None)
        return tuple(order)

    def _offers_alternatives(self, segment: str) -> bool:
        """Does an offer give the user a choice between values of a field ("Shall I order just
        one, or more than one?", "Should I add the small pack or the big one?")? It asks that
        field, as the same choice without the offer would."""
        offer = _OFFER.match(segment)
        return (
            offer is not None
            and bool(_EITHER_OR.search(segment, offer.end()))
            and not _ACTION_OPTION.search(segment, offer.end())
            and bool(self.fields_in(segment[offer.end() :], described=False, strong_only=True))
        )

    def _continues_mood_menu(self, segment: str, lead: str, lead_asks: bool) -> bool:
        """Is this question the menu of the mood question just before it ("What tone are you
        after? Something from a bold storyteller, or comfort viewing?"), naming no other field
        outright ("Plus, short and snappy or a long marathon?" asks the length)?"""
        return (
            self._mood is not None
            and lead_asks
            and bool(self._mood.search(lead))
            and not _QUESTION_START.match(segment)
            and not any(
                field != self.vocabulary.mood_field
                for _pos, field in self.fields_in(segment, described=False, strong_only=True)
            )
            and bool(re.search(r"(?i)\bor\b|^\W*(?:something|maybe|perhaps|like|e\.g\.)", segment))
        )

    def _menu_of(self, segment: str, lead: str, lead_asks: bool, text: str) -> set[str]:
        """The fields of the question this one continues as its menu of options, across a dash
        or a colon, when the options name values of those fields (else none)."""
        if not lead_asks or _QUESTION_START.match(segment):
            return set()
        if not re.search(re.escape(lead) + r"\s*(?:—|--|–|:)\s+" + re.escape(segment[:12]), text):
            return set()
        asked = {f for _pos, f in self.fields_in(lead, described=False, strong_only=True)}
        named = {f for _pos, f in self.fields_in(segment, described=False, strong_only=True)}
        return asked if asked & named and named - asked else set()

    def _is_lead(self, lead: str, segment: str, text: str) -> bool:
        """Is this fragment a short topic lead-in before a dash ("Palm oil - avoid it?", "How
        about brands - any you'd rather skip?") naming a field outright?"""
        dash = re.escape(lead) + r"\W*\s(?:—|--|–|→|->)\s+\W*" + re.escape(segment[:12])
        place = text.find(lead)
        # the cheap tests first: the search over the whole text runs only for a short lead that
        # ends in no sentence mark (a run of "?" used to search once per segment: cubic)
        return (
            bool(lead)
            and len(lead.split()) <= 5
            and not re.search(r"[.!?:]$", lead)
            and TITLE_MARK not in lead
            # the last fact of a line that names the item ("X 🎬 <cast> 🎥 comedy - go?")
            and TITLE_MARK not in text[text.rfind("\n", 0, max(place, 0)) + 1 : max(place, 0)]
            and bool(self.fields_in(lead, described=False, strong_only=True))
            and bool(re.search(dash, text))
        )

    def _asked_back(
        self,
        segments: list[tuple[str, bool]],
        index: int,
        fields_of: Callable[..., list[str]],
        text: str,
        *,
        reacting: bool = False,
    ) -> list[str]:
        """The fields a question that names none asks by pointing back at what was just said.

        "It's rated R. Is that okay?" asks about the fact just stated, when it is one fact;
        "Some love new releases, others older films. Where do you land?" about all of them;
        "It stars <actor>. Are you a fan?" about the cast. A question right after the sentence
        that puts an item forward asks what the user thinks of the item.
        """
        v = self.vocabulary
        segment = segments[index][0]
        found: list[str] = []
        gathered: list[str] = []
        listed: list[list[str]] = []  # the fields of each sentence gathered, in the text's order
        if reacting and _PUTS_FORWARD.search(segment):
            return []  # "A is cheaper than B. I suggest A, okay?": the question is the proposal
        if reacting and _ABOUT_THE_PICK.search(segment):
            return []  # "It is on Netflix. Was this recommendation helpful?": the pick as a whole
        if _CHOOSE_AMONG.search(segment) and text.count(TITLE_MARK) > 1:
            # "I have two: A and B. Both are rated PG. Which would you prefer?": a choice between
            # the items put forward, not a question about the facts they share.
            return []
        if (
            _OPINION_BACK.search(segment) or _WHICH_ONE.search(segment) or _FILL_IN.search(segment)
        ) and TITLE_MARK not in text:
            # "Options: - drop the age-rating filter - switch genre. Which would you prefer?"
            for back in (1, 2, 3):
                if index - back < 0:
                    break
                point, point_asks = segments[index - back]
                if point_asks and not _ENUMERATED_POINT.match(point):
                    break  # a point of an enumeration is gathered even when it asks itself
                listed.insert(0, fields_of(segments[index - back][0], asks=False))
                gathered += listed[0]
        if gathered:
            # a request to fill in what was listed keeps the list's order
            in_order = [f for fields in listed for f in fields]
            ordered = in_order if _FILL_IN.search(segment) else reversed(gathered)
            found = list(dict.fromkeys(ordered))
        for back in (1, 2):
            if found or index - back < 0 or segments[index - back][1]:
                break
            previous = segments[index - back][0]
            if back == 1 and not _OPINION_BACK.search(segment) and _ends_a_list(previous, text):
                break  # "Here's my plan: 1. ... 3. Pick the best-reviewed one. Sound okay?"
            alternative = previous.split(TITLE_MARK)[-1]
            if (
                TITLE_MARK in previous
                and _OPINION_BACK.search(segment)
                and re.search(r"(?i)\bor\b", alternative)
                and _CHANGES_SEARCH.search(alternative)
            ):
                # "X, or I can look in another genre - which do you prefer?": the alternative
                # to the pick changes the field it names.
                found = fields_of(alternative, asks=False)
                break
            # a clause of its own after "but" ("but it only gets a D"; not "but shorter")
            flagged = _BUT_CLAUSE.split(previous.split(TITLE_MARK)[-1])
            checks_the_pick = reacting and TITLE_MARK in previous and _SUITS_YOU.search(segment)
            flaw = (
                set(fields_of(flagged[-1], asks=False))
                if checks_the_pick and len(flagged) > 1
                else set()
            )
            # a person named to explain the shortcoming is not a second one ("it's rated R for a
            # reason: <actor> doesn't hold back")
            flaw = flaw - set(v.person_fields) or flaw
            if len(flaw) == 1:
                # "I have X, but it only gets a D. Is that okay for you?", "X is little known,
                # only 225 votes. Okay?", "X is fun - fair warning: it's rated R. Fine?": a check
                # straight after the one shortcoming the pick's own sentence flags asks about it.
                found = sorted(flaw)
                break
            # "X rated PG-13. ok?": a bare check on a pick whose sentence is one bare fact
            # (the pick the subject, the fact its predicate; not "Pick: X (PG-13). OK?", which
            # puts the pick forward with its facts attached)
            bare_fact = (
                bool(_PICK_THEN_FACT.match(previous))
                and len(previous.split(TITLE_MARK)[-1].split()) <= 4
                and bool(_BARE_CHECK.match(segment))
            )
            if (
                reacting
                and not _ABOUT_THE_KIND.search(segment)
                and not bare_fact
                and (
                    (describes(previous) and not _ABOUT_PERSON.search(segment))
                    or (
                        TITLE_MARK in previous
                        and (asks_reaction(segment) or _OPINION_BACK.search(segment))
                        and not _ABOUT_PERSON.search(segment)
                        and not _DESPITE.search(segment)
                    )
                )
            ):
                # A general check after a pitch asks nothing ("It's a thriller about ... and runs
                # 104 minutes. Would that do?"), nor after the sentence that puts an item
                # forward ("Y is €1.99. Would that work instead?", "A or B. Which do you prefer?").
                break
            # A pitch's kind of story is not asked back ("It's a horror film where ... Does that
            # sound like your kind of thing?"); one plain fact about it is ("It leans hard into
            # science fiction - is that your kind of thing?").
            plain_fact = (asks_reaction(segment) and not describes(previous)) or bool(
                _ABOUT_THE_KIND.search(segment)
            )
            before = list(
                dict.fromkeys(
                    f
                    for f in fields_of(previous, asks=False)
                    # with no item in the message there is no pitch whose kind it could be
                    if f != v.described_field or plain_fact or TITLE_MARK not in text
                )
            )
            if not before:
                if re.search(r"\d", previous):
                    continue  # "reviewers weren't kind - it sits at 4.7. Can you live with that?"
                if TITLE_MARK not in text and _STANDS_FOR.match(segment):
                    # "Directors leave a mark. If one's work stayed with you, say so. Is there
                    # one?": the pronoun stands for the noun named before the sentence between
                    continue
                break
            if reacting and not (_OPINION_BACK.search(segment) or _ABOUT_PERSON.search(segment)):
                # The facts of one sentence, its parts joined by semicolons ("Rated G; family; a
                # 98-minute finish. Is that to your taste?").
                sentence = [previous]
                j = index - back - 1
                while j >= 0 and not segments[j][1] and segments[j][0].endswith(";"):
                    sentence.append(segments[j][0])
                    j -= 1
                if (
                    TITLE_MARK not in previous
                    and len(flagged) == 1
                    and _PRAISE.search(previous)
                    and not re.search(r"\d", previous)
                ):
                    # praise closing a pitch told over several sentences ("X: a comedy of 93
                    # minutes, rated PG-13. Critics love the camera work. Fitting for you?") is
                    # no fact to accept: the check is on the pitch as a whole
                    while j >= 0 and not segments[j][1]:
                        sentence.append(segments[j][0])
                        if TITLE_MARK in segments[j][0]:
                            break
                        j -= 1
                    else:
                        sentence = sentence[:1]
                stated = {
                    f
                    for part in sentence
                    for f in fields_of(part, asks=False)
                    if f not in v.person_fields
                }
                if len(stated) > 1:
                    break  # "It's a thriller and runs 151 minutes. Is it okay for you?"
            if _LOOSENING_IF.search(previous) and _BARE_CHECK.match(segment):
                found = before  # "If you accept a lower score, I find some. You accept?"
                break
            people_only = [f for f in before if f in v.person_fields]
            # "It's rated PG-13 - does that work?": one sentence; "It's on Hulu. Does that
            # work?" asks whether the pick as a whole suits, not about the services.
            short = len(previous.split()) <= 5 and not re.search(r"[.!]$", previous)
            tiny_check = len(segment.split()) <= 4 and re.search(
                r"(?i)\b(?:ok|okay|fine|alright)\b", segment
            )
            suits = _SUITS_YOU.search(segment) or tiny_check
            if _ABOUT_PERSON.search(segment) and people_only:
                found = people_only
            elif (
                _OPINION_BACK.search(segment)
                or (len(before) == 1 and (suits or (short and _SUITS_YOU_WEAK.search(segment))))
                or (TITLE_MARK not in text and _STANDS_FOR.match(segment))
                or (
                    len(before) == 1
                    and (bare_fact or _ABOUT_THE_KIND.search(segment) or _BOUND.search(segment))
                )
                # a request that names no field ("If one comes to mind, telling me would help.")
                # is about the field of the sentence before
                or (TITLE_MARK not in text and bool(_HELP_IF_RE.match(segment)))
            ):
                found = before
            break
        return found

    def describes(self, text: str) -> bool:
        """Does a message (items replaced by `TITLE_MARK`) describe an item it names: a pitch?

        A statement beside the item that gives its kind (the described field's words) or its
        story; questions about tastes describe nothing."""
        v = self.vocabulary
        if TITLE_MARK not in text:
            return False
        for segment, asks in self.segments(text):
            if asks and TITLE_MARK not in segment:
                continue
            if describes(segment) or (
                v.described_field is not None
                and v.described_field in self.statement_fields(segment)
            ):
                return True
        return False
