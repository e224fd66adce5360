"""Without ../shared, corpus-parametrised tests skip naming the corpus (issue 19)."""

from types import SimpleNamespace

import pytest

import tests.conftest as conftest


def _item(reason):
    return SimpleNamespace(own_markers=[pytest.mark.skip(reason=reason).mark,
                                        pytest.mark.filterwarnings("ignore").mark])


def test_empty_parameter_sets_name_the_missing_corpus(monkeypatch, tmp_path):
    missing = tmp_path / "shared" / "data"
    monkeypatch.setattr(conftest, "SHARED_DATA", missing)
    empty = _item("got empty parameter set ['rel'], function test_x at tests/test_x.py:3")
    other = _item("needs matplotlib")
    conftest.pytest_collection_modifyitems(None, [empty, other])
    assert empty.own_markers[0].kwargs["reason"] == f"real-data corpus not found at {missing}"
    assert empty.own_markers[1].name == "filterwarnings"
    assert other.own_markers[0].kwargs["reason"] == "needs matplotlib"


def test_with_the_corpus_pytest_keeps_its_own_message(monkeypatch, tmp_path):
    monkeypatch.setattr(conftest, "SHARED_DATA", tmp_path)   # present
    empty = _item("got empty parameter set ['rel']")
    conftest.pytest_collection_modifyitems(None, [empty])
    assert empty.own_markers[0].kwargs["reason"] == "got empty parameter set ['rel']"
