"""Digest every file `make leaderboard` writes (the site, the results folders, the test splits) and compare two builds.

Run: .venv/bin/python benchmarks/output_digest.py CHECKOUT --out digests.json
     .venv/bin/python benchmarks/output_digest.py --compare before.json after.json

A speed-up of the leaderboard build must leave its outputs byte-identical: build before and after
the change with the same seed and split secret, write each build's digests, compare them. The
digests are the sha256 of every file under `public/`, `submissions/*/results/` and `splits/` of
CHECKOUT, keyed by the path inside it. The local split secret (`.taurec-cache/split-secret`) is
the one input that differs between two fresh clones: `benchmarks/leaderboard_time.py` writes the
same one into both (`--secret`), so their test splits are the same too.

What is compared is every byte but what measures time or was drawn at random by the OS, which
no two builds share, not even two builds of one revision (printed as a count, never hidden):
- in JSON, JSON lines and the compressed archives (.gz, .xz): the fields of `VOLATILE_KEYS` (a
  run's start and end, the commit the build ran from, each trial's timing) and every field
  named after latency or wall time, blanked; the lines sorted (trials are written in the order
  they finish, so a transcript's span, its offset in the archive, is blanked too);
- in every text: ISO times and the port a run's own model server drew (`127.0.0.1:<port>`);
- in the site's pages: a table cell showing seconds, the data of a chart against latency (its
  entries' order and frontier follow the latencies), the chart ids (digests of the chart data)
  and the commit shown on entry pages; in CSV and Parquet downloads the latency and wall-time
  columns.
A sealed test split (`results.fernet`, a new token on every seal) is opened with the checkout's
split secret and its files compared the same way.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import io
import json
import lzma
import re
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

# What records the wall clock, the commit, or the order trials finished in: differs on every build.
VOLATILE_KEYS = frozenset(
    {
        "started_at",
        "finished_at",
        "git_revision",
        "wall_time_s",
        "step_latencies_s",
        "transcript_span",
        "transcript_offset",
        "transcript_length",
    }
)
ROOTS = ("public", "splits")


def _files(checkout: Path) -> Iterator[Path]:
    for name in ROOTS:
        root = checkout / name
        if root.is_dir():
            yield from (p for p in root.rglob("*") if p.is_file())
    for results in sorted((checkout / "submissions").glob("*/results")):
        yield from (p for p in results.rglob("*") if p.is_file())


def _blank(value: object) -> tuple[object, int]:
    """`value` with every volatile field (`_volatile`) set to None; how many were set."""
    if isinstance(value, dict):
        out, found = {}, 0
        if _volatile(str(value.get("field", ""))):  # a chart axis of a measured time: its range
            value = {k: v for k, v in value.items() if k != "scale"}
        for key, item in value.items():
            if _volatile(key):
                out[key], found = None, found + 1
            else:
                out[key], inner = _blank(item)
                found += inner
        return out, found
    if isinstance(value, list):
        items = [_blank(v) for v in value]
        return [v for v, _ in items], sum(n for _, n in items)
    return value, 0


def _volatile(key: str) -> bool:
    return key in VOLATILE_KEYS or any(word in key for word in ("latency", "wall_", "timing"))


_MASKS = (
    (
        re.compile(rb"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?"),
        b"<time>",
    ),
    (re.compile(rb"127\.0\.0\.1:\d+"), b"127.0.0.1:<port>"),
    (re.compile(rb'data-value="[^"]*">[^<]* s</td>'), b'data-value="<s>"><s> s</td>'),
    (re.compile(rb"(?<![\w.])\d+\.\d+ s\b"), b"<s> s"),
    (re.compile(rb'data-chart="[0-9a-f]+"'), b'data-chart="<id>"'),
    (re.compile(rb"(data-title=\"[^\"]*latency[^\"]*\" data-columns=')[^']*'"), rb"\1<s>'"),
    (re.compile(rb"\b[0-9a-f]{40}\b"), b"<commit>"),
    (re.compile(rb'"[0-9a-f]{12}":\{"\$schema"'), b'"<id>":{"$schema"'),
    (re.compile(rb'(&#34;|")(latency\w*)(&#34;|"):(\[[^\]]*\]|[-+0-9.e]+|null)'), rb"\1\2\3:<s>"),
)


def _mask(data: bytes) -> tuple[bytes, int]:
    found = 0
    for pattern, replacement in _MASKS:
        data, count = pattern.subn(replacement, data)
        found += count
    return data, found


def _table(rows: list[dict[str, object]]) -> tuple[bytes, int]:
    keep = [c for c in (rows[0] if rows else {}) if not _volatile(c)]
    dropped = len(rows[0]) - len(keep) if rows else 0
    text = json.dumps([[row[c] for c in keep] for row in rows], default=str)
    return _mask(text.encode())[0], dropped * len(rows)


def _canonical(name: str, data: bytes, secret: str | None) -> tuple[bytes, int]:
    """The bytes compared for a file named `name`; how many volatile values were blanked."""
    if name.endswith(".gz"):
        return _canonical(name[:-3], gzip.decompress(data), secret)
    if name.endswith(".xz"):
        return _canonical(name[:-3], lzma.decompress(data), secret)
    if name.endswith(".json") and data.lstrip()[:1] in (b"{", b"["):
        value, blanked = _blank(json.loads(data))
        masked, found = _mask(json.dumps(value, sort_keys=True).encode())
        return masked, blanked + found
    if name.endswith(".jsonl"):
        lines = [_blank(json.loads(line)) for line in data.splitlines() if line.strip()]
        text = "\n".join(sorted(json.dumps(v, sort_keys=True) for v, _ in lines))
        masked, found = _mask(text.encode())
        return masked, sum(n for _, n in lines) + found
    if name.endswith(".csv"):
        return _table(list(csv.DictReader(io.StringIO(data.decode("utf-8")))))
    if name.endswith(".parquet"):
        import polars as pl

        return _table(pl.read_parquet(io.BytesIO(data)).to_dicts())
    if name == "chart-specs.js":  # `window.taurecChartSpecs = {id: spec};`, ids digests of specs
        head, _, body = data.decode("utf-8").partition("= ")
        specs = [_blank(spec) for spec in json.loads(body.strip().rstrip(";")).values()]
        text = head + "\n".join(sorted(json.dumps(v, sort_keys=True) for v, _ in specs))
        return _mask(text.encode())[0], sum(n for _, n in specs)
    if name.endswith((".html", ".js", ".xml", ".txt", ".md", ".svg")):
        return _mask(data)
    return data, 0


def _sealed(path: Path, secret: str | None) -> tuple[bytes, int]:
    """A sealed split's files, opened with the split secret, each canonical."""
    from runner.publish.splits import load_split_record, split_key, unseal

    if secret is None:
        raise SystemExit(f"{path}: sealed, and the checkout has no split secret to open it")
    record = load_split_record(path.with_name("split.json"))
    plain = unseal(split_key(secret, record.split_id), path.read_bytes(), path)
    parts, blanked = [], 0
    with tarfile.open(fileobj=io.BytesIO(plain), mode="r:gz") as tar:
        for member in sorted(tar.getmembers(), key=lambda m: m.name):
            handle = tar.extractfile(member)
            if handle is None:
                continue
            data, count = _canonical(member.name, handle.read(), secret)
            parts.append(member.name.encode() + b"\0" + hashlib.sha256(data).digest())
            blanked += count
    return b"\n".join(parts), blanked


