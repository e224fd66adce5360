"""Reader options on a folder of several formats: plain keywords go to the formats that
accept them, ``options={format: {...}}`` to one format; misplaced options are errors."""

import json

import pytest

from graphframe import Ensemble
from graphframe.errors import ArgumentError
from graphframe_readers import ProfileBuilder
from graphframe_readers.testing import sample_profile, write_cali, write_hpctoolkit, write_literal

#: A record with no region (time outside every annotated region) appended to a .cali file.
NO_PATH_RECORD = "__rec=ctx,attr=17=32,data=0=5.5\n"


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """a.cali (10 regions + a record without a path), b/ (an HPCToolkit database of
    ranks 0 and 1), c.json (Hatchet's literal format)."""
    d = tmp_path_factory.mktemp("mixed")
    one = sample_profile(ranks=(0,), threads=(0,))
    write_cali(one, d / "a.cali", globals_={"cluster": "quartz"})
    with open(d / "a.cali", "a") as fh:
        fh.write(NO_PATH_RECORD)
    write_hpctoolkit(sample_profile(ranks=(0, 1), threads=(0,)), d / "b")
    b = ProfileBuilder("c")
    b.add_nodes([-1, 0], {"name": ["main", "solve"]})
    b.add_rows([0, 1], {"time": [1.0, 2.0]})
    write_literal(b.build(["time"]), d / "c.json")
    return d


def names_of(ens, profile):
    nodes = ens.dataframe.xs(profile, level="profile").index.get_level_values("node")
    return {ens.graph.frame(int(n))["name"] for n in nodes}


def ranks_of(ens, profile):
    rows = ens.dataframe.xs(profile, level="profile")
    return sorted(set(rows.index.get_level_values("rank")))


def test_the_mixed_folder_reads_without_options(mixed):
    ens = Ensemble.read(mixed)
    assert ens.profiles["format"].tolist() == ["caliper", "hpctoolkit", "literal"]
    assert "<no path>" not in names_of(ens, 0)  # Caliper's default, as Hatchet and Thicket
    assert ens.profiles["options"].tolist() == ["{}", "{}", "{}"]


def test_a_plain_option_goes_to_the_formats_that_take_it(mixed):
    ens = Ensemble.read(mixed, no_path="keep")
    assert "<no path>" in names_of(ens, 0)
    assert ens.profiles["options"].tolist() == ['{"no_path": "keep"}', "{}", "{}"]
    assert ranks_of(ens, 1) == [0, 1]


def test_options_keyed_by_format(mixed):
    ens = Ensemble.read(mixed, options={"caliper": {"no_path": "keep"},
                                        "hpctoolkit": {"ranks": [1]}})
    assert "<no path>" in names_of(ens, 0)
    assert ranks_of(ens, 1) == [1]
    assert json.loads(ens.profiles.loc[1, "options"]) == {"ranks": [1]}


def test_a_keyed_option_wins_over_a_plain_one(mixed):
    ens = Ensemble.read(mixed, no_path="keep", options={"caliper": {"no_path": "drop"}})
    assert "<no path>" not in names_of(ens, 0)
    assert ens.profiles.loc[0, "options"] == '{"no_path": "drop"}'


def test_worker_processes_apply_the_same_options(mixed):
    opts = dict(no_path="drop", options={"hpctoolkit": {"ranks": [0]}})
    here = Ensemble.read(mixed, **opts)
    there = Ensemble.read(mixed, jobs=2, **opts)
    assert there.graph == here.graph and there.dataframe.equals(here.dataframe)
    assert there.profiles.equals(here.profiles)


def test_an_option_no_reader_has(mixed):
    with pytest.raises(ArgumentError, match=r"no reader has an option 'bogus'"):
        Ensemble.read(mixed, bogus=1)


def test_an_option_none_of_the_formats_read_takes(mixed):
    # only the literal file: no_path is Caliper's; the error names both sides
    with pytest.raises(ArgumentError) as err:
        Ensemble.read([str(mixed / "c.json")], no_path="drop")
    assert str(err.value) == ("option 'no_path' applies to none of the formats read "
                              "(literal); it is an option of the formats: caliper-json, caliper")


@pytest.mark.parametrize("options, message", [
    ({"caliper": {"ranks": [0]}}, "the caliper reader has no option 'ranks'; its options are: "
                                  "native, string_attributes, node_ordering, no_path, progress"),
    ({"cali": {}}, "options['cali']: not a format; the formats are: literal, "),
    ({"caliper": "drop"}, "options['caliper']='drop': give a dict of reader options"),
    ({"caliper": {"progress": True}}, "options['caliper']['progress']: 'progress' is an "
                                      "argument of the ensemble read itself"),
    (["caliper"], "options=['caliper']: give a dict format name -> dict"),
])
def test_misplaced_keyed_options_fail_before_reading(mixed, options, message):
    with pytest.raises(ArgumentError) as err:
        Ensemble.read(mixed / "missing", options=options)  # never reached: no ReadError
    assert str(err.value).startswith(message)


def test_with_format_every_option_must_be_that_readers(mixed):
    with pytest.raises(ArgumentError, match="the caliper reader has no option 'ranks'"):
        Ensemble.read(mixed / "a.cali", format="caliper", ranks=[0])
    with pytest.raises(ArgumentError, match="format='caliper' reads every file, so options "
                                            "for 'hpctoolkit' would apply to none"):
        Ensemble.read(mixed / "a.cali", format="caliper", options={"hpctoolkit": {}})
    ens = Ensemble.read(mixed / "a.cali", format="caliper", no_path="drop")
    assert "<no path>" not in names_of(ens, 0)


def test_dask_applies_the_same_options(mixed):
    distributed = pytest.importorskip("distributed", reason="Dask is the optional 'dask' extra")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        there = Ensemble.read(mixed, client=client, options={"hpctoolkit": {"ranks": [1]}},
                              no_path="drop")
    here = Ensemble.read(mixed, options={"hpctoolkit": {"ranks": [1]}}, no_path="drop")
    assert there.dataframe.equals(here.dataframe) and there.profiles.equals(here.profiles)


def test_real_files_of_three_formats(shared_data):
    members = [str(shared_data / "caliper/generated/runtime-profile/rp-4ranks.cali"),
               str(shared_data / "hpctoolkit/hatchet-cpi-database"),
               str(shared_data / "json/hatchet-graph-literal.json")]
    kept = Ensemble.read(members, no_path="keep")
    ens = Ensemble.read(members, no_path="drop", options={"hpctoolkit": {"ranks": [0, 2]}})
    assert ens.profiles["format"].tolist() == ["caliper", "hpctoolkit", "hatchet-json"]
    assert "<no path>" in names_of(kept, 0) and "<no path>" not in names_of(ens, 0)
    assert ranks_of(kept, 1) == [0, 1, 2, 3] and ranks_of(ens, 1) == [0, 2]
    json_rows = [e.dataframe.xs(2, level="profile")[["name", "time"]].astype({"name": str})
                 .reset_index(drop=True)
                 for e in (ens, kept)]
    assert len(json_rows[0]) == 24 and json_rows[0].equals(json_rows[1])
