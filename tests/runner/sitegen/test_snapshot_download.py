"""The Snapshots page's "Verify this download" box, followed command by command on a real download:
it checks the downloaded folder (not the repository's snapshot) and catches a tampered file.
The grocery board's box is followed the same way in test_grocery_board.py."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from runner.sitegen import BuildReport

BIN = Path(sys.executable).parent


def _latest_box(page: str) -> tuple[str, list[str], str]:
    """(date, download hrefs, the commands of the verify box) of the first (latest) snapshot."""
    section = re.search(
        r'<section class="taurec-snapshot" id="snapshot-([^"]+)">(.*?)</section>', page, re.S
    )
    assert section, "no snapshot section on the page"
    date, body = section.group(1), section.group(2)
    hrefs = re.findall(r'<a href="([^"]+)" download>', body)
    box = re.search(r'<details class="taurec-verify">.*?<pre[^>]*>(.*?)</pre>', body, re.S)
    assert box, "no verify box"
    return date, [html.unescape(h) for h in hrefs], html.unescape(box.group(1))


def download(
    site: BuildReport, tmp_path: Path, name: str = "snapshots.html"
) -> tuple[Path, list[str]]:
    """Download the latest snapshot of the Snapshots page `name` as its links say, into a folder
    named as the box says; and the box's commands."""
    page = (site.out / name).read_text(encoding="utf-8")
    date, hrefs, commands = _latest_box(page)
    folder = tmp_path / "downloads" / date
    folder.mkdir(parents=True)
    for href in hrefs:
        source = (site.out / name).parent.joinpath(href).resolve()
        shutil.copyfile(source, folder / Path(href).name)
    lines = [line.split("  #")[0].strip() for line in commands.splitlines() if line.strip()]
    return folder, lines


def follow(lines: list[str], folder: Path) -> list[subprocess.CompletedProcess[str]]:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    return [
        subprocess.run(
            line, shell=True, cwd=folder, capture_output=True, text=True, env=env, timeout=120
        )
        for line in lines
    ]


def test_the_documented_commands_pass_on_an_intact_download(
    built_site: BuildReport, tmp_path: Path
) -> None:
    folder, lines = download(built_site, tmp_path)
    assert any("taurec catalog verify ./" in line for line in lines), lines
    checks = follow(lines, folder)
    for done in checks:
        assert done.returncode == 0, done.stdout + done.stderr
    verify = checks[-1].stdout
    assert verify == f"{folder.resolve()}: ok\n"  # the download, not the repository's copy


def test_the_documented_command_prints_mismatch_on_a_tampered_download(
    built_site: BuildReport, tmp_path: Path
) -> None:
    folder, lines = download(built_site, tmp_path)
    catalog = folder / "catalog.json"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace('"title"', '"title" ', 1))
    verify_line = next(line for line in lines if "taurec catalog verify" in line)
    [done] = follow([verify_line], folder)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{folder.resolve()}: MISMATCH" in done.stdout
    assert "catalog.json" in done.stdout
