"""The user's reader on labelled corpora of agent messages, and on the cases the old reader got wrong."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path

import pytest

from catalog_pipeline.tmdb.fixture_world.words import PLOT_WORDS
from domains.movies.catalog import Catalog
from domains.movies.simulators.reader import _PeopleMatcher, rule_reader
from domains.movies.simulators.reader_score import (
    CORPUS_FIELDS,
    CORPUS_NAMES,
    READER_CORPORA,
    LabelledMessage,
    ReaderScore,
    load_corpus,
    score_reader,
)
from runner.core.paths import SNAPSHOTS_DIR

CORPORA = {name: sorted((READER_CORPORA / name).glob("*.jsonl")) for name in CORPUS_NAMES}


@cache
def shipped_catalog() -> Catalog:
    return Catalog.load(SNAPSHOTS_DIR / "2026-11-01")


@cache
def scored(name: str) -> tuple[list[LabelledMessage], ReaderScore]:
    corpus = load_corpus(*CORPORA[name])
    return corpus, score_reader(rule_reader(shipped_catalog()), corpus)


@pytest.mark.parametrize("name", [n for n, paths in CORPORA.items() if paths])
def test_the_corpus_is_large_and_varied(name: str) -> None:
    corpus, _score = scored(name)
    assert len(corpus) >= 400, len(corpus)
    assert len({m.style for m in corpus}) >= 12
    ids = {item.id for item in shipped_catalog().items}
    for m in corpus:
        assert set(m.proposes) <= ids, m.id
        assert set(m.watched) <= ids, m.id


@cache
def scored_all() -> ReaderScore:
    paths = [p for paths in CORPORA.values() for p in paths]
    return score_reader(rule_reader(shipped_catalog()), load_corpus(*paths))


def test_every_field_is_read_with_recall_and_precision_of_at_least_095() -> None:
    # The bar, on every labelled message we have (three authors, 1,500+ messages).
    score = scored_all()
    assert score.messages >= 1200
    low = {
        f: (round(score.recall[f], 3), round(score.precision[f], 3))
        for f in CORPUS_FIELDS
        if score.recall[f] < 0.95 or score.precision[f] < 0.95
    }
    assert not low, (low, score.errors)


@pytest.mark.parametrize("name", [n for n, paths in CORPORA.items() if paths])
def test_no_corpus_alone_falls_far_below_the_bar(name: str) -> None:
    # Each author's style on its own: a corpus the rules were not written against guards against
    # rules that only fit the tuning corpus (the first measurement of each is in corpora/README).
    _corpus, score = scored(name)
    low = {
        f: (round(score.recall[f], 3), round(score.precision[f], 3))
        for f in CORPUS_FIELDS
        if score.recall[f] < 0.85 or score.precision[f] < 0.85
    }
    assert not low, (low, score.errors)


def test_titles_put_forward_are_told_from_comparisons_plots_and_rulings_out() -> None:
    score = scored_all()
    assert score.false_leave_share <= 0.01, score.errors
    assert score.proposals_exact >= 0.95, [e for e in score.errors if "proposed" in e]


def read(text: str, watched: tuple[str, ...] = ()) -> tuple[tuple[str, ...], tuple[str, ...]]:
    reading = rule_reader(shipped_catalog()).read(text, watched=frozenset(watched))
    return reading.asked, reading.proposed


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("Which apps do you have on your TV?", ("streaming_services",)),
        ("Should it be kid-friendly?", ("content_rating",)),
        ("Do you like scary movies?", ("genres",)),
        (
            "Thanks, that helps! I'd love to know which streaming services you have.",
            ("streaming_services",),
        ),
        (
            "A few quick questions:\n- Genre?\n- How long?\n- Any services?",
            ("genres", "runtime", "streaming_services"),
        ),
        (
            "A few questions:\n- Genre\n- Length\n- Services you use",
            ("genres", "runtime", "streaming_services"),
        ),
        ("What types of movies do you enjoy?", ("genres",)),
        ("It's rated R. Is that okay?", ("content_rating",)),
        ("Are you into older films?", ("release_date",)),
        ("It's been a long day, hasn't it?", ()),
        ("Would you like a new suggestion?", ()),
        ("To recap:\n- Comedy\n- Under 100 minutes\n- Netflix\n\nDid I miss anything?", ()),
        ("wat genre r u feeling", ("genres",)),
        ("Long Hollowyn is on my list. Does it sound good?", ()),
    ],
)
def test_questions_as_people_write_them(text: str, asked: tuple[str, ...]) -> None:
    assert read(text)[0] == asked


def test_a_pitch_quoting_a_plot_proposes_only_the_pitched_title() -> None:
    shipped = shipped_catalog()
    pitched = shipped.get("tmdb_9100003")
    assert pitched is not None
    # Our fixture world no longer names a film after a plot's place; real catalogs do, so a film
    # titled with the place in this plot is added.
    place = next(w for w in sorted(PLOT_WORDS) if w in pitched.overview)
    namesake = pitched.model_copy(update={"id": "tmdb_1", "title": place})
    catalog = Catalog([*shipped.items, namesake])
    text = f"How about **{pitched.title}**? {pitched.overview} Shall I go with it?"
    reading = rule_reader(catalog).read(text)
    assert reading.proposed == ("tmdb_9100003",)
    assert "tmdb_1" in reading.named, "the plot names another catalog title (the old reader left)"


def test_a_comparison_with_a_watched_title_is_not_a_proposal() -> None:
    catalog = shipped_catalog()
    seen = catalog.get("tmdb_9100001")
    pick = catalog.get("tmdb_9100003")
    assert seen is not None
    assert pick is not None
    for text in (
        f"It's a bit like {seen.title}, which you've seen, but tenser: {pick.title}. Want it?",
        f"If you enjoyed {seen.title}, {pick.title} has the same energy. Shall I?",
        f"{pick.title} is my pick - think {seen.title} meets a night train.",
    ):
        assert read(text, watched=(seen.id,))[1] == (pick.id,), text


def test_a_list_of_titles_still_proposes_each_of_them() -> None:
    titles = [i.title for i in shipped_catalog().items[:3]]
    _asked, proposed = read(f"Here are three options: {titles[0]}, {titles[1]} and {titles[2]}.")
    assert len(proposed) == 3


def _people_regex(names: list[str]) -> re.Pattern[str]:
    """The one alternation the people matcher replaced (kept here as its specification): every
    name in any case, a lone surname only with its own capital."""
    surnames = {n.split()[-1] for n in names if len(n.split()) > 1 and len(n.split()[-1]) > 3}
    lone = [(s, f"(?-i:{re.escape(s[0])}){re.escape(s[1:])}") for s in surnames - set(names)]
    # Longest first, as the matcher's trie takes the longest at each place.
    parts = sorted({*((n, re.escape(n)) for n in names), *lone}, key=lambda p: -len(p[0]))
    return re.compile(r"(?i)(?<![\w-])(?:" + "|".join(p for _n, p in parts) + r")(?![\w-])")


@pytest.mark.parametrize("who", ["cast", "directors", "odd"])
def test_the_people_matcher_finds_what_the_alternation_of_all_names_found(who: str) -> None:
    items = shipped_catalog().items
    names = {
        "cast": sorted({p for item in items for p in item.cast}),
        "directors": sorted({i.director for i in items if i.director}),
        "odd": [
            "Ab",
            "AB C",
            "ab c-d",
            "Kelvin \u212aing",
            "Stra\u00dfe Name",
            "\u00c9mile Zola",
            "",
        ],
    }[who]
    regex, matcher = _people_regex(names), _PeopleMatcher(names)
    rng = random.Random(7)
    texts = [m.text for m in load_corpus(*CORPORA["tuning"])][:400]
    for _ in range(3000):
        name = rng.choice(names)
        name = rng.choice(
            [name, name.upper(), name.lower(), name.swapcase(), " ".join(name.split()[::-1])]
        )
        name = name.replace("k", rng.choice("k\u212a")).replace("s", rng.choice("s\u017f"))
        texts.append(
            rng.choice(["", "a fan of ", "-", "x", "\u00e9", "(", "_"])
            + name
            + rng.choice(["", "?", "-", "s", "'s", "_", ", or " + rng.choice(names)])
        )
    for text in texts:
        found = regex.search(text)
        assert matcher.search(text) == (found.span() if found else None), text
        if found:
            for probe in (found.group(0), found.group(0).upper(), found.group(0) + " "):
                assert matcher.fullmatch(probe) == bool(regex.fullmatch(probe)), probe


def test_a_lone_surname_that_is_also_a_word_names_the_person_only_with_its_capital() -> None:
    """v1's real cast has surnames such as Long, Black, Hill and Page: "how long can it be?"
    asks about runtime, not about Shelley Long; "something with Black in it?" still asks about
    Jack Black."""
    from .conftest import item

    catalog = Catalog(
        [
            item(1, "Copper Lanterns", cast=["Shelley Long", "Jack Black"]),
            item(2, "Velvet Static", director="Walter Hill"),
        ]
    )
    reader = rule_reader(catalog)
    assert reader.read("How long can it be?").asked == ("runtime",)
    assert reader.read("Is a black comedy fine, or something over the hill?").asked == ("genres",)
    assert reader.read("Would something with Black in it work?").asked == ("cast",)
    assert reader.read("Any film by Hill?").asked == ("director",)
    # A full name is read in any case, as before.
    assert reader.read("anything with jack black?").asked == ("cast",)


def test_a_title_named_only_as_a_reference_leaves_the_question_about_tastes() -> None:
    """Rule 5 of the labels: a title inside a question does not change what it asks."""
    assert read("Would a war drama like Tide of Elsmyre be too heavy tonight?") == (("genres",), ())
    assert read("Fancy something like Harvest of Emberlorn, or something with more bite?")[0] == (
        "genres",
    )


def test_people_named_in_a_question_that_puts_a_title_forward_describe_it() -> None:
    text = (
        "May I put forward Lantern of Pellucine, in which Caelith Trevelyan gives a most "
        "affecting performance? Shall I add it to your evening?"
    )
    assert read(text) == ((), ("tmdb_9100349",))
    assert read("Compass of Brimwick stars Delphine Bellweather. Do you rate her?")[0] == ("cast",)
    assert read("any faves u always watch no matter what theyre in?")[0] == ("cast",)


def test_offers_to_tell_more_and_goodnights_with_an_aside_ask_nothing() -> None:
    for text in (
        "Shall I describe the premise before you decide?",
        "Want to hear what the critics said about it?",
        "I bid you a good evening; should the mood take you, I have a war picture in reserve.",
        "u feel like starting something now or later?",
    ):
        assert read(text) == ((), ()), text


def test_a_title_weighed_and_set_aside_or_named_as_a_likeness_is_not_put_forward() -> None:
    """'I did consider A ... so I've set it aside; B is the one' puts B forward; 'A is basically
    B but with <actor>. want it?' puts A forward, B is a likeness."""
    text = (
        "I did consider Paper Quenhollow, but I don't think it's right for tonight, so I've set "
        "it aside; The Restless Circuit at Pryndale is the one I'd actually put on. Worth a try?"
    )
    assert read(text) == ((), ("tmdb_9100224",))
    text = "Confession of Veldmarrow is basically Garden of Rushlade but with Briony Castellane. want it?"
    assert read(text) == ((), ("tmdb_9100389",))


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        (
            "Salt Kindrelle is drama, war and mystery, 113 minutes. Should I send you the cast "
            "list also?",
            (),
        ),
        ("Hidden Gessamar 🎬 crime — want me to find where to stream it? 📺", ()),
        (
            "Your recommendation is Golden Frostennel. It is available on HBO Max. Was this "
            "recommendation helpful?",
            (),
        ),
        (
            "I would pair tonight with Fever of Pondraven. Rated PG-13; horror comedy; a "
            "lingering 94-minute finish. Is that to your taste?",
            (),
        ),
        (
            "🎬 The Ulvenreach Vigil 🍿 action ✨ 109 min ⏱️ rated PG-13 🔞? nah it's fine. u in? 👀",
            (),
        ),
        (
            "Glass Xanderhal 🎥 dir. Hester Quintero-Lowe ⭐ Juniper Underhay 🔖 PG-13 — wanna? 🍿",
            (),
        ),
        ("Verdict of Gessamar 🎬 Varo Stellanova 🌟 Yorick Quellbrook 🎥 comedy 🍿 — go? ✅", ()),
        (
            "Compass of Brimwick is rated R. Is that okay for everyone watching?",
            ("content_rating",),
        ),
        (
            "Tiny Pondraven has Lioren Jaramillo-West in the lead. Happy with that, or would you "
            "rather someone else?",
            ("cast",),
        ),
    ],
)
def test_offers_verdicts_and_checks_on_a_pitched_title(text: str, asked: tuple[str, ...]) -> None:
    """An offer to act on the pick, a verdict on it, or a check after several facts asks no
    field; a check after one fact, or about someone else in the lead, asks it."""
    assert read(text)[0] == asked


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # "the rating" beside a stated age rating and no review score is the age rating
        (
            "Nothing fits: every short comedy here is rated R. Should I give up the length or "
            "the rating?",
            ("runtime", "content_rating"),
        ),
        ("Tiny Pondraven scores 7.9 with critics. Is the rating high enough?", ("rating",)),
        # a bound is not an either-or; a sentence that goes on after a comma asks nothing yet
        ("No comedy here is rated 8 or above, so none clears the bar.", ()),
        ("popular or more of a deep cut", ("vote_count",)),
        # age-rating descriptors, people on screen, the kids' age, what they have already seen
        ("Is some cartoon slapstick fine, or should I avoid any fighting?", ("content_rating",)),
        ("May I ask how you feel about on-screen gore?", ("content_rating",)),
        ("Is there anyone you'd prefer not to see on screen?", ("cast",)),
        ("Next: is it for little kids or older ones?", ("content_rating",)),
        ("Is there a film your children have already seen ten times that I should avoid?", ()),
        # what the writer has noted is a statement, whatever cue it holds
        ("Understood. I have noted your preference for westerns and will search now.", ()),
        # a sentence naming what the answer is for carries the field asked
        (
            "Spooky or sad: what's the difference for you? Knowing that helps me judge how much "
            "violence is fine.",
            ("content_rating",),
        ),
        # the pleasure of doing something is not a mood; a fright's setting is not who watches
        ("Do you enjoy the thrill of discovering a film hardly anyone has seen?", ("vote_count",)),
        ("How do you feel about a fright when you're home alone?", ("genres",)),
        # a mood whose object names another field asks that field
        ("Feeling nostalgic, or in the mood for something recent?", ("release_date",)),
        ("Which genres, and which years are okay?", ("genres", "release_date")),
        ("hw lnog can it be?", ("runtime",)),
        # words describing a title named only as a reference ask nothing
        (
            "Would something in the vein of Long Hollowyn appeal, which is to say a war drama "
            "of great length, or do you want a lighter night?",
            ("genres",),
        ),
        # a title named as the register of a question is a reference; the genre asked still is
        (
            "Something in the register of Long Hollowyn, or is comedy the wrong key tonight?",
            ("genres",),
        ),
        # the child's own grown-up is a person, not the audience's age
        ("Do you want a new film or an old one your grown-ups might know?", ("release_date",)),
        # a third person may say what they like; only the user is asked to say it
        ("Noted: a long drama, and the critics can say what they like. I'll search.", ()),
        # a conditional offer to loosen, then a bare check, asks what it loosens
        ("Nothing fits. If you accept fewer votes, I can find some. You accept?", ("vote_count",)),
        ("Only pick films with four or five stars? ⭐", ("rating",)),
        (
            "I'd suggest Tiny Pondraven; it runs a slow 140 minutes. Can you give it that much "
            "of your night?",
            ("runtime",),
        ),
        # own probes in the new voices: lettered options, nulls to fill, an offer about the pick
        ("Which one do you like more? A) funny films B) scary films C) sad films", ("genres",)),
        ('{"genre": null, "runtime_max": null}\nplease fill in the nulls.', ("genres", "runtime")),
        ("Quiz time! Pick one: a) short and sweet b) long and epic", ("runtime",)),
        ("Would you like me to check where it's streaming?", ()),
        ("Should I only pick films with great reviews?", ("rating",)),
        (
            "Please tell me the genre you like, and the year of the film.",
            ("genres", "release_date"),
        ),
        ("An auteur's slow cinema or a crowd-pleasing piece?", ("director", "vote_count")),
    ],
)
def test_field_words_that_ask_and_that_do_not(text: str, asked: tuple[str, ...]) -> None:
    assert read(text)[0] == asked


