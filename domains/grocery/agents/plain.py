"""The plain shopping assistant's own sentences, recognised: what each wording twin rewrites (the decisions in them stay the assistant's)."""

from __future__ import annotations

import re

__all__ = [
    "BASKET_RE",
    "HOLDS_RE",
    "LIST_RE",
    "NOTHING_RE",
    "PROPOSE_RE",
    "RETURN_RE",
    "SPONSORED_RE",
    "SUBSTITUTE_RE",
]

PROPOSE_RE = re.compile(r"^I'd suggest (?P<name>.+?) by (?P<brand>.+?) \(€")
SUBSTITUTE_RE = re.compile(
    r"Your usual product is out of stock\. Would you accept (?P<name>.+?) by (?P<brand>.+?) \(€"
)
LIST_RE = re.compile(r"^Here are some options: (?P<body>.+)\. Which one would you like\?$")
BASKET_RE = re.compile(
    r"^I've put (?P<qty>\d+) × (?P<name>.+?) in your basket \(total €(?P<total>[\d.]+)\)\. "
    r"Shall I place the order\?$"
)
HOLDS_RE = re.compile(
    r"^Your basket holds (?P<qty>\d+) × (?P<name>.+?) \(total €(?P<total>[\d.]+)\)\. "
    r"Shall I place the order\?$"
)
RETURN_RE = re.compile(
    r"^I found (?P<qty>\d+) × (?P<name>.+?) in order (?P<order>\S+?) \(refund "
    r"€(?P<refund>[\d.]+)\)\. Shall I process the return and refund it \(reason: "
    r"(?P<reason>.+?)\)\?$"
)
NOTHING_RE = re.compile(r"(?i)couldn't find any product|nothing (?:in our catalog )?fits")
SPONSORED_RE = re.compile(r"(?i)sponsored")
