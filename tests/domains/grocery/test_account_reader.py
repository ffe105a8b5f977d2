"""The account reader's general rules, each on messages of our own (the corpus measures the whole reader: `test_account_corpus.py`)."""

from __future__ import annotations

import pytest

from domains.grocery.user.account_reader import AccountReader, amounts_in, plain, refusals


def _read(text: str) -> tuple[tuple[str, ...], bool, bool, bool]:
    r = AccountReader().read(text)
    return r.asked, r.asks_yes, r.reports, r.transfer


def test_misspelt_field_words_and_texting_forms_are_read_as_the_words_they_stand_for() -> None:
    assert (
        plain("pls send ur emial n the ordr numbr") == "please send your email and the order numbr"
    )
    # A short word is mended only through an added letter: "side" stays "side".
    assert plain("on our side, sizee") == "on our side, size"
    assert _read("cud u tell me the adress to ship it to?")[0] == ("address",)


def test_only_requests_ask_a_field_named_in_a_statement_is_not_asked() -> None:
    assert _read("Your refund goes back to the card you paid with.") == ((), False, False, False)
    assert _read("The refund goes to your card. Which order was it?")[0] == ("order",)
    # A list under a request that ends with a colon is part of it.
    assert _read("I need two details:\n- the reason\n- the refund method")[0] == (
        "reason",
        "payment",
    )


def test_each_part_of_a_request_asks_the_first_field_it_names() -> None:
    assert _read("Which product in that order, and where should the refund go?")[0] == (
        "items",
        "payment",
    )
    # A zip code in a request for an address is the address's, with a name it is who you are.
    assert _read("What's the new street, town and zip?")[0] == ("address",)
    assert _read("Your name and zip, please.")[0] == ("who",)


def test_which_of_these_asks_for_what_was_listed_before_it() -> None:
    orders = "Two orders are open:\n- o_1a2b3c4d5e\n- o_6f7a8b9c0d\nWhich of these is it?"
    assert _read(orders)[0] == ("order",)
    lines = "The order holds:\n- Rye Bread x 2\n- Goat Cheese x 1\nWhich of these goes back?"
    assert _read(lines)[0] == ("items",)
    # The payment methods a refund may go to, listed after the order they are about.
    methods = (
        "A refund from o_1a2b3c4d5e can only go to your PayPal or to a gift card. Which of "
        "those would you prefer?"
    )
    assert _read(methods)[0] == ("payment",)


def test_a_yes_is_asked_to_go_ahead_and_not_inside_a_wh_question() -> None:
    assert _read("Cancel o_1a2b3c4d5e and refund €4.20 to your card. Good to go ahead?")[1]
    assert _read("Moving it to 5 Elm Road. Is that right?")[1]
    assert _read("Which card should I use for the refund?")[:2] == (("payment",), False)
    # The fields of a change stated for a yes are not asked.
    assert _read("So I refund €4.20 to your gift card, okay?")[:2] == ((), True)


def test_a_result_is_a_change_said_done_not_one_to_come() -> None:
    assert _read("Your order o_1a2b3c4d5e has been cancelled.")[2]
    assert _read("Address updated.")[2]
    assert not _read("Once it is cancelled, the refund will be issued.")[2]
    assert not _read("Nothing is changed until you say yes.")[2]


def test_a_transfer_hands_the_shopper_to_a_person() -> None:
    assert _read("I'll pass you on to a colleague from our care team.")[3]
    assert not _read("Thanks for contacting our support team!")[3]
    assert _read("Should you still want it, a specialist can look into it for you.")[3]


@pytest.mark.parametrize(
    ("text", "grounds"),
    [
        ("Sorry, o_1a2b3c4d5e is processed and on its way, so I can't cancel it.", {"processed"}),
        (
            "That order is older than 30 days, outside the return window; not possible.",
            {"past_window"},
        ),
        ("Its items were already changed, and that can be done only once.", {"modified_once"}),
        ("Refunds can only go back to the original payment method.", {"refund_elsewhere"}),
        (
            "Exchanges are only for a variant of the same product; I could return it instead.",
            {"other_product"},
        ),
        ("Its items were already modified, so I cannot change them.", {"modified_once"}),
        ("It has already been delivered, so it can no longer be cancelled.", set()),
        # Grounds named without turning anything down are no refusal.
        ("Your order was processed yesterday and is on its way.", set()),
        ("I can't see that order yet; which day did you place it?", set()),
    ],
)
def test_a_refusal_is_read_with_the_policy_grounds_it_names(text: str, grounds: set[str]) -> None:
    assert refusals(text) == grounds
    assert AccountReader().read(text).refuses == grounds


def test_amounts_with_a_decimal_comma_next_to_the_currency_are_read() -> None:
    assert "4.20" in amounts_in("a refund of €4,20")
    assert "4.20" in amounts_in("4,20 EUR back")
    assert amounts_in("items 2,50 and 3") == frozenset()
