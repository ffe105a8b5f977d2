"""Which items a message puts forward, read the same way for every domain.

A domain's reader finds the items a message names (titles, products: `spans`); the kit decides
which of them are put forward for the user to take now. An item is not put forward when it is a
comparison or a reference ("a bit like X", "instead of X", "X, which you've seen"), ruled out ("X
runs far too long", "skipping X", a list under "Ruled out:"), retracted ("X - no, scratch that"),
named only as seen, or set aside in a message that says nothing fits - unless the message offers
it after all ("the closest is X, though it runs long - want it?"). Of several items, a list of
options puts all forward; otherwise the ones framed as the pick ("my pick is Y"), else the last.
A domain adds what is its own: words that name an item in passing (`passing_before`,
`passing_after`: "X is out of stock", "your usual X") and a rule for names that are places in
another item's story (`plot_word`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from runner.kits.user.reader import BULLET

__all__ = ["PlotWord", "ProposalReader", "Span"]

# (start, end, item id) of one item named in a text.
Span = tuple[int, int, str]
# (item id, the other ids named, the text before it, the text after it) -> is it only a word
# inside the story of another item the message names?
PlotWord = Callable[[str, set[str], str, str], bool]
Segments = Callable[[str], list[tuple[str, bool]]]

_GAP = r"[\s\"'“‘*_(~]*(?:(?:the|a|an|another|other|the other) )?[\s\"'“‘*_(~]*$"
# A cue right before a title that makes it a reference, not a proposal ("a bit like X").
_REFERENCE_BEFORE = re.compile(
    r"(?i)(?:(?:a bit|a little|a lot|much|just|kind of|sort of|kinda|sorta|rather|very|not un|something|"
    r"feels|felt|looks|films?|movies?|titles?|ones|stuff|things)\s+like|(?:^|[.!?\n]\s*)like|"
    # "smth around 90 min like X?": what is wanted, likened to X (not "something you'd like")
    r"\b(?:something|smth|sth|anything|stuff)\b(?:(?!\b(?:you|u)\b)[^.?!\n]){0,30}\blike|"
    r"\ban? (?:[\w-]+ ){1,3}like|similar (?:\w+ ){0,3}(?:to|as|with)|reminiscent of|owes? (?:a|its) "
    # an example set off by a comma ("a film from around 2025, like X, ..."); a likeness shared
    # ("shares a great deal with X", "has much in common with X"); "think X, but colder"
    r"(?:debt|nod) to|[\w-],\s*(?:like|such as|say)|shar(?:es?|ing) (?:[\w-]+ ){0,3}with|in common with|"
    r"(?:close|closest|near|nearest|kin) to|along the lines of|not far from|resembl\w*|remind\w* "
    r"(?:\w+ )?of|calls? to mind|channel(?:s|ling|ing)|(?:^|[;,.:!?(—–-]\s*)think|"
    # a record's reference field ("ref: X", "baseline = X")
    r"\b(?:ref|reference|baseline|benchmark|for comparison|comparison)\s*[:=]|"
    r"(?<!you )(?<!'d )(?<!would )(?<!\bi )\blike (?:a|an|the) (?:[\w-]+ ){1,2}|"
    r"(?:sequel|successor|prequel|follow[- ]up|companion|answer|heir|cousin|sibling|twin|counterpart|"
    r"equivalent)(?:[- ][\w-]+){0,3} (?:to|of)|(?:has|have|with|got|offers?|brings?|shares?) (?:all |"
    r"much of |some of )?the (?:[\w-]+ ){1,2}of|"
    r"owes? (?:a|its) "
    r"(?:\w+ )?debt to|indebted to|borrows? from|inspired by|(?:a bit|a touch|a dash|a hint|a little|shades|"
    r"echoes|traces|notes|elements|a whiff) of|in the (?:vein|spirit|style|mould|mold|register|manner|key|"
    r"tradition) of|same (?:[\w-]+ ){0,4}as|(?:is|'s|was) (?:basically|essentially|pretty much|"
    r"practically|more or less)|\b(?:as|so) \w+ as|compar(?:e|es|ed|ing)(?: (?:it|them|this|that))? (?:to|with)|fans? of|"
    r"if you (?:liked|loved|enjoyed|dug|like|love|enjoy)|since you (?:liked|loved|enjoyed|rated|"
    r"watched|saw)|you (?:liked|loved|enjoyed|rated|watched|saw|told me|said|mentioned)|you've (?:seen|watched|enjoyed|"
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
    r"(?:is|was) (?:a )?(?:miss|no-go|non-starter)|among them|for (?:instance|example)|e\.g\.|"
    r"(?:is|was) (?:one of )?your (?:[\w-]+ ){0,2}(?:favou?rites?|faves?)|'s (?:[\w-]+ ){0,2}"
    r"(?:sibling|cousin|twin|sequel|successor|heir|counterpart|brother|sister|answer|equivalent|"
    r"version)s?\b)"
)
# "not" just before a title: a frame after it is the other title's ("A, not B, is the one").
_NOT_BEFORE = re.compile(r"(?i)\bnot\W*$")
_FRAME_BEFORE = re.compile(
    r"(?i)(?:how about|what about|why not|\btry|consider|i'?d (?:recommend|suggest|go with|go for|"
    r"pick|choose|say|start with|begin with|take|grab|get)|i (?:recommend|suggest)|recommend(?:ing|ed)?|suggest(?:ing|ion)?|my (?:top |"
    r"final |best |first )?(?:pick|recommendation|suggestion|choice|vote|bet|answer)(?: for (?:you|"
    r"tonight))?(?: is| would be| tonight)?|go (?:with|for)|check out|i'?m thinking(?: of)?|"
    r"you(?:'d| would| might| may| could|'ll) (?:really )?(?:like|love|enjoy|dig)|perfect (?:fit|"
    r"match|pick)|\bpick|instead|better(?: bet| option| choice| fit)?|(?:that|which) leaves|"
    r"landed on|found (?:it|one|your movie|a match)?|here'?s|meet|introduc\w+ you to|"
    r"give \w+ a (?:try|shot|go)|tonight'?s pick|the one|winner|✅|👉|⭐|🎬|🍿|best (?:fit|match|bet)|"
    r"alt(?:ernative)?|proceed with|(?:strong )?case for|i would put|put forward|"
    # a choice leant to ("I'd lean towards the second: B", "I'd plump for B")
    r"(?:lean(?:ing)?|tilt(?:ing)?) (?:towards?|to)(?: the (?:first|second|third|latter|former)(?: one)?)?|"
    r"(?:plump|opt|settle|vote|side) (?:for|on|with)|(?:i'?d |i would )?favou?r|"
    # the writer's own choice said in the present ("i say A", "I'm going with A", "I back A")
    r"\bi(?: (?:say|pick|choose|back|reckon|take)|(?:'m| am) (?:going|gonna go) (?:with|for))|"
    # one chosen from the items just listed ("A, B and C all share it; of those, only B ...")
    r"of (?:those|these|them|the (?:two|three|four|five|lot)),? (?:only|just)(?: one,)?)"
    r"[\s:,—–-]*(?:is|would be)?[\s\"'“‘*_(~:]*(?:(?:the|a|an) )?[\s\"'“‘*_(~]*$"
)
_FRAME_AFTER = re.compile(
    r"(?i)^[\s*_\"'”’)]*(?:\(\d{4}\))?[\s*_]*(?:,\s*)?(?:is|would be|could be|might be|seems|looks|feels|"
    r"sounds|—|–|-|:)?\s*(?:my (?:top |final )?(?:pick|recommendation|choice|suggestion)|"
    # the one a comparison comes down on, a short aside allowed ("but A, from 2026, is the more
    # assured film", "A is the stronger of the two")
    r"(?:,[^,.;!?\n]{1,40},\s*)?(?:(?:is|'s) (?:clearly |easily |by far )?the (?:more [\w-]+|[\w-]+er|"
    r"better|best|stronger|safer|superior) (?:one|film|movie|pick|choice|option|title|watch|of the "
    r"(?:two|pair|three))|(?:has|gets|boasts|offers) (?:the |by far the )?(?:better|stronger|higher|"
    r"best|warmer|bigger|fresher) [\w-]+|(?:wins|comes out (?:on top|ahead)|takes it|edges it))\b|"
    r"(?:a |the |"
    r"your )?(?:perfect|great|ideal|best|safe|safer|solid|strong|better|top) (?:fit|match|pick|"
    r"recommendation|"
    r"choice|bet|option)|exactly what|just what|the one|a winner|(?:it )?fits (?:everything|all|"
    r"your|the bill)|ticks every|checks every|is better|(?:is |'s )?(?:much )?(?:safer|better))"
)
_RULED_OUT_BEFORE = re.compile(
    r"(?i)(?:\bnot|skip(?:ped)?|ruled out:?|rules? out|instead of|rather than|other than|whereas|"
    r"except|apart from|besides|considered|passed on|dropped|❌|✗|✘|🚫|~~|neither|\bnor|unlike|"
    r"avoid(?:ed)?|\bthan|\bover|more(?!,)|less(?!,)|looked at|left out|cut|wanted to suggest|was going "
    r"to suggest|thought about|almost (?:suggested|went with)|if|exclud\w*|drop|removed?|"
    r"steer (?:you )?(?:away|clear) from|over|beats|>|"
    # the one a comparison comes down against ("B edges out A", "B outshines A")
    r"edges? out|edges past|out(?:does|shines|classes|scores|ranks)|trumps|tops|bests|"
    r"wins (?:over|against|out over)|is ahead of)"
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
    r"passing on|pass on|but you said|set (?:it|them) aside|put (?:it|them) aside|"
    r"(?:don'?t|do not) think (?:it'?s|it is) right|(?:was|is) your thing|worked for you|was a hit|hit the spot)\b"
)
_OFFERS_SEVERAL = re.compile(
    r"(?i)\b(?:options|choices|alternatives|candidates|contenders|here are|a few (?:picks|titles|"
    r"films|movies|ideas)|either of|either one|any of (?:these|them|those)|which (?:one|of these|of "
    r"them|would you|sounds|appeals|grabs)|pick one|choose one|shortlist|picks|ideas|suggestions|"
    r"programme|program|line-?up|double bill|double feature|option (?:[a-d]|[1-4])|"
    r"recommendations|one of these|a couple|(?:two|three|four|five|2|3|4|5) (?:[\w-]+ ){0,3}"
    r"(?:picks|titles|films|movies|options|ideas|moods|thrillers|romances|comedies|dramas|ones|"
    r"documentaries|choices)|"
    # options numbered or lettered as labels ("Pick #1: A. Pick #2: B", "Choice no. 2: B")
    r"(?:picks?|options?|choices?|candidates?|contenders?|suggestions?|ideas?|recs?|"
    r"recommendations?|titles?|films?|movies?|products?)\s*(?:#|no\.|number)\s*\d)\b"
)
# Two items set against each other for the user to judge ("A versus B", "A in the red corner, B
# in the blue", "a head-to-head"): both are put forward, unless one is framed as the pick.
_FACE_OFF = re.compile(
    r"(?i)\b(?:versus|vs\.?|v\.|head[- ]to[- ]head|face[- ]?off|showdown|stand[- ]?off|battle of|duel|"
    r"match[- ]?up|in the (?:red|blue) corner|(?:going|goes|go) up against|pitted against|square off)(?!\w)"
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
# A recommending word put in the past: weighed, not offered ("I did consider X, but ...").
_PAST_FRAME = re.compile(r"(?i)\b(?:did|had|once|briefly)\s+$")
# The pick named by its place among the items just named ("The first one is my pick").
_ORDINAL_PICK = re.compile(
    r"(?i)\b(?:the )?(first|former|second|latter|last)(?: one| option| title| film| movie| "
    r"product)? (?:is|'s|would be|gets) (?:my (?:top )?(?:pick|vote|choice|recommendation)|(?:the )?"
    r"(?:better|best|stronger|safer)(?: one| pick| fit| choice| bet)?|the one)|(?:i'?d|i "
    r"would|i|you|u)? ?(?:go with|pick|choose|recommend|suggest|want|take|prefer) the (first|former|"
    r"second|latter|last)\b(?! (?:time|few|week|night|day|thing))"
)
_RETRACTED = re.compile(
    r"(?i)^[^.!?\n]{0,12}\b(?:no,? scratch that|scratch that|no,? wait|never ?mind)"
)


# The text after an item goes on with the item as its subject; a clause ends in . , or ;
_MID_SENTENCE = re.compile(r"[\s*_\"'”’)]*[A-Za-z]")
_CLAUSE_END = re.compile(r"[.,;]$")
_JOINED = re.compile(
    # "A x1, B x1": a basket's quantities between the names
    r"(?i)^[\s*_\"'”’“‘]*(?:[x×]\s*\d+\s*)?(?:,|;|/|or|and|,\s*or|,\s*and|&)[\s*_\"'”’“‘]*(?:maybe |perhaps |even )?$"
)
_LIST_LINE = re.compile(r"^\s*(?:[-*•·–]|\d+[.)]|\|)\s*[\W_]*$")
_SEEN_WORDS = re.compile(
    r"(?i)\byou(?:'ve| have)? (?:already )?(?:seen|watched|saw|loved|liked|enjoyed|rated)|"
    r"your (?:favou?rite|history|list)|last time|(?:re-?)?watch(?:ed)? (?:it )?(?:before|again)|"
    r"already seen|you mentioned"
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


class ProposalReader:
    """Decides which named items a message puts forward, for one domain."""

    def __init__(
        self,
        *,
        segments: Segments,
        nothing_fits: re.Pattern[str],
        passing_before: re.Pattern[str] | None = None,
        passing_after: re.Pattern[str] | None = None,
        plot_word: PlotWord | None = None,
    ) -> None:
        self._segments = segments
        self._nothing_fits = nothing_fits
        self._passing_before = passing_before
        self._passing_after = passing_after
        self._plot_word = plot_word

    def _in_passing(self, text: str, start: int, end: int) -> bool:
        """Does the domain's own wording name this item in passing ("your usual X")?"""
        before = text[max(0, start - 60) : start]
        after = text[end : end + 90]
        return bool(
            (self._passing_before is not None and self._passing_before.search(before))
            or (self._passing_after is not None and self._passing_after.match(after))
        )

    def _offers_after(self, tail: str) -> bool:
        """Does a question follow the last item ("the closest is X - is that too long?", "want it?")?

        A question that opens a new topic ("Next: do you have Hulu?") does not offer the item, nor
        does the rest of a statement whose subject it is ("X is listed as a comedy, but ...").
        """
        mid_sentence = bool(_MID_SENTENCE.match(tail))
        for n, (segment, asks) in enumerate(self._segments(tail)):
            if not asks or len(re.findall(r"\w+", segment)) < 2:
                continue
            if n == 0 and mid_sentence and _CLAUSE_END.search(segment):
                continue
            if re.match(
                r"(?i)\W*(?:next|also|separately|meanwhile|btw|by the way|moving on|on another "
                r"note)\b",
                segment,
            ):
                continue
            return True
        return False

    def proposed(
        self,
        text: str,
        spans: list[tuple[int, int, str]],
        watched: frozenset[str],
        pending: str | None,
    ) -> list[str]:
        """The items a message puts forward, in order, from the items it names (`spans`), given
        the user's watched ids and the item it asked about (`pending`)."""
        ids = {item_id for _s, _e, item_id in spans} | ({pending} if pending else set())
        out: list[str] = []
        framed: set[str] = set()
        ruled_out: set[str] = set()
        listed: set[str] = set()
        references: set[str] = set()
        picked_again: set[str] = set()
        previous_end = 0
        for n, (start, end, item_id) in enumerate(spans):
            before = text[previous_end:start]
            previous_end = end
            next_start = spans[n + 1][0] if n + 1 < len(spans) else len(text)
            after = text[end : min(next_start, end + 80)]
            line_start = text.rfind("\n", 0, start) + 1
            if self._plot_word is not None and self._plot_word(item_id, ids, before, after):
                continue
            if (
                _REFERENCE_BEFORE.search(before[-80:])
                or _REFERENCE_AFTER.search(after)
                or self._in_passing(text, start, end)
            ):
                references.add(item_id)
                continue
            window = before[-60:]
            frame = _FRAME_BEFORE.search(window)
            if frame and (
                _NEGATED.search(window[: frame.start()])
                or _PAST_FRAME.search(window[: frame.start()])
            ):
                # "I won't recommend X", "no shot i'm recommending X", "I did consider X"
                ruled_out.add(item_id)
            elif (frame or _FRAME_AFTER.search(after)) and not _NOT_BEFORE.search(before):
                # "A, not B, is the one": the frame after B is A's
                framed.add(item_id)
                if item_id in out:
                    picked_again.add(item_id)  # "A and B are both sweet, but my pick is B"
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
        # "the closest is X, though ... - want it?"; "Skip A - too long. B instead?"
        offered_after = self._offers_after(text[last:]) or bool(
            re.match(r"[^.!?\n]{0,30}\?", text[last:])
        )
        setting_aside = bool(_RULING_OUT.search(text) or self._nothing_fits.search(text))
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
        ordinal = _ORDINAL_PICK.search(text)
        if ordinal:  # "A and B ... The first one is my pick"
            word = (ordinal.group(1) or ordinal.group(2)).lower()
            return (
                [kept[0]]
                if word in ("first", "former")
                else [kept[1] if word == "second" else kept[-1]]
            )
        chosen = [i for i in kept if i in picked_again]
        if chosen and len(chosen) < len(kept):
            return chosen  # named among others, then framed as the pick on its own
        if (
            _OFFERS_SEVERAL.search(text)
            or len([i for i in kept if i in listed]) > 1
            or self._enumerated(text, spans, kept)
        ):
            return kept  # a list of options: all of them are put forward
        offered = [i for i in kept if i in framed]
        if not offered and _FACE_OFF.search(text):
            return kept  # "A in the red corner, B in the blue. Who wins?"
        if offered:
            return offered
        # References come first, the pick last ("X is the favourite; go for Y"): the item named
        # last, counting every mention ("A is better, B cheaper. I'd go A: A. Yes?").
        return [max(kept, key=lambda i: max(s for s, _e, j in spans if j == i))]

    @staticmethod
    def _enumerated(text: str, spans: list[tuple[int, int, str]], kept: list[str]) -> bool:
        """Are two of the kept titles named one after the other, joined by a comma, "or" or "and"?"""
        places = [(s, e) for s, e, i in spans if i in kept]
        for (_s1, e1), (s2, _e2) in itertools.pairwise(places):
            between = re.sub(r"\([^)]*\)", "", text[e1:s2])
            if _JOINED.match(between):
                return True
        return False