def digest_file(path: Path, secret: str | None = None) -> tuple[str, int]:
    """sha256 of the file's canonical bytes; how many volatile fields were blanked."""
    if path.name == "results.fernet":
        data, blanked = _sealed(path, secret)
    else:
        data, blanked = _canonical(path.name, path.read_bytes(), secret)
    return hashlib.sha256(data).hexdigest(), blanked


def digests(checkout: Path) -> dict[str, object]:
    files: dict[str, str] = {}
    volatile = 0
    secret_file = checkout / ".taurec-cache" / "split-secret"
    secret = secret_file.read_text().strip() if secret_file.is_file() else None
    for path in sorted(_files(checkout)):
        files[path.relative_to(checkout).as_posix()], blanked = digest_file(path, secret)
        volatile += blanked
    if not files:
        raise SystemExit(f"{checkout}: no public/, splits/ or submissions/*/results/ files")
    total = hashlib.sha256("".join(f"{k} {v}\n" for k, v in files.items()).encode()).hexdigest()
    return {
        "checkout": str(checkout),
        "total": total,
        "fields_blanked": volatile,
        "files": files,
    }


def compare(before: dict[str, object], after: dict[str, object], show: int = 20) -> int:
    """Print what differs; the number of differing paths (0: byte-identical)."""
    old: dict[str, str] = before["files"]  # type: ignore[assignment]
    new: dict[str, str] = after["files"]  # type: ignore[assignment]
    gone = sorted(old.keys() - new.keys())
    added = sorted(new.keys() - old.keys())
    changed = sorted(k for k in old.keys() & new.keys() if old[k] != new[k])
    print(f"{len(old)} files before, {len(new)} after; volatile fields blanked: "
          f"{before['fields_blanked']} / {after['fields_blanked']}")  # fmt: skip
    for label, paths in (("only before", gone), ("only after", added), ("changed", changed)):
        if paths:
            print(f"{label}: {len(paths)}")
            for path in paths[:show]:
                print(f"  {path}")
    differing = len(gone) + len(added) + len(changed)
    print("byte-identical" if differing == 0 else f"{differing} paths differ")
    return differing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", nargs="?", type=Path, help="a built checkout to digest")
    parser.add_argument("--out", type=Path, help="write the digests here (default: stdout)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(p.read_text()) for p in args.compare)
        sys.exit(1 if compare(before, after) else 0)
    if args.checkout is None:
        parser.error("give a CHECKOUT to digest or --compare BEFORE AFTER")
    text = json.dumps(digests(args.checkout), indent=1, sort_keys=True) + "\n"
    if args.out:
        args.out.write_text(text)
        print(f"{args.out}: total {json.loads(text)['total']}")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
