"""The table of Hatchet's names: what the reference page says of the generated constructors."""

from __future__ import annotations

import inspect
import re

import pytest
from pathlib import Path

from graphframe import GraphFrame
from graphframe.io.hatchet_names import HATCHET_NAMES, plain_rows

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "graphframe.md"


def test_the_reference_lists_every_generated_constructor_with_its_signature():
    rows = dict(re.findall(r"^\| `(from_\w+)` \| `(\([^`]*\))` \|", PAGE.read_text(), re.M))
    assert set(rows) == {row.constructor for row in plain_rows()}
    for name, text in rows.items():
        assert plain(inspect.signature(getattr(GraphFrame, name))) == text, name


def plain(signature: inspect.Signature) -> str:
    """``(a, *, b=None)``: a signature without its annotations."""
    parts, star = [], False
    for p in signature.parameters.values():
        if p.kind is p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        parts.append(p.name if p.default is p.empty else f"{p.name}={p.default!r}")
    return "(" + ", ".join(parts) + ")"


def test_every_row_names_a_constructor_of_graphframe_and_a_class_of_its_module():
    import importlib

    for row in HATCHET_NAMES:
        assert callable(getattr(GraphFrame, row.constructor))
        if not row.reader_class:  # graphframe's own name: no Hatchet class
            continue
        module = importlib.import_module(f"graphframe.readers.{row.module}")
        cls = getattr(module, row.reader_class)
        assert cls.__module__ == module.__name__
        assert list(inspect.signature(cls).parameters)[:len(row.arguments)] == \
            [name for name, _ in row.arguments]


def test_generated_constructors_carry_their_docstring_and_read_through_the_registry(tmp_path):
    assert GraphFrame.from_tau.__doc__.startswith("Read a TAU profile directory")
    p = tmp_path / "profile.0.0.0"
    p.write_text('1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n'
                 '"main" 1 0 2 5 0 GROUP="TAU_DEFAULT"\n0 aggregates\n')
    gf = GraphFrame.from_tau(str(tmp_path))
    assert gf.dataframe["time (inc)"].tolist() == [5.0]
    assert GraphFrame.from_tau(dirname=str(tmp_path)).dataframe.equals(gf.dataframe)


@pytest.mark.parametrize("row", plain_rows(), ids=[r.constructor for r in plain_rows()])
def test_the_examples_of_every_generated_constructor_run(row, monkeypatch, tmp_path):
    """The generated constructors' docstrings come from the table: their examples run here
    (the doctest collector does not see methods set on a class at run time)."""
    import doctest

    monkeypatch.chdir(tmp_path)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    test = parser.get_doctest(getattr(GraphFrame, row.constructor).__doc__, {},
                              row.constructor, "graphframe/io/hatchet_names.py", 0)
    assert test.examples, f"{row.constructor} has no example"
    result = runner.run(test, out=lambda text: print(text, end=""))
    assert result.failed == 0
