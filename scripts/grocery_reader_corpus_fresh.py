"""Write the grocery reader's third chat set: `chat_tuning3/` (may be tuned on) and `chat_heldout2/` (held out), from the message shapes in `corpora/grocery/reader/shapes_g3.jsonl`.

Each shape is one way a shop assistant might write one thing, in one voice, with product slots
(`{p}` the product put forward or talked about, `{q}` another product of the same category, `{r}`
one of another category; `{p.price}`, `{p.ns}`, `{p.allergen}` ... their facts from
`tiny_catalog()`; `{tot_pr}`, `{tot_pr2}`, `{dbl}` basket totals) and its label. A shape that
names a product is filled twice with products drawn with a fixed seed among those whose facts fit
what the shape says (`needs`); a shape without one is written once. The split is by shape: the
shapes grouped by the acts they perform, each group shuffled with a fixed seed, half of each
group (rounded up) held out; every message of a shape sits in its shape's share. Each share's
lines are shuffled before they get their ids (`g3t…`, `g3h…`), so an id says nothing of its
shape.

    .venv/bin/python scripts/grocery_reader_corpus_fresh.py
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domains.grocery.corpus import GROCERY_CORPORA, TOPIC_FIELDS, GroceryLabelledMessage
from domains.grocery.items import Product
from domains.grocery.testing import tiny_catalog
from runner.core.reader_corpus import held_out_by_group

SHAPES = GROCERY_CORPORA / "shapes_g3.jsonl"
TUNING_FILE = "chat_tuning3/messages.jsonl"
HELD_OUT_FILE = "chat_heldout2/messages.jsonl"
SEED = 3737
FILLS = 2
HELD_OUT_SHARE = 0.5

_KIND = {
    "Breakfast cereals": "cereal",
    "Yogurts": "yoghurt",
    "Biscuits": "biscuit",
    "Pasta": "pasta",
    "Plant-based drinks": "plant drink",
    "Crisps": "crisps",
    "Chocolates": "chocolate",
    "Sweet spreads": "spread",
    "Cheeses": "cheese",
    "Fruit juices": "juice",
}
_ALLERGEN = {"soybeans": "soya", "sulphur-dioxide-and-sulphites": "sulphites", "nuts": "tree nuts"}
# What a shape may require of the product in its slot, so that what it says is true.
NEEDS: dict[str, Callable[[Product], bool]] = {
    "allergen": lambda p: bool(p.allergens),
    "vegan": lambda p: p.vegan == "yes",
    "nonvegan": lambda p: p.vegan == "no" and p.vegetarian == "yes",
    "organic": lambda p: "organic" in p.labels,
    "notorganic": lambda p: "organic" not in p.labels,
    "gf": lambda p: "gluten-free" in p.labels,
    "palm": lambda p: p.palm_oil == "contains",
    "palmfree": lambda p: p.palm_oil == "free",
    "nova1": lambda p: p.nova_group == 1,
    "upf": lambda p: p.nova_group == 4,
    "pricey": lambda p: p.price >= 3.0,
    "cheap": lambda p: p.price <= 2.0,
    "nslow": lambda p: p.nutriscore in ("d", "e"),
}
# Words that name a topic, to count the shapes that name it without asking it.
TOPIC_WORDS: dict[str, str] = {
    "allergies": r"allerg|intoleran|gluten|\bnuts?\b|peanut|milk|lactose|\beggs?\b|soya|sulphite"
    r"|sesame|traces",
    "diet": r"vegan|vegetarian|veggie|plant-based|halal|kosher|\bdiet",
    "budget": r"€|euro|budget|spend|price|\bcosts?\b|cheap|expensive|fiver|\blimit\b|value",
    "brand": r"\bbrands?\b",
    "nutriscore": r"nutri.?score|\bNS\b",
    "organic": r"organic|\bbio\b",
    "palm_oil": r"palm",
    "pack_size": r"\bsize\b|\bpacks?\b|\d (g|l|cl)\b|portion",
    "processing": r"process|\bnova",
    "origin": r"origin|made in|country|france|french|germany|italy|spain|belgium|\bEU\b|local",
    "category": r"cereal|yoghurt|biscuit|pasta|drink|crisps|chocolate|spread|cheese|juice|snack"
    r"|breakfast|aisle|categor|dairy|beverage|food group|\bsweet\b|salty|savoury",
    "quantity": r"how many|quantit|\bx ?\d|× ?\d|\bunits?\b|\btwo\b|\bqty\b|\d piece|couple",
}


@dataclass(frozen=True)
class Fill:
    """One product in a slot, with the facts a shape may quote."""

    product: Product

    def __format__(self, spec: str) -> str:
        return self.product.name

    @property
    def brand(self) -> str:
        return self.product.brand

    @property
    def price(self) -> str:
        return _euros(self.product.price)

    @property
    def euros(self) -> str:
        """The price as a speaker says it: "3 euros 49"."""
        whole, cents = divmod(round(self.product.price * 100), 100)
        return f"{whole} euros {cents:02d}" if whole else f"{cents} cents"

    @property
    def size(self) -> str:
        return self.product.quantity

    @property
    def ns(self) -> str:
        return self.product.nutriscore.upper()

    @property
    def nova(self) -> int:
        return self.product.nova_group

    @property
    def allergen(self) -> str:
        return _ALLERGEN.get(self.product.allergens[0], self.product.allergens[0])

    @property
    def country(self) -> str:
        return self.product.countries[0]

    @property
    def kind(self) -> str:
        return _KIND[self.product.categories[-1]]


def _euros(amount: float) -> str:
    return f"€{amount:.2f}"


def load_shapes(path: Path = SHAPES) -> list[dict[str, Any]]:
    """The shapes, one a line (a bad line names the file and line)."""
    shapes = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        shape = json.loads(line)
        unknown = set(shape["needs"].get("p", [])) - set(NEEDS)
        if unknown:
            raise ValueError(
                f"{path}:{number}: needs {sorted(unknown)} are not one of {sorted(NEEDS)}"
            )
        shapes.append(shape)
    return shapes


def _fills(
    shape: dict[str, Any], index: int, seed: int = SEED, fills: int = FILLS
) -> list[dict[str, Any]]:
    """The slot values of each message of one shape (`fills` of them, drawn with `seed`): none
    when it names no product."""
    text = shape["text"]
    if "{p" not in text:
        return [{}]
    products = [p for p in tiny_catalog().items if p.nutriscore != "unknown"]
    needs = [NEEDS[n] for n in shape["needs"].get("p", [])]
    fitting = [p for p in products if all(need(p) for need in needs)]
    rng = random.Random(seed * 1000 + index)
    out = []
    for p in rng.sample(fitting, min(fills, len(fitting))):
        same = [o for o in products if o.categories[-1] == p.categories[-1] and o.id != p.id]
        other = [o for o in products if o.categories[-1] != p.categories[-1]]
        q, r = rng.choice(same), rng.choice(other)
        out.append(
            {
                "p": Fill(p),
                "q": Fill(q),
                "r": Fill(r),
                "tot_pr": _euros(p.price + r.price),
                "tot_pr2": _euros(p.price + 2 * r.price),
                "dbl": _euros(2 * p.price),
            }
        )
    return out


def held_out_shapes(shapes: list[dict[str, Any]], seed: int = SEED) -> set[int]:
    """The shapes held out: half of each group of shapes with the same acts (rounded up), drawn
    with a fixed seed."""
    groups = [tuple(shape["acts"]) for shape in shapes]
    return held_out_by_group(groups, seed, lambda size: math.ceil(HELD_OUT_SHARE * size))


def shape_messages(
    shape: dict[str, Any], index: int, seed: int = SEED, fills: int = FILLS
) -> list[GroceryLabelledMessage]:
    """One shape's messages (id left for the share to give; `fills` and `seed` as `_fills`)."""
    out = []
    for fill in _fills(shape, index, seed, fills):
        names = [fill[slot].product.name for slot in shape["proposed"]]
        out.append(
            GroceryLabelledMessage.model_validate(
                {
                    "schema_version": 2,
                    "id": f"shape{index:03d}",
                    "register": shape["voice"],
                    "text": shape["text"].format(**fill),
                    "asked": shape["asked"],
                    "proposed": names,
                    "confirm": shape["confirm"],
                    "acts": shape["acts"],
                }
            )
        )
    return out


