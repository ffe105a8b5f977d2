"""Write the account-desk reader corpus (`corpora/grocery/account/`): our own message shapes, each filled twice, split by shape into a tuning and a held-out share.

Two sets of shapes, each data. `shapes.jsonl` (68 shapes, six voices: `terse`, `chatty`,
`formal`, `esl` for non-native English, `typo`, `bullets`) is the first set: its held-out part
was measured once and is now tuned on (`tuning-b.jsonl`). `shapes-b.jsonl` (115 shapes, other
voices: `support` scripts, `markdown` chat-model replies, a brisk `clerk`, `esl`, `typo`, `long`
explanations; messages that do two things at once) was written without looking at the reader's
rules; its held-out part is today's `heldout.jsonl`. Each shape is one way an account assistant
might write one thing (ask who the shopper is, which order, items, address, reason or payment;
state a change and ask for a yes; report a result; offer a transfer; chat), labelled with what
it does. The split: shapes grouped by what they do, each group shuffled with a fixed seed, 40 %
of each group (rounded to the nearest) held out; both fills of a shape sit in its shape's share.

    .venv/bin/python scripts/grocery_account_corpus.py
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domains.grocery.account_corpus import ACCOUNT_CORPUS, AccountLabelledMessage
from runner.core.reader_corpus import held_out_by_group

HELD_OUT_SHARE = 0.4


@dataclass(frozen=True)
class ShapeSet:
    """One set of shapes: its file, its fills, its split seed, the id prefixes of its messages
    and shapes and the files its tuning and held-out parts are written to."""

    file: str
    fills: tuple[dict[str, str], ...]
    seed: int
    prefix: str
    shape_prefix: str
    tuning_file: str
    held_file: str

    def shapes(self, root: Path = ACCOUNT_CORPUS) -> list[dict[str, Any]]:
        """The set's shapes, one a line: group, voice, text ({lead} opens every message,
        {order}, {amount}, ... are the fills') and its label."""
        text = (root / self.file).read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines() if line]


SETS = (
    ShapeSet(
        "shapes.jsonl",
        (
            {"lead": "", "order": "ord_014_2", "other": "ord_014_3", "amount": "18.40",
             "item": "Oat Crunch Granola", "street": "14 Mill Lane"},
            {"lead": "Thanks! ", "order": "ord_203_1", "other": "ord_203_4", "amount": "7.95",
             "item": "Sunny Valley Apple Juice", "street": "3 Harbour Row"},
        ),
        2026, "acct", "shape", "tuning.jsonl", "tuning-b.jsonl",
    ),
    ShapeSet(
        "shapes-b.jsonl",
        (
            {"lead": "", "order": "o_3e91c07ab2", "other": "o_77d0f1e4c3", "amount": "23.15",
             "item": "Hillcrest Oat Milk", "street": "27 Quarry Road", "name": "Ines",
             "payment": "gift_0c7e3a51bd"},
            {"lead": "Great, thank you. ", "order": "o_b40a9912ee", "other": "o_5c2d8e1f07",
             "amount": "4.60", "item": "Brightfield Chickpeas 400 g",
             "street": "9 Linden Court, Ashford 30417", "name": "Mr. Okafor",
             "payment": "gift_9a1b77c4e0"},
        ),
        3141, "acctb", "shapeb", "tuning-c.jsonl", "heldout.jsonl",
    ),
)  # fmt: skip


def held_out_shapes(shapes: list[dict[str, Any]], seed: int) -> set[int]:
    """The shapes held out: 40 % of each group (rounded), drawn with a fixed seed."""
    groups = [(shape["group"],) for shape in shapes]
    return held_out_by_group(groups, seed, lambda size: round(HELD_OUT_SHARE * size))


def messages() -> dict[str, list[AccountLabelledMessage]]:
    """Each file's messages, in shape order."""
    files: dict[str, list[AccountLabelledMessage]] = {}
    for shape_set in SETS:
        shapes = shape_set.shapes()
        held = held_out_shapes(shapes, shape_set.seed)
        tuning = files.setdefault(shape_set.tuning_file, [])
        held_out = files.setdefault(shape_set.held_file, [])
        for index, shape in enumerate(shapes):
            for n, fill in enumerate(shape_set.fills):
                (held_out if index in held else tuning).append(
                    AccountLabelledMessage.model_validate(
                        shape
                        | {
                            "id": f"{shape_set.prefix}_{index:03d}_{n}",
                            "shape": f"{shape_set.shape_prefix}_{index:03d}",
                            "text": shape["text"].format(**fill),
                        }
                    )
                )
    return files


def main() -> None:
    ACCOUNT_CORPUS.mkdir(parents=True, exist_ok=True)
    for name, share in messages().items():
        lines = [m.model_dump_json() for m in share]
        (ACCOUNT_CORPUS / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{name}: {len(share)} messages")


if __name__ == "__main__":
    main()
