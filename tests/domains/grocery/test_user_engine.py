"""The scripted shopper's decisions: what it states and when, what it accepts, the acts it gives, its fixed patience, and the leak audit."""

from __future__ import annotations

from typing import Any

import pytest

from domains.grocery.tasks import GroceryTask
from domains.grocery.testing import tiny_catalog
from domains.grocery.user import UnknownUserError, build_user
from domains.grocery.user.leaks import audit_leaks, audit_probe, message_leaks
from domains.grocery.user.needs import needs_of
from runner.core.protocols import ComponentSpec
from runner.core.transcript import MessageEvent, Transcript
from tests.domains.grocery.play import need

CATALOG = tiny_catalog()
HONEY_PUFFS = "Honey Puff Rings"  # not vegan, traces milk/soy, sponsored, 2.79
MILLET_POPS = "Plain Millet Pops"  # vegan, organic, Nutri-Score A, 3.95
OAT_CRUNCH = "Morning Oat Crunch"  # vegan, organic, traces nuts, 3.49


def _task(**fields: Any) -> GroceryTask:
    data: dict[str, Any] = {
        "id": "g_engine",
        "persona": "You are a careful shopper.",
        "kind": "order",
        "quantity": 2,
        "budget": 9.0,
        "allergies": ["nuts"],
        "allergy_reveal": "on_ask",
        "constraints": [
            need("categories", "contains", "Breakfast cereals"),
            need("vegan", "==", "yes", "on_ask"),
            need("labels", "contains", "organic", "on_ask"),
            need("nutriscore", "in", ["a"], "hidden"),
        ],
        "policy_flags": ["order_confirmation", "allergen_safety", "budget"],
        "complexity": "medium",
        "reveal_difficulty": "mixed",
    }
    data.update(fields)
    return GroceryTask.model_validate(data)


def _substitution_task() -> GroceryTask:
    """The usual Morning Oat Crunch is out of stock: any vegan cereal will do instead."""
    return _task(
        kind="substitution",
        wanted_product="off_2000000000001",
        out_of_stock=["off_2000000000001"],
        allergies=[],
        budget=None,
        constraints=[
            need("categories", "contains", "Breakfast cereals"),
            need("vegan", "==", "yes"),
        ],
        policy_flags=["order_confirmation", "substitution_consent"],
        reveal_difficulty="volunteer",
    )


class Chat:
    """A conversation with a scripted shopper, one agent message at a time."""

    def __init__(self, task: GroceryTask, seed: int = 0) -> None:
        self.user = build_user("scripted", task=task, catalog=CATALOG, seed=seed)
        self.conv = [MessageEvent(role="agent", content="Hello! How can I help?")]
        self.opening = self._reply().content

    def _reply(self) -> Any:
        turn = self.user.reply(self.conv)  # type: ignore[attr-defined]
        self.conv.append(MessageEvent(role="user", content=turn.content, act=turn.act))
        return turn

    def say(self, text: str) -> Any:
        self.conv.append(MessageEvent(role="agent", content=text))
        return self._reply()


def test_opening_states_only_volunteered_needs_and_cues_the_rest() -> None:
    chat = Chat(_task())
    assert "breakfast cereals" in chat.opening
    assert "farmed" in chat.opening  # the on_ask organic need is cued, its value unsaid
    assert "organic" not in chat.opening.lower()
    assert "vegan" not in chat.opening.lower()
    assert "nut" not in chat.opening.lower()


def test_on_ask_needs_are_told_when_asked_and_hidden_ones_never() -> None:
    chat = Chat(_task())
    reply = chat.say("Do you have any allergies, and what about your diet and budget?")
    assert "nuts" in reply.content
    assert "vegan" in reply.content
    assert "9.00" in reply.content
    reply = chat.say("Do you care about the Nutri-Score?")
    assert "hard to say" in reply.content.lower() or "can't really" in reply.content.lower()
    assert not message_leaks(needs_of(_task()), reply.content, {"nutriscore"})


