"""Benchmark: can an agent learn the simulated user's templates instead of understanding it?

The inverter is a template learner, as an agent developer could build one by running the public
simulator: it takes every constraint sentence the scripted user says for each task of a domain's
shipped suite at the TRAIN seeds (the sentence the writer words for one stated constraint or
need, with the label of what it states), masks the values in it with the domain's own public
value finders (durations, scores, vote counts, years, genres, services, age ratings, people;
prices, allergens, brands, countries, Nutri-Score letters, NOVA groups, labels, diets,
categories), cuts it into clauses and keeps those holding a value, strips the filler it learned
(any leading or trailing one to three words it saw around the values of three or more kinds of
constraint, e.g. "honestly" or "if possible"), and records each remaining shape with the label it
stated. At the TEST seeds it decodes a sentence when its shape is one it learned and the label it
learned for that shape, with the masked values, is the sentence's constraint exactly.

It prints, per domain: sentences, distinct shapes learned, the share of test shapes seen in
training and the decoded share (issue 37 asks <= 0.50), and the leak audit over every generated
sentence (each audited as said when it may be said: a volunteered one unasked, an on_ask one once
its topic was asked) and over a probing conversation per task and seed (0 expected).

    .venv/bin/python benchmarks/writer_inversion.py [--domain movies|grocery|both]

The seeds were chosen once, before any measurement, and are not tuned on (the grammar was
developed on seeds 900-907). The "before" figure is this script run on the main branch's code
(e.g. `git archive main | tar -x -C /tmp/main && PYTHONPATH=/tmp/main python
benchmarks/writer_inversion.py` from /tmp/main). Measured at train 11-14 / test 21-24: main at
82f8647 (openers and closers around five-odd core sentences per kind) decoded 98.9 % of movies'
and 97.2 % of grocery's test sentences (51 and 22 shapes learned); with the paraphrase grammars,
17.0 % and 16.5 % (576 and 570 shapes), 0 leaks in either.
"""

from __future__ import annotations

import argparse
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

TRAIN_SEEDS = (11, 12, 13, 14)
TEST_SEEDS = (21, 22, 23, 24)
# A filler affix is one the learner saw next to the values of at least this many kinds of constraint.
AFFIX_KINDS = 3

Span = tuple[int, int, str, str]  # start, end, slot name, normalised value


@dataclass(frozen=True)
class Sample:
    """One constraint sentence: its text, what it states (label) and the values it states."""

    text: str
    label: str
    values: frozenset[str]


# ---- the learner ---------------------------------------------------------------------------


def _masked(text: str, spans: list[Span]) -> tuple[str, frozenset[str]]:
    """The text with every value span replaced by its slot name, and the values found."""
    chosen: list[Span] = []
    for span in sorted(spans, key=lambda s: (s[0], -(s[1] - s[0]))):
        if chosen and span[0] < chosen[-1][1]:
            continue
        chosen.append(span)
    out, last = [], 0
    for start, end, slot, _ in chosen:
        out += [text[last:start], f" <{slot}> "]
        last = end
    out.append(text[last:])
    return "".join(out).lower(), frozenset(v for *_, v in chosen)


def _clauses(masked: str) -> list[list[str]]:
    """The clauses that hold a value slot, as word lists."""
    parts = re.split(r"[,;:.!?()\u2014\u2013]|\s-\s", masked)
    return [p.split() for p in parts if "<" in p and p.split()]


