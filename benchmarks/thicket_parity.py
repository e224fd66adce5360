"""Thicket parity: the calls of Thicket's own test cases, run by Thicket and by
graphframe.thicket on the same files, facts written as JSON and compared.

Usage (DATA is the shared data folder, e.g. ../shared/data)::

    ../thicketvenv/bin/python benchmarks/thicket_parity.py thicket DATA thicket.json
    python benchmarks/thicket_parity.py graphframe DATA graphframe.json
    python benchmarks/thicket_parity.py compare thicket.json graphframe.json

``compare`` prints every fact that differs (the known differences are listed
in docs/guide/ensembles.md, "Coming from Thicket"; tests/thicket/test_thicket_suite.py
asserts graphframe's side). Not a timing: Thicket takes about a minute.
"""
import glob
import json
import re
import sys
import traceback
import warnings

warnings.filterwarnings("ignore")
import numpy as np
import pandas as pd

LIB = sys.argv[1]
if LIB == "compare":
    import json as _json

    def _walk(x, y, path):
        if isinstance(x, dict) and isinstance(y, dict):
            for k in sorted(set(x) | set(y)):
                if k != "tb":
                    _walk(x.get(k, "<absent>"), y.get(k, "<absent>"), path + "/" + k)
        elif x != y:
            print(path, "\n   thicket:   ", _json.dumps(x)[:300],
                  "\n   graphframe:", _json.dumps(y)[:300])

    _walk(_json.load(open(sys.argv[2])), _json.load(open(sys.argv[3])), "")
    sys.exit(0)
if LIB == "thicket":
    import thicket as th
    import hatchet as ht
    QM = ht.QueryMatcher
else:
    import graphframe.thicket as th
    QM = th.QueryMatcher
T = th.Thicket
D = sys.argv[2]
MPI = [f"{D}/caliper/thicket/mpi_scaling_cali/{n}_cores.cali" for n in (27, 64, 125, 216, 343)]
ONE_TRIAL = sorted(glob.glob(f"{D}/caliper/thicket/rajaperf/**/1/*.cali", recursive=True))
LASSEN = sorted(glob.glob(f"{D}/ensemble/thicket-tutorial/lassen/**/*.cali", recursive=True))
QUARTZ_O3 = sorted(glob.glob(f"{D}/ensemble/thicket-tutorial/quartz/GCC_10.3.1_BaseSeq_08388608/O3/**/*.cali", recursive=True))
RP_QUARTZ = f"{D}/caliper/thicket/rajaperf/quartz/gcc10.3.1_1048576/O3/1/Base_Seq-default.cali"
ORDERED = f"{D}/caliper/hatchet/caliper-ordered-cali/230525-151052_1930517_eWbGeyrlBOPT.cali"
TIMESERIES = f"{D}/caliper/hatchet/caliper-timeseries-cali/timeseries.cali"

facts = {}


def scenario(fn):
    try:
        facts[fn.__name__] = fn()
    except Exception as exc:  # record the failure as a fact
        facts[fn.__name__] = {"raised": type(exc).__name__, "msg": str(exc)[:200],
                              "tb": traceback.format_exc()[-600:]}
    return fn


def nname(tk, n):
    if hasattr(n, "frame"):
        return n.frame["name"]
    return tk.graph.frame(int(n))["name"]


def graph_len(tk):
    g = tk.graph
    return len(g) if LIB == "thicket" else g.num_nodes


def names_in_order(tk):
    if LIB == "thicket":
        return [n.frame["name"] for n in tk.graph.traverse()]
    return [tk.graph.frame(i)["name"] for i in range(tk.graph.num_nodes)]


def cols(df):
    return [list(c) if isinstance(c, tuple) else c for c in df.columns]


def plain(v):
    if isinstance(v, (np.generic,)):
        v = v.item()
    if isinstance(v, float) and v != v:
        return None
    if isinstance(v, tuple):
        return [plain(x) for x in v]
    if isinstance(v, (list,)):
        return [plain(x) for x in v]
    return v if isinstance(v, (int, float, str, bool, type(None))) else repr(v)


def df_facts(tk):
    df = tk.dataframe
    return {"shape": list(df.shape), "index": list(df.index.names), "columns": cols(df),
            "meta_shape": list(tk.metadata.shape), "nprof": len(tk.profile),
            "nodes": graph_len(tk),
            "stats_cols": cols(tk.statsframe.dataframe),
            "stats_len": len(tk.statsframe.dataframe)}


