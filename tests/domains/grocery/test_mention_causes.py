"""The sixth round's probes of the resolver: messages of our own, in the voices of chat agents
(never corpus text), written to check that each cause of a miss is read as a general rule, not
as the corpus's phrase. They live in `data/mention_probes.jsonl`, one
`domains.grocery.mention_corpus.MentionExample` a line (`style` names the batch), and are read
exactly like a corpus share: every message exact, no ruled-out product counted.

The batches, in the order they were written, each read once before any rule was written for it
(first read: messages read right):

1. heldout3's first half (seeded coin per template): a basket recap beside a new proposal 1/10,
   allergen content said with any verb 4/8, a choice said by an idiom or "that's the one" 0/7,
   the shopper's words in texting 4/6, a substitution record's old side 3/6.
2. heldout3's rest: corrections 2/5, verdict labels 2/4, a fault in what the shopper received
   0/5, gone from the shelf 1/5, content said "having" 1/2.
3. the grocery reader's false leaves and proposal misses: likened to 0/6, known or owned by the
   shopper 1/5, firmer choice verbs 1/3, short no-stock 0/2; checks asked the non-native or
   hurried way 6/10.
4. every group of the fresh rounds (stock, allergen and diet, budget, skip and instead, first
   thoughts, corrections, comparisons, history, substitutions, returns): 44/54 rule-outs, 5/5
   pairs, 11/12 proposals full of cue words.
5. layouts and voices (headings, JSON, tables, tilde notes, emoji and arrows, non-native,
   texting, formal), each shape filled with five namings: 70/90 rule-outs, 15/15 pairs.
6. precision, proposals full of the new cue words: 34/35 proposals, 6/6 pairs.
7. a last batch (numbered answers, a verbose explainer, formal, non-native, texting, status
   labels): 31/40 rule-outs (main's resolver 29/40), 5/5 pairs, 10/10 proposals; two messages
   were left out of the file (a Spanish "no tenemos A", and one whose two products both carry
   the shortcoming).
8. shared names told apart by brand (Fiorelli's and Kitchen Hollow's Genovese Basil Pesto), read
   after every rule above: 15/20 rule-outs (main's resolver the same 15/20), 2/2 pairs, 3/4
   proposals ("why not B?" read as a negation); its misses taught a bracketed price before "vs",
   "coming soon", "I looked for A but ...", "a definite no for", "B over A any day".
9. the fresh round's groups again (Little Meadow Salted Peanut Puffs, Brookline Fig Fruit
   Spread): 22/30 rule-outs (main's resolver 20/30), 3/3 pairs, 8/8 proposals; its misses taught
   any word for a budget ("breaks your €2.50 ceiling", "would eat up most of your budget"),
   "scrap A", "I nearly suggested A, then remembered ...", "A should have been B", "will be
   collected", "can't recommend," with nothing after it. Left out: a German "ist leider aus".
10. three products, one ruled out (lists, tables, notes): 10/12 (main's resolver the same),
   2/2 pairs; its misses taught "the first two" picks no one, and "A is off".
11. history, the shopper's words and corrections (Fromagerie Lusse Strong Blue Cheese, Crackle &
   Co Chilli Tortilla Chips): 9/16 rule-outs (main's resolver the same), 2/2 pairs, 4/4
   proposals; its misses taught "a regular buyer of A", "you mentioned earlier that A", "last
   week's delivery included A", "had enough of A", "your favourite used to be A", "it's dairy",
   "your note said 'no A'" (a quote mark opens a cue).
12. long pitches, headings and stock counts (Oatfield Barista Oat Drink, Cacao Norte Classic
   Instant Coffee): 10/12 rule-outs (main's resolver 11/12: "why not" had been made an offer in
   batch 8, and a heading "## Why not A?" then read nothing across its blank line), 6/6
   proposals; its misses taught the next sentence after a blank line, "I did look at A, but",
   and a state opening on "it's" ("it's a no on price").
13. heldout4's first half (seventh round; seeded coin per template, its other half unseen):
   purchase history with any word for "earlier" and a count ("your recent deliveries had A",
   "in your past three orders", "Previously purchased:") 4/8, "the former / the latter" picked
   by a favourable verdict or "I recommend it" 0/5, one line of a comparison marked as the choice
   ("<- my pick", "(top pick)", "— winner") 0/5, stock said lacking in other registers ("without
   stock", "unstocked", "stock is zero", "we are without A") 2/6, a brand said before a name it
   makes only under a longer one (Valley Pail's "Ash-Ripened Goat Log (new recipe)") 1/3, near
   twins 5/5; one proposal was read wrongly by "change" as a verb ("suggest a change: B").
14. heldout4's second half, written after its misses were read (so not a blind estimate): a
   basket heading beside a new one ("**Current basket:**", a plain "In your cart" over a list)
   1/3, naming it was the error ("A was included by mistake", "my earlier reference to A was
   wrong") 2/4, leaning towards one of two 2/4, a contest whose winner is named again ("A takes on
   B... and the champion is A") 2/3, a tick over a return or a cancellation 3/3, "didn't mean A"
   0/3, kept clear of ("stayed away from A", "gave A a miss") 2/4, a concession then another
   product ("I know A is the classic, but B ...") 0/3, near twins 5/5.
15. the grocery reader's two false leaves (chat_heldout4), by cause: a product likened by kinship
   or by what it shares ("B's cooler cousin", "the same family as B", "same price as B") 0/7,
   near twins 4/4 (two of them baskets to confirm under "Your basket", after batch 14's heading).
16. the grocery reader's proposals read as none: a shortcoming asked about in more of the usual
   ways ("Would that do?", "Does it go with how you eat?", "too dear?", "This is okay for your
   diet?") 0/8, near twins 3/3.
17. mixed voices over every group (stock, allergen, budget, history, corrections, comparisons,
   substitutions, returns, baskets, likened, tables and marks), read after batches 13-16's rules
   and before any of its own: 21/24 rule-outs, 6/6 proposals full of cue words; its misses
   taught "nada on A", "I'd back B", "A is overrated".
18. formal, terse and markdown voices, read the same way: 14/18 rule-outs, 4/4 proposals; its
   misses taught "excl:", "A lost out on sugar" / "fell short", "I had initially shortlisted A".

19. the eighth round (a product is put forward only on positive evidence), in chat-agent voices,
   read after the positive-evidence layer and before any rule of its own: rule-outs said in ways
   the rule-out vocabulary never saw ("didn't make the cut", "that ship has sailed", "a
   non-starter", "kept at arm's length", "benched", "fell through") 15/20 exact with 3 ruled-out
   mentions counted (main's resolver at 4152472: 6/20, 14 counted), proposals 6/8 (main 8/8),
   pairs 2/2, products only named (a fact about the carton, where it is made) 2/2 (main 0/2:
   it put both forward). Its misses taught a cue noun that heads the product's own phrase ("the
   A option fell through") and the place a product is taken from ("bumped from the shortlist")
   as no evidence, a verb linked right after a mention as the speaker's ("I looked past A and
   landed on B"), "B: go", "B does.", "top of my list", "could be the one". The same engineer
   wrote the layer and these probes, so they flatter it.

20. the ninth round (the message's act settles conflicting evidence), in chat-agent voices,
   written after the act layer and read once before any rule of its own: conflicts (a product
   with positive evidence beside the one a closing offer points to: a trolley recap, "in stock,
   but ...", a contest's loser, an arrow's old side, an exchange's old side, the shopper's past,
   a correction) 10/10, reports (a refund record) 2/2, near twins 5/5 (a basket with its total,
   "Add both?", a second pick with its own proposal), then eight in other voices (texting, a
   markdown table, formal, terse) 7/8 with 1 counted: a cancellation record ("Your order has
   been cancelled: A, B.") put its second line forward, which taught a cancellation as a record
   that reports. The same engineer wrote the layer and these probes, so they flatter it; the
   half-split figure (corpora/README.md) is the honest one.
21. the tenth round (the message's act completed: a closing choice keeps the winner, a closing
   offer by place, a basket's lines before its total, a search or a return told as done that
   closes by offering to go on is a report), in chat-agent voices, written after the layer and
   read once before any rule of its own: 18/20 exact with 1 ruled-out mention counted ("My
   money's on A" after "A vs B?" put the loser forward: a choosing idiom the vocabulary lacked),
   and one near twin lost ("A is in stock. I'd also suggest B": a closing that adds one more is
   no choice). Batch 20's "Shall I add A? It goes well with B." taught that a closing pointing
   back ("It ...") is no choice either. The same engineer wrote the layer and these probes, so
   they flatter it; the half-split figure (corpora/README.md) is the honest one.
22. the eleventh round (proposals without a cue: a product set off alone under a line that ends
   with a colon, "the former / the latter" picked by a proposal, "Pick one." after a list;
   rule-outs by structure: a return told in prose of one list, a bracketed aside about its own
   product, attributes parted by a semicolon inside brackets, "> your budget", "already in
   there"), in chat-agent voices, written after the layer and read once before any rule of
   its own: 13/14 exact with 1 ruled-out mention counted (a return list whose first line said
   its count, "A (…), 1 tub and B": the count was no list gap yet). The same engineer wrote
   the layer and these probes, so they flatter it; the half-split figure is the honest one.

Near twins that must still put forward sit beside each batch. Since the eighth round a product
is put forward only when positive evidence reaches it; one near twin of batch 1-3 ("You'll know
A when you see it — bright blue carton") carries none and is labelled as named, not put forward.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from domains.grocery.catalog import load_catalog
from domains.grocery.mention_corpus import MentionExample, load_examples, score_resolver
from domains.grocery.mentions import resolver

ROOT = Path(__file__).resolve().parents[3]
READ = resolver(load_catalog(ROOT / "domains" / "grocery" / "snapshots" / "2026-11-01"))
PROBES = load_examples(Path(__file__).parent / "data" / "mention_probes.jsonl")
BATCHES: dict[str, list[MentionExample]] = {}
for row in PROBES:
    BATCHES.setdefault(row.style, []).append(row)


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_each_probe_batch_reads_exactly(batch: str) -> None:
    score = score_resolver(READ, BATCHES[batch])
    assert score.ruled_out_counted == 0, score.misses
    assert score.exact == score.messages, score.misses
    for row in BATCHES[batch]:
        assert set(row.ruled_out) <= set(READ.named(row.text)), row.text


def test_the_probes_cover_rule_outs_pairs_and_proposals() -> None:
    assert len(PROBES) >= 350
    assert sum(bool(r.ruled_out) for r in PROBES) >= 200
    assert sum(len(r.proposed) == 2 for r in PROBES) >= 30
    assert sum(len(r.proposed) == 1 and not r.ruled_out for r in PROBES) >= 60
