"""A format from another package, through the ``graphframe.formats`` entry-point group.

The test builds a tiny plugin distribution (a folded-stacks reader: ``main;solve 3``
per line) as a wheel, written here with :mod:`zipfile` so that no build backend is
needed, installs it with pip into a temporary site directory, and reads a file
of that format in a fresh interpreter through every door: ``graphframe.read``, the
CLI (``graphframe tree`` and ``graphframe formats``) and ``Ensemble.read`` of a folder
(the walk takes the plugin's suffix).
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

PLUGIN = '''
"""A folded-stacks reader, the plugin of graphframe's entry-point test."""
from pathlib import Path

from graphframe_readers import FormatInfo, ProfileBuilder


def read_folded(path, progress=None):
    text = Path(path).read_text()
    b = ProfileBuilder(str(path))
    ids, samples = {}, {}
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        parent = -1
        frames = stack.split(";")
        for depth, name in enumerate(frames):
            key = tuple(frames[:depth + 1])
            if key not in ids:
                ids[key] = b.add_node({"name": name, "type": "function"}, parent=parent)
                samples[ids[key]] = 0.0
            parent = ids[key]
        samples[parent] += float(count)
    for node, value in samples.items():
        b.add_row(node, {"samples": value})
    return b.build(exc_metrics=["samples"], default_metric="samples")


def _sniff(path, head):
    return path.suffix == ".folded"


FORMAT = FormatInfo(name="folded", read=read_folded, sniff=_sniff, suffixes=(".folded",),
                    description="folded stacks (a test plugin)")
'''

#: The wheel's metadata files (PEP 427 / the core metadata), name -> text.
DIST_INFO = {
    "METADATA": "Metadata-Version: 2.1\nName: gfplugin-folded\nVersion: 0.1\n",
    "WHEEL": "Wheel-Version: 1.0\nGenerator: graphframe-test\nRoot-Is-Purelib: true\n"
             "Tag: py3-none-any\n",
    "entry_points.txt": "[graphframe.formats]\nfolded = gfplugin_folded:FORMAT\n",
}


def build_wheel(folder: Path) -> Path:
    """The plugin as a wheel file in ``folder`` (its RECORD lists every file with its hash)."""
    files = {"gfplugin_folded/__init__.py": textwrap.dedent(PLUGIN)}
    files.update({f"gfplugin_folded-0.1.dist-info/{k}": v for k, v in DIST_INFO.items()})
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{name},sha256={digest.decode()},{len(text.encode())}")
    record.append("gfplugin_folded-0.1.dist-info/RECORD,,")
    files["gfplugin_folded-0.1.dist-info/RECORD"] = "\n".join(record) + "\n"
    wheel = folder / "gfplugin_folded-0.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return wheel

SCRIPT = '''
import io, os, sys
import graphframe
from graphframe import Ensemble
from graphframe.cli import main

folder = sys.argv[1]
gf = graphframe.read(os.path.join(folder, "a.folded"))
print("read", gf.dataframe["name"].tolist(), gf.dataframe["samples"].tolist())
out = io.StringIO()
main(["tree", os.path.join(folder, "a.folded"), "--no-color", "--no-header"], stdout=out)
print("tree", out.getvalue().strip().splitlines())
out = io.StringIO()
main(["formats"], stdout=out)
print("formats", [l.split()[:2] for l in out.getvalue().splitlines() if "folded" in l])
ens = Ensemble.read(folder)
print("ensemble", sorted(os.path.basename(p) for p in ens.profiles["path"]), ens.graph.num_nodes)
'''


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("plugin")
    wheel = build_wheel(root)
    target = root / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--no-index", "--target", str(target), str(wheel)],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.fail(f"pip could not install the test plugin: {done.stderr[-2000:]}")
    return target


def test_a_plugin_format_reads_through_every_door(site, tmp_path):
    data = tmp_path / "runs"
    data.mkdir()
    (data / "a.folded").write_text("main;solve 3\nmain;solve;mpi 2\nmain 1\n")
    (data / "b.folded").write_text("main;io 4\n")
    (data / "README.md").write_text("not a profile\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), os.environ.get(
        "PYTHONPATH", "")]).rstrip(os.pathsep))
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(data)], capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "read ['main', 'solve', 'mpi'] [1.0, 3.0, 2.0]"
    assert lines[1] == "tree ['1.000 main', '└─ 3.000 solve', '   └─ 2.000 mpi']"
    assert lines[2] == "formats [['folded', 'profile']]"
    assert lines[3] == "ensemble ['a.folded', 'b.folded'] 4"


def test_a_broken_plugin_is_named_and_the_rest_still_reads(tmp_path):
    dist = tmp_path / "site" / "gfplugin_broken-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: gfplugin-broken\n"
                                   "Version: 0.1\n")
    (dist / "entry_points.txt").write_text("[graphframe.formats]\nbroken = "
                                           "gfplugin_missing_module:FORMAT\n")
    script = ("import warnings, graphframe_readers\n"
              "with warnings.catch_warnings(record=True) as w:\n"
              "    warnings.simplefilter('always')\n"
              "    names = graphframe_readers.formats()\n"
              "print('literal' in names, [str(x.message) for x in w])\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "site"))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "True [\"the format plugin 'broken' (gfplugin_missing_module:FORMAT) cannot be loaded: "
        "ModuleNotFoundError: No module named 'gfplugin_missing_module'\"]")