def _id(title: str) -> str:
    return next(i.id for i in shipped_catalog().items if i.title == title)


def test_a_choice_between_items_put_forward_asks_none_of_their_shared_facts() -> None:
    text = (
        "Two fit: Tiny Pondraven and Salt Kindrelle. Both are dramas rated PG-13. Which would "
        "you prefer?"
    )
    assert read(text) == ((), (_id("Tiny Pondraven"), _id("Salt Kindrelle")))


def test_a_verdict_call_of_two_words_after_a_pitch_asks_nothing() -> None:
    text = (
        "ok so Tiny Pondraven — drama, 95 mins, a baker enters a contest. vibe check, yay or nay?"
    )
    assert read(text) == ((), (_id("Tiny Pondraven"),))


def test_the_short_name_of_a_service_where_it_streams_is_asked() -> None:
    text = "Tiny Pondraven is my pick but it's on max. do u have max?"
    assert read(text) == (("streaming_services",), (_id("Tiny Pondraven"),))


def test_one_chosen_from_a_list_or_left_off_it() -> None:
    a, b, c = "Tiny Pondraven", "Salt Kindrelle", "Golden Frostennel"
    text = f"{a}, {b} and {c} all share that premise; of those, only {b} pulls it off."
    assert read(text)[1] == (_id(b),)
    text = f"{a} is billed as a comedy, but it's rated R, so I'm leaving it off your list."
    assert read(text)[1] == ()


