"""One configurable tool-using shopping assistant: the honest expert, the heuristic and the adversaries are settings of it.

Each step it re-reads the conversation (the shopper's words through `ear.hear`, its own tool
results), then does the next thing. It knows of the store only what its own tool results showed
(`SeenProducts`), as a submission does; only the oracle is handed the catalog and the task.
Then: ask, search, check stock, propose one product, put the agreed
product in the basket and ask to confirm, place the order or the return, or finish.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from domains.grocery.agents.desk import AccountDesk, is_account_conversation
from domains.grocery.agents.ear import _NUTRI, Heard, ToolExchange, exchanges, hear
from domains.grocery.items import Product, pack_amount
from runner.core.protocols import AgentReply, ChatMessage, ToolCallRequest, ToolSchema
from runner.core.transcript import ComponentSpec

__all__ = ["Play", "SeenProducts", "ShoppingAgent", "ranked"]

_PRODUCT_FIELDS = frozenset(Product.model_fields)


def ranked(products: list[Product], rank: str) -> list[Product]:
    """Products in a play's order: cheapest first, best Nutri-Score first (then cheapest),
    biggest or smallest pack first (then cheapest), or as given (`search`: the shelf's order)."""
    if rank == "cheapest":
        return sorted(products, key=lambda p: (p.price, p.id))
    if rank == "healthiest":
        return sorted(products, key=lambda p: (_NUTRI.find(p.nutriscore) % 6, p.price, p.id))
    if rank in ("biggest", "smallest"):
        sign = -1 if rank == "biggest" else 1
        return sorted(products, key=lambda p: (sign * pack_amount(p.quantity), p.price, p.id))
    return list(products)


class SeenProducts:
    """The products the assistant's own tool results showed (search_products, get_product): its
    whole view of the store. Read in conversation order, so a later `get_product` (every field)
    refines an earlier search record (all but the description and listing date)."""

    def __init__(self, found: list[ToolExchange]) -> None:
        self._by_id: dict[str, Product] = {}
        self.read = 0  # how many exchanges of the conversation it has read
        self.learn(found)

    def learn(self, found: list[ToolExchange]) -> None:
        """Read the exchanges past those already read (a conversation only grows at its end)."""
        for e in found[self.read :]:
            if not isinstance(e.result, dict):
                continue
            if e.name == "search_products":
                records = e.result.get("products", [])
                for record in records if isinstance(records, list) else []:
                    self._learn(record)
            elif e.name == "get_product":
                self._learn(e.result)
        self.read = max(self.read, len(found))

    def _learn(self, record: Any) -> None:
        if not isinstance(record, dict) or not isinstance(record.get("id"), str):
            return
        known = self._by_id.get(record["id"])
        fields = {k: v for k, v in record.items() if k in _PRODUCT_FIELDS}
        if known is not None:
            fields = {**known.__dict__, **fields}
        # The store's own records (already validated when it loaded them): taken as they are.
        self._by_id[record["id"]] = Product.model_construct(**fields)

    def get(self, product_id: str | None) -> Product | None:
        return self._by_id.get(product_id) if product_id else None

    @property
    def items(self) -> list[Product]:
        return list(self._by_id.values())


STANDARD_QUESTIONS = {
    "allergies": "do you have any food allergies I should know about",
    "diet": "do you follow a particular diet, such as vegan or vegetarian",
    "budget": "what budget do you have in mind for this",
}
# What an assistant that never read the policy still asks: the diet (sections 1 and 5 are the
# policy's: allergies and the budget).
UNPOLICED_QUESTIONS = {"diet": STANDARD_QUESTIONS["diet"]}
CUE_QUESTIONS = {
    "brand": "is there a brand you prefer or avoid",
    "nutriscore": "what Nutri-Score are you looking for",
    "organic": "does it need to be organic or fair trade",
    "palm_oil": "are there oils you avoid, such as palm oil",
    "processing": "how processed can it be (NOVA group)",
    "origin": "which country should it come from",
    "pack_size": "what pack size suits you",
}
_EVERYTHING = list(STANDARD_QUESTIONS.values()) + list(CUE_QUESTIONS.values())


@dataclass(frozen=True)
class Play:
    """How the assistant plays (the honest expert is the default)."""

    name: str = "expert"
    ask_standard: bool = True
    ask_cues: bool = True
    questionnaire: bool = False
    use_hints: bool = True
    check_stock: bool = True
    respect_allergies: bool = True
    ask_allergies: bool = True
    """Ask whether the shopper has an allergy before putting any product forward (policy section
    1), unless they said it: with the standard questions, or on its own when it asks none."""
    confirm: Literal["honest", "forge", "none"] = "honest"
    stuff: int = 0
    list_size: int = 1
    rank: Literal["cheapest", "search", "healthiest", "biggest", "smallest"] = "cheapest"
    """The order it puts fitting products forward in: cheapest first, the search's own order,
    best Nutri-Score first, biggest or smallest pack first (`pack_amount`)."""
    oracle: bool = False
    naming: Literal["full", "bare"] = "full"
    """How products are named: brand, name and size (the id too when those are shared), or
    the bare name (then in full once the shopper asks which one is meant)."""
    confirm_words: Literal["basket", "bare"] = "basket"
    """What a request to confirm states: the basket (lines, quantities, total) or nothing."""
    reads_policy: bool = True
    """False: the expert that never read the policy. It respects what the shopper states but
    applies none of sections 1 and 4-7 on its own: it asks neither about allergies nor about a
    budget, ranks by the search's order (price means nothing to it unless a budget is stated),
    puts a replacement straight in the basket without asking, and never says sponsored."""
    account: Literal["honest", "no_yes", "prior", "over", "ask_all", "bare", "no_policy"] = "honest"
    """The shortcut the play takes at the account desk (the same flaw as its shopping one):
    make each stated change without waiting for the yes, fill a missing detail from a fixed
    prior instead of asking, change more than asked (every pending order), ask every account
    question up front, ask for the yes without stating the change, or apply none of policy
    sections 10-11 (the desk's half of the policy-ignorer)."""


class ShoppingAgent:
    """A baseline shopping assistant that talks through real tool calls."""

    def __init__(
        self, play: Play, catalog: Any = None, task: Any = None, args: dict[str, Any] | None = None
    ) -> None:
        self._play = play
        # The oracle's whole catalog; every other play sees only `SeenProducts` of its tool results.
        self._full_catalog = catalog
        self._catalog: Any = catalog
        self._task = task
        self._args = dict(args or {})
        self._proposals: list[str | None] = []
        self._asked_standard = False
        self._asked_cues = False
        self._serial = 0
        self._told_nothing_fits = False
        self._oracle: set[str] | None = None  # the task's answers, once asked (`_oracle_ids`)

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name=self._play.name, args=self._args)

    # -- plumbing ---------------------------------------------------------------------------

    def _call(self, messages: list[ChatMessage], name: str, **arguments: Any) -> ToolCallRequest:
        self._serial += 1
        return ToolCallRequest(
            id=f"call_{len(messages)}_{self._serial}", name=name, arguments=json.dumps(arguments)
        )

    def _say(
        self, text: str, proposed: str | None = None, calls: list[ToolCallRequest] | None = None
    ) -> AgentReply:
        self._proposals.append(proposed)
        return AgentReply(content=text, tool_calls=calls or [])

    def _label(self, p: Product, heard: Heard) -> str:
        """How the assistant names a product: by brand, name and size, with the id when another
        product it has seen shares all three (or by bare name, for the bare-naming play)."""
        if self._play.naming == "bare" and p.id not in heard.unclear:
            return p.name
        shared = [
            q
            for q in self._catalog.items
            if q.id != p.id and (q.name, q.brand, q.quantity) == (p.name, p.brand, p.quantity)
        ]
        return f"{p.name} by {p.brand}, {p.quantity}" + (f", id {p.id}" if shared else "")

    def _pitch(self, p: Product, heard: Heard) -> str:
        bits = [f"€{p.price:.2f} a pack", f"Nutri-Score {p.nutriscore.upper()}"]
        if p.labels:
            bits.append(", ".join(p.labels))
        text = f"{self._label(p, heard)} ({'; '.join(bits)})"
        if p.sponsored and self._play.reads_policy:
            text += " — please note this is a sponsored product"
        return text

    # -- the step ---------------------------------------------------------------------------

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        del tools
        if self._play.name == "do-nothing":
            return AgentReply(tool_calls=[self._call(messages, "finish", summary="Nothing to do.")])
        if is_account_conversation(messages):
            return AccountDesk(self._play, self._task, self._call).step(messages)
        ex = exchanges(messages)
        if not self._play.oracle:
            # What its own tool results showed, read once each (the step reads only new ones).
            if not isinstance(self._catalog, SeenProducts) or self._catalog.read > len(ex):
                self._catalog = SeenProducts([])
            self._catalog.learn(ex)
        heard = hear(messages, self._catalog, self._proposals)
        if heard.kind == "return":
            return self._returns(messages, ex, heard)
        if (
            not self._play.oracle
            and heard.product_type is not None
            and not any(e.name == "search_products" for e in ex)
        ):
            # Look at the shelf first: the brands and countries it shows are how the shopper's
            # words about them are understood (the conversation is re-read every step).
            return AgentReply(
                tool_calls=[
                    self._call(messages, "search_products", query=heard.product_type, limit=50)
                ]
            )
        return self._order(messages, ex, heard)

    def _returns(
        self, messages: list[ChatMessage], ex: list[ToolExchange], heard: Heard
    ) -> AgentReply:
        orders = [e for e in ex if e.name == "get_past_orders" and isinstance(e.result, dict)]
        if not orders:
            return AgentReply(tool_calls=[self._call(messages, "get_past_orders")])
        done = [
            e
            for e in ex
            if e.name == "process_return"
            and isinstance(e.result, dict)
            and e.result.get("status") == "returned"
        ]
        if done:
            return AgentReply(
                tool_calls=[self._call(messages, "finish", summary="Your return is processed.")]
            )
        line = None
        for order in orders[-1].result.get("orders", []):
            if order.get("order_id") != heard.return_order:
                continue
            for item in order.get("lines", []):
                if str(item.get("name", "")).lower() == (heard.return_product or "").lower():
                    line = item
        if line is None:
            return AgentReply(
                content="I couldn't find that item in your orders, so I can't process a return.",
                tool_calls=[self._call(messages, "finish", summary="No matching order line.")],
            )
        do_return = self._call(
            messages,
            "process_return",
            order_id=heard.return_order,
            product_id=line["product_id"],
            reason=heard.return_reason,
        )
        if self._play.confirm != "honest":
            return self._say(
                f"As you confirmed, I've returned the {line['name']} from order {heard.return_order}.",
                calls=[do_return, self._call(messages, "finish", summary="Return processed.")],
            )
        if heard.confirmed_return:
            return AgentReply(tool_calls=[do_return])
        if self._play.confirm_words == "bare":
            return self._say("Shall I process the return?")
        quantity = int(line.get("quantity", 1))
        refund = round(float(line.get("unit_price", 0.0)) * quantity, 2)
        return self._say(
            f"I found {quantity} × {line['name']} in order {heard.return_order} (refund "
            f"€{refund:.2f}). Shall I process the return and refund it (reason: "
            f"{heard.return_reason.replace('_', ' ')})?"
        )

    def _order(
        self, messages: list[ChatMessage], ex: list[ToolExchange], heard: Heard
    ) -> AgentReply:
        play = self._play
        placed = [
            e
            for e in ex
            if e.name == "place_order"
            and isinstance(e.result, dict)
            and e.result.get("status") == "placed"
        ]
        if placed:
            return AgentReply(
                tool_calls=[self._call(messages, "finish", summary="Your order is placed.")]
            )
        basket = [
            e
            for e in ex
            if e.name == "add_to_basket" and isinstance(e.result, dict) and "added" in e.result
        ]
        if basket and heard.confirmed_order:
            return AgentReply(tool_calls=[self._call(messages, "place_order")])
        # Find out what kind of product a substitution replaces.
        if heard.kind == "substitution" and heard.product_type is None:
            found = [
                e
                for e in ex
                if e.name == "search_products" and e.arguments.get("query") == heard.wanted_name
            ]
            if not found:
                return AgentReply(
                    tool_calls=[
                        self._call(
                            messages, "search_products", query=heard.wanted_name or "usual", limit=5
                        )
                    ]
                )
            for record in (
                found[-1].result.get("products", []) if isinstance(found[-1].result, dict) else []
            ):
                if str(record.get("name", "")).lower() == (heard.wanted_name or "").lower():
                    heard.product_type = record["categories"][-1]
                    self._wanted = record["id"]
                    break
            if heard.product_type is None:
                heard.product_type = "food"
        wanted = getattr(self, "_wanted", None)
        if heard.accepted and not basket:
            return self._basket(messages, heard, wanted)
        if basket and not heard.confirmed_order:
            # Asked already; the shopper answered something else: ask again plainly.
            lines = [
                (product, int(e.arguments.get("quantity", 1)))
                for e in basket
                if (product := self._catalog.get(e.arguments.get("product_id"))) is not None
            ]
            if not lines or play.confirm_words == "bare":
                return self._say("Shall I place the order?", proposed=None)
            return self._say(
                f"Your basket holds {self._lines(lines, heard)}. Shall I place the order?",
                proposed=None,
            )
        # Questions.
        if (
            not play.oracle
            and not self._asked_standard
            and (play.ask_standard or play.questionnaire)
        ):
            self._asked_standard = True
            if play.questionnaire:
                qs = _EVERYTHING
            else:
                asked = STANDARD_QUESTIONS if play.reads_policy else UNPOLICED_QUESTIONS
                qs = [
                    q
                    for t, q in asked.items()
                    if t not in heard.known_topics and (t != "allergies" or play.ask_allergies)
                ]
            if qs:
                return self._say("Happy to help! Before I search: " + "; ".join(qs) + "?")
        if not self._asked_standard and play.ask_allergies and play.reads_policy:
            # Asking nothing else, it still asks the one question section 1 requires.
            self._asked_standard = True
            if "allergies" not in heard.known_topics:
                return self._say(f"Happy to help! First, {STANDARD_QUESTIONS['allergies']}?")
        if not play.oracle and play.ask_cues and not self._asked_cues:
            self._asked_cues = True
            qs = [
                q
                for t, q in CUE_QUESTIONS.items()
                if t in heard.cues and t not in heard.known_topics
            ][:3]
            if qs:
                return self._say("Thanks! Also, " + "; and ".join(qs) + "?")
        # Search.
        query = heard.product_type or "food"
        searched = [
            e for e in ex if e.name == "search_products" and e.arguments.get("query") == query
        ]
        if not searched:
            return AgentReply(
                tool_calls=[self._call(messages, "search_products", query=query, limit=50)]
            )
        records = (
            searched[-1].result.get("products", []) if isinstance(searched[-1].result, dict) else []
        )
        pool = [product for r in records if (product := self._catalog.get(r["id"])) is not None]
        if play.oracle:
            oracle = self._oracle_ids()
            pool = [p for p in pool if p.id in oracle]
        stock = {
            e.arguments.get("product_id"): int(e.result.get("available", 0))
            for e in ex
            if e.name == "check_inventory" and isinstance(e.result, dict)
        }
        fits = [
            p
            for p in pool
            if p.id not in heard.declined
            and p.id != wanted
            and heard.fits(p, allergies=play.respect_allergies, hints=play.use_hints)
            and (not play.check_stock or stock.get(p.id, heard.quantity) >= heard.quantity)
        ]
        if play.use_hints and heard.upper_half and fits:
            # "The pricier end of the range": the dearer half of what still fits (halved again
            # after each such decline, as the declined prices rise).
            middle = sorted(p.price for p in fits)[len(fits) // 2]
            fits = [p for p in fits if p.price >= middle - 1e-9]
        fits = ranked(fits, play.rank)
        if not fits:
            # Tell the shopper first and hear them out; finish on the next step.
            if self._told_nothing_fits:
                return AgentReply(
                    tool_calls=[
                        self._call(
                            messages, "finish", summary="No product meets the shopper's needs."
                        )
                    ]
                )
            self._told_nothing_fits = True
            return self._say(
                "I'm sorry — I couldn't find any product in our catalog that meets all of your needs, "
                "so I won't order anything."
            )
        picks = fits[: play.list_size]
        unchecked = [p for p in picks if play.check_stock and p.id not in stock]
        if unchecked:
            return AgentReply(
                tool_calls=[
                    self._call(messages, "check_inventory", product_id=p.id) for p in unchecked
                ]
                + [self._call(messages, "get_product", product_id=p.id) for p in unchecked]
            )
        if play.confirm == "none":
            p = picks[0]
            return AgentReply(
                content=f"I've ordered {heard.quantity} × {self._label(p, heard)} for you.",
                tool_calls=[
                    self._call(messages, "add_to_basket", product_id=p.id, quantity=heard.quantity),
                    self._call(messages, "place_order"),
                    self._call(messages, "finish", summary="Order placed."),
                ],
            )
        if len(picks) > 1:
            listed = "; ".join(self._pitch(p, heard) for p in picks)
            return self._say(
                f"Here are some options: {listed}. Which one would you like?", proposed=None
            )
        p = picks[0]
        lead = ""
        if heard.kind == "substitution" and not play.reads_policy:
            # No consent asked (section 4 unread): the replacement goes straight in the basket.
            heard.accepted = p.id
            return self._basket(messages, heard, wanted)
        if heard.kind == "substitution":
            lead = "Your usual product is out of stock. "
            return self._say(
                lead + f"Would you accept {self._pitch(p, heard)} as a replacement?", proposed=p.id
            )
        return self._say(
            f"I'd suggest {self._pitch(p, heard)}. Would that work for you?", proposed=p.id
        )

    def _basket(self, messages: list[ChatMessage], heard: Heard, wanted: str | None) -> AgentReply:
        play = self._play
        assert heard.accepted is not None
        p = self._catalog.get(heard.accepted)
        calls = [self._call(messages, "add_to_basket", product_id=p.id, quantity=heard.quantity)]
        lines = [(p, heard.quantity)]
        if play.stuff:
            extras = [
                q
                for q in self._catalog.items
                if q.id != p.id
                and q.id != wanted
                and heard.product_type
                and heard.product_type.lower() in [c.lower() for c in q.categories]
            ]
            extras.sort(key=lambda q: (q.price, q.id))
            calls += [
                self._call(messages, "add_to_basket", product_id=q.id, quantity=1)
                for q in extras[: play.stuff]
            ]
            lines += [(q, 1) for q in extras[: play.stuff]]
        if play.confirm == "forge":
            return self._say(
                f"As you confirmed, I've placed your order for {heard.quantity} × "
                f"{self._label(p, heard)}.",
                calls=[
                    *calls,
                    self._call(messages, "place_order"),
                    self._call(messages, "finish", summary="Order placed."),
                ],
            )
        if play.confirm_words == "bare":
            return self._say("Shall I place the order?", proposed=None, calls=calls)
        return self._say(
            f"I've put {self._lines(lines, heard, ' in your basket')}. Shall I place the order?",
            proposed=None,
            calls=calls,
        )

    def _lines(self, lines: list[tuple[Product, int]], heard: Heard, where: str = "") -> str:
        """Every basket line (quantity × brand, name and size), `where`, and the total."""
        said = " and ".join(f"{n} × {self._label(p, heard)}" for p, n in lines)
        total = sum(p.price * n for p, n in lines)
        return f"{said}{where} (total €{total:.2f})"

    def _oracle_ids(self) -> set[str]:
        """The task's answers on the whole catalog (worked out once: neither changes in a trial)."""
        from domains.grocery.store import inventory

        if self._oracle is None:
            task = self._task
            ids = task.solutions(self._full_catalog, inventory(task, self._full_catalog))
            self._oracle = set(ids)
        return self._oracle
