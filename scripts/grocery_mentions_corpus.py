"""Write the labelled corpus of agent messages for the grocery product resolver (corpora/grocery/mentions/).

Each message is one of our own templates (an assistant proposing, listing, confirming a basket,
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
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from domains.grocery.catalog import load_catalog
from domains.grocery.mention_corpus import MentionExample

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT = ROOT / "domains" / "grocery" / "snapshots" / "2026-11-01"
OUT = ROOT / "corpora" / "grocery" / "mentions"


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    brand: str
    size: str


@dataclass(frozen=True)
class Form:
    """A way of naming a product: the words, and which of its attributes they state."""

    style: str
    says: tuple[str, ...]  # among "name", "brand", "size", "id"
    words: Callable[[Item], str]


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


FULL = ("name", "brand", "size")
TUNING_FORMS: tuple[Form, ...] = (
    Form("full", FULL, lambda p: f"{p.name} by {p.brand}, {p.size}"),
    Form("full", FULL, lambda p: f"{p.brand} {p.name} ({p.size})"),
    Form("full", FULL, lambda p: f"{p.brand} {p.name}, {p.size}"),
    Form("full", FULL, lambda p: f"{p.name} ({p.brand}, {p.size})"),
    Form("full-bold", FULL, lambda p: f"**{p.name}** by {p.brand} ({p.size})"),
    Form("brand+name", ("name", "brand"), lambda p: f"{p.brand} {p.name}"),
    Form("name+size", ("name", "size"), lambda p: f"{p.name}, {p.size}"),
    Form("id", ("name", "id"), lambda p: f"{p.name} ({p.id})"),
    Form("bare", ("name",), lambda p: p.name),
    # Added after the first held-out measurement (layouts the author thought of, not its misses).
    Form("full", FULL, lambda p: f"{p.size} of {p.brand} {p.name}"),
    Form("full", FULL, lambda p: f"{p.brand}'s {p.name} ({p.size})"),
    Form("full", FULL, lambda p: f"{p.name} | {p.brand} | {p.size}"),
    Form("full", FULL, lambda p: f"{p.name} [{p.brand} · {p.size}]"),
    Form("full", FULL, lambda p: f"{p.name} ({p.size}) by {p.brand}"),
    Form("full", FULL, lambda p: f"{p.name} — {p.brand}, {p.size}"),
    Form("full-upper", FULL, lambda p: f"{p.brand.upper()} {p.name.upper()} {p.size}"),
    Form("full", FULL, lambda p: f"{p.brand} - {p.name} - {p.size}"),
    Form("id", ("id",), lambda p: f"SKU {p.id}"),
    Form("id", ("name", "id"), lambda p: f"{p.name} (id {p.id})"),
    Form("brand+name", ("name", "brand"), lambda p: f"{p.name} from {p.brand}"),
    Form("name+size", ("name", "size"), lambda p: f"the {p.size} {p.name}"),
)
SECOND_FORMS: tuple[Form, ...] = (
    Form("full", FULL, lambda p: f"{p.size} {p.brand} {p.name}"),
    Form("full", FULL, lambda p: f"{p.brand}'s {p.name} in the {p.size} pack"),
    Form("full", FULL, lambda p: f"{p.name} from {p.brand} ({p.size})"),
    Form("full", FULL, lambda p: f"{p.name} – {p.brand} – {p.size}"),
    Form("full", FULL, lambda p: f"{p.brand}: {p.name}, {p.size}"),
    Form("full-lower", FULL, lambda p: f"{p.brand.lower()} {p.name.lower()} {p.size}"),
    Form("id", ("id",), lambda p: f"item {p.id}"),
    Form("id", ("name", "id"), lambda p: f"{p.name} [{p.id}]"),
    Form("brand+name", ("name", "brand"), lambda p: f"the {p.name} made by {p.brand}"),
    Form("name+size", ("name", "size"), lambda p: f"{p.name} ({p.size})"),
    Form("bare", ("name",), lambda p: p.name),
)
# The held-out share: layouts and templates written after the resolver was tuned on the first
# share; the resolver was never tuned against it (its misses were never read).
HELDOUT_FORMS: tuple[Form, ...] = (
    Form("full", FULL, lambda p: f"{p.brand} {p.name} {p.size}"),
    Form("full", FULL, lambda p: f"{p.name}, {p.size}, by {p.brand}"),
    Form("full", FULL, lambda p: f"the {p.size} pack of {p.name} ({p.brand})"),
    Form("full", FULL, lambda p: f"{p.brand} › {p.name} › {p.size}"),
    Form("full", FULL, lambda p: f"“{p.name}” by {p.brand} ({p.size})"),
    Form("full-bold", FULL, lambda p: f"**{p.brand} {p.name}** ({p.size})"),
    Form("id", ("id",), lambda p: f"#{p.id}"),
    Form("id", ("name", "id"), lambda p: f"{p.name}, product id {p.id}"),
    Form("brand+name", ("name", "brand"), lambda p: f"{p.brand}'s {p.name}"),
    Form("name+size", ("name", "size"), lambda p: f"{p.name} in {p.size}"),
    Form("bare", ("name",), lambda p: p.name),
)

# Templates: the words, and for each slot {0}, {1}, ... its role: P put forward, R ruled out.
TUNING_TEMPLATES: tuple[tuple[str, str], ...] = (
    ("I'd suggest {0}. Would that work for you?", "P"),
    ("How about {0}? It fits everything you told me.", "P"),
    ("My pick is {0} — it's well within budget.", "P"),
    ("Based on what you said, {0} looks like the best match.", "P"),
    ("Here are two options: {0} or {1}. Which do you prefer?", "PP"),
    ("Options:\n- {0}\n- {1}\n- {2}\nLet me know which one you like.", "PPP"),
    ("{0} is out of stock, but {1} is available. Would that do?", "RP"),
    ("Sadly {0} is sold out. I'd go with {1} instead.", "RP"),
    ("{0} contains nuts, so I skipped it. {1} is nut-free.", "RP"),
    ("I left out {0} because it is not vegan; {1} is.", "RP"),
    ("Instead of {0}, would you like {1}?", "RP"),
    ("Not {0} — that one is over your budget. {1} costs less.", "RP"),
    ("Your usual {0} isn't available right now. Would you accept {1} as a replacement?", "RP"),
    ("{1} is cheaper than {0} and has a better Nutri-Score.", "RP"),
    ("Compared with {0}, {1} is less processed. Shall I go with {1}?", "RP"),
    ("Your basket:\n- 2 × {0}\n- 1 × {1}\nTotal €7.40. Shall I place the order?", "PP"),
    ("I've put 1 × {0} in your basket (total €3.10). Shall I place the order?", "P"),
    ("Quick recap: {0}, quantity 2, €5.20 in total. Okay to order?", "P"),
    ("You ordered {0} last time. This time I'd recommend {1}.", "RP"),
    ("I can't offer {0}, it may contain traces of milk. {1} is safe for you.", "RP"),
    ("{0} would be over your budget, and {1} is unavailable. {2} fits, though.", "RRP"),
    ("Good news: {0} is in stock and meets all your needs.", "P"),
    ("Try {0}! Note: this is a sponsored product.", "P"),
    ("Would you be happy with {0}? If not, {1} is a close second.", "PP"),
    # Added after the first held-out measurement (as above).
    ("{0} has been discontinued. {1} is a good stand-in.", "RP"),
    ("{0}: sold out.\n{1}: in stock, €2.49.", "RP"),
    ("I'd steer clear of {0} given your allergy; {1} is a safer bet.", "RP"),
    ("{0}? No — it contains milk. {1} is dairy-free.", "RP"),
    ("{0} (unavailable) — but {1} is here and costs the same.", "RP"),
    ("{0} didn't make the cut on price. {1} did.", "RP"),
    ("Excluding {0}, the best fit is {1}.", "RP"),
    ("| Product | Price |\n|---|---|\n| {0} | €2.10 |\n| {1} | €2.85 |", "PP"),
    ("Done! Your basket now holds {0} x 3 and {1} x 1 (total €11.20). Confirm?", "PP"),
    ("For breakfast I'd pick {0}; for later, {1}.", "PP"),
    ("{0} was too pricey, so I looked further and found {1}.", "RP"),
    ("Just {0}, nothing else. Happy with that?", "P"),
)
SECOND_TEMPLATES: tuple[tuple[str, str], ...] = (
    ("Great news — I found {0}, which ticks every box.", "P"),
    ("The one I'd recommend is {0}. Shall I add it to your basket?", "P"),
    ("I had a look and {0} seems ideal: organic and under €3.", "P"),
    ("1. {0}\n2. {1}\nBoth meet your needs; which would you like?", "PP"),
    ("You could go for {0}, {1} or {2}.", "PPP"),
    ("{0} is currently unavailable, so let me offer {1}.", "RP"),
    ("I ruled out {0} (it has gluten). {1} is gluten-free.", "RP"),
    ("Unlike {0}, {1} has no palm oil.", "RP"),
    ("Rather than {0}, I'd go for {1}.", "RP"),
    ("{0} won't work for you since it contains eggs, so I'd suggest {1}.", "RP"),
    ("Since you bought {0} before, you might also like {1}.", "RP"),
    ("Summary of your basket: 3 × {0} and 1 × {1}, €9.85 in total. Place the order?", "PP"),
    ("Basket check — {0} × 2, total €4.58. Go ahead?", "P"),
    ("Heads-up: {0} is sponsored, but it's a genuinely good fit for you.", "P"),
    ("{0} is not suitable (not vegetarian). What about {1}?", "RP"),
    ("Sorry, {0} is no longer stocked. {1} is the closest alternative.", "RP"),
    ("Between {0} and {1}, I'd lean towards {1}.", "PP"),
    ("I'd avoid {0}. {1} would be my choice.", "RP"),
    ("Would {0} be okay? It's the cheapest that fits.", "P"),
    ("Here's what fits:\n* {0}\n* {1}", "PP"),
)

HELDOUT_TEMPLATES: tuple[tuple[str, str], ...] = (
    ("Perfect match found: {0}.", "P"),
    ("If I had to choose one, it would be {0}.", "P"),
    ("Shall I go ahead with {0}? It's vegan and nut-free.", "P"),
    ("Top three:\n1) {0}\n2) {1}\n3) {2}", "PPP"),
    ("Either {0} or {1} would suit you.", "PP"),
    ("{0} is out of stock at the moment; {1} is the next best thing.", "RP"),
    ("No luck with {0} — it's sold out. Maybe {1}?", "RP"),
    ("I've excluded {0} because of the sesame. {1} is clear of it.", "RP"),
    ("{0} costs more than you wanted to spend. {1} is cheaper.", "RP"),
    ("I wouldn't go for {0}, it isn't vegan. {1} is.", "RP"),
    ("In place of your usual {0}, I can offer {1}.", "RP"),
    ("Order summary:\n• {0} — qty 2\n• {1} — qty 1\nTotal: €8.15. Place it?", "PP"),
    ("That's 4 × {0}, €6.36 altogether. OK to place the order?", "P"),
    ("{0} is a sponsored listing, just so you know — and it fits your needs.", "P"),
    ("{0} contains soy, so that's off the list. {1} doesn't.", "RP"),
    ("Alternatively there's {0}, a bit pricier than {1}.", "PR"),
)


def _unique(catalog: list[Item], p: Item, says: tuple[str, ...]) -> bool:
    """Whether exactly one product fits what the words say of `p`."""
    fits = [q for q in catalog if all(getattr(q, a) == getattr(p, a) for a in says)]
    return len(fits) == 1


def build(
    items: list[Item],
    templates: tuple[tuple[str, str], ...],
    forms: tuple[Form, ...],
    count: int,
    seed: int,
) -> list[MentionExample]:
    rng = random.Random(seed)
    shared = [p for p in items if sum(q.name == p.name for q in items) > 1]
    out: list[MentionExample] = []
    for n in range(count):
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
            words = form.words(p)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the files are stale")
    args = parser.parse_args(argv)
    catalog = load_catalog(SNAPSHOT)
    items = [Item(p.id, p.name, p.brand, p.quantity) for p in catalog.items]
    files = {
        OUT / "tuning.jsonl": render(build(items, TUNING_TEMPLATES, TUNING_FORMS, 160, 3801)),
        OUT / "tuning-b.jsonl": render(build(items, SECOND_TEMPLATES, SECOND_FORMS, 100, 3802)),
        OUT / "heldout.jsonl": render(build(items, HELDOUT_TEMPLATES, HELDOUT_FORMS, 180, 3803)),
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
