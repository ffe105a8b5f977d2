"""Hostile strings and a planted secret that site tests put in synthesized inputs (any domain's): the site must print them inert and never show the secret."""

from __future__ import annotations

XSS_NAME = "<script>alert(1)</script>"
XSS_MESSAGE = "<img src=x onerror=alert(1)>"
# A synthesizer's `hostile` option (domains.movies.site_synth.SynthSpec): strings aimed at each
# context the site prints into (HTML text and attributes, <script>, Markdown, the search index);
# entry 1 carries them everywhere it can.
HOSTILE_NAME = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"
# Entry 0's name under `hostile`: a Markdown link with attributes, for the Markdown pages.
HOSTILE_MARKDOWN_NAME = "x](javascript:alert(5)){: onclick=alert(8) } [y"
HOSTILE_STRINGS = (
    HOSTILE_NAME,
    '"><svg onload=alert(3)>',
    "' onmouseover='alert(4)' x='",
    "[click me](javascript:alert(5)) <a href=javascript:alert(6)>link</a>",
    "\n\n<img src=y onerror=alert(7)>\n\n# heading\n\n- item",
    '{: onclick="alert(8)" } <!-- <style>body{display:none}</style>',
    "\u2028</textarea><iframe srcdoc='<script>alert(9)</script>'></iframe>",
)
# Pasted into a LiteLLM entry's extra_body under secret-like names: the site must never show it.
PLANTED_SECRET = "sk-synth-planted-0123456789abcdef"
