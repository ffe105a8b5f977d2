"""The user kit's reader on its own, with a two-field vocabulary of a made-up domain (teas): what a
message does - asks a preference, asks for a reaction to an item, chats, asks a mood - read the
same way for every domain."""

from __future__ import annotations

import re

import pytest

from runner.kits.user.reader import (
    READ_LIMIT,
    TITLE_MARK,
    FieldReader,
    FieldVocabulary,
    asks_reaction,
    describes,
    is_small_talk,
    near_miss_fixer,
    spelling_fixer,
)

TEAS = FieldReader(
    FieldVocabulary(
        strong={
            "strength": (r"strong(?:er)?", r"mild(?:er)?", r"caffeine"),
            "flavour": (r"flavou?rs?", r"fruity", r"smoky"),
            "price": (r"budget", r"price", r"how much"),
        },
        weak={"flavour": (r"good ones?", r"taste"), "strength": (r"bold",)},
        not_a_field=re.compile(r"(?i)\bhow much time\b"),
        normalise=lambda text: text,
        topic_word=re.compile(r"(?i)\b(?:strength|flavour|price)\b"),
        value_item=re.compile(r"(?i)^(?:no|any|under)\b|\d"),
        value_list=re.compile(r"(?!x)x"),
        mood_field="flavour",
        described_field="flavour",
    )
)
ITEM = TITLE_MARK


def test_a_preference_question_asks_its_field_in_any_form() -> None:
    assert TEAS.read_fields("Do you like it strong? And what's your budget?") == (
        "strength",
        "price",
    )
    assert TEAS.read_fields("Let me know how much you'd spend.") == ("price",)


@pytest.mark.parametrize(
    "question",
    [
        "Does that sound like your kind of thing?",
        "Want me to check the price at the other shop?",
        "Shall I add it to your order?",
        "How does that sound?",
        "Would that work instead?",
        "Interested?",
        "What you think?",
        "You like it?",
        "It is ok for you?",
        "Does this hit the spot?",
        "Is this the kind of thing you're after?",
        "Does that match your mood tonight?",
        "Is this acceptable?",
        "Would that be suitable?",
        "Good for you?",
        "Does that story call to you?",
        "You like to watch it?",
        "Yay or nay?",
        "Any good?",
        "Vibe check?",
        "Would it please you?",
        "Sounds ok?",
    ],
)
def test_a_reaction_request_after_an_item_asks_no_field(question: str) -> None:
    assert asks_reaction(question)
    message = f"My pick: {ITEM}. It's a smoky blend from the hills, strong and cheap. {question}"
    assert TEAS.read_fields(message, reacting=True) == ()


def test_without_an_item_put_forward_the_same_words_still_ask() -> None:
    """With no item put forward, "Some like fruity teas. Does that sound like your kind of
    thing?" asks about the flavour: there is nothing to react to."""
    text = "Some like fruity teas. Is a fruity flavour your kind of thing?"
    assert TEAS.read_fields(text) == ("flavour",)


def test_one_plain_fact_then_a_reaction_request_asks_that_fact() -> None:
    """A check right after one stated fact asks that fact's field; a pitch's kind is not asked."""
    assert TEAS.read_fields(
        f"How about {ITEM}? It's very strong. Is that okay?", reacting=True
    ) == ("strength",)
    pitch = f"How about {ITEM}? It's a tea from a valley where monks dry the leaves. Interested?"
    assert TEAS.read_fields(pitch, reacting=True) == ()


@pytest.mark.parametrize(
    "text", ["Have a good one!", "Enjoy!", "Thanks so much for chatting, take care!", "Cheers!"]
)
def test_small_talk_asks_nothing(text: str) -> None:
    assert is_small_talk(text)
    assert TEAS.read_fields(text) == ()
    assert not any(asks for _s, asks in TEAS.segments(text))


def test_small_talk_beside_a_question_keeps_the_question() -> None:
    assert not is_small_talk("Enjoy! And how strong do you like it?")
    assert TEAS.read_fields("Have a good one - and do you like it mild?") == ("strength",)


