"""Generate a task suite folder for a domain from a snapshot and a seed (`taurec tasks generate`)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from runner.core.domain import Domain
from runner.core.errors import TaurecError
from runner.core.generation import (
    GenerationInfo,
    Split,
    seed_from_secret,
    write_suite_folder,
)

__all__ = ["GenerateResult", "generate_suite", "seed_of_secret_env"]


@dataclass(frozen=True)
class GenerateResult:
    """A written suite: its folder, the files, the tasks' count and the gate's summary."""

    out_dir: Path
    files: list[Path]
    tasks: int
    gate: list[str]


def seed_of_secret_env(variable: str, snapshot_label: str) -> int:
    """The seed derived from the secret in environment variable `variable` and the snapshot's
    label (its date): see `runner.core.generation.seed_from_secret`."""
    secret = os.environ.get(variable)
    if not secret:
        raise TaurecError(
            f"environment variable {variable} is unset or empty: it must hold the split secret"
        )
    return seed_from_secret(secret, snapshot_label)


def generate_suite(
    domain: Domain | str,
    snapshot: str | Path | None,
    seed: int | None,
    out_dir: Path,
    count: int | None = None,
    split: Split = "test",
    *,
    secret_env: str | None = None,
) -> GenerateResult:
    """Draw `count` tasks (default: the domain's full suite size) from the snapshot (a date, a
    folder or a catalog.json; default: the latest committed) and the seed, or the seed derived
    from the secret in `secret_env` and the snapshot's date, and write them with the policy and
    `suite.json` to `out_dir`. Same snapshot and seed: byte-identical folder."""
    from runner.batch.inputs import resolve_snapshot
    from runner.core.domains import get_domain

    owner = domain if isinstance(domain, Domain) else get_domain(domain)
    if (seed is None) == (secret_env is None):
        raise TaurecError("give exactly one of a seed and a secret's environment variable")
    resolved = resolve_snapshot(snapshot, domain=owner)
    if secret_env is not None:
        label = resolved.date.isoformat() if resolved.date else resolved.label
        seed = seed_of_secret_env(secret_env, label)
        source = f"secret ${secret_env}"
    else:
        assert seed is not None
        if seed < 0:
            raise TaurecError(f"--seed must be >= 0, got {seed}")
        source = f"seed {seed}"
    if count is not None and count < 1:
        raise TaurecError(f"--count must be >= 1, got {count}")
    suite = owner.generate_tasks(resolved.path, resolved.catalog, seed, count or 0, split)
    info = GenerationInfo(
        snapshot=resolved.label,
        catalog_sha256=resolved.catalog.digest(),
        seed_source=source,
        split=split,
        count=len(suite.tasks),
        generator=suite.generator,
        gate=suite.gate,
    )
    files = write_suite_folder(out_dir, owner.name, suite, info)
    return GenerateResult(out_dir=out_dir, files=files, tasks=len(suite.tasks), gate=suite.gate)
