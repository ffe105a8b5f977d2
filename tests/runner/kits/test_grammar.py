"""The writer's paraphrase grammar: seeded expansion, slots, tidying, pool size and clear errors."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from runner.kits.user.grammar import Grammar, GrammarError

TINY = Grammar(
    {
        "say": ("{opener} {want} {n}{end}", "{n} {fine}{end}"),
        "opener": ("", "honestly,"),
        "want": ("I'd like", "keep it under"),
        "fine": ("works", "is fine"),
        "end": (".", ", please."),
    }
)


def test_the_same_rng_gives_the_same_sentence_and_seeds_vary_it() -> None:
    said = {TINY.say("say", random.Random(seed), n=("90 minutes",)) for seed in range(40)}
    again = {TINY.say("say", random.Random(seed), n=("90 minutes",)) for seed in range(40)}
    assert said == again
    assert len(said) == TINY.count("say") == 12
    assert "Honestly, keep it under 90 minutes, please." in said
    assert "90 minutes is fine." in said


def test_a_slot_is_spelled_one_of_its_ways_and_counted_as_many() -> None:
    spellings = ("two hours", "120 minutes", "2h")
    said = {TINY.say("say", random.Random(seed), n=spellings) for seed in range(200)}
    assert {s for s in said if "2h" in s}
    assert {s for s in said if "two hours" in s}
    assert TINY.count("say", n=len(spellings)) == 36


def test_tidying_mends_spaces_articles_and_the_first_letter() -> None:
    grammar = Grammar({"s": ("{lead} a {g} film{tail}.",), "lead": ("",), "tail": ("", ",")})
    said = {grammar.say("s", random.Random(seed), g=("action",)) for seed in range(10)}
    assert said == {"An action film."}
    # Capitals are values ("Nutri-Score A and ..."): they keep their article as written.
    assert Grammar({"s": ("grade A and up",)}).say("s", random.Random(0)) == "Grade A and up"


def test_missing_empty_and_recursive_rules_fail_with_their_name() -> None:
    with pytest.raises(GrammarError, match="'nowhere'"):
        Grammar({"s": ("{nowhere}",)}).say("s", random.Random(0))
    with pytest.raises(GrammarError, match="'empty'"):
        Grammar({"empty": ()})
    with pytest.raises(GrammarError, match="slot 'n'"):
        TINY.say("say", random.Random(0), n=())
    loop = Grammar({"a": ("{b}",), "b": ("{a}",)})
    with pytest.raises(GrammarError, match="deeper"):
        loop.say("a", random.Random(0))
    with pytest.raises(GrammarError, match="deeper"):
        loop.count("a")


def test_a_grammar_file_is_read_with_continuations_and_empty_alternatives(tmp_path: Path) -> None:
    path = tmp_path / "user.txt"
    path.write_text(
        "# how the user asks for a length\n"
        "say = {opener} keep it under {n} {end}\n"
        "    | {n} {fine} {end}\n"
        "opener = ~ | honestly,\n"
        "fine = works | is fine\n"
        "end = . | , please.\n",
        encoding="utf-8",
    )
    grammar = Grammar.load(path)
    assert grammar.rules["opener"] == ("", "honestly,")
    assert grammar.count("say") == 8
    assert grammar.missing() == {"say": ["n"]}
    assert grammar.missing(slots=["n"]) == {}
    said = {grammar.say("say", random.Random(seed), n=("2h",)) for seed in range(60)}
    assert "Honestly, keep it under 2h, please." in said


def test_a_bad_grammar_file_names_the_file_and_line(tmp_path: Path) -> None:
    problems = {
        "| a\n": "line 1: '|' before any rule",
        "ok = a\nthis is not a rule\n": "line 2: not 'name = a | b'",
        "a = x\na = y\n": "line 2: rule 'a' given twice",
    }
    for number, (text, says) in enumerate(problems.items()):
        path = tmp_path / f"bad{number}.txt"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(GrammarError, match=re.escape(f"{path} {says}")):
            Grammar.load(path)