def test_a_mood_question_asks_the_mood_field_only() -> None:
    text = (
        "What are you in the mood for tonight: something that makes you laugh, something "
        "gripping, something that makes you think?"
    )
    assert TEAS.read_fields(text) == ("flavour",)
    assert TEAS.read_fields("What vibe are you after?") == ("flavour",)


def test_a_pitch_describes_the_item_and_a_question_about_tastes_does_not() -> None:
    assert describes("It's a smoky tea from the hills where the leaves are dried over pine.")
    assert TEAS.describes(f"Try {ITEM}: it follows an old recipe. Sound good?")
    assert TEAS.describes(f"Try {ITEM}. It's smoky.")  # its kind: the described field
    assert not TEAS.describes(f"Try {ITEM}. It costs 4 euros.")
    assert not TEAS.describes("Do you like smoky teas?")


def test_a_parenthesis_is_one_aside() -> None:
    segments = TEAS.segments(f"I'd suggest {ITEM} (4 euros; strong). Would that work instead?")
    assert [asks for _s, asks in segments] == [False, True]


def test_a_question_after_a_short_lead_in_is_a_question() -> None:
    """Both questions of "Before I look: do you like it strong; what's your budget?" count: a
    lead-in and a semicolon once hid the first."""
    text = "Happy to help! Before I look: do you like it strong; what's your budget?"
    assert TEAS.read_fields(text) == ("strength", "price")


def test_a_pitch_that_lists_several_facts_then_a_general_check_asks_nothing() -> None:
    """ "It have smoky flavour and it cost 4 euros. It is ok for you?" (non-native English): a
    general check after several facts is a reaction request; after one fact it asks that fact."""
    several = f"I propose {ITEM}. It have smoky flavour and the price is 4 euros. Is that okay?"
    assert TEAS.read_fields(several, reacting=True) == ()
    assert TEAS.read_fields(
        f"I propose {ITEM}. The price is 4 euros. Is that okay?", reacting=True
    ) == ("price",)


def test_a_statement_without_its_subject_is_not_a_question() -> None:
    """ "Is smoky tea, price 4 euros." drops its subject and ends in a full stop: it describes."""
    segments = TEAS.segments(f"Maybe you like {ITEM}? Is smoky tea, price 4 euros. What you think?")
    assert [asks for _s, asks in segments] == [True, False, True]
    assert (
        TEAS.read_fields(f"Try {ITEM}. Is smoky tea, price 4 euros. You like it?", reacting=True)
        == ()
    )
    assert TEAS.segments("Is that strong enough.")[0][1]  # a subject: still a question


def test_a_mood_menu_after_its_question_asks_the_mood_field() -> None:
    """The menu of a mood question in a sentence of its own belongs to the mood question, even
    when one of its words names another field."""
    text = "What vibe are you after tonight? Something bold, or a calm cup?"
    assert TEAS.read_fields(text) == ("flavour",)
    named = "What vibe are you after tonight? Plus, mild or strong?"  # a field named outright
    assert TEAS.read_fields(named) == ("flavour", "strength")
    assert TEAS.read_fields("What vibe are you after? How strong do you like it?") == (
        "flavour",
        "strength",
    )


def test_a_topic_named_before_a_dash_is_the_question_s_topic() -> None:
    """ "Price - any limit you'd rather keep under?" asks the price, not a weak cue's field."""
    assert TEAS.read_fields("Price — any taste for a limit?") == ("price",)
    assert TEAS.read_fields("Price. Any good ones you like?") == ("flavour",)  # no dash: its own


def test_a_list_of_facts_under_a_named_item_is_a_pitch_not_a_questionnaire() -> None:
    text = f"How about {ITEM}?\n- Strong\n- Price: 4 euros\nShall I add it to your order?"
    assert TEAS.read_fields(text, reacting=True) == ()


def test_spelling_fixer_reads_chat_spellings_as_meant_and_leaves_numbers_alone() -> None:
    fix = spelling_fixer({"budegt": "budget", "4": "for", "u": "you"})
    assert fix("Whats ur Budegt 4 u?") == "Whats ur budget for you?"
    assert fix("It sits at 4.7.") == "It sits at 4.7."
    assert TEAS.read_fields("Have a great evening! Hope that works.") == ()


