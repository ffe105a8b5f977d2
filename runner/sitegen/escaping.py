"""Every way text from a submission or a transcript is made safe for the place it lands on the site.

The site prints strangers' strings (display names, notes, agent and user messages, tool
arguments) into several contexts, and each needs its own treatment. They all live here so a
new sink picks one of these functions instead of inventing a fresh escape:

| context                                        | function         |
|------------------------------------------------|------------------|
| HTML text and quoted attribute values          | `html`           |
| the same, keeping line breaks (`<pre>`, notes) | `html_lines`     |
| element text of a page mkdocs never parses     | `html_text`      |
| a jinja `{{ … }}` without a filter             | `finalize`       |
| JSON in a `data-*` attribute (chart columns)   | `attr_json`      |
| JSON inside `<script>` or a `.js` file         | `script_json`    |
| Markdown inline text (a link label, a cell)    | `markdown`       |
| mkdocs-material's search index (title, text)   | `search_text`    |
| XML text (the sitemap)                         | `xml_text`       |

Vega specs get their data through `attr_json`; vega draws it as SVG text and its tooltip
handler escapes, so no other treatment is needed there.
"""

from __future__ import annotations

import json
import re
from typing import Any

from markupsafe import Markup, escape

__all__ = [
    "attr_json",
    "finalize",
    "html",
    "html_lines",
    "html_text",
    "markdown",
    "script_json",
    "search_text",
    "xml_text",
]


def html(value: object) -> Markup:
    """`& < > " '` as character references: safe as HTML text and in a quoted attribute."""
    return escape(value)


def html_lines(value: object) -> Markup:
    """`html`, with every line break as `&#10;`.

    A blank line inside the raw HTML of a Markdown page would end the HTML block and hand the
    rest of the string to Python-Markdown; `&#10;` keeps the break (in `<pre>` too) without one.
    """
    text = str(escape(value)).replace("\r\n", "\n").replace("\r", "\n")
    return Markup(text.replace("\n", "&#10;"))


_TEXT_UNSAFE = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_TEXT_UNSAFE_RE = re.compile("[&<>]")


def html_text(value: object) -> Markup:
    """`& < >` as character references, line breaks kept as they are: element text only.

    In an element's text (never an attribute value) only `&` and `<` can start markup, so
    quotes stay one byte instead of five: a transcript is mostly JSON, full of them. For the
    trial pages, which no Markdown parser reads, so a blank line ends nothing.
    """
    text = str(value).replace("\r\n", "\n").replace("\r", "\n")
    return Markup(_TEXT_UNSAFE_RE.sub(lambda m: _TEXT_UNSAFE[m.group(0)], text))


def finalize(value: Any) -> Any:
    """Jinja's `finalize`: every unfiltered `{{ … }}` is escaped with its line breaks encoded.

    Markup (built by this module or by templates) passes unchanged.
    """
    if isinstance(value, Markup):
        return value
    return html_lines("" if value is None else value) if isinstance(value, str) else value


_SCRIPT_UNSAFE = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "'": "\\u0027",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
_SCRIPT_UNSAFE_RE = re.compile("[<>&'\u2028\u2029]")


def script_json(value: Any, *, sort_keys: bool = True) -> str:
    """JSON that cannot close a `<script>` element, open a comment or end a quoted attribute."""
    text = json.dumps(value, sort_keys=sort_keys, ensure_ascii=False, separators=(",", ":"))
    return _SCRIPT_UNSAFE_RE.sub(lambda m: _SCRIPT_UNSAFE[m.group(0)], text)


def attr_json(value: Any) -> Markup:
    """`script_json`, then `html`: for a `data-*` attribute in either kind of quotes."""
    return Markup(escape(script_json(value)))


# What Python-Markdown (with its tables, attr_list and toc extensions) acts on in the middle of
# a line: link and image brackets, emphasis, code, raw HTML and entities, attribute lists, table
# cells. `(`, `!` and `#` only matter next to a bracket or brace, `-`, `+` and `.` only at the
# start of a line, and no value printed here starts one.
_MARKDOWN_SPECIAL = re.compile(r"[\\`*_{}\[\]<>|&]")


def markdown(value: object) -> Markup:
    """Text for a Markdown inline context: printed as-is, never read as Markdown or HTML.

    Every character Markdown acts on becomes a numeric character reference (`[` → `&#91;`), which
    Python-Markdown passes through untouched: no link, emphasis, table cell break or raw HTML
    can be formed. Line breaks become spaces, so no block (heading, list, HTML) can start.
    """
    text = re.sub(r"[\r\n]+", " ", str(value))
    return Markup(_MARKDOWN_SPECIAL.sub(lambda m: f"&#{ord(m.group(0))};", text))


def search_text(value: object) -> str:
    """A title or text for mkdocs-material's search index, whose results are inserted as HTML.

    The theme escapes the text of the pages it indexes itself; documents added to the index
    by hand (the trial pages) must arrive escaped the same way.
    """
    return str(escape(value))


def xml_text(value: object) -> str:
    """Text content of an XML element."""
    return str(escape(value))