def test_a_person_a_film_is_said_to_be_by_is_asked_about_as_its_director() -> None:
    catalog = shipped_catalog()
    both = sorted({p for i in catalog.items for p in i.cast} & {i.director for i in catalog.items})
    person = both[0]
    assert read(f"Tiny Pondraven? it's by {person}. u like {person}?")[0] == ("director",)
    assert read(f"Tiny Pondraven stars {person}. u like {person}?")[0] == ("cast",)


def _cause_cases() -> list[tuple[str, tuple[str, ...]]]:
    rows = json.loads((Path(__file__).parent / "reader_cause_cases.json").read_text("utf-8"))
    return [(row["text"], tuple(row["asks"])) for row in rows]


@pytest.mark.parametrize(("text", "asked"), _cause_cases())
def test_questions_read_by_cause_not_by_phrase(text: str, asked: tuple[str, ...]) -> None:
    """Each case (`reader_cause_cases.json`, with the cause it stands for) is a cause behind a
    tuning set's misses (retired chat_heldout2, chat_tuning5 at first contact) or a probe of our
    own, in other words than any corpus; statements and reactions that use the same words ask
    nothing."""
    assert read(text)[0] == asked


# Probes of our own (no corpus message): two titles weighed, one chosen or both offered
# (tmdb_9100003 Last Pryndale, tmdb_9100004 The Yelvarin Verdict).
_COMPARISON_PROBES: list[tuple[str, tuple[str, ...]]] = [
    (
        "Last Pryndale is tense, but The Yelvarin Verdict is the lighter option and my pick tonight. Want it?",
        ("tmdb_9100004",),
    ),
    (
        "I looked at Last Pryndale, but it's too long; The Yelvarin Verdict fits better. Shall I add it?",
        ("tmdb_9100004",),
    ),
    (
        "Between Last Pryndale and The Yelvarin Verdict, I'd lean towards the second: The Yelvarin Verdict. Okay?",
        ("tmdb_9100004",),
    ),
    (
        "If you liked Last Pryndale, you'll probably enjoy The Yelvarin Verdict. Want to try it?",
        ("tmdb_9100004",),
    ),
    (
        "The Yelvarin Verdict has the warmth of Blueprint of Tamberlight with more music. Interested?",
        ("tmdb_9100004",),
    ),
    (
        "Two options: 1. Last Pryndale 2. The Yelvarin Verdict. Which one?",
        ("tmdb_9100003", "tmdb_9100004"),
    ),
    (
        "❌ Last Pryndale (R-rated)\n✅ The Yelvarin Verdict (PG)\nGo with the ✅ one?",
        ("tmdb_9100004",),
    ),
    (
        "Last Pryndale is out (not on your services). The Yelvarin Verdict is on Netflix though. Want it?",
        ("tmdb_9100004",),
    ),
    (
        "i was gonna say Last Pryndale but nah, too dark. The Yelvarin Verdict instead?",
        ("tmdb_9100004",),
    ),
    ("The Yelvarin Verdict is like a gentler Last Pryndale. Sound good?", ("tmdb_9100004",)),
    (
        "Compared to Last Pryndale, The Yelvarin Verdict is far funnier. My pick is The Yelvarin Verdict.",
        ("tmdb_9100004",),
    ),
    ("The Yelvarin Verdict edges out Last Pryndale on reviews. Want it?", ("tmdb_9100004",)),
    (
        "Last Pryndale and The Yelvarin Verdict both fit. Last Pryndale is shorter, The Yelvarin Verdict is funnier. Which do you prefer?",
        ("tmdb_9100003", "tmdb_9100004"),
    ),
    ("Since you've already seen Last Pryndale, how about The Yelvarin Verdict?", ("tmdb_9100004",)),
    (
        "The Yelvarin Verdict, from the director of Last Pryndale, is my suggestion. Okay?",
        ("tmdb_9100004",),
    ),
    (
        "Last Pryndale and The Yelvarin Verdict are very alike, but The Yelvarin Verdict has the better reviews. I'd go for it.",
        ("tmdb_9100004",),
    ),
    (
        "Last Pryndale got weak reviews, so I'd skip it. The Yelvarin Verdict scores 7.9. Shall I add it?",
        ("tmdb_9100004",),
    ),
    (
        "Top pick: The Yelvarin Verdict. Runner-up: Last Pryndale. Want the top pick?",
        ("tmdb_9100004",),
    ),
]