@scenario
def caliperreader_one():
    tk = T.from_caliperreader(RP_QUARTZ, disable_tqdm=True)
    df = tk.dataframe
    first = df.index.get_level_values(0)[0]
    return {**df_facts(tk), "first_avg": plain(df.loc[first, "Avg time/rank"].values[0]),
            "exc": tk.exc_metrics, "inc": tk.inc_metrics, "default": tk.default_metric,
            "perf_cols": tk.performance_cols, "profile_type": type(tk.profile[0]).__name__}


@scenario
def caliperreader_one_intersection():
    tk = T.from_caliperreader(RP_QUARTZ, intersection=True, disable_tqdm=True)
    return df_facts(tk)


@scenario
def ordered():
    tk = T.from_caliperreader(ORDERED, disable_tqdm=True)
    df = tk.dataframe
    return {"names": [plain(x) for x in df["name"]], "total": [plain(x) for x in df["Total time"]],
            "tree_order": names_in_order(tk)}


@scenario
def concat_index():
    a = T.from_caliperreader(MPI[0], disable_tqdm=True)
    b = T.from_caliperreader(MPI[1], disable_tqdm=True)
    tk = T.concat_thickets([a, b], disable_tqdm=True)
    df = tk.dataframe
    sums = {}
    for n in df.index.get_level_values("node").unique():
        sums[nname(tk, n)] = round(float(df.loc[n, "Min time/rank"].sum()), 9)
    return {**df_facts(tk), "sums": dict(sorted(sums.items())[:10])}


@scenario
def duplicate_files():
    tk = T.from_caliperreader([MPI[0], MPI[0]], disable_tqdm=True)
    return df_facts(tk)


def axis_columns():
    tk = T.from_caliperreader(ONE_TRIAL, disable_tqdm=True)
    gb = tk.groupby("tuning")
    headers = list(gb.keys())
    thickets = list(gb.values())
    copies = [t.deepcopy() for t in thickets]
    combined = T.concat_thickets(thickets=thickets, axis="columns", headers=headers,
                                 metadata_key="ProblemSizeRunParam", disable_tqdm=True)
    return tk, thickets, copies, combined, headers


@scenario
def concat_columns():
    tk, thickets, copies, c, headers = axis_columns()
    unchanged = [t.dataframe.equals(cp.dataframe) and t.metadata.equals(cp.metadata)
                 for t, cp in zip(thickets, copies)]
    return {**df_facts(c), "headers": headers, "unchanged": unchanged,
            "parts_shapes": [list(t.dataframe.shape) for t in thickets],
            "parts_meta": [list(t.metadata.shape) for t in thickets],
            "meta_cols": cols(c.metadata)[:6], "meta_index": c.metadata.index.name,
            "profile": [plain(p) for p in c.profile],
            "mapping_keys": [plain(p) for p in c.profile_mapping],
            "same_node_order": bool((pd.unique(np.asarray(c.dataframe.reset_index()["node"].tolist())) ==
                                     pd.unique(np.asarray(c.statsframe.dataframe.reset_index()["node"].tolist()))).all()),
            "first_rows": [[plain(x) for x in r] for r in c.dataframe.reset_index().iloc[:3, 1:6].itertuples(index=False)]}


@scenario
def concat_columns_filter_profile():
    tk, thickets, copies, c, headers = axis_columns()
    keep = [(2097152.0, "block_256"), (2097152.0, "default"), (2097152.0, "block_128")]
    f = c.filter_profile(keep)
    return {"profile": [plain(p) for p in f.profile],
            "levels": [plain(x) for x in f.dataframe.index.get_level_values("ProblemSizeRunParam").unique()],
            "meta_index": [plain(x) for x in f.metadata.index]}


@scenario
def concat_columns_filter_metadata():
    tk, thickets, copies, c, headers = axis_columns()
    f = c.filter_metadata(lambda x: x[("default", "variant")] == "Base_Seq")
    return {**df_facts(f), "meta_index": [plain(x) for x in f.metadata.index]}


@scenario
def concat_columns_query():
    tk, thickets, copies, c, headers = axis_columns()
    q = (QM().match("*").rel(".", lambda row: row["name"].apply(
        lambda x: re.match(r"Algorithm*", x) is not None).all()))
    f = c.query(q)
    return {**df_facts(f), "names": names_in_order(f)}


@scenario
def concat_columns_filter_stats():
    tk, thickets, copies, c, headers = axis_columns()
    n = len(c.statsframe.dataframe)
    c.statsframe.dataframe[("test", "num")] = range(0, n)
    f = c.filter_stats(lambda x: x[("test", "num")] < 10)
    return {**df_facts(f), "n": n}