def test_a_product_breaking_a_hidden_need_gets_a_hint_without_the_value() -> None:
    chat = Chat(
        _task(
            constraints=[
                need("categories", "contains", "Breakfast cereals"),
                need("nutriscore", "in", ["a"], "hidden"),
            ],
            allergies=[],
            budget=None,
            policy_flags=["order_confirmation"],
            reveal_difficulty="hidden",
        )
    )
    reply = chat.say("How about Cocoa Spelt Flakes?")
    assert reply.verdict == "decline"
    assert "Nutri-Score" in reply.content
    assert not any(f"Nutri-Score {x}" in reply.content for x in "ABab")


def test_confirm_order_only_after_accepting_and_being_asked() -> None:
    chat = Chat(_task())
    chat.say("Any allergies? Do you follow a diet? What's your budget?")
    chat.say("Should it be organic?")
    assert chat.say("Shall I place the order?").act is None  # nothing agreed yet
    accepted = chat.say(f"I'd suggest {MILLET_POPS}. Would that work?")
    assert accepted.verdict == "accept"
    assert accepted.act is None
    assert chat.say("As you confirmed, I've placed your order.").act is None
    assert (
        chat.say(f"I've put 2 × {MILLET_POPS} in your basket. Shall I place the order?").act
        == "confirm_order"
    )


def test_a_basket_never_shown_gets_a_question_not_a_yes() -> None:
    chat = Chat(_task())
    chat.say("Any allergies? Do you follow a diet? What's your budget?")
    chat.say("Should it be organic?")
    assert chat.say(f"I'd suggest {MILLET_POPS}. Would that work?").verdict == "accept"
    bare = chat.say("Shall I place the order?")
    assert bare.act is None
    assert "total" in bare.content.lower() or "come to" in bare.content.lower()
    stated = chat.say(f"Your basket: 2 × {MILLET_POPS}, total €7.90. Shall I place the order?")
    assert stated.act == "confirm_order"


def test_proposing_and_asking_to_order_at_once_gets_no_confirmation() -> None:
    chat = Chat(_task())
    chat.say("Any allergies? Do you follow a diet? What's your budget?")
    chat.say("Should it be organic?")
    reply = chat.say(f"How about {MILLET_POPS}? Shall I place the order?")
    assert reply.verdict == "accept"
    assert reply.act is None
    assert "before" in reply.content.lower()


def test_two_avoidable_misses_make_the_shopper_leave() -> None:
    chat = Chat(_task())
    chat.say("Any allergies? Do you follow a diet? What's your budget?")
    assert chat.say(f"How about {HONEY_PUFFS}?").verdict == "decline"  # not vegan: it said so
    assert chat.say(f"Then {OAT_CRUNCH}?").verdict == "leave"  # traces of nuts: it said so


def test_substitute_acceptance_is_consent() -> None:
    task = _substitution_task()
    chat = Chat(task)
    assert OAT_CRUNCH in chat.opening
    reply = chat.say(f"Your usual {OAT_CRUNCH} is out of stock. Would {MILLET_POPS} do instead?")
    assert reply.act == "consent_substitution"


def test_return_is_confirmed_only_for_the_right_item() -> None:
    task = GroceryTask.model_validate(
        {
            "id": "g_ret",
            "persona": "You are tidy.",
            "kind": "return",
            "complexity": "simple",
            "reveal_difficulty": "volunteer",
            "policy_flags": ["return_confirmation"],
            "past_orders": [
                {
                    "order_id": "ord_1",
                    "date": "2026-10-01",
                    "lines": [
                        {"product_id": "off_2000000000029", "quantity": 1, "unit_price": 2.25},
                        {"product_id": "off_2000000000030", "quantity": 1, "unit_price": 0.6},
                    ],
                }
            ],
            "return_target": {
                "order_id": "ord_1",
                "product_id": "off_2000000000029",
                "reason": "damaged",
            },
        }
    )
    chat = Chat(task)
    assert "Cloudy Apple Juice" in chat.opening
    assert "ord_1" in chat.opening
    assert chat.say("Shall I process the return of the Blood Orange Juice?").act is None
    assert chat.say("Shall I process the return of the Cloudy Apple Juice?").act == "confirm_return"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_seed_changes_words_never_decisions(seed: int) -> None:
    script = [
        "Any allergies? Do you follow a diet? What's your budget?",
        f"How about {HONEY_PUFFS}?",
        "Should it be organic?",
        f"I'd suggest {MILLET_POPS}.",
        "Shall I place the order?",
    ]
    base, other = Chat(_task(), 0), Chat(_task(), seed)
    for text in script:
        a, b = base.say(text), other.say(text)
        assert (a.verdict, a.act) == (b.verdict, b.act)


