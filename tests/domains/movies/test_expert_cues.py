"""The expert hears a topic cue through the documented topic vocabulary, never through a suite's persona phrases."""

from __future__ import annotations

from domains.movies.baselines.expert import _topic_order
from domains.movies.baselines.preferences import Preferences
from domains.movies.simulators.vocabulary import TOPIC_WORDS


def test_a_topic_word_in_the_opening_puts_that_topic_first() -> None:
    for topic, words in TOPIC_WORDS.items():
        for word in words:
            order = _topic_order(Preferences(), None, f"Hi! For me {word} matters a lot.")
            assert order[0] == topic, (word, order)


def test_a_persona_phrase_without_vocabulary_is_no_cue() -> None:
    plain = _topic_order(Preferences(), None, "")
    phrase = "I go to fan conventions and hate being behind on what everyone is discussing."
    assert _topic_order(Preferences(), None, phrase) == plain
