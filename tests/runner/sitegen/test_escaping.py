"""The one escaping module: each context's function leaves nothing its reader would act on."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import markdown as python_markdown

from runner.sitegen.escaping import (
    attr_json,
    finalize,
    html,
    html_lines,
    html_text,
    markdown,
    script_json,
    search_text,
)
from runner.sitegen.hostile import HOSTILE_MARKDOWN_NAME, HOSTILE_STRINGS


def test_script_json_cannot_close_the_script_and_still_parses() -> None:
    for text in HOSTILE_STRINGS:
        out = script_json({"name": text})
        assert "</" not in out
        assert "<!--" not in out
        assert "\u2028" not in out
        assert json.loads(out) == {"name": text}


def test_attr_json_survives_either_quote() -> None:
    out = str(attr_json({"a": "' onmouseover='x' \" b"}))
    assert "'" not in out
    assert '"' not in out


def test_html_lines_keeps_no_blank_line() -> None:
    out = str(html_lines("a\n\n<img src=x>\r\nb"))
    assert "\n" not in out
    assert "<" not in out
    assert out.count("&#10;") == 3


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


def test_html_text_opens_no_tag_and_keeps_quotes_and_breaks() -> None:
    for text in HOSTILE_STRINGS:
        out = str(html_text(f"{text}\r\n\"q\" 'a'"))
        assert "<" not in out
        assert out.endswith("\n\"q\" 'a'")  # one byte each, as a transcript's JSON has them
        parser = _Tags()
        parser.feed(f"<pre>{out}</pre>")
        assert parser.tags == ["pre"], (text, out)


def test_finalize_escapes_plain_strings_and_keeps_markup() -> None:
    assert str(finalize("<b>\n")) == "&lt;b&gt;&#10;"
    assert finalize(html("<i>")) == html("<i>")
    assert finalize(3) == 3


def test_markdown_forms_no_link_attribute_or_html() -> None:
    for text in (HOSTILE_MARKDOWN_NAME, *HOSTILE_STRINGS):
        rendered = python_markdown.markdown(
            f"- [{markdown(text)}](entries/x.md) | {markdown(text)}",
            extensions=["attr_list", "tables"],
        )
        assert re.findall(r"<a\b[^>]*>", rendered) == ['<a href="entries/x.md">'], rendered
        for tag in ("<img", "<svg", "<script", "<iframe", "<style", "<h1"):
            assert tag not in rendered, (text, rendered)


def test_search_text_is_html_escaped() -> None:
    assert search_text("<img src=x onerror=alert(1)>") == "&lt;img src=x onerror=alert(1)&gt;"
