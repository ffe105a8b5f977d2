"""Write the labelled corpus of agent messages for the grocery product resolver (corpora/grocery/mentions/).

The templates and naming layouts are data (`corpora/grocery/mentions/templates.json`). Each
message is one of our own templates (an assistant proposing, listing, confirming a basket,
ruling products out, comparing) with products of the fictional 2026-11-01 catalog named in one of
many ways (brand + name + size in several layouts, brand + name, name + size, ids, the bare name,
typos). The label is what a careful reader takes the message to put forward, decided from the
catalog alone: a description names a product when exactly one product fits what it says (the
name, with the brand, size or id given); a proposal whose description fits several products is
`unclear` (no proposal: the shopper would ask which one). Tuning and held-out shares use disjoint
templates and partly different naming layouts, and were written before the resolver was measured
on either.

.venv/bin/python scripts/grocery_mentions_corpus.py [--check]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domains.grocery.catalog import load_catalog
from domains.grocery.mention_corpus import MentionExample
from runner.core.jsonl import load_jsonl

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "corpora" / "grocery" / "mentions"
TEMPLATES = OUT / "templates.json"


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    brand: str
    size: str

    @property
    def head(self) -> str:
        """The name without its last word ("Lemon & Herb" of "Lemon & Herb Hummus")."""
        return self.name.rsplit(" ", 1)[0]

    @property
    def tail(self) -> str:
        """The name's last word, the kind of product ("Hummus")."""
        return self.name.rsplit(" ", 1)[-1]

    @property
    def initials(self) -> str:
        """The brand abbreviated to its initials ("KH" of "Kitchen Hollow", "R&S" of "Rye & Stone");
        a one-word brand stays whole, since one letter would abbreviate nothing."""
        words = self.brand.split()
        return self.brand if len(words) == 1 else "".join(w[0].upper() for w in words)


