"""The second, blind labelling of a held-out mention share (`corpora/grocery/mentions/
<share>-second-labelling/`): the blind labels frozen by their sha256 before the author's roles were
opened, one adjudication line per slot the two labellings disagreed on, and a check that the
share's roles in `templates.json` are the adjudicated ones, with every dropped template gone."""

from __future__ import annotations

import hashlib

from scripts import grocery_mentions_corpus as corpus


def assert_roles_adjudicated(share: str) -> None:
    """Every adjudicated slot of `share` carries the decided label, every other slot the label
    both labellings gave, every dropped template is gone (the others keep their order), and the
    blind labels are the ones frozen before adjudication."""
    folder = corpus.OUT / f"{share}-second-labelling"
    frozen = (folder / "ma_blind.jsonl.sha256").read_text(encoding="utf-8").split()[0]
    blind_text, blind, rows = corpus.second_labelling(share)
    assert hashlib.sha256(blind_text).hexdigest() == frozen
    assert all(r.id.split("/")[0] == share for r in rows), [r.id for r in rows]
    decided = {(int(r.id.split("/")[1]), int(r.field[6])): r for r in rows}
    assert all(r.author != r.annotator for r in rows)
    assert all((r.decision == "keep") == (r.label == r.author) for r in rows)
    assert all((r.decision == "drop") == (r.label is None) for r in rows)
    dropped = {int(r.id.split("/")[1]) for r in rows if r.decision == "drop"}
    spec = corpus.Templates.model_validate_json(corpus.TEMPLATES.read_text(encoding="utf-8"))
    templates = spec.shares[share].templates
    kept = [n for n in sorted(blind) if n not in dropped]
    assert sorted(blind) == list(range(len(blind)))
    assert dropped <= set(blind), sorted(dropped)
    assert len(kept) == len(templates), (len(kept), len(templates))
    for n, (_, roles) in zip(kept, templates, strict=True):
        assert len(roles) == len(blind[n])
        for i, role in enumerate(roles):
            row = decided.get((n, i))
            assert role == (row.label if row else blind[n][i]), (n, i)
