"""The protocol and Integrate pages document every shipped domain from its code: each tool the
agent is offered (with its arguments), each kind of task and how a trial ends; a task kind added
to grocery's task model without words for the pages fails here."""

from __future__ import annotations

import html
import re
from typing import get_args

import pytest

from domains.grocery.tasks import TASK_KINDS, TaskKind
from runner.core.domains import REGISTRY, get_domain
from runner.sitegen import BuildReport
from runner.sitegen.domain_docs import domain_protocols


def _domains_section(site: BuildReport, page: str) -> str:
    text = (site.out / page).read_text(encoding="utf-8")
    start = text.index('id="domains"')
    end = text.find("<h2", start)
    section = re.sub(r"</?(?:code|em|strong)>", "", text[start : end if end > 0 else None])
    return html.unescape(re.sub(r"<[^>]+>", " ", section))


@pytest.mark.parametrize("page", ["http-agent-protocol.html", "integrations.html"])
def test_every_tool_kind_and_ending_of_every_domain_is_on_the_page(
    built_site: BuildReport, page: str
) -> None:
    section = " ".join(_domains_section(built_site, page).split())
    protocols = domain_protocols()
    assert [p.name for p in protocols] == list(REGISTRY)
    for protocol in protocols:
        assert f"{protocol.title} ({protocol.name})" in section
        assert " ".join(protocol.trial_end.replace("`", "").split()) in section
        for kind, _ in protocol.task_kinds:
            assert f"{kind}:" in section, (protocol.name, kind)
        for tool in protocol.tools:
            assert f" {tool.name} " in section, (protocol.name, tool.name)
            for argument in tool.arguments:
                assert argument in section, (protocol.name, tool.name, argument)
    # The tools are the domain's own: grocery's list has finish and no recommend.
    grocery = next(p for p in protocols if p.name == "grocery")
    assert "finish" in [t.name for t in grocery.tools]
    assert "recommend" not in [t.name for t in grocery.tools]


def test_every_grocery_task_kind_has_words_for_the_pages() -> None:
    assert [kind for kind, _ in TASK_KINDS] == list(get_args(TaskKind))
    assert get_domain("grocery").task_kinds == TASK_KINDS
    assert all(text and not text.endswith(".") for _, text in TASK_KINDS)