class Inverter:
    """Shapes of masked value clauses -> what they state, learned from labelled sentences."""

    def __init__(self, spans_of: Callable[[str], list[Span]]) -> None:
        self._spans_of = spans_of
        self.prefixes: set[tuple[str, ...]] = set()
        self.suffixes: set[tuple[str, ...]] = set()
        self.table: dict[str, Counter[str]] = {}

    def _strip(self, words: list[str]) -> list[str]:
        changed = True
        while changed and words:
            changed = False
            for n in (3, 2, 1):
                if len(words) > n and tuple(words[:n]) in self.prefixes:
                    words, changed = words[n:], True
                    break
                if len(words) > n and tuple(words[-n:]) in self.suffixes:
                    words, changed = words[:-n], True
                    break
        return words

    def shape(self, text: str) -> tuple[str, frozenset[str]]:
        masked, values = _masked(text, self._spans_of(text))
        return " | ".join(" ".join(self._strip(c)) for c in _clauses(masked)), values

    def learn(self, samples: list[Sample]) -> None:
        kinds_pre: dict[tuple[str, ...], set[str]] = {}
        kinds_suf: dict[tuple[str, ...], set[str]] = {}
        for s in samples:
            masked, _ = _masked(s.text, self._spans_of(s.text))
            for words in _clauses(masked):
                for n in (1, 2, 3):
                    if len(words) > n:
                        kinds_pre.setdefault(tuple(words[:n]), set()).add(s.label)
                        kinds_suf.setdefault(tuple(words[-n:]), set()).add(s.label)
        self.prefixes = {
            a for a, k in kinds_pre.items() if len(k) >= AFFIX_KINDS and "<" not in a[0]
        }
        self.suffixes = {
            a for a, k in kinds_suf.items() if len(k) >= AFFIX_KINDS and "<" not in a[-1]
        }
        for s in samples:
            self.table.setdefault(self.shape(s.text)[0], Counter())[s.label] += 1

    def decodes(self, s: Sample) -> bool:
        shape, values = self.shape(s.text)
        seen = self.table.get(shape)
        return seen is not None and seen.most_common(1)[0][0] == s.label and values == s.values

    def seen(self, s: Sample) -> bool:
        return self.shape(s.text)[0] in self.table


# ---- the domains ---------------------------------------------------------------------------


def _finder_spans(slot: str, mentions: Iterable[Any], as_value: Callable[[Any], str]) -> list[Span]:
    return [(m.start, m.end, slot, as_value(m.value)) for m in mentions]


def _num(x: object) -> str:
    return f"{float(str(x)):g}"


class MoviesDomain:
    """The movies suite, its writer and its value finders."""

    name = "movies"

    def __init__(self) -> None:
        from domains.movies.catalog import Catalog
        from domains.movies.simulators.writer import TemplateWriter
        from domains.movies.tasks import load_tasks
        from domains.movies.validate import resolve_catalog_path
        from runner.core.paths import TASKS_DIR

        self.catalog = Catalog.load(resolve_catalog_path(None))
        self.tasks = load_tasks(TASKS_DIR)
        self.writer = TemplateWriter(self.catalog)
        people = {i.director for i in self.catalog.items} | {
            p for i in self.catalog.items for p in i.cast
        }
        self._people = re.compile(
            "|".join(re.escape(p) for p in sorted((p for p in people if p), key=len, reverse=True))
        )

    def spans(self, text: str) -> list[Span]:
        from domains.movies.simulators import vocabulary as v

        out = _finder_spans("duration", v.runtime_mentions(text), _num)
        out += _finder_spans("score", v.rating_mentions(text), _num)
        out += _finder_spans("votes", v.vote_count_mentions(text), _num)
        out += [
            (m.start(), m.end(), "date", m.group(1)[:4])
            for m in re.finditer(r"\b((?:19|20)\d\d-\d\d-\d\d)\b", text)
        ]
        out += _finder_spans("year", v.year_mentions(text), lambda y: str(int(y)))
        out += _finder_spans("genre", v.genre_mentions(text), str)
        out += _finder_spans("service", v.service_mentions(text), str)
        out += _finder_spans("code", v.content_rating_mentions(text), str)
        out += [(m.start(), m.end(), "person", m.group(0)) for m in self._people.finditer(text)]
        return out

    @staticmethod
    def _truth(c: Any) -> frozenset[str]:
        raw = c.value if isinstance(c.value, list) else [c.value]
        if c.field in ("runtime", "rating", "vote_count"):
            return frozenset(_num(x) for x in raw)
        if c.field == "release_date":
            return frozenset(str(x)[:4] for x in raw)
        if c.field == "sponsored":
            return frozenset()
        return frozenset(str(x) for x in raw)

    def samples(self, seed: int) -> list[tuple[Any, Sample, set[str]]]:
        """(task, sample, fields asked when it is said) for every stateable constraint of every task."""
        from domains.movies.simulators.acts import Inform

        out = []
        for task in self.tasks:
            for k, tc in enumerate(task.constraints):
                if tc.reveal == "hidden":
                    continue
                c = tc.constraint
                rng = random.Random(f"write|{seed}|{task.id}|{k}")
                (text,) = self.writer.word(Inform(field=c.field, constraints=[c]), rng)
                asked = set() if tc.reveal == "volunteer" else {c.field}
                out.append((task, Sample(text, f"{c.field} {c.op}", self._truth(c)), asked))
        return out

    def sentence_leaks(self, task: Any, text: str, asked: set[str]) -> int:
        from domains.movies.simulators.leaks import message_leaks

        return len(message_leaks(task, text, asked))

    def probe_leaks(self, seeds: Iterable[int]) -> tuple[int, int]:
        """(conversations, leaks): a greeting and two ask-everything questions per task and seed."""
        from domains.movies.simulators import ScriptedUser
        from domains.movies.simulators.leaks import audit_leaks
        from runner.core.transcript import ComponentSpec, MessageEvent, Transcript
        from runner.play.loop import GREETING

        ask_all = (
            "What kind of movie do you want? How long can it be? Any age rating? How well "
            "reviewed? Which streaming services do you have? How recent? How well known? "
            "Any director or cast?"
        )
        conversations = leaks = 0
        for seed in seeds:
            for task in self.tasks:
                conversations += 1
                user = ScriptedUser(task, self.catalog, seed)
                events = [MessageEvent(role="agent", content=GREETING)]
                for question in (None, ask_all, ask_all):
                    if question:
                        events.append(MessageEvent(role="agent", content=question))
                    events.append(MessageEvent(role="user", content=user.reply(events).content))
                spec = ComponentSpec(name="probe")
                trace = Transcript(task_id=task.id, agent=spec, simulator=spec, events=events)
                leaks += len(audit_leaks(task, trace).leaks)
        return conversations, leaks


