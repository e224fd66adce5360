"""Shared test fixtures."""

import json
from pathlib import Path

import pytest

from tests.corpus import SHARED_DATA

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data`` beside the checkout, or skip when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real-data corpus not found at {SHARED_DATA}")
    return SHARED_DATA


def pytest_collection_modifyitems(config, items):
    """Without the corpus, a test parametrised over its files has an empty parameter set:
    say that the corpus is missing instead of pytest's "got empty parameter set"."""
    if SHARED_DATA.is_dir():
        return   # an empty parameter set is then worth pytest's own message
    reason = f"real-data corpus not found at {SHARED_DATA}"
    for item in items:
        for i, mark in enumerate(item.own_markers):
            if mark.name == "skip" and str(mark.kwargs.get("reason", "")).startswith(
                    "got empty parameter set"):
                item.own_markers[i] = pytest.mark.skip(reason=reason).mark


@pytest.fixture(scope="session")
def reference_facts(shared_data: Path) -> dict:
    """What Hatchet 2026.2.0 read from each file of the corpus."""
    return json.loads((shared_data / "reference_facts.json").read_text())



@pytest.fixture
def text_progress_bar(monkeypatch):
    """``progress=True`` draws our text bar even where tqdm is installed (tests that read it)."""
    import graphframe_readers.progress as progress
    monkeypatch.setattr(progress, "tqdm_available", lambda: False)
