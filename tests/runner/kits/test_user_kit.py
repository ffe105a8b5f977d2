"""The user kit on its own: the question-patience rule, the writer's dispatch, the leak walk."""

from __future__ import annotations

import random
from typing import Annotated, ClassVar, Literal

import pytest
from pydantic import Field

from runner.core.transcript import Leak, MessageEvent, Transcript
from runner.kits.user.acts import ActPartBase, HoldBack, NothingFitsAck, ReplyActBase
from runner.kits.user.leaks import audit_transcript, excerpt, leak_at
from runner.kits.user.ledger import Ledger, Questions, answerable
from runner.kits.user.writer import Bank, Keyed, TemplateWriterBase, join_list


def test_answered_counting_answers_a_few_topics_per_message_then_treats_it_as_a_form() -> None:
    ledger = Ledger()
    two_at_once = Questions(per_message=2, in_all=9, free=frozenset(), counts="answered")
    answered, held = answerable(["a", "b", "c"], ledger, two_at_once)
    assert (answered, held, ledger.form) == (["a", "b"], "at_once", True)
    # After a form, only topics answered before are answered again.
    ledger.asked |= set(answered)
    answered, held = answerable(["a", "d"], ledger, two_at_once)
    assert (answered, held) == (["a"], "patience")


def test_asked_counting_lets_free_topics_through_and_counts_held_ones() -> None:
    ledger = Ledger(asked={"x", "y"})
    # Two topics answered already: no new one.
    questions = Questions(per_message=3, in_all=2, free=frozenset({"fact"}), counts="asked")
    answered, held = answerable(["fact", "x", "z", "w"], ledger, questions)
    assert (answered, held, ledger.form) == (["fact", "x"], "patience", False)


def test_the_ledger_is_worn_out_at_either_cap() -> None:
    assert not Ledger(strikes=1, declines=2).worn_out(2, 3)
    assert Ledger(strikes=2).worn_out(2, 3)
    assert Ledger(declines=3).worn_out(2, 3)


class _Say(ActPartBase):
    kind: Literal["say"] = "say"
    what: str


class _Act(ReplyActBase):
    parts: list[Annotated[_Say | HoldBack | NothingFitsAck, Field(discriminator="kind")]]


class _Writer(TemplateWriterBase):
    banks: ClassVar[dict[str, Bank | Keyed]] = {
        "hold_back": Keyed("reason", {"at_once": ("One at a time.",), "patience": ("Enough.",)}),
    }

    def merge(self, parts: list[object]) -> list[object]:
        out: list[object] = []
        for part in parts:
            last = out[-1] if out else None
            if isinstance(part, _Say) and isinstance(last, _Say):
                out[-1] = _Say(what=f"{last.what} and {part.what}")
            else:
                out.append(part)
        return out

    def word_say(self, part: _Say, rng: random.Random) -> list[str]:
        return [rng.choice((f"I want {part.what}.", f"{part.what}, please."))]


def test_the_writer_words_parts_by_method_or_bank_and_merges_runs() -> None:
    act = _Act(parts=[_Say(what="tea"), _Say(what="milk"), HoldBack(reason="patience")])
    words = _Writer().write(act, random.Random(3))
    assert words.endswith(" Enough.")
    assert "tea and milk" in words
    assert _Writer().write(act, random.Random(3)) == words  # same act and rng, same words
    with pytest.raises(TypeError, match="no template for act part"):
        _Writer().write(_Act(parts=[NothingFitsAck()]), random.Random(0))


def test_join_list_says_one_two_or_many() -> None:
    assert join_list([], "and") == ""
    assert join_list(["a"], "or") == "a"
    assert join_list(["a", "b"], "or") == "a or b"
    assert join_list(["a", "b", "c"], "and") == "a, b and c"