class GroceryDomain:
    """The grocery suite, its writer and its value finders."""

    name = "grocery"

    def __init__(self) -> None:
        from domains.grocery.catalog import load_catalog
        from domains.grocery.suite import SNAPSHOTS_DIR, TASKS_DIR
        from domains.grocery.tasks import ACCOUNT_KINDS, load_tasks
        from domains.grocery.user.vocabulary import ALLERGEN_WORDS
        from domains.grocery.user.writer import TemplateWriter

        snapshot = sorted(p for p in SNAPSHOTS_DIR.iterdir() if p.is_dir())[-1]
        self.catalog = load_catalog(snapshot)
        # The shopping tasks: their shopper states needs as constraint sentences (an account
        # task's shopper states requests and who it is, through user/account.py).
        self.tasks = [t for t in load_tasks(TASKS_DIR) if t.kind not in ACCOUNT_KINDS]
        self.writer = TemplateWriter()
        items = self.catalog.items
        words: dict[str, str] = {}
        for allergen, names in ALLERGEN_WORDS.items():
            for n in names:
                words[n] = f"allergen:{allergen}"
        words |= {re.escape(p.brand): f"brand:{p.brand}" for p in items if p.brand}
        words |= {re.escape(c): f"country:{c}" for p in items for c in p.countries}
        words |= {re.escape(c.lower()): f"category:{c}" for p in items for c in p.categories}
        for label in ("organic", "fair trade", "fair-trade", "vegan", "vegetarian", "palm oil"):
            words[label] = f"word:{label.replace(' ', '-')}"
        self._words = [
            (re.compile(r"(?i)(?<!\w)(?:" + w + r")(?!\w)"), v)
            for w, v in sorted(words.items(), key=lambda kv: len(kv[0]), reverse=True)
        ]

    def spans(self, text: str) -> list[Span]:
        out: list[Span] = [
            (m.start(), m.end(), "price", _num(m.group(1)))
            for m in re.finditer(r"€\s?(\d+(?:\.\d+)?)", text)
        ]
        out += [
            (m.start(1), m.end(1), "letter", m.group(1).lower())
            for m in re.finditer(r"(?<![\w-])(?<!^)(?<![.!?] )([A-E])(?![\w-])", text)
        ]
        out += [(m.start(), m.end(), "digit", m.group(0)) for m in re.finditer(r"\b[1-4]\b", text)]
        for pattern, value in self._words:
            kind, _, name = value.partition(":")
            out += [(m.start(), m.end(), kind, name) for m in pattern.finditer(text)]
        return out

    @staticmethod
    def _truth(need: Any) -> frozenset[str]:
        if need.kind == "allergies":
            return frozenset(need.allergies)
        if need.kind == "budget":
            return frozenset({_num(need.budget)})
        c = need.constraint
        raw = c.value if isinstance(c.value, list) else [c.value]
        if c.field in ("vegan", "vegetarian", "palm_oil"):
            return frozenset({c.field.replace("_", "-")})
        if c.field == "labels":
            return frozenset(str(x) for x in raw)
        if c.field == "price":
            return frozenset(_num(x) for x in raw)
        return frozenset(str(x) for x in raw)

    def samples(self, seed: int) -> list[tuple[Any, Sample, set[str]]]:
        from domains.grocery.user.acts import Inform
        from domains.grocery.user.needs import needs_of

        out = []
        for task in self.tasks:
            for k, need in enumerate(needs_of(task)):
                if need.reveal == "hidden":
                    continue
                rng = random.Random(f"write|{seed}|{task.id}|{k}")
                texts = self.writer.word(Inform(topic=need.topic, needs=[need]), rng)
                c = need.constraint
                label = need.kind if c is None else f"{c.field} {c.op}"
                asked: set[str] = set() if need.reveal == "volunteer" else {str(need.topic)}
                for text in texts:
                    out.append((task, Sample(text, label, self._truth(need)), asked))
        return out

    def sentence_leaks(self, task: Any, text: str, asked: set[str]) -> int:
        from domains.grocery.user.leaks import message_leaks
        from domains.grocery.user.needs import needs_of

        return len(message_leaks(needs_of(task), text, asked))  # type: ignore[arg-type]

    def probe_leaks(self, seeds: Iterable[int]) -> tuple[int, int]:
        from domains.grocery.user.leaks import audit_probe

        leaks = sum(len(audit_probe(task, self.catalog, tuple(seeds))) for task in self.tasks)
        return len(self.tasks) * len(tuple(seeds)), leaks


