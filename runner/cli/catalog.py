"""`taurec catalog SUBCOMMAND [--domain NAME] …`: the subcommand of the named domain's own source-pipeline group."""

from __future__ import annotations

import copy
import importlib
from pathlib import Path
from typing import Any

import click

from runner.cli import relative_path_defaults
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


class CatalogGroup(click.Group):
    """Subcommands are looked up in the group of the domain named by `--domain` (default movies)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return _domain_group(ctx.params.get("domain") or DEFAULT_DOMAIN).list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        domain = ctx.params.get("domain") or DEFAULT_DOMAIN
        command = _domain_group(domain).get_command(ctx, cmd_name)
        return None if command is None else _with_domain_option(command, domain)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        domain = _domain_in(args[1:]) or ctx.params.get("domain") or DEFAULT_DOMAIN
        group = _domain_group(domain)
        name = args[0]
        command = group.get_command(ctx, name)
        if command is None:
            known = ", ".join(group.list_commands(ctx))
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
