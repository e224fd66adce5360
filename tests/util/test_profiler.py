"""graphframe.util.profiler.Profiler: Hatchet's cProfile wrapper, in our own tests."""

import os
import pstats

import pytest

from graphframe.errors import ArgumentError
from graphframe.util.profiler import Profiler


def busy():
    total = 0
    for i in range(300):
        for j in range(300):
            total += i * j
    return total


def names(path_or_profile):
    return {key[2] for key in pstats.Stats(path_or_profile).stats}


def test_start_stop_writes_the_profile(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    prf = Profiler()
    prf.start()
    busy()
    prf.stop()
    assert "busy" in names(prf._prf)
    assert os.path.exists("graphframe-profile.pstats")
    assert "busy" in names("graphframe-profile.pstats")
    assert "(busy)" in str(prf)
    # a second stop does not overwrite: a time-stamped name
    prf.start()
    prf.stop()
    written = sorted(p.name for p in tmp_path.iterdir())
    assert len(written) == 2 and written[1].startswith("graphframe-profile_")


def test_write_to_file_and_graphframe(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    prf = Profiler(output="run")
    prf.start()
    busy()
    prf.stop()
    assert prf.write_to_file(str(tmp_path / "other.pstats")) == str(tmp_path / "other.pstats")
    assert "busy" in names(str(tmp_path / "other.pstats"))
    gf = prf.graphframe()
    assert "busy" in set(gf.dataframe["name"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.pstats", "run.pstats"]


def test_running_twice_or_resetting_while_running_is_an_error():
    prf = Profiler()
    prf.start()
    try:
        with pytest.raises(ArgumentError, match="already running"):
            prf.start()
        with pytest.raises(ArgumentError, match="before reset"):
            prf.reset()
    finally:
        prf._prf.disable()
    prf._active = False
    prf.reset()   # a fresh cProfile session
    prf.start()
    prf._prf.disable()
    prf._active = False
    assert "busy" not in str(prf)