@scenario
def concat_columns_unique_metadata():
    tk, thickets, copies, c, headers = axis_columns()
    u = c.get_unique_metadata()
    return {"type": type(u).__name__, "len": len(u),
            "first": plain(u[0][0]) if isinstance(u, list) else sorted(u)[:3]}


@scenario
def intersection():
    tk = T.from_caliperreader(ONE_TRIAL, disable_tqdm=True)
    a = tk.intersection()
    b = T.from_caliperreader(ONE_TRIAL, intersection=True, disable_tqdm=True)
    return {"tk": df_facts(tk), "method": df_facts(a), "ctor": df_facts(b),
            "method_cols_eq": cols(a.dataframe) == cols(b.dataframe)}


@scenario
def filter_profile():
    tk = T.from_caliperreader(ONE_TRIAL, disable_tqdm=True)
    keep = tk.profile[: len(tk.profile) // 2]
    f = tk.filter_profile(keep)
    return {**df_facts(f), "kept_ok": sorted(map(str, f.profile)) == sorted(map(str, keep)),
            "mapping_ok": sorted(map(str, f.profile_mapping)) == sorted(map(str, keep)),
            "df_profiles": sorted(map(str, f.dataframe.index.get_level_values("profile").unique())) == sorted(map(str, keep))}


@scenario
def filter_metadata_lassen():
    tk = T.from_caliperreader(LASSEN, disable_tqdm=True)
    out = {}
    for col, val in (("tuning", "block_128"), ("ProblemSizeRunParam", 2097152.0)):
        f = tk.filter_metadata(lambda x: x[col] == val)
        nodes = sorted({nname(f, n) for n in f.dataframe.index.get_level_values(0)})
        out[col] = {**df_facts(f), "nnames": len(nodes),
                    "stats_empty": bool(f.statsframe.dataframe.empty)}
    try:
        tk.filter_metadata(123)
        out["invalid"] = "no error"
    except Exception as exc:
        out["invalid"] = type(exc).__name__
    t2 = tk.copy()
    t2.metadata = t2.metadata.iloc[0:0]
    try:
        t2.filter_metadata(lambda x: True)
        out["empty"] = "no error"
    except Exception as exc:
        out["empty"] = type(exc).__name__
    try:
        t2.groupby(["tuning"])
        out["empty_groupby"] = "no error"
    except Exception as exc:
        out["empty_groupby"] = type(exc).__name__
    return out


@scenario
def groupby_lassen():
    tk = T.from_caliperreader(LASSEN, disable_tqdm=True)
    out = {}
    for col in ("tuning", "ProblemSizeRunParam", "launchdate", "cali.channel"):
        g = tk.groupby(col)
        out[col] = {"keys": [plain(k) for k in g.keys()],
                    "sizes": [len(t.profile) for t in g.values()],
                    "stats_name": all("name" in t.statsframe.dataframe.columns for t in g.values()),
                    "df_rows": [t.dataframe.shape[0] for t in g.values()]}
    g = tk.groupby(["tuning", "ProblemSizeRunParam"])
    out["multi"] = {"keys": [plain(k) for k in list(g.keys())[:3]], "n": len(g)}
    agg = tk.groupby("tuning").agg([np.mean])
    out["agg"] = {**df_facts(agg), "profile": [plain(p) for p in agg.profile],
                  "cols": cols(agg.dataframe)[:6], "meta_index": agg.metadata.index.name}
    return out


@scenario
def filter_stats_lassen():
    tk = T.from_caliperreader(LASSEN, disable_tqdm=True)
    n = len(tk.statsframe.dataframe)
    tk.statsframe.dataframe["num"] = range(n)
    f = tk.filter_stats(lambda x: x["num"] % 3 == 0)
    return {**df_facts(f), "n": n, "names": sorted({nname(f, x) for x in f.dataframe.index.get_level_values(0)})[:5]}


@scenario
def query_lassen():
    tk = T.from_caliperreader(LASSEN, disable_tqdm=True)
    q = (QM().match("*").rel(".", lambda row: row["name"].apply(
        lambda x: re.match(r"Algorithm.*", x) is not None).all()))
    f = tk.query(q)
    q2 = QM().match(".", lambda row: row["name"].apply(lambda x: x.startswith("Stream")).all()).rel("*")
    f2 = tk.query(q2)
    return {"q1": {**df_facts(f), "names": names_in_order(f)},
            "q2": {**df_facts(f2), "names": names_in_order(f2)}}


@scenario
def query_stats_lassen():
    tk = T.from_caliperreader(LASSEN, disable_tqdm=True)
    th.stats.mean(tk, ["Avg time/rank"])
    q = QM().match(".", lambda row: row["Avg time/rank_mean"] > 0.3).rel("*")
    f = tk.query_stats(q)
    return {**df_facts(f), "names": names_in_order(f)}


@scenario
def squash_lassen():
    tk = T.from_caliperreader(LASSEN, disable_tqdm=True)
    sub = tk.copy()
    keep = [n for n in sub.dataframe.index.get_level_values(0).unique() if nname(sub, n).startswith(("RAJAPerf", "Stream"))]
    sub.dataframe = sub.dataframe.loc[keep]
    s = sub.squash()
    return {**df_facts(s), "names": names_in_order(s),
            "inc": s.inc_metrics, "exc": s.exc_metrics}


@scenario
def metadata_to_perfdata():
    tk = T.from_caliperreader(LASSEN, disable_tqdm=True)
    tk.metadata_columns_to_perfdata(["variant", "tuning"])
    one = tk.dataframe.columns[-2:].tolist()
    tk2 = T.from_caliperreader(LASSEN, disable_tqdm=True)
    tk2.metadata_column_to_perfdata("ProblemSizeRunParam") if hasattr(tk2, "metadata_column_to_perfdata") else None
    out = {"cols": one, "has_single": hasattr(tk2, "metadata_column_to_perfdata"),
           "single_cols": tk2.dataframe.columns[-1:].tolist(),
           "vals": [plain(x) for x in tk.dataframe["tuning"].iloc[:3]]}
    try:
        tk.metadata_columns_to_perfdata(["variant"])
        out["again"] = tk.dataframe.columns[-3:].tolist()
    except Exception as exc:
        out["again"] = type(exc).__name__
    tk.metadata_columns_to_perfdata(["variant"], overwrite=True)
    out["overwrite"] = tk.dataframe.columns.tolist()[-3:]
    tk3 = T.from_caliperreader(LASSEN, disable_tqdm=True)
    tk3.metadata_columns_to_perfdata("tuning", drop=True)
    out["drop_meta_has"] = "tuning" in tk3.metadata.columns
    return out


@scenario
def move_metrics():
    tk = T.from_caliperreader(LASSEN[:1], disable_tqdm=True)
    out = {}
    tk.move_metrics_to_statsframe(["Avg time/rank"])
    out["one"] = {"cols": cols(tk.statsframe.dataframe),
                  "v0": plain(tk.statsframe.dataframe["Avg time/rank"].iloc[0])}
    for args in ((["Avg time/rank"],), ("Avg time/rank",)):
        try:
            tk.move_metrics_to_statsframe(*args)
            out[repr(args)] = "no error"
        except Exception as exc:
            out[repr(args)] = type(exc).__name__
    tk.move_metrics_to_statsframe(["Avg time/rank"], override=True)
    many = T.from_caliperreader(LASSEN[:3], disable_tqdm=True)
    try:
        many.move_metrics_to_statsframe(["Avg time/rank"])
        out["many"] = "no error"
    except Exception as exc:
        out["many"] = type(exc).__name__
    try:
        many.move_metrics_to_statsframe(["Avg time/rank"], profile="nope")
        out["badprof"] = "no error"
    except Exception as exc:
        out["badprof"] = type(exc).__name__
    many.move_metrics_to_statsframe(["Avg time/rank"], profile=many.profile[1])
    out["many_v0"] = plain(many.statsframe.dataframe["Avg time/rank"].iloc[0])
    return out


@scenario
def unique_metadata():
    tk = T.from_caliperreader(LASSEN, disable_tqdm=True)
    u = tk.get_unique_metadata()
    return {"keys": list(u)[:40], "tuning": [plain(x) for x in u.get("tuning", [])],
            "size": [plain(x) for x in u.get("ProblemSizeRunParam", [])],
            "launch_n": len(u.get("launchdate", []))}


LIT = [
    {"frame": {"name": "A", "type": "function"}, "metrics": {"memory": 3.0, "time": 1.0},
     "children": [{"frame": {"name": "B", "type": "function"}, "metrics": {"memory": 2.0, "time": 4.0},
                   "children": []}]},
    {"frame": {"name": "C", "type": "function"}, "metrics": {"memory": 5.0, "time": 2.0}, "children": []},
]


@scenario
def literal_and_root():
    tk = T.from_literal(LIT)
    out = {**df_facts(tk), "profile_is_str": isinstance(tk.profile[0], str),
           "df_cols": cols(tk.dataframe), "exc": tk.exc_metrics, "inc": tk.inc_metrics,
           "default": tk.default_metric}
    tk.add_root_node({"name": "Test", "type": "function"})
    node = tk.get_node("Test")
    out["after"] = df_facts(tk)
    out["node_in_df"] = bool(node in tk.dataframe.index.get_level_values("node"))
    out["node_in_stats"] = bool(node in tk.statsframe.dataframe.index.get_level_values("node"))
    out["df_name"] = plain(tk.dataframe.loc[node, "name"].values[0]) if out["node_in_df"] else None
    out["stats_name"] = plain(tk.statsframe.dataframe.loc[node, "name"])
    out["names"] = names_in_order(tk)
    try:
        tk.get_node("Foo")
        out["missing"] = "no error"
    except Exception as exc:
        out["missing"] = type(exc).__name__ + (" KeyError" if isinstance(exc, KeyError) else "") + (" ValueError" if isinstance(exc, ValueError) else "")
    a = tk.get_node("A")
    out["A"] = [a.frame["name"], a.frame["type"], getattr(a, "_hatchet_nid", None)]
    return out


@scenario
def copies():
    tk = T.from_caliperreader(RP_QUARTZ, disable_tqdm=True)
    tk.exc_metrics.append("value")
    c = tk.copy()
    d = tk.deepcopy()
    out = {"copy_graph_is": c.graph is tk.graph, "copy_df_is": c.dataframe is tk.dataframe,
           "copy_df_eq": c.dataframe.equals(tk.dataframe), "copy_exc": c.exc_metrics,
           "copy_exc_is": c.exc_metrics is tk.exc_metrics,
           "copy_meta_eq": c.metadata.equals(tk.metadata),
           "copy_profile_eq": c.profile == tk.profile,
           "copy_mapping_eq": c.profile_mapping == tk.profile_mapping,
           "deep_graph_is": d.graph is tk.graph, "deep_graph_eq": d.graph == tk.graph,
           "deep_df_eq": d.dataframe.equals(tk.dataframe), "deep_exc": d.exc_metrics,
           "deep_stats_graph_is": d.graph is d.statsframe.graph}
    j = list(d.dataframe.columns).index("Avg time/rank")
    d.dataframe.iloc[0, j] = -5.0
    out["deep_independent"] = bool(d.dataframe.iloc[0, j] != tk.dataframe.iloc[0, j])
    return out


@scenario
def tree_indices():
    tk = T.from_caliperreader(LASSEN[:3], disable_tqdm=True)
    out = {}
    for ind in (None, tk.profile[1], [tk.profile[2]]):
        try:
            text = tk.tree("Avg time/rank", indices=ind, render_header=False)
            out[repr(type(ind).__name__)] = text.splitlines()[:3]
        except Exception as exc:
            out[repr(type(ind).__name__)] = type(exc).__name__ + ": " + str(exc)[:100]
    return out


@scenario
def json_round_trip():
    tk = T.from_caliperreader(MPI[:2], disable_tqdm=True)
    text = tk.to_json()
    doc = json.loads(text)
    back = T.from_json(text)
    return {"keys": sorted(doc), "back": df_facts(back), "orig": df_facts(tk),
            "inc_back": back.inc_metrics, "exc_back": back.exc_metrics,
            "inc": tk.inc_metrics, "exc": tk.exc_metrics,
            "profile_back": [plain(p) for p in back.profile][:2]}


@scenario
def from_statsframes():
    tks = [T.from_caliperreader(MPI[i:i + 2], disable_tqdm=True) for i in (0, 2)]
    for t in tks:
        th.stats.mean(t, ["Avg time/rank"])
    s = T.from_statsframes(tks)
    s2 = T.from_statsframes(tks, metadata_key="mpi.world.size")
    return {"plain": {**df_facts(s), "profile": [plain(p) for p in s.profile],
                      "cols": cols(s.dataframe)},
            "keyed": {**df_facts(s2), "profile": [plain(p) for p in s2.profile]}}


@scenario
def timeseries():
    tk = T.from_timeseries(TIMESERIES)
    df = tk.dataframe
    return {**df_facts(tk), "profile": [plain(p) for p in tk.profile][:5],
            "meta_cols": list(tk.metadata.columns)[:10]}


json.dump(facts, open(sys.argv[3], "w"), indent=1, sort_keys=True, default=repr)
print("done", len(facts))
