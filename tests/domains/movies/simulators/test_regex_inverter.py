"""The inverting adversary (`benchmarks/writer_inversion.py`): a template learner built from the
user's constraint sentences at some seeds decodes at most half of another seed's, in both domains,
and no sentence it saw leaks.

The learner masks values with the domains' own finders, keeps the clauses that hold a value,
strips the filler it saw around three or more kinds of constraint and looks the rest up. Its seeds
here (0-3, 4-7) are not the benchmark's reported ones; the learner is checked on the main-branch
wording too: there it decoded 99 % (movies) and 98 % (grocery).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "benchmarks"))

from writer_inversion import GroceryDomain, Inverter, MoviesDomain, Sample, measure  # noqa: E402


@pytest.mark.parametrize("domain", [MoviesDomain, GroceryDomain])
def test_a_template_learner_from_four_seeds_decodes_at_most_half_of_four_others(
    domain: type[MoviesDomain] | type[GroceryDomain],
) -> None:
    figures = measure(domain(), (0, 1, 2, 3), (4, 5, 6, 7))
    assert figures["test"] > 400
    assert figures["decoded"] <= 0.5, figures
    assert figures["sentence_leaks"] == figures["probe_leaks"] == 0, figures


def test_the_learner_decodes_a_fixed_wording_whatever_its_values() -> None:
    """The learner is no straw man: a user with one sentence per kind is read through and through."""
    movies = MoviesDomain()
    said = [
        Sample("Honestly, it should run under 95 minutes.", "runtime <=", frozenset({"95"})),
        Sample("It should run under 2 hours, please.", "runtime <=", frozenset({"120"})),
        Sample(
            "Also, I'm in the mood for a horror film.", "genres contains", frozenset({"Horror"})
        ),
        Sample("I'm in the mood for a comedy film.", "genres contains", frozenset({"Comedy"})),
        Sample("Oh, nothing rated R.", "content_rating !=", frozenset({"R"})),
        Sample("Right, nothing rated PG-13.", "content_rating !=", frozenset({"PG-13"})),
    ]
    inverter = Inverter(movies.spans)
    inverter.learn(said[0::2])
    assert all(inverter.decodes(s) for s in said[1::2])