def test_a_check_after_a_list_is_about_the_whole_list() -> None:
    """ "Here's my plan: 1. ... 2. pick the stronger. Sound okay?" asks about the plan, not the
    strength its last step names; "Options: ... Which would you prefer?" still asks them all."""
    plan = "Here's my plan:\n1. Look at this week's teas\n2. Pick the stronger one\n\nSound okay?"
    assert TEAS.read_fields(plan) == ()
    assert TEAS.read_fields("Pick the stronger one. Sound okay?") == ("strength",)


def test_the_header_of_a_questionnaire_asks_nothing_its_items_do() -> None:
    """ "To find a good one, tell me:" over a bulleted questionnaire: a weak cue in the header
    ("good ones") is not a question; the items are."""
    text = "To find good ones, tell me:\n- How strong do you like it?\n- Any budget?\nThanks!"
    assert TEAS.read_fields(text) == ("strength", "price")
    assert TEAS.read_fields("Tell me which good ones you like.") == ("flavour",)


def test_near_miss_fixer_reads_a_slip_on_a_field_word_and_nothing_else() -> None:
    fix = near_miss_fixer(["processed", "allergies", "rating"])
    assert fix("Avoid ultra-procsesed or prcoessed food? Any alelrgies?") == (
        "Avoid ultra-processed or processed food? Any allergies?"
    )
    assert fix("Are you dating? Processed. Ratings.") == "Are you dating? Processed. Ratings."


def test_a_reaction_request_reads_only_words_that_name_a_field_outright() -> None:
    """'Does that appeal, or is it too bold?' asks how the item lands ('bold' is a weak cue);
    an alternative that asks about the user's tastes still asks."""
    assert (
        TEAS.read_fields(f"{ITEM} is lovely. Does that appeal, or is it too bold?", reacting=True)
        == ()
    )
    assert TEAS.read_fields(
        f"{ITEM} is lovely. Does that appeal, or are you after good ones with more taste?",
        reacting=True,
    ) == ("flavour",)


def test_a_question_that_puts_the_item_forward_does_not_ask_the_fact_before_it() -> None:
    """'A is cheaper than B. I suggest A, okay?' asks for a reaction, not about the price."""
    text = f"{ITEM} is a lower price than {ITEM}. I suggest {ITEM}, okay?"
    assert TEAS.read_fields(text, reacting=True) == ()
    assert TEAS.read_fields(f"{ITEM} is very strong. Is that okay?", reacting=True) == ("strength",)


def test_a_reason_before_so_how_about_is_a_statement() -> None:
    segments = TEAS.segments(f"That one is too strong for you, so how about {ITEM}?")
    assert segments == [("That one is too strong for you,", False), (f"so how about {ITEM}?", True)]


def test_a_question_that_names_the_item_after_a_dash_describes_it() -> None:
    """'How about another fruity one - X, from the hills?' puts X forward and asks no flavour."""
    assert (
        TEAS.read_fields(f"How about another fruity one — {ITEM}, from the hills?", reacting=True)
        == ()
    )
    assert TEAS.read_fields("How about another fruity one?") == ("flavour",)


def test_a_conditional_sentence_ending_in_a_full_stop_states() -> None:
    text = "Should the mood take you, I have a smoky one in reserve."
    assert TEAS.segments(text) == [(text, False)]


@pytest.mark.parametrize(
    ("text", "reacting", "asked"),
    [
        # An offer to act on the item put forward asks nothing; one that changes the search
        # asks about what it changes.
        (f"{ITEM} is fruity. Shall I check the price for you?", True, ()),
        (f"{ITEM}. Want me to send you its flavours?", True, ()),
        (f"{ITEM}. Shall I look for something milder?", True, ("strength",)),
        # A question the writer answers at once is rhetorical; "no worries" answers nothing.
        (f"{ITEM}, very strong? Nah, it's fine. Want it?", True, ()),
        ("How strong do you like it? No worries if unsure.", False, ("strength",)),
        # A check after one sentence of facts joined by semicolons asks none of them.
        (f"I'd pour {ITEM}. Strong; smoky; a low price. Is that agreeable?", True, ()),
        (f"I'd pour {ITEM}. It is very strong. Is that okay?", True, ("strength",)),
        # A question about the recommendation itself asks no fact back.
        (f"My pick is {ITEM}. It has a low price. Was this recommendation helpful?", True, ()),
        # An alternative to the pick that changes a field asks it; a choice of items does not.
        (
            f"{ITEM}, or, if you'd rather, I can find a different flavour — which do you prefer?",
            True,
            ("flavour",),
        ),
        (f"{ITEM} or {ITEM} — which do you prefer?", True, ()),
        # "Do you still want it?" after one fact asks whether the fact is a dealbreaker.
        (f"{ITEM} is very strong. Do you still want it?", True, ("strength",)),
        (f"{ITEM} is very strong, smoky and a high price. Do you still want it?", True, ()),
        # Chat lead-ins and a menu of moods in emoji.
        ("wait how strong do u like it", False, ("strength",)),
        ("😂 or 😭 — which one tonight?", False, ("flavour",)),
    ],
)
def test_what_a_question_around_an_item_asks(
    text: str, reacting: bool, asked: tuple[str, ...]
) -> None:
    assert TEAS.read_fields(text, reacting=reacting) == asked