@pytest.mark.parametrize(("text", "proposed"), _COMPARISON_PROBES)
def test_the_title_a_comparison_comes_down_on_is_the_one_put_forward(
    text: str, proposed: tuple[str, ...]
) -> None:
    assert read(text)[1] == proposed


@pytest.mark.parametrize(
    ("text", "proposed"),
    [
        # a likeness shared with another title names that title as a reference
        (
            "Tiny Pondraven has a lot in common with Compass of Brimwick: both tense. Want it?",
            ("tmdb_9100160",),
        ),
        (
            "Tiny Pondraven is similar in spirit with Compass of Brimwick. Fancy it?",
            ("tmdb_9100160",),
        ),
        (
            "Tiny Pondraven: think Compass of Brimwick, only gentler. Shall I queue it?",
            ("tmdb_9100160",),
        ),
        # an example set off by commas inside a question about tastes puts nothing forward
        ("Is a recent thriller, such as Compass of Brimwick, your sort of evening?", ()),
        # a record's reference field is not a pick
        ("baseline: Compass of Brimwick (2026)\nq: newer or older than the baseline?", ()),
        # "Think of X as ..." still offers X
        (
            "Think of Tiny Pondraven as a gentler Compass of Brimwick. Tiny Pondraven it is.",
            ("tmdb_9100160",),
        ),
        # a likeness with an adjective, a kin of the other title, a quality borrowed from it
        (
            "Tiny Pondraven feels like a warmer Compass of Brimwick. Want to try it?",
            ("tmdb_9100160",),
        ),
        ("Tiny Pondraven is Compass of Brimwick's funnier sibling. Want it?", ("tmdb_9100160",)),
        ("Tiny Pondraven is the sequel-in-spirit to Compass of Brimwick. Go?", ("tmdb_9100160",)),
        ("Tiny Pondraven has the humour of Compass of Brimwick. Good?", ("tmdb_9100160",)),
        # a frame after a title ruled out by "not" belongs to the other
        ("Tiny Pondraven, not Compass of Brimwick, is the one for you.", ("tmdb_9100160",)),
        (
            "Option A: Tiny Pondraven. Option B: Compass of Brimwick. Your choice!",
            ("tmdb_9100160", "tmdb_9100516"),
        ),
        # a pair said to be alike, then the one the comparison comes down on (an aside allowed)
        (
            "Tiny Pondraven and Compass of Brimwick share a lot, but Compass of Brimwick is the"
            " stronger film. That's my pick.",
            ("tmdb_9100516",),
        ),
        (
            "Tiny Pondraven and Compass of Brimwick have a lot in common, but Tiny Pondraven, from"
            " its first scene, is the more confident one. I'd go with it.",
            ("tmdb_9100160",),
        ),
        (
            "I can offer two: Tiny Pondraven or Compass of Brimwick. They're very similar. Pick one?",
            ("tmdb_9100160", "tmdb_9100516"),
        ),
        (
            "Tiny Pondraven and Compass of Brimwick are close cousins, but Compass of Brimwick is"
            " the better film. Want it?",
            ("tmdb_9100516",),
        ),
        # the same feel as another title, however many words name the feel
        (
            "Tiny Pondraven has the same warm small-town comedy feel as Compass of Brimwick. Want it?",
            ("tmdb_9100160",),
        ),
    ],
)
def test_likenesses_examples_and_references_are_not_put_forward(
    text: str, proposed: tuple[str, ...]
) -> None:
    assert read(text)[1] == proposed