def measure(
    domain: Any,
    train_seeds: tuple[int, ...] = TRAIN_SEEDS,
    test_seeds: tuple[int, ...] = TEST_SEEDS,
) -> dict[str, float]:
    """Train on `train_seeds`, decode `test_seeds`; audit every sentence of both."""
    train = [s for seed in train_seeds for _, s, _ in domain.samples(seed)]
    said = [x for seed in test_seeds for x in domain.samples(seed)]
    inverter = Inverter(domain.spans)
    inverter.learn(train)
    test = [s for _, s, _ in said]
    every = [x for seed in train_seeds for x in domain.samples(seed)] + said
    leaks = sum(domain.sentence_leaks(task, s.text, asked) for task, s, asked in every)
    probed, probe_leaks = domain.probe_leaks((*train_seeds, *test_seeds))
    return {
        "train": len(train),
        "test": len(test),
        "shapes": len(inverter.table),
        "seen": sum(map(inverter.seen, test)) / len(test),
        "decoded": sum(map(inverter.decodes, test)) / len(test),
        "sentences_audited": len(every),
        "sentence_leaks": leaks,
        "probes": probed,
        "probe_leaks": probe_leaks,
    }


def _seeds(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(",") if x.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", choices=("movies", "grocery", "both"), default="both")
    parser.add_argument("--train-seeds", type=_seeds, default=TRAIN_SEEDS, help="e.g. 900,901")
    parser.add_argument("--test-seeds", type=_seeds, default=TEST_SEEDS, help="e.g. 904,905")
    args = parser.parse_args(argv)
    names = ("movies", "grocery") if args.domain == "both" else (args.domain,)
    train, test = args.train_seeds, args.test_seeds
    print(f"train seeds {train}, test seeds {test}; target: decoded <= 0.50, leaks 0")
    for name in names:
        domain = MoviesDomain() if name == "movies" else GroceryDomain()
        r = measure(domain, train, test)
        print(
            f"{name:8} train {r['train']:.0f} sentences -> {r['shapes']:.0f} shapes; "
            f"test {r['test']:.0f}: shape seen {r['seen']:.1%}, decoded {r['decoded']:.1%} "
            f"{'✓' if r['decoded'] <= 0.5 else '✗'}"
        )
        print(
            f"{'':8} leak audit: {r['sentence_leaks']:.0f} leaks in {r['sentences_audited']:.0f} "
            f"constraint sentences; {r['probe_leaks']:.0f} in {r['probes']:.0f} probing "
            "conversations"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
