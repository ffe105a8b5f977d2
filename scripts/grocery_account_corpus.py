"""Write the account-desk reader corpus (`corpora/grocery/account/`): our own message shapes, each filled twice, split by shape into a tuning and a held-out share.

The shapes are data (`corpora/grocery/account/shapes.jsonl`). Each shape is one way an account assistant might write one thing (ask who the shopper is, which
order, items, address, reason or payment; state a change and ask for a yes; report a result;
offer a transfer; chat), in one voice (`terse`, `chatty`, `formal`, `esl` for non-native
English, `typo`, `bullets`), labelled with what it does. The shapes were written before any
account reader rule was run on them. The split: shapes grouped by what they do, each group
shuffled with a fixed seed, 40 % of each group (rounded to the nearest) held out; both fills of a shape sit
in its shape's share.

    .venv/bin/python scripts/grocery_account_corpus.py
"""

from __future__ import annotations

import json
import random
from typing import Any

from domains.grocery.account_corpus import ACCOUNT_CORPUS, AccountLabelledMessage

# One shape a line: group, voice, text ({lead} opens every message, {order}, {amount}, ... are
# the fills'), and its label: asked, asks_yes, reports, transfer.
SHAPES_FILE = ACCOUNT_CORPUS / "shapes.jsonl"
SHAPES: list[dict[str, Any]] = [
    json.loads(line) for line in SHAPES_FILE.read_text(encoding="utf-8").splitlines() if line
]

# Two fills per shape: the facts a message names, and how it opens.
FILLS = (
    {"lead": "", "order": "ord_014_2", "other": "ord_014_3", "amount": "18.40",
     "item": "Oat Crunch Granola", "street": "14 Mill Lane"},
    {"lead": "Thanks! ", "order": "ord_203_1", "other": "ord_203_4", "amount": "7.95",
     "item": "Sunny Valley Apple Juice", "street": "3 Harbour Row"},
)  # fmt: skip
HELD_OUT_SHARE = 0.4
SEED = 2026


def held_out_shapes() -> set[int]:
    """The shapes held out: 40 % of each group (rounded), drawn with a fixed seed."""
    groups: dict[str, list[int]] = {}
    for index, shape in enumerate(SHAPES):
        groups.setdefault(shape["group"], []).append(index)
    rng = random.Random(SEED)
    held: set[int] = set()
    for name in sorted(groups):
        members = groups[name]
        rng.shuffle(members)
        held.update(members[: round(HELD_OUT_SHARE * len(members))])
    return held


def messages() -> dict[str, list[AccountLabelledMessage]]:
    """The two shares' messages, in shape order."""
    held = held_out_shapes()
    shares: dict[str, list[AccountLabelledMessage]] = {"tuning": [], "heldout": []}
    for index, shape in enumerate(SHAPES):
        for n, fill in enumerate(FILLS):
            shares["heldout" if index in held else "tuning"].append(
                AccountLabelledMessage.model_validate(
                    shape
                    | {
                        "id": f"acct_{index:03d}_{n}",
                        "shape": f"shape_{index:03d}",
                        "text": shape["text"].format(**fill),
                    }
                )
            )
    return shares


def main() -> None:
    ACCOUNT_CORPUS.mkdir(parents=True, exist_ok=True)
    for name, share in messages().items():
        lines = [m.model_dump_json() for m in share]
        (ACCOUNT_CORPUS / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{name}: {len(share)} messages")


if __name__ == "__main__":
    main()
