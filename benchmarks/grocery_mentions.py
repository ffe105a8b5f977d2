"""The grocery product resolver on the labelled corpus: exact resolution and ruled-out mentions counted, per share (tuning shares apart from the held-out one).

.venv/bin/python benchmarks/grocery_mentions.py [--misses] [--tuning-only] [--second-labeller]

`--misses` prints the tuning shares' misses, never the held-out share's; `--tuning-only` leaves
the held-out share unread (for tuning: its figure is read once, with the resolver frozen).

`--second-labeller` also reads every blindly second-labelled share with the second labeller's
blind roles in place of the adjudicated ones and scores that reading as the resolver's is scored:
how far a careful human reader who never saw the author's labels gets from the bar (counts only).

Also prints how the fixture catalog's names collide (across brands, across sizes) and how many of
the dev tasks' valid products have a namesake, so that naming by bare name cannot win them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from domains.grocery.catalog import load_catalog
from domains.grocery.mention_corpus import (
    HELD_OUT,
    TUNING,
    MentionScore,
    load_examples,
    score_readings,
    score_resolver,
)
from domains.grocery.mentions import Resolver
from domains.grocery.store import inventory
from domains.grocery.tasks import load_tasks
from scripts import grocery_mentions_corpus as corpus

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpora" / "grocery" / "mentions"
SNAPSHOT = ROOT / "domains" / "grocery" / "snapshots" / "2026-11-01"
SHARES = (*TUNING, *HELD_OUT)
EXACT_TARGET = 0.98


def collisions() -> str:
    """How the shipped catalog's names collide and how often the dev tasks meet a collision."""
    catalog = load_catalog(SNAPSHOT)
    by_name: dict[str, list[tuple[str, str, str]]] = {}
    for p in catalog.items:
        by_name.setdefault(p.name.casefold(), []).append((p.id, p.brand, p.quantity))
    shared = {n: ps for n, ps in by_name.items() if len(ps) > 1}
    brands = sum(len({b for _, b, _ in ps}) > 1 for ps in shared.values())
    sizes = sum(len({q for _, _, q in ps}) > 1 for ps in shared.values())
    both = sum(
        len({b for _, b, _ in ps}) > 1 and len({q for _, _, q in ps}) > 1 for ps in shared.values()
    )
    alike = sum(len({(b, q) for _, b, q in ps}) < len(ps) for ps in shared.values())
    namesake = {pid for ps in shared.values() for pid, _, _ in ps}
    tasks = [t for t in load_tasks(ROOT / "domains" / "grocery" / "tasks") if t.kind != "return"]
    hit = sum(
        any(p in namesake for p in t.solutions(catalog, inventory(t, catalog))) for t in tasks
    )
    products = sum(len(ps) for ps in shared.values())
    return (
        f"catalog: {len(catalog.items)} products, {len(by_name)} names; {len(shared)} names "
        f"shared by {products} products ({brands} across brands, {sizes} across sizes, {both} "
        f"across both, {alike} with two alike in brand and size)\n"
        f"dev tasks (order and substitution): {hit} of {len(tasks)} have a valid product "
        "whose name another product shares"
    )


def second_reading(share: str) -> MentionScore:
    """The share's second labeller's blind roles, read as a reader against the adjudicated labels
    (a dropped template's messages are not in the share, so its roles are skipped)."""
    _, blind, adjudication = corpus.second_labelling(share)
    dropped = {int(r.id.split("/")[1]) for r in adjudication if r.decision == "drop"}
    spec, items = corpus.load_spec()
    own = spec.shares[share]
    kept = [n for n in sorted(blind) if n not in dropped]
    roles = [(text, blind[n]) for n, (text, _) in zip(kept, own.templates, strict=True)]
    theirs = corpus.build(items, own.model_copy(update={"templates": roles}))
    final = load_examples(CORPUS / f"{share}.jsonl")
    if [r.text for r in theirs] != [r.text for r in final]:
        raise SystemExit(f"{share}: the rebuilt messages differ from {share}.jsonl")
    return score_readings(final, [them.proposed for them in theirs])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="print the tuning shares' misses")
    parser.add_argument(
        "--tuning-only", action="store_true", help="leave the held-out share unread"
    )
    parser.add_argument(
        "--second-labeller",
        action="store_true",
        help="score each second-labelled share's blind second labelling as a reading",
    )
    args = parser.parse_args(argv)
    resolver = Resolver(load_catalog(SNAPSHOT).items)
    print(f"{'share':10} {'messages':>8} {'exact':>7} {'ruled-out counted':>18}")
    for share in TUNING if args.tuning_only else SHARES:
        path = CORPUS / f"{share}.jsonl"
        if not path.is_file():
            raise SystemExit(f"{path.relative_to(ROOT)}: share {share!r} is registered, no file")
        result = score_resolver(resolver, load_examples(path))
        marks = (
            "ok"
            if result.exact_rate >= EXACT_TARGET and not result.ruled_out_counted
            else "BELOW TARGET"
        )
        print(
            f"{share:10} {result.messages:8} {result.exact_rate:7.3f} "
            f"{result.ruled_out_counted:18}  {marks}"
        )
        if args.misses and share not in HELD_OUT:
            for text, want, got in result.misses:
                print(f"  {text!r}: labelled {want}, read {got}")
    if not HELD_OUT and not args.tuning_only:
        print("held out: no share registered (none measured; a fresh blind share is awaited)")
    if args.second_labeller:
        print("the blind second labeller's roles, read against the adjudicated labels:")
        for share in SHARES:
            if (CORPUS / f"{share}-second-labelling").is_dir():
                second = second_reading(share)
                print(
                    f"{share:10} {second.messages:8} {second.exact_rate:7.3f} "
                    f"{second.ruled_out_counted:18}  proposals missed {second.proposals_missed}"
                )
    print(collisions())
    return 0


if __name__ == "__main__":
    sys.exit(main())
