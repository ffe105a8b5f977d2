"""Print search_catalog latency (p50/p95/p99) and index build time at 153, 10 000 and 100 000 items."""

from __future__ import annotations

import argparse
import random
import re
import statistics
import time

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.search import CatalogSearch
from runner.core.paths import v1_data_dir

SIZES = (10_000, 100_000)
QUERIES = 300
TARGET_P95_MS = 5.0


def synthesize(base: Catalog, size: int, seed: int) -> Catalog:
    """A catalog of `size` items made by recombining the words, genres and names of `base`."""
    rng = random.Random(seed)
    words = sorted({w for item in base for w in re.findall(r"[A-Za-z']+", item.overview)})
    title_words = sorted({w for item in base for w in item.title.split()})
    genres = sorted({g for item in base for g in item.genres})
    people = sorted({p for item in base for p in item.cast})
    directors = sorted({item.director for item in base})
    items = []
    for n in range(size):
        template = base.items[n % len(base)]
        items.append(
            CatalogItem.model_construct(
                id=f"tmdb_{n + 1}",
                title=" ".join(rng.choices(title_words, k=rng.randint(1, 4))),
                release_date=template.release_date,
                runtime=rng.randint(70, 200),
                genres=rng.sample(genres, k=rng.randint(1, 3)),
                overview=" ".join(rng.choices(words, k=rng.randint(20, 60))) + ".",
                cast=rng.sample(people, k=5),
                director=rng.choice(directors),
                rating=round(rng.uniform(3, 9), 3),
                vote_count=rng.randint(0, 5000),
                streaming_services=[],
                sponsored=False,
                content_rating=template.content_rating,
            )
        )
    return Catalog(items, source=f"<synthetic {size}>")


def queries(base: Catalog, count: int, seed: int) -> list[str]:
    """Varied queries: plot words, genres, names, titles, and some words that match nothing."""
    rng = random.Random(seed)
    words = sorted({w for item in base for w in re.findall(r"[A-Za-z]{4,}", item.overview)})
    genres = sorted({g for item in base for g in item.genres})
    people = sorted({p for item in base for p in item.cast} | {item.director for item in base})
    out = []
    for i in range(count):
        match i % 5:
            case 0:
                out.append(" ".join(rng.choices(words, k=rng.randint(1, 3))))
            case 1:
                out.append(f"{rng.choice(genres)} {rng.choice(words)}")
            case 2:
                out.append(rng.choice(people))
            case 3:
                out.append(rng.choice(base.items).title)
            case _:
                out.append(f"{rng.choice(words)} zzqx{i} {' '.join(rng.choices(words, k=6))}")
    return out


def percentile(sorted_ms: list[float], q: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, round(q * (len(sorted_ms) - 1)))]


def measure(catalog: Catalog, qs: list[str]) -> None:
    start = time.perf_counter()
    index = CatalogSearch(catalog)
    build_s = time.perf_counter() - start
    index.search(qs[0])  # warm-up
    timings = []
    hits = 0
    for q in qs:
        t0 = time.perf_counter()
        results = index.search(q)
        timings.append((time.perf_counter() - t0) * 1000)
        hits += bool(results)
    timings.sort()
    p95 = percentile(timings, 0.95)
    verdict = "" if len(catalog) < 100_000 else (" ok" if p95 < TARGET_P95_MS else " OVER TARGET")
    print(
        f"{len(catalog):>7} items  build {build_s:7.3f} s  "
        f"p50 {percentile(timings, 0.5):6.3f} ms  p95 {p95:6.3f} ms  "
        f"p99 {percentile(timings, 0.99):6.3f} ms  mean {statistics.fmean(timings):6.3f} ms  "
        f"({len(qs)} queries, {hits} with results){verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=QUERIES)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    base = Catalog.load(v1_data_dir())
    qs = queries(base, args.queries, args.seed)
    print(f"search_catalog latency (top 20), target p95 < {TARGET_P95_MS} ms at 100 000 items")
    measure(base, qs)
    for size in SIZES:
        measure(synthesize(base, size, args.seed), qs)


if __name__ == "__main__":
    main()