def test_a_moment_asked_for_is_small_talk_and_which_would_you_drop_gathers_the_options() -> None:
    assert is_small_talk("ok gimme a sec")
    text = (
        "Nothing fits. If you'd let go of the budget, or the caffeine, I could find one. "
        "Which would you drop?"
    )
    assert set(TEAS.read_fields(text)) == {"price", "strength"}


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # a check after one stated fact, worded "... enough?" or without its auxiliary
        (f"I found {ITEM}. It has lots of caffeine. Is that enough for you?", ("strength",)),
        (f"My pick is {ITEM}. It is a mild one. For you it is okay?", ("strength",)),
        # a polite request for details heads a questionnaire
        (
            "I would be grateful for two small details:\n- how strong\n- your budget",
            ("strength", "price"),
        ),
        # options in brackets under a question ending in a colon are its menu
        ("Would you consider:\n(a) a milder tea\n(b) a higher price", ("strength", "price")),
        # the options after a dash ask what the question before it asks
        ("Which flavours do you like — fruity, smoky, something strong?", ("flavour",)),
        # a purpose clause asks nothing; a statement of what the answer is for names the field
        ("Any favourite, so that I can take it into account?", ()),
        ("Any favourite? I can find a cheaper one at that price.", ("price",)),
    ],
)
def test_questions_read_by_their_structure(text: str, asked: tuple[str, ...]) -> None:
    assert TEAS.read_fields(text, reacting=ITEM in text) == asked


def test_a_user_reads_only_the_first_read_limit_characters_of_a_message() -> None:
    # A question past the limit is not read; the same question inside it is.
    assert TEAS.read_fields("Hello. Which flavour do you like?") == ("flavour",)
    padded = "Hello." + " " * READ_LIMIT + "Which flavour do you like?"
    assert TEAS.read_fields(padded) == ()
    assert [asks for _s, asks in TEAS.segments(padded)] == [False]


@pytest.mark.parametrize("unit", ["?", "\n", "&", "a?", "- "])
def test_a_flood_at_the_loops_output_cap_is_read_as_its_first_part(unit: str) -> None:
    # 250,000 characters is what the loop lets through; a run of "?" once cost the reader a
    # search over the whole text per segment (cubic), "&&&..." a quadratic cue pattern.
    flood = unit * (250_000 // len(unit))
    assert TEAS.read_fields(flood) == TEAS.read_fields(flood[:READ_LIMIT])


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # an offer whose object is a choice between values asks the field they are values of
        (f"I found {ITEM}. Shall I order the mild one, or the strong one?", ("strength",)),
        (f"{ITEM} is here. Should I add it in the smoky flavour or the fruity one?", ("flavour",)),
        (f"{ITEM}. Want me to get the fruity one or a smoky blend?", ("flavour",)),
        # an offer to act, its other option another act, asks nothing
        (f"I found {ITEM}. Shall I order it, or tell you the flavour notes?", ()),
        (f"I found {ITEM}. Shall I add it or not?", ()),
        (f"{ITEM} is strong. Want me to add it?", ()),
    ],
)
def test_an_offer_of_alternative_values_asks_their_field(text: str, asked: tuple[str, ...]) -> None:
    assert TEAS.read_fields(text, reacting=True) == asked
