"""The grocery domain object and the product-mention rule the scorer and the user share."""

from __future__ import annotations

from pathlib import Path

import pytest

from domains.grocery import GroceryDomain
from domains.grocery.mentions import mentions
from domains.grocery.tasks import load_task
from domains.grocery.tools import GroceryTools
from runner.core.domain import Domain
from runner.core.domains import get_domain
from runner.core.errors import TaurecError
from runner.core.rules import get_rules
from tests.domains.grocery.play import CATALOG, MILLET_POPS, OAT_CRUNCH, make_task


def test_the_registry_gives_the_grocery_domain() -> None:
    domain = get_domain("grocery")
    assert isinstance(domain, GroceryDomain)
    assert isinstance(domain, Domain)
    assert (domain.name, domain.title, domain.item_noun) == ("grocery", "Grocery", "product")
    assert domain.snapshots_dir == Path("domains/grocery/snapshots").resolve()
    assert domain.policy_path(domain.tasks_dir).is_file()
    policy = domain.policy_path(domain.tasks_dir).read_text(encoding="utf-8")
    for word in ("[critical]", "[high]", "[medium]", "[low]", "place_order", "finish"):
        assert word in policy


def test_the_domain_loads_tasks_and_builds_tools(tmp_path: Path) -> None:
    domain = GroceryDomain()
    (tmp_path / "t.json").write_text(make_task().model_dump_json(), encoding="utf-8")
    tasks = domain.load_tasks(tmp_path)
    assert tasks == [load_task(tmp_path / "t.json")]
    tools = domain.build_toolset(CATALOG, tasks[0], None, get_rules("v2"), 3)
    assert isinstance(tools, GroceryTools)
    domain.warm(CATALOG)


def test_a_missing_user_or_baselines_module_is_a_clear_error() -> None:
    from domains.grocery import _lazy

    with pytest.raises(TaurecError, match=r"the user \(domains.grocery.nope.build_user\) is not"):
        _lazy("domains.grocery.nope", "build_user", "the user")
    with pytest.raises(TaurecError, match="has no attribute 'nothing'"):
        _lazy("domains.grocery.tasks", "nothing", "a thing")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("How about Plain Millet Pops?", [MILLET_POPS]),
        ("how about PLAIN MILLET POPS", [MILLET_POPS]),
        (f"Product {MILLET_POPS} is in stock.", [MILLET_POPS]),
        ("Plain Millet Popsicles are not a product here.", []),
        ("Try Plain Millet or Morning Oat Crunch.", [OAT_CRUNCH]),
        ("off_9999999999999 is no product", []),
        ("Nothing named.", []),
    ],
)
def test_a_message_names_products_by_id_or_full_name(text: str, expected: list[str]) -> None:
    assert mentions(text, CATALOG) == expected