def test_the_leak_walk_accumulates_asked_topics_and_passes_the_echo() -> None:
    transcript = Transcript(
        task_id="t",
        agent={"name": "a"},
        simulator={"name": "u"},
        events=[
            MessageEvent(role="agent", content="Hi! Budget?"),
            MessageEvent(role="user", content="Ten euros, and it must be vegan."),
            MessageEvent(role="agent", content="Vegan noted. Any brand?"),
            MessageEvent(role="user", content="Vegan, yes."),
        ],
    )
    seen: list[tuple[str, frozenset[str], str, int]] = []

    def asked_in(text: str) -> list[str]:
        return [t for t in ("budget", "brand") if t in text.lower()]

    def leaks_in(text: str, asked: frozenset[str], echo: str, index: int) -> list[Leak]:
        seen.append((text, asked, echo, index))
        at = text.lower().find("vegan")
        if at < 0 or "vegan" in echo.lower():
            return []
        return [leak_at(index, "vegan", True, text, (at, at + 5), "'vegan'", "the diet need")]

    audit = audit_transcript(transcript, asked_in, leaks_in)
    assert [s[1] for s in seen] == [frozenset({"budget"}), frozenset({"budget", "brand"})]
    assert [s[3] for s in seen] == [1, 3]
    assert not audit.clean
    assert len(audit.leaks) == 1
    assert audit.leaks[0].reason == "states 'vegan' while the diet need is hidden"
    assert audit.leaks[0].reveal == "hidden"


def test_an_excerpt_marks_where_it_was_cut() -> None:
    text = "x" * 50 + "VALUE" + "y" * 50
    cut = excerpt(text, 50, 55)
    assert cut.startswith("…")
    assert cut.endswith("…")
    assert "VALUE" in cut
    assert excerpt("short VALUE", 6, 11) == "short VALUE"


def test_a_replay_reads_only_what_is_new_and_starts_over_on_a_changed_history() -> None:
    from runner.kits.user.replay import Replay, opened

    def said(*texts: str) -> list[MessageEvent]:
        events = [MessageEvent(role="agent", content="Hello")]
        for text in texts:
            events += [
                MessageEvent(role="user", content="..."),
                MessageEvent(role="agent", content=text),
            ]
        return events

    replay: Replay[list[str]] = Replay(list)
    assert not opened(said()[:1])
    assert opened(said("a"))
    assert replay.unread(said("a", "b")) == ["a", "b"]
    for text in ["a", "b"]:
        replay.state.append(text)
        assert replay.read(text) == len(replay.state)
    assert replay.unread(said("a", "b", "c")) == ["c"]
    assert replay.state == ["a", "b"]
    # The agent's earlier words changed: everything is read again, from a fresh state.
    assert replay.unread(said("a", "B", "c")) == ["a", "B", "c"]
    assert (replay.state, replay.turn) == ([], 0)


def test_a_model_answer_stands_only_when_usable_and_a_fallback_says_why() -> None:
    import asyncio

    from runner.core.errors import InfraFailure
    from runner.core.protocols import ModelCall
    from runner.kits.user.fallback import Answer, model_or_fallback

    class _Fatal(InfraFailure):
        pass

    usage = ModelCall(model="m", prompt_tokens=3, completion_tokens=1, cost_usd=0.0)

    def ask(answer: str | BaseException) -> Answer[int]:
        async def call() -> tuple[str, ModelCall]:
            if isinstance(answer, BaseException):
                raise answer
            return answer, usage

        def judge(text: str) -> tuple[int | None, tuple[str, str]]:
            return (int(text), ("", "")) if text.isdigit() else (None, ("not_a_number", text))

        return asyncio.run(model_or_fallback("reader", call, judge, lambda: -1, fatal=(_Fatal,)))

    good = ask("42")
    assert (good.value, good.note, good.usage) == (42, None, usage)
    refused = ask("x" * 500)
    assert refused.note is not None
    assert (refused.value, refused.note.reason, refused.usage) == (-1, "not_a_number", usage)
    assert len(refused.note.detail) == 300
    failed = ask(InfraFailure("Timeout", "no answer in 30 s"))
    assert failed.note is not None
    assert failed.note.detail == "Timeout: no answer in 30 s"
    assert (failed.value, failed.note.reason, failed.usage) == (-1, "model_error", None)
    with pytest.raises(_Fatal):
        ask(_Fatal("AuthenticationError", "no key"))
