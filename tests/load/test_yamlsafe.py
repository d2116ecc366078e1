from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from cardkit.load.yamlsafe import YamlError, parse_yaml


def test_marks_point_at_values_and_keys():
    doc = parse_yaml("kind: x\ncards:\n  - id: a\n    n: 3\n", "f.yaml")
    assert doc.data == {"kind": "x", "cards": [{"id": "a", "n": 3}]}
    assert doc.mark(("cards", 0, "n")) == (4, 8)
    assert doc.mark(("cards", 0, "n"), key=True) == (4, 5)
    # a path that does not exist falls back to its nearest ancestor
    assert doc.mark(("cards", 0, "missing")) == (3, 5)


@pytest.mark.parametrize("text, code", [
    ("a: 1\na: 2\n", "Y003"),
    ("a: !!python/name:os.system\n", "Y004"),
    ("a: !custom 1\n", "Y004"),
    ("<<: {a: 1}\n", "Y004"),
    ("? [1, 2]\n: x\n", "Y006"),
    ("1: x\n", "Y006"),
    ("a: [1\n", "Y001"),
    ("", "Y007"),
    ("a:\n\t- 1\n", "Y002"),
    ("a: 2001-01-01\n", "Y004"),
])
def test_rejected(text, code):
    with pytest.raises(YamlError) as exc:
        parse_yaml(text, "f.yaml")
    assert exc.value.issue.code == code
    assert exc.value.issue.file == "f.yaml"
    assert exc.value.issue.line >= 1


@pytest.mark.parametrize("depth", [60, 5_000, 200_000])
def test_deep_nesting_is_bounded(depth: int):
    """Deeper than PyYAML's recursive composer can go too (5,000 brackets raised
    RecursionError, an internal error): one located Y005 line."""
    with pytest.raises(YamlError) as exc:
        parse_yaml("x: 1\na: " + "[" * depth + "]" * depth + "\n", "f.yaml")
    issue = exc.value.issue
    assert (issue.code, issue.line) == ("Y005", 2) and 48 < issue.column < 60, issue.format()


scalars = st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.none(),
                    st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20))
trees = st.recursive(scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=4),
    st.dictionaries(st.text("abcdefgh_", min_size=1, max_size=6), kids, max_size=4)), max_leaves=20)


@given(trees)
def test_round_trip_matches_pyyaml(value):
    """Whatever safe_dump writes, we read back exactly as safe_load does."""
    import yaml

    text = yaml.safe_dump({"root": value}, allow_unicode=True)
    assert parse_yaml(text, "f.yaml").data == yaml.safe_load(text)
