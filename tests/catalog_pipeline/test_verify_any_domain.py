"""`taurec catalog verify` on any domain's snapshot folder, without `--domain`: the manifest names its domain."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from catalog_pipeline.manifest import load_head
from runner.cli import cli
from runner.core.domains import get_domain
from runner.core.errors import LoadError

COMMITTED = {
    domain: sorted(p for p in get_domain(domain).snapshots_dir.iterdir() if p.is_dir())
    for domain in ("movies", "grocery")
}


def _verify(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(cli, ["catalog", "verify", *args])
    return done.exit_code, done.output


def _copy(folder: Path, tmp_path: Path) -> Path:
    copy = tmp_path / folder.parent.parent.name / folder.name
    shutil.copytree(folder, copy)
    return copy


@pytest.mark.parametrize("domain", sorted(COMMITTED))
def test_each_domains_committed_snapshots_verify_without_a_domain(domain: str) -> None:
    folders = COMMITTED[domain]
    assert folders, f"no committed {domain} snapshot"
    code, output = _verify(*map(str, folders))
    assert code == 0, output
    assert output.splitlines() == [f"{folder.resolve()}: ok" for folder in folders]
    assert {load_head(folder).domain for folder in folders} == {domain}


def test_with_no_argument_every_domains_snapshots_are_checked() -> None:
    code, output = _verify()
    assert code == 0, output
    every = [f for folders in COMMITTED.values() for f in folders]
    assert sorted(output.splitlines()) == sorted(f"{f.resolve()}: ok" for f in every)


@pytest.mark.parametrize(
    ("domain", "name"), [("grocery", "catalog.csv"), ("movies", "catalog.json")]
)
def test_a_tampered_copy_is_a_mismatch_naming_the_file(
    domain: str, name: str, tmp_path: Path
) -> None:
    copy = _copy(COMMITTED[domain][-1], tmp_path)
    data = (copy / name).read_bytes()
    (copy / name).write_bytes(data.replace(b"a", b"b", 1))
    code, output = _verify(str(copy))
    assert code == 1
    assert output.splitlines()[0] == f"{copy.resolve()}: MISMATCH"
    assert f"  - {name}: modified (sha256 " in output
    # the untouched files of the copy are not blamed
    assert sum(line.startswith("  - ") for line in output.splitlines()) == 1


@pytest.mark.parametrize("domain", ["movies", "grocery"])
def test_a_manifest_written_before_the_domain_field_is_migrated(
    domain: str, tmp_path: Path
) -> None:
    copy = _copy(COMMITTED[domain][-1], tmp_path)
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    del manifest["domain"]
    (copy / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    assert load_head(copy).domain == domain
    code, output = _verify(str(copy))
    assert code == 0, output
    # the migrated domain also guards a named one
    other = "grocery" if domain == "movies" else "movies"
    code, output = _verify(str(copy), "--domain", other)
    assert code == 1
    assert f"manifest.json: domain is {domain!r}, not {other!r}" in output


def test_a_manifest_that_cannot_say_its_domain_names_the_field(tmp_path: Path) -> None:
    copy = _copy(COMMITTED["grocery"][-1], tmp_path)
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    del manifest["domain"], manifest["products_dump"]
    (copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(LoadError, match=r"domain: missing, and source 'fixture'"):
        load_head(copy)
    code, output = _verify(str(copy))
    assert code == 1
    assert "domain: missing" in output


def test_the_domain_option_is_still_accepted_before_or_after_verify() -> None:
    grocery = [str(f) for f in COMMITTED["grocery"]]
    assert _verify("--domain", "grocery", *grocery)[0] == 0
    done = CliRunner().invoke(cli, ["catalog", "--domain", "grocery", "verify"])
    assert done.exit_code == 0, done.output
    assert len(done.output.splitlines()) == len(COMMITTED["grocery"])