def messages() -> dict[str, list[GroceryLabelledMessage]]:
    """Each share's messages, shuffled, with their ids."""
    shapes = load_shapes()
    held = held_out_shapes(shapes)
    shares: dict[str, list[GroceryLabelledMessage]] = {TUNING_FILE: [], HELD_OUT_FILE: []}
    for index, shape in enumerate(shapes):
        shares[HELD_OUT_FILE if index in held else TUNING_FILE] += shape_messages(shape, index)
    rng = random.Random(SEED + 1)
    for name, prefix in ((TUNING_FILE, "g3t"), (HELD_OUT_FILE, "g3h")):
        rng.shuffle(shares[name])
        shares[name] = [
            m.model_copy(update={"id": f"{prefix}{n:04d}"}) for n, m in enumerate(shares[name], 1)
        ]
    return shares


def shape_topic_counts(
    shapes: list[dict[str, Any]], seed: int = SEED
) -> dict[str, tuple[int, int]]:
    """Per topic: the shapes that ask it, and those that name it (in their first message, filled
    with `seed`) without asking it."""
    counts = {}
    texts = [shape_messages(s, i, seed)[0].text for i, s in enumerate(shapes)]
    for topic in TOPIC_FIELDS:
        pattern = re.compile(TOPIC_WORDS[topic], re.IGNORECASE)
        asking = sum(topic in s["asked"] for s in shapes)
        naming = sum(
            topic not in s["asked"] and bool(pattern.search(t))
            for s, t in zip(shapes, texts, strict=True)
        )
        counts[topic] = (asking, naming)
    return counts


def line(message: GroceryLabelledMessage) -> str:
    """A message as one line of its file."""
    return json.dumps(message.model_dump(mode="json", by_alias=True), ensure_ascii=False)


def main() -> None:
    for name, share in messages().items():
        path = GROCERY_CORPORA / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(line(m) + "\n" for m in share), encoding="utf-8")
        print(f"{name}: {len(share)} messages")


if __name__ == "__main__":
    main()
