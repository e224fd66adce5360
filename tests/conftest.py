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


@pytest.fixture(scope="session")
def reference_facts(shared_data: Path) -> dict:
    """What Hatchet 2026.2.0 read from each file of the corpus."""
    return json.loads((shared_data / "reference_facts.json").read_text())

