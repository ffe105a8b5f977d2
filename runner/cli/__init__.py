"""The `taurec` command line: a lazy click group whose commands each call one library function."""

from __future__ import annotations

import importlib
import os
import sys

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# No pydantic plugin serves taurec; without this pydantic reads the entry points of every
# installed distribution when the first model is built (~10 ms of each command). Set it to ""
# to load installed plugins again.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
# numpy's OpenBLAS starts a thread per core when numpy is imported, and they spin for a while
# (~0.1 s of CPU per process, taken from the main thread on a busy machine); nothing taurec runs
# calls BLAS (search scores with bm25s, statistics are means and quantiles), so one thread.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import click

from runner.core.errors import LoadError, TaurecError, describe_disk_full, is_disk_full
from runner.core.startup import pause_collector, resume_collector

# name -> "module:attribute". Modules are imported only when their command runs, so
# commands that never call a model never pay for importing LiteLLM.
COMMANDS: dict[str, str] = {
    "tasks": "runner.cli.tasks:group",
    "score": "runner.cli.score:command",
    "verify": "runner.cli.score:verify_command",
    "catalog": "runner.cli.catalog:group",
    "serve-model": "runner.cli.serve_model:command",
    "trial": "runner.cli.trial:command",
    "run": "runner.cli.run:command",
    "merge": "runner.cli.run:merge_command",
    "ledger": "runner.cli.ledger:group",
    "site": "runner.cli.site:group",
    "submission": "runner.cli.submission:group",
    "leaderboard": "runner.cli.leaderboard:command",
    "eval": "runner.cli.eval:command",
}
# Commands that end start-up themselves (`runner.core.startup`): `run` once its inputs are loaded
# and its search index built, just before the first trial. Every other command's start-up ends
# once its module is imported.
ENDS_ITS_OWN_STARTUP = frozenset({"run"})


# name -> the first paragraph of the command's help (a test keeps them equal): `taurec --help`
# lists every command from these, without importing any command module (the catalog alone pulls
# in polars, the site jinja2 and altair).
SUMMARIES: dict[str, str] = {
    "tasks": "Work with the task suite.",
    "score": "Score stored transcripts against their own snapshot and the task suite (zero LLM "
    "calls).",
    "verify": "Re-score results folders from their transcripts; list every disagreement; exit 1 "
    "on any.",
    "catalog": "Build, rebuild and list dated catalog snapshots (TMDB or the offline fixture "
    "world).",
    "serve-model": "Serve the built-in baseline policies as an OpenAI-compatible chat-completions "
    "API.",
    "trial": "Run one trial (agent vs simulated user) and print the transcript and its score.",
    "run": "Run every task × trial of each SUBMISSION_DIR against one snapshot (resumable).",
    "merge": "Merge results folders of `taurec run --shard I/N` into one; exit 1 if keys are "
    "missing.",
    "ledger": "The ledger of runs the refresh workflow produced (what the site calls verified).",
    "site": "Build and serve the static leaderboard site.",
    "submission": "Submission folders: check them, scaffold a new one, smoke-run, schema.",
    "leaderboard": "Build the leaderboard offline: for each domain of the board, its fixture "
    "snapshot, the revalidation of its suite and a run of every submission entering it; then one "
    "site with a board per domain.",
    "eval": "Evaluate AGENT and print pass^k, skills, failures grouped by cause, strata and "
    "efficiency.",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of `--help`, shortened by click's own rule from stand-ins that carry
        each command's summary: the same lines as from the commands, none of them imported."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [
            (name, click.Command(name, help=SUMMARIES[name]).get_short_help_str(limit))
            for name in names
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        command = getattr(importlib.import_module(module_name), attr)
        assert isinstance(command, click.Command)
        relative_path_defaults(command)
        if cmd_name not in ENDS_ITS_OWN_STARTUP:
            resume_collector()
        return command


def relative_path_defaults(command: click.Command) -> None:
    """`--help` shows path defaults relative to the working directory (`tasks` when run in the
    checkout, `../checkout/tasks` from beside it): a path the user can type as shown, never this
    machine's absolute path (which also made the generated CLI reference depend on where it was
    built)."""
    import os
    from pathlib import Path

    for param in command.params:
        if isinstance(param, click.Option) and param.show_default is True:
            default = param.default
            if isinstance(default, Path) and default.is_absolute():
                param.show_default = Path(os.path.relpath(default, Path.cwd())).as_posix()
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            relative_path_defaults(sub)


@click.group(cls=LazyGroup)
@click.version_option(package_name="taurec")
def cli() -> None:
    """τ-Rec: a verifiable benchmark and leaderboard for agentic recommender systems."""


def main() -> None:
    pause_collector()
    try:
        # Without standalone mode click *returns* the code of `Exit(n)` instead of exiting.
        code = cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except TaurecError as exc:
        click.echo(f"error: {exc.one_line() if isinstance(exc, LoadError) else exc}", err=True)
        sys.exit(2)
    except OSError as exc:
        if not is_disk_full(exc):
            raise
        # Every writer cleans up its own temporary files; what is left is one line, no traceback.
        click.echo(f"error: {describe_disk_full(exc)}", err=True)
        sys.exit(1)
    finally:
        resume_collector()
    sys.exit(code if isinstance(code, int) else 0)
