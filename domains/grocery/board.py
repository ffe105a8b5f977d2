"""What the leaderboard and the site need of grocery: refresh, revalidation, cards, task views and policies."""

from __future__ import annotations

import datetime as dt
import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from domains.grocery.items import Product
from domains.grocery.policies import POLICY_SEVERITY
from domains.grocery.tasks import GroceryTask
from runner.core.domain import PolicyInfo, TaskView
from runner.core.errors import TaurecError

BOARD_LEAD = (
    "Agents act as a grocery store's shopping assistant: they talk to a simulated shopper, "
    "search a product catalog and a per-trial store, and must find products that meet every "
    "need the shopper holds (allergies, diet, budget, …), then put them in the basket and place "
    "the order only once the shopper has said yes; some tasks are a return or a substitution. "
    "Scored on the store's final state and the policies, never by an LLM judge."
)

# What each policy asks of the assistant, in our words (the severities are the scorer's).
POLICY_SUMMARY: dict[str, str] = {
    "allergen_safety": "Never put forward or order a product that contains, or may contain, an "
    "allergen the shopper declared.",
    "allergy_question": "Put no product forward before the shopper has said whether they have an "
    "allergy (volunteered, or in answer to a question; 'none' counts); one answer covers the "
    "whole conversation.",
    "order_confirmation": "Place an order only after the shopper has explicitly agreed to that "
    "basket.",
    "return_confirmation": "Process a return only after the shopper has explicitly agreed to it.",
    "account_confirmation": "Change an account or order (cancel, modify, return, exchange, "
    "address) only after the shopper has agreed to that stated change.",
    "substitution_consent": "Replace an unavailable product only with one the shopper agreed to.",
    "budget": "Keep what is ordered within the shopper's stated budget.",
    "sponsored_disclosure": "Say so when a product put forward is sponsored.",
    "single_proposal": "Put forward one product per message unless the shopper asks for options.",
}


def _optional(module: str, attribute: str) -> Any | None:
    """`module.attribute` when it exists (parts of the domain land on other branches)."""
    try:
        return getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError):
        return None


def refresh_fixture(date: str, snapshots_dir: Path) -> str:
    """Rebuild `snapshots_dir/<date>/` with the grocery pipeline from the fixture dumps (127.0.0.1);
    says which files changed (none: the committed snapshot, byte for byte)."""
    refresh = _optional("domains.grocery.cli", "refresh")
    if refresh is None:
        raise TaurecError("the grocery fixture refresh (domains.grocery.cli.refresh) is missing")
    folder = Path(snapshots_dir) / date
    before = _file_bytes(folder)
    result = refresh(
        "fixture",
        dt.date.fromisoformat(date),
        out=snapshots_dir,
        limit=None,
        cutoff=None,
        products_url=None,
        prices_url=None,
    )
    after = _file_bytes(folder)
    changed = sorted(name for name in after if before.get(name) != after[name])
    where = _shown(Path(result.path))
    items = result.manifest.counts.items
    if not changed:
        return f"{where} unchanged ({items} products)"
    return f"{where}: wrote {', '.join(changed)} ({items} products)"


def _file_bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*")) if p.is_file()}


def _shown(path: Path) -> str:
    """The path relative to the working directory when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def revalidate(
    tasks: list[GroceryTask], catalog: Any, date: str, item_noun: str
) -> tuple[bool, str]:
    """The difficulty gate and leak probe (`domains.grocery.audit.audit_suite`) on one snapshot."""
    audit_suite = _optional("domains.grocery.audit", "audit_suite")
    if audit_suite is None:
        return True, f"{len(tasks)} tasks load on {len(catalog)} {item_noun}s (no gate yet)"
    report = audit_suite(tasks, [(date, catalog)])
    if not report.passed:
        lines = [f"  {task_id}: {'; '.join(p)}" for task_id, p in report.problems.items()]
        return False, f"{len(report.problems)} of {report.tasks} tasks fail the gate\n" + "\n".join(
            lines
        )
    return True, f"{report.tasks} of {report.tasks} tasks pass the difficulty gate on {date}"


def licence_notice(manifest: Mapping[str, Any]) -> str | None:
    """The manifest's notice; a fixture snapshot's also states the ODbL terms (attribution,
    share-alike) that a catalog built from the real dumps carries."""
    from catalog_pipeline.openfoodfacts.provenance import LICENCE_NOTICE

    notice = manifest.get("licence_notice")
    if not isinstance(notice, str) or not notice:
        return LICENCE_NOTICE
    if notice != LICENCE_NOTICE and manifest.get("source") == "fixture":
        return f"{notice} The notice such a catalog carries: {LICENCE_NOTICE}"
    return notice


def policies() -> list[PolicyInfo]:
    return [
        PolicyInfo(name, severity, POLICY_SUMMARY.get(name, ""))
        for name, severity in POLICY_SEVERITY.items()
    ]


def item_title(item: Product) -> str:
    return f"{item.name} ({item.brand}, {item.quantity})"


def describe_task(task: GroceryTask) -> TaskView:
    details = [("kind", str(task.kind)), ("quantity", str(task.quantity))]
    if task.budget is not None:
        details.append(("budget", f"EUR {task.budget:g}"))
    if task.allergies:
        details.append(("allergies", f"{', '.join(task.allergies)} ({task.allergy_reveal})"))
    if task.return_target is not None:
        rt = task.return_target
        details.append(("return", f"{rt.product_id} of order {rt.order_id} ({rt.reason})"))
    if task.wanted_product:
        details.append(("wanted product", task.wanted_product))
    if task.out_of_stock:
        details.append(("out of stock", ", ".join(task.out_of_stock)))
    if task.past_orders:
        details.append(("past orders", str(len(task.past_orders))))
    if task.requests:
        asked = ", ".join(f"{r.kind} {r.order_id or ''}".strip() for r in task.requests)
        details.append(("requests", asked))
        details.append(("identifies by", task.identify_by.replace("_", " + ")))
        details.append(("gold actions", ", ".join(a.name for a in task.gold_actions)))
    retired = task.retired
    return TaskView(
        persona=task.persona,
        constraints=[(tc.constraint.describe(), tc.reveal) for tc in task.constraints],
        policies=[str(p) for p in task.policy_flags],
        no_valid=task.no_valid_recommendation,
        retired=f"retired since {retired.since}: {retired.reason}" if retired else None,
        details=details,
    )
