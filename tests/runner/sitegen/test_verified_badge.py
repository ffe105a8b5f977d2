"""The built site says "verified" only for a run whose ledger entry names an attestation, and the
badge links to that attestation; a ledger line without one (or no line) is self-reported."""

from __future__ import annotations

import json
import re
from pathlib import Path

from domains.movies.site_synth import SynthSpec, synthesize
from runner.publish.ledger import LEDGER_FILE, record_runs

from .conftest import site_of

SNAPSHOT = "2026-11-01"


def _badges(page: str) -> list[str]:
    return re.findall(r'<(?:a|span)[^>]*class="[^"]*badge[^"]*"[^>]*>.*?</(?:a|span)>', page)


def test_verified_only_with_an_attestation_and_the_badge_links_to_it(tmp_path: Path) -> None:
    world = synthesize(
        tmp_path / "world",
        SynthSpec(entries=3, tasks=2, trials=4, snapshots=(SNAPSHOT,), xss_probes=False),
    )
    attested, bare, plain = world.slugs[0], world.slugs[1], world.slugs[2]
    # The synthetic world's entry 0 is recorded with an attestation; entry 1 gets a line with
    # matching digests and no attestation (a ledger written before attestations, or forged).
    run = world.submissions / bare / "results" / SNAPSHOT
    [entry] = record_runs(
        [run],
        tmp_path / "scratch.jsonl",
        "https://github.com/example/taurec/actions/runs/7",
        attestation_url="https://github.com/example/taurec/attestations/7",
    )
    line = entry.model_dump(mode="json") | {"schema_version": 1, "attestation": None}
    with (world.submissions / LEDGER_FILE).open("a") as fh:
        fh.write(json.dumps(line) + "\n")
    report = site_of(world, tmp_path / "site")
    pages = {
        slug: (report.out / "entries" / f"{slug}.html").read_text(encoding="utf-8")
        for slug in (attested, bare, plain)
    }
    link = "https://github.com/example/taurec/attestations/2000"
    verified = [b for b in _badges(pages[attested]) if ">verified<" in b]
    assert verified, _badges(pages[attested])
    assert all(f'href="{link}"' in b for b in verified)
    for slug in (bare, plain):
        badges = _badges(pages[slug])
        assert not any(">verified<" in b for b in badges), badges
        assert any(">self-reported<" in b for b in badges), badges
        assert "/attestations/" not in pages[slug]
    home = (report.out / "index.html").read_text(encoding="utf-8")
    flags = dict(re.findall(r'data-slug="([^"]+)"[^>]*data-verified="(\d)"', home))
    assert flags[attested] == "1"
    assert flags[bare] == flags[plain] == "0"