class Form(BaseModel):
    """A way of naming a product: its words ({name}, {brand}, {size}, {id}, {name_lower},
    {brand_lower}, {NAME}, {BRAND}; {size_tight} writes the size without spaces, "500g";
    {size_alt} in the next unit, "0.5 kg"; {name_plural} adds a plural s; a shortened name is
    {head} / {head_lower}, the name without its last word, or {tail_lower}, its last word; spoken
    without punctuation, {name_spoken} / {brand_spoken} ("lemon and herb hummus"), with the size
    in words, {size_words} ("five hundred grams"), or with its unit in words, {size_unit_words}
    ("500 grams"), or in the next unit when that reads naturally, {size_alt_words} ("half a
    kilo"); {initials}, the brand's initials ("KH")) and which of its attributes they
    state."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    style: str
    says: tuple[Literal["name", "brand", "size", "id", "head", "tail", "initials"], ...] = Field(
        min_length=1
    )
    words: str

    def say(self, p: Item) -> str:
        return self.words.format(
            name=p.name,
            brand=p.brand,
            size=p.size,
            id=p.id,
            name_lower=p.name.lower(),
            brand_lower=p.brand.lower(),
            NAME=p.name.upper(),
            BRAND=p.brand.upper(),
            size_tight=p.size.replace(" ", ""),
            size_alt=_other_unit(p.size),
            name_plural=p.name if p.name.endswith("s") else p.name + "s",
            head=p.head,
            head_lower=p.head.lower(),
            tail_lower=p.tail.lower(),
            name_spoken=_spoken(p.name),
            brand_spoken=_spoken(p.brand),
            size_words=_size_in_words(p.size, spell=True),
            size_unit_words=_size_in_words(p.size, spell=False),
            size_alt_words=_size_alt_in_words(p.size),
            initials=p.initials,
        )


# A size in its neighbour unit: grams as kilograms, millilitres and centilitres as litres (and
# back), so that "500 g" is also written "0.5 kg".
_NEXT_UNIT = {"g": ("kg", 1000), "kg": ("g", 1 / 1000), "ml": ("l", 1000), "cl": ("ml", 1 / 10)}
_NEXT_UNIT["l"] = ("ml", 1 / 1000)


def _other_unit(size: str) -> str:
    m = re.fullmatch(r"(?:(\d+) x )?(\d+(?:\.\d+)?) (\w+)", size)
    if m is None or m.group(3) not in _NEXT_UNIT:
        return size
    unit, per = _NEXT_UNIT[m.group(3)]
    amount = f"{float(m.group(2)) / per:g}"
    return (f"{m.group(1)} x " if m.group(1) else "") + f"{amount} {unit}"


def _spoken(words: str) -> str:
    """Words as a transcript writes them: lower case, "&" and "%" said, other marks dropped."""
    said = words.lower().replace("&", " and ").replace("%", " percent ")
    return " ".join(re.sub(r"[^\w\s]", "", said).split())


_UNIT_WORDS = {
    "g": "gram",
    "kg": "kilo",
    "l": "litre",
    "ml": "millilitre",
    "cl": "centilitre",
    "bags": "bag",
    "sachets": "sachet",
    "capsules": "capsule",
}
_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
_ONES += "fifteen sixteen seventeen eighteen nineteen"
_SMALL = _ONES.split()
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _number_words(n: int) -> str:
    """A whole number below ten thousand in English words ("three hundred and seventy-five")."""
    if not 0 <= n < 10_000:
        raise ValueError(f"cannot spell {n} in words (0 to 9999 only)")
    if n < 20:
        return _SMALL[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else "-" + _SMALL[n % 10])
    big, rest = (n // 1000, "thousand") if n >= 1000 else (n // 100, "hundred")
    left = n % (1000 if n >= 1000 else 100)
    head = f"{_SMALL[big]} {rest}"
    if left == 0:
        return head
    return head + (" and " if left < 100 else " ") + _number_words(left)


def _amount_words(amount: str) -> str:
    """ "1.5" as "one and a half", "0.5" as "half a", "375" as "three hundred and seventy-five"."""
    whole, _, frac = amount.partition(".")
    if frac not in ("", "5"):
        raise ValueError(f"cannot spell the amount {amount!r} in words")
    if frac == "5":
        return "half a" if whole == "0" else _number_words(int(whole)) + " and a half"
    return _number_words(int(whole))


def _size_in_words(size: str, spell: bool) -> str:
    """A pack size with its unit in words, its numbers spelt out too when `spell`: "500 g" as
    "five hundred grams" (or "500 grams"), "6 x 100 g" as "six times one hundred grams"; a size
    in another shape is returned as written."""
    m = re.fullmatch(r"(?:(\d+) x )?(\d+(?:\.\d+)?) (\w+)", size)
    if m is None or m.group(3) not in _UNIT_WORDS:
        return size
    packs, amount, unit = m.groups()
    word = _UNIT_WORDS[unit] + ("" if amount == "1" or (spell and amount == "0.5") else "s")
    said = _amount_words(amount) if spell else amount
    out = f"{said} {word}"
    if packs:
        out = f"{_number_words(int(packs)) if spell else packs} times {out}"
    return out


def _size_alt_in_words(size: str) -> str:
    """The size in its neighbour unit, spelt out, when that reads naturally ("500 g" as "half a
    kilo", "50 cl" as "five hundred millilitres"); otherwise the size spelt out as it is."""
    alt = _other_unit(size)
    amount = alt.rsplit(" ", 2)[-2] if alt != size else ""
    try:
        if alt != size and float(amount) < 1000:
            return _size_in_words(alt, spell=True)
    except ValueError:
        pass
    return _size_in_words(size, spell=True)


def _typo(word: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(word) - 2)
    if rng.random() < 0.5:
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return word[:i] + word[i + 1 :]


def _typo_name(p: Item, rng: random.Random) -> str:
    words = p.name.split()
    longest = max(range(len(words)), key=lambda k: len(words[k]))
    if len(words[longest]) < 6:
        return p.name
    words[longest] = _typo(words[longest], rng)
    return " ".join(words)


class Share(BaseModel):
    """One share of the corpus: how many messages, the seed, the naming layouts and templates."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    messages: int = Field(gt=0)
    seed: int
    forms: list[Form]
    templates: list[tuple[str, str]] = Field(
        min_length=1, description="(words with slots {0}, {1}, ..., each slot's role: P or R)"
    )


class Templates(BaseModel):
    """`corpora/grocery/mentions/templates.json`: every share's layouts and templates."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: Literal[1] = 1
    catalog: str
    shares: dict[str, Share]


class Adjudication(BaseModel):
    """One adjudication line: a slot the two labellings disagreed on and what the written rules
    decided."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^heldout\d+/\d+$", description="<share>/<template index>")
    field: str = Field(pattern=r"^roles\[\d\]$")
    author: Literal["P", "R"]
    annotator: Literal["P", "R"]
    decision: Literal["keep", "change", "drop"]
    label: Literal["P", "R"] | None = Field(
        description="The decided role; null when the template is dropped (the rules leave it open)"
    )
    rule: str = Field(min_length=1)
    why: str = Field(min_length=1)


def second_labelling(share: str) -> tuple[bytes, dict[int, list[str]], list[Adjudication]]:
    """A held-out share's second, blind labelling (`<share>-second-labelling/`): the blind file
    as frozen (its sha256 sits beside it), its roles by template index, and the adjudication."""
    folder = OUT / f"{share}-second-labelling"
    blind_text = (folder / "ma_blind.jsonl").read_bytes()
    blind = {row["n"]: row["roles"] for row in map(json.loads, blind_text.splitlines())}
    return blind_text, blind, load_jsonl(folder / "ma_adjudication.jsonl", Adjudication)


def _unique(catalog: list[Item], p: Item, says: tuple[str, ...]) -> bool:
    """Whether exactly one product fits what the words say of `p`."""
    fits = [q for q in catalog if all(getattr(q, a) == getattr(p, a) for a in says)]
    return len(fits) == 1


def build(items: list[Item], share: Share) -> list[MentionExample]:
    """The share's messages, each labelled from the catalog alone."""
    templates, forms, rng = share.templates, share.forms, random.Random(share.seed)
    shared = [p for p in items if sum(q.name == p.name for q in items) > 1]
    out: list[MentionExample] = []
    for n in range(share.messages):
        text, roles = templates[n % len(templates)]
        slots: list[str] = []
        proposed: list[str] = []
        ruled: list[str] = []
        unclear: list[str] = []
        styles: list[str] = []
        picked: set[str] = set()
        for role in roles:
            form = rng.choice(forms)
            pool = shared if form.style == "bare" and rng.random() < 0.7 else items
            p = rng.choice([q for q in pool if q.name not in picked])
            picked.add(p.name)
            typo = form.style.startswith("full") and rng.random() < 0.2
            words = form.say(p)
            if typo:
                words = words.replace(p.name, _typo_name(p, rng))
            styles.append(form.style + ("+typo" if typo and p.name not in words else ""))
            slots.append(words)
            if _unique(items, p, form.says):
                (proposed if role == "P" else ruled).append(p.id)
            elif role == "P":
                unclear.append(p.name)
        out.append(
            MentionExample(
                text=text.format(*slots),
                proposed=sorted(set(proposed)),
                ruled_out=sorted(set(ruled)),
                unclear=unclear,
                style=", ".join(styles),
            )
        )
    return out


def render(rows: list[MentionExample]) -> str:
    return "".join(r.model_dump_json() + "\n" for r in rows)


def load_spec() -> tuple[Templates, list[Item]]:
    """Every share's layouts and templates, and the catalog's products they are filled from."""
    spec = Templates.model_validate_json(TEMPLATES.read_text(encoding="utf-8"))
    catalog = load_catalog(ROOT / spec.catalog)
    return spec, [Item(p.id, p.name, p.brand, p.quantity) for p in catalog.items]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the files are stale")
    args = parser.parse_args(argv)
    spec, items = load_spec()
    files = {
        OUT / f"{name}.jsonl": render(build(items, share)) for name, share in spec.shares.items()
    }
    stale = [p for p, text in files.items() if not p.is_file() or p.read_text("utf-8") != text]
    if args.check:
        for path in stale:
            print(f"stale: {path.relative_to(ROOT)} (run scripts/grocery_mentions_corpus.py)")
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
