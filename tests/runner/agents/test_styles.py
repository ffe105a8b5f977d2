"""Seeded assistant styles: drawn the same for the same seed, varied across seeds, typos that spare names, numbers and policy words."""

from __future__ import annotations

import random

from runner.agents.styles import REGISTERS, Style, draw_style, join_questions, typo


def test_the_same_seed_draws_the_same_style_and_seeds_vary_every_habit() -> None:
    assert draw_style(3, "movies") == draw_style(3, "movies")
    styles = [draw_style(seed, "movies") for seed in range(200)]
    assert {s.register for s in styles} == set(REGISTERS)
    assert {s.bullets for s in styles} == {True, False}
    assert {s.reaction for s in styles} == {True, False}
    assert {s.typo_rate for s in styles} >= {0.0, 0.05}
    assert all(s.polite for s in styles if s.register == "formal")
    assert not any(s.long for s in styles if s.register == "terse")


def test_typos_spare_bold_titles_capitals_numbers_and_policy_words() -> None:
    text = (
        "Heads up: **The Saltvarrow Frontier** is sponsored, it runs 104 minutes on Netflix "
        "and everybody watching tonight should absolutely enjoy the gorgeous photography. "
    ) * 4
    out = typo(text, 1.0, random.Random(0))
    assert out != text
    assert out.count("**The Saltvarrow Frontier**") == 4
    assert out.count("sponsored") == 4
    assert out.count("104") == 4
    assert out.count("Netflix") == 4
    assert typo(text, 0.0, random.Random(0)) == text
    # A typo swaps two inner letters: the same letters, the same length, first and last kept.
    for before, after in zip(text.split(), out.split(), strict=True):
        assert sorted(before) == sorted(after)
        assert before[0] == after[0]


def _style(**changes: object) -> Style:
    base = {
        "register": "chatty",
        "polite": False,
        "long": False,
        "bullets": False,
        "reaction": True,
        "typo_rate": 0.0,
    }
    return Style(**{**base, **changes})  # type: ignore[arg-type]


def test_several_questions_go_in_a_bulleted_list_with_a_lead_or_in_prose() -> None:
    questions = ["How long can it be?", "Which services do you have?"]
    bulleted = join_questions(questions, _style(bullets=True), random.Random(1))
    lines = bulleted.splitlines()
    assert lines[0].endswith(":")
    assert lines[1].endswith(questions[0])
    assert lines[2].endswith(questions[1])
    prose = join_questions(questions, _style(), random.Random(1))
    assert "\n" not in prose
    assert prose.startswith(questions[0])
    assert "which services do you have?" in prose
    assert join_questions(questions[:1], _style(bullets=True), random.Random(1)) == questions[0]