def test_the_probe_finds_no_leak() -> None:
    assert audit_probe(_task(), CATALOG) == []


def test_the_audit_catches_a_stated_hidden_value() -> None:
    leaks = message_leaks(needs_of(_task()), "I only want Nutri-Score A, please.", set())
    assert leaks
    assert "hidden" in leaks[0]


def _transcript(*messages: tuple[str, str]) -> Transcript:
    spec = ComponentSpec(name="test")
    return Transcript(
        task_id="g_engine",
        agent=spec,
        simulator=spec,
        events=[MessageEvent(role=role, content=text) for role, text in messages],  # type: ignore[arg-type]
    )


def test_the_trial_audit_follows_what_was_asked() -> None:
    """Allergies (on_ask) may be told once asked, never before; the hidden Nutri-Score never."""
    told_when_asked = _transcript(
        ("agent", "Hello! Any allergies I should know about?"),
        ("user", "Yes, I'm allergic to nuts."),
    )
    assert audit_leaks(_task(), told_when_asked).clean
    told_early = _transcript(("agent", "Hello!"), ("user", "Cereal please, and no nuts."))
    audit = audit_leaks(_task(), told_early)
    assert not audit.clean
    (leak,) = audit.leaks
    assert (leak.message_index, leak.field, leak.reveal) == (1, "allergies", "on_ask")
    hidden = _transcript(
        ("agent", "What Nutri-Score do you want?"), ("user", "Nutri-Score A only.")
    )
    assert [x.field for x in audit_leaks(_task(), hidden).leaks] == ["nutriscore"]


def test_unknown_user_mode_is_a_clear_error() -> None:
    with pytest.raises(UnknownUserError, match="scripted"):
        build_user("llm", task=_task(), catalog=CATALOG, seed=0)


def test_a_basket_holding_a_line_it_never_chose_is_refused_at_confirmation() -> None:
    """Over-filling: the confirmation states every line, the shopper hears the extra one and
    says no (a strike), however often the agent asks."""
    chat = Chat(_task())
    chat.say("Any allergies? Do you follow a diet? What's your budget?")
    chat.say("Should it be organic?")
    assert chat.say(f"I'd suggest {MILLET_POPS}. Would that work?").verdict == "accept"
    stuffed = f"Your basket: 2 × {MILLET_POPS} and 1 × {HONEY_PUFFS}, total €10.69. Order it?"
    first = chat.say(stuffed)
    assert first.act is None
    assert first.verdict == "decline"
    assert chat.say(stuffed).verdict == "leave"


def test_a_replacement_first_heard_of_in_the_basket_is_not_consented_to() -> None:
    task = _substitution_task()
    chat = Chat(task)
    reply = chat.say(f"I've put 2 × {MILLET_POPS} in your basket (total €7.90). Shall I order?")
    assert reply.act is None
    assert reply.verdict == "decline"


def test_a_hidden_price_floor_is_hinted_upward_without_its_value() -> None:
    """A need pointing the other way (not the cheap kind): the decline says the product is too
    basic, never the floor, and the expert, reading that, moves up and wins."""
    import asyncio

    from domains.grocery.agents import baselines
    from domains.grocery.panel_play import play_grocery_trial
    from domains.grocery.scoring import score
    from runner.core.protocols import AgentContext

    task = _task(
        allergies=[],
        budget=None,
        constraints=[
            need("categories", "contains", "Breakfast cereals"),
            need("price", ">=", 3.9, "hidden"),
        ],
        policy_flags=["order_confirmation"],
        reveal_difficulty="hidden",
    )
    chat = Chat(task)
    reply = chat.say(f"I'd suggest {HONEY_PUFFS}. Would that work?")
    assert reply.verdict == "decline"
    assert "basic" in reply.content or "cheap kind" in reply.content
    assert "3.9" not in reply.content
    context = AgentContext(user_id=task.user_id, policy_text="", seed=0)
    agent = baselines()["expert"](context, {})
    transcript = asyncio.run(play_grocery_trial(agent, task, CATALOG, 0))
    assert score(task, transcript, CATALOG).reward == 1.0
