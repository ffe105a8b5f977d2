"""`taurec catalog SUBCOMMAND [--domain NAME] …`: the subcommand of the named domain's own source-pipeline group.

`verify` is the one subcommand every domain shares: a snapshot's manifest names its domain, so
any domain's folder is checked by the one snapshot core (`catalog_pipeline.verify`).
"""

from __future__ import annotations

import copy
import importlib
from pathlib import Path
from typing import Any

import click

from runner.cli import relative_path_defaults
from runner.core.cli_flags import folder_option
from runner.core.domains import DEFAULT_DOMAIN, UnknownDomainError, domain_names, get_domain

_DOMAIN_HELP = "Whose snapshots: each domain has its own source pipeline and options"


def echo_verified(results: list[tuple[str, list[str]]], root: Path) -> None:
    """Print `taurec catalog verify`'s verdict per snapshot folder; exit 1 on any mismatch."""
    for folder, problems in results:
        click.echo(f"{folder}: MISMATCH" if problems else f"{folder}: ok")
        for problem in problems:
            click.echo(f"  - {problem}")
    if not results:
        click.echo(f"no snapshots under {root}")
    if any(problems for _, problems in results):
        raise click.exceptions.Exit(1)


def _domain_in(args: list[str]) -> str | None:
    """The value of the last `--domain X` / `--domain=X` in a subcommand's arguments."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--domain" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--domain="):
            found = arg.partition("=")[2]
    return found


def _domain_group(name: str) -> click.Group:
    """The click group a domain names as its catalog commands (a usage error if it has none)."""
    try:
        domain = get_domain(name)
    except UnknownDomainError as exc:
        raise click.BadParameter(str(exc), param_hint="'--domain'") from None
    if domain.catalog_cli is None:
        raise click.UsageError(f"the {name} domain builds no snapshots: it has no catalog commands")
    module_name, _, attribute = domain.catalog_cli.partition(":")
    group = getattr(importlib.import_module(module_name), attribute)
    assert isinstance(group, click.Group), f"{domain.catalog_cli} is not a click group"
    return group


def _with_domain_option(command: click.Command, domain: str) -> click.Command:
    """A copy of the domain's command that also accepts (and documents) `--domain`."""
    option = click.Option(
        ["--domain"],
        type=click.Choice(domain_names()),
        default=domain,
        show_default=True,
        expose_value=False,
        help=f"{_DOMAIN_HELP} (the options below are the {domain} domain's).",
    )
    shown = copy.copy(command)
    shown.params = [option, *command.params]
    relative_path_defaults(shown)
    return shown


def _verify_targets(
    refs: list[str], root: Path | None, domain: str | None
) -> tuple[list[Path], str]:
    """The folders `verify` checks, and the root it names when there are none.

    A path is itself; a date is looked up under --root, else under the named domain's snapshots,
    else under every domain's that holds it. With no argument: every dated folder under --root,
    else under the named domain's snapshots, else under every domain's.
    """
    from catalog_pipeline.manifest import DATE_DIR
    from catalog_pipeline.verify import snapshot_folders

    if root is not None:
        return snapshot_folders(root, refs), str(root)
    roots = (
        [get_domain(domain).snapshots_dir]
        if domain
        else [get_domain(name).snapshots_dir for name in domain_names()]
    )
    if not refs:
        return [f for r in roots for f in snapshot_folders(r, [])], " and ".join(map(str, roots))
    folders = []
    for ref in refs:
        found = [r / ref for r in roots if (r / ref).is_dir()] if DATE_DIR.match(ref) else []
        folders += found or snapshot_folders(roots[0], [ref])
    return folders, str(roots[0])


@click.command("verify")
@click.argument("snapshots", nargs=-1)
@folder_option(
    "--root",
    text="Folder holding dated snapshot folders [default: each domain's committed snapshots].",
)
@click.option(
    "--domain",
    "domain",
    type=click.Choice(domain_names()),
    default=None,
    help="Only this domain's snapshots (optional: each manifest names its domain).",
)
@click.pass_context
def verify_command(
    ctx: click.Context, snapshots: tuple[str, ...], root: Path | None, domain: str | None
) -> None:
    """Check snapshot folders of any domain (dates or paths; default: all) against their
    manifests: every listed file's size and sha256, the catalog digest, and the folder name
    against the manifest date. Exit 1 on any mismatch."""
    from catalog_pipeline.verify import verify_folders

    parent = ctx.parent.params.get("domain") if ctx.parent is not None else None
    domain = domain or parent
    folders, shown_root = _verify_targets(list(snapshots), root, domain)
    results = []
    for folder, said, problems in verify_folders(folders):
        if domain and said and said != domain:
            problems = [*problems, f"manifest.json: domain is {said!r}, not {domain!r}"]
        results.append((folder, problems))
    echo_verified(results, Path(shown_root))


class CatalogGroup(click.Group):
    """Subcommands are looked up in the group of the domain named by `--domain` (default movies);
    `verify` is every domain's."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        domain = ctx.params.get("domain") or DEFAULT_DOMAIN
        return sorted({*_domain_group(domain).list_commands(ctx), "verify"})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name == "verify":
            return verify_command
        domain = ctx.params.get("domain") or DEFAULT_DOMAIN
        command = _domain_group(domain).get_command(ctx, cmd_name)
        return None if command is None else _with_domain_option(command, domain)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if name == "verify":
            return name, verify_command, args[1:]
        domain = _domain_in(args[1:]) or ctx.params.get("domain") or DEFAULT_DOMAIN
        group = _domain_group(domain)
        command = group.get_command(ctx, name)
        if command is None:
            known = ", ".join(sorted({*group.list_commands(ctx), "verify"}))
            ctx.fail(f"the {domain} domain's catalog has no command {name!r} (it has: {known})")
        return name, _with_domain_option(command, domain), args[1:]


@click.group(cls=CatalogGroup)
@click.option(
    "--domain",
    type=click.Choice(domain_names()),
    default=None,
    help=f"{_DOMAIN_HELP} [default: movies; may also follow the subcommand].",
)
def group(**_: Any) -> None:
    """Build, rebuild and list dated catalog snapshots (TMDB or the offline fixture world).

    Each domain brings its own source pipeline: `taurec catalog refresh --domain grocery --help`
    lists the grocery options (Open Food Facts and Open Prices dumps)."""
