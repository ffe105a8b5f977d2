"""The account shopper's template writer: a decided act in, the shopper's words out, from our seeded grammar (`account_grammar.txt`).

One key seeds a reply's words (`variation`): `account|<seed>|<task>|<turn>`, then, after a `;`,
the bank lines the turn's rng drew before this reply's own (`draws`). The shopper re-reads the
whole conversation with one rng per turn and has always drawn, on that rng, the bank line of
every earlier reply it re-read (a yes, a "next", a "that's all"); the key names those draws so
that the model server's stand-in writer, given only the act and the key, says exactly what the
scripted shopper says. Sentences (requests, answers) draw from their own rng seeded by the key's
first part, so a paraphrase added to a sentence never moves a bank line.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from domains.grocery.user import account_acts as a
from domains.grocery.user.acts import Done, Leave
from runner.kits.user.grammar import Grammar
from runner.kits.user.writer import Bank, Keyed, TemplateWriterBase

__all__ = ["ACCOUNT_GRAMMAR", "AccountWriter", "account_words", "draws", "variation_key"]

ACCOUNT_GRAMMAR = Grammar.load(Path(__file__).with_name("account_grammar.txt"))
G = ACCOUNT_GRAMMAR


def draws(act: a.AccountAct) -> list[str]:
    """The bank lines (grammar rules) an act's words draw from the turn's rng, in order."""
    out: list[str] = []
    for part in act.parts:
        if isinstance(part, a.AccountHello):
            out.append("hello")
        elif isinstance(part, a.Wants) and part.lead in ("also", "next"):
            out.append(part.lead)
        elif isinstance(part, a.ConfirmAction):
            out.append("yes")
        elif isinstance(part, Done):
            out.append("done")
        elif isinstance(part, Leave):
            out.append("leave")
        elif isinstance(part, a.Insist):
            out.append("insist")
        elif isinstance(part, a.GiveUp):
            out.append("give_up")
    return out


def variation_key(head: str, earlier: list[a.AccountAct]) -> str:
    """The key of one reply's words: `head` (the turn's seed) and the earlier replies' draws."""
    burned = [rule for act in earlier for rule in draws(act)]
    return f"{head};{','.join(burned)}" if burned else head


def _paid(line: a.Line) -> str:
    return f"{line.name} ({line.pack}, €{line.paid:.2f})"


def _new(line: a.Line) -> str:
    return f"the {line.new_pack} pack at €{line.new_price or 0:.2f}"


class AccountWriter(TemplateWriterBase):
    """Words account acts: bank lines from the turn's rng, sentences from `sentences`."""

    banks: ClassVar[Mapping[str, Bank | Keyed]] = {}

    def __init__(self, sentences: random.Random) -> None:
        self._s = sentences

    def word_account_hello(self, part: a.AccountHello, rng: random.Random) -> list[str]:
        return [G.say("hello", rng)]

    def word_confirm_action(self, part: a.ConfirmAction, rng: random.Random) -> list[str]:
        return [G.say("yes", rng)]

    def word_done(self, part: Done, rng: random.Random) -> list[str]:
        return [G.say("done", rng)]

    def word_leave(self, part: Leave, rng: random.Random) -> list[str]:
        return [G.say("leave", rng)]

    def word_insist(self, part: a.Insist, rng: random.Random) -> list[str]:
        return [G.say("insist", rng)]

    def word_give_up(self, part: a.GiveUp, rng: random.Random) -> list[str]:
        return [G.say("give_up", rng)]

    def word_take_instead(self, part: a.TakeInstead, rng: random.Random) -> list[str]:
        if part.pay is None:
            return [G.say("return_instead", self._s)]
        return [G.say("refund_instead", self._s, pay=(part.pay,))]

    def word_who_i_am(self, part: a.WhoIAm, rng: random.Random) -> list[str]:
        if part.email is not None:
            return [G.say("who_email", self._s, email=(part.email,))]
        return [
            G.say(
                "who_name",
                self._s,
                first=(part.first_name,),
                last=(part.last_name,),
                zip=(part.zip,),
            )
        ]

    def word_gives(self, part: a.Gives, rng: random.Random) -> list[str]:
        words = [G.say("order_is", self._s, placed=(part.placed,))] if part.placed else []
        if part.reason is not None:
            words.append(G.say("reason_is", self._s, why=G.rules[f"why_{part.reason}"]))
        return words + ([G.say("pay_with", self._s, pay=(part.pay,))] if part.pay else [])

    def word_wants(self, part: a.Wants, rng: random.Random) -> list[str]:
        lead = {"also": rng, "next": rng, "restate": self._s}.get(part.lead)
        words = [G.say(part.lead, lead)] if lead is not None else []
        return [*words, self.request(part)]

    def request(self, part: a.Wants) -> str:
        """The sentence of one request (its facts, each said as given)."""
        s, kind = self._s, part.request
        place = {
            "street": (part.street or "",),
            "city": (part.city or "",),
            "zip": (part.zip or "",),
        }
        pay = (part.pay or "",)
        rule = f"{kind}_pay" if part.pay is not None and kind not in ("modify_payment",) else kind
        if kind == "cancel":
            if part.reason is None:
                return G.say("cancel", s)
            return G.say("cancel_why", s, why=G.rules[f"why_{part.reason}"])
        if kind in ("modify_address", "change_address"):
            return G.say(kind, s, **place)
        if kind == "modify_payment":
            return G.say(kind, s, pay=pay)
        if kind == "return":
            line = part.lines[0]
            if line.other is not None:  # an exchange for a different product
                rule = rule.replace("return", "exchange_other")
            units, paid = (str(line.units),), (_paid(line),)
            return G.say(rule, s, units=units, paid=paid, other=(line.other or "",), pay=pay)
        if kind == "exchange":
            swaps = "; and ".join(f"{x.units} of the {_paid(x)} for {_new(x)}" for x in part.lines)
        else:
            swaps = "; and ".join(f"the {_paid(x)} to {_new(x)}" for x in part.lines)
        return G.say(rule, s, swaps=(swaps,), pay=pay)


def account_words(act: a.AccountAct, variation: str) -> str:
    """The scripted shopper's words for `act` under its key (see the module docstring)."""
    head, _, burned = variation.partition(";")
    rng = random.Random(head)
    for rule in filter(None, burned.split(",")):
        G.say(rule, rng)
    return AccountWriter(random.Random(f"{head}|sentences")).write(act, rng)
