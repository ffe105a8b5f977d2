"""Display names: one normal form, no invisible or direction-changing characters, no look-alikes.

A display name is what a reader of the board trusts to tell entries apart, so it must read the
same everywhere and never pass for another entry's name. `normalize` gives its NFKC form and
refuses control, format (zero-width, bidi) and separator characters; `fold` is the key two names
collide on (case, width, zero-width characters and common Latin/Cyrillic/Greek look-alikes).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["DisplayNameError", "fold", "normalize"]


class DisplayNameError(ValueError):
    """A display name with a character it may not hold (the message names it and its position)."""


# Explicitly named for the message; every Cc, Cf, Co, Cs, Cn, Zl and Zp character is refused.
_BIDI_AND_INVISIBLE = {
    *range(0x200B, 0x2010),  # zero-width space/joiners, LRM, RLM
    *range(0x202A, 0x202F),  # LRE, RLE, PDF, LRO, RLO
    *range(0x2066, 0x206A),  # LRI, RLI, FSI, PDI
    0x061C,  # Arabic letter mark
    0x2060,  # word joiner
    0xFEFF,  # zero-width no-break space
    0x00AD,  # soft hyphen
}
_REFUSED_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}


def _refused(char: str) -> bool:
    return ord(char) in _BIDI_AND_INVISIBLE or unicodedata.category(char) in _REFUSED_CATEGORIES


def normalize(name: str) -> str:
    """The NFKC form of `name`; DisplayNameError for control, format, bidi or unassigned characters."""
    for position, char in enumerate(name):
        if _refused(char):
            label = unicodedata.name(char, "unnamed character")
            raise DisplayNameError(
                f"character U+{ord(char):04X} ({label}) at position {position}: control, "
                "invisible and text-direction characters are not allowed in a display name"
            )
    return unicodedata.normalize("NFKC", name)


# Letters from other scripts drawn like a Latin letter (upper case before casefolding, so
# Greek Eta reads as H rather than as its lower case, which looks like n).
_UPPER_LOOKALIKES = str.maketrans(
    {
        **dict.fromkeys("АΑ", "a"),
        **dict.fromkeys("ВΒ", "b"),
        **dict.fromkeys("СϹ", "c"),
        **dict.fromkeys("ЕΕ", "e"),
        **dict.fromkeys("НΗ", "h"),
        **dict.fromkeys("ІΙӀ", "i"),
        **dict.fromkeys("ЈͿ", "j"),
        **dict.fromkeys("КΚ", "k"),
        **dict.fromkeys("МΜ", "m"),
        "Ν": "n",
        **dict.fromkeys("ОΟ", "o"),
        **dict.fromkeys("РΡ", "p"),
        "Ѕ": "s",
        **dict.fromkeys("ТΤ", "t"),
        **dict.fromkeys("ХΧ", "x"),
        **dict.fromkeys("УΥ", "y"),
        "Ζ": "z",
    }
)
_LOWER_LOOKALIKES = str.maketrans(
    {
        **dict.fromkeys("аα", "a"),
        "с": "c",
        "ԁ": "d",
        **dict.fromkeys("еε", "e"),
        "һ": "h",
        **dict.fromkeys("іιӏ", "i"),
        "ј": "j",
        "κ": "k",
        **dict.fromkeys("оο", "o"),
        **dict.fromkeys("рρ", "p"),
        "ԛ": "q",
        "ѕ": "s",
        "υ": "u",
        "ν": "v",
        "ԝ": "w",
        **dict.fromkeys("хχ", "x"),
        "у": "y",
        "0": "o",
        "1": "l",
    }
)


def fold(name: str) -> str:
    """The key two display names collide on: NFKC, no invisible characters, look-alikes and case
    folded, runs of spaces as one."""
    # Look-alikes are mapped before NFKC too: it turns some (Greek lunate sigma Ϲ) into others.
    text = unicodedata.normalize("NFKC", name.translate(_UPPER_LOOKALIKES))
    text = "".join(c for c in text if not _refused(c))
    text = text.translate(_UPPER_LOOKALIKES).casefold().translate(_LOWER_LOOKALIKES)
    return re.sub(r"\s+", " ", text).strip()
