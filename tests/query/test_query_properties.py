"""Property tests: the vectorised matcher against two plain-Python references.

* acyclic graphs (trees, forests, DAGs): enumerate every downward path and
  test it against the query like a regular expression (the definition);
* any graph (also with cycles): a search over (node, step) states with sets.

Also: the object and string dialects agree on translated queries.
"""

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphframe.query import matched_nodes

from tests.helpers import gf_from_edges

NAMES = "abc"
REGEXES = ["a", "b", "[ab]", ".*", "c|a"]


@st.composite
def graphs(draw, cyclic=False):
    n = draw(st.integers(1, 8))
    parent = [-1] + [draw(st.integers(-1, i - 1)) for i in range(1, n)]
    extra = []
    if n > 2:
        for _ in range(draw(st.integers(0, 3))):
            src, dst = draw(st.integers(0, n - 1)), draw(st.integers(1, n - 1))
            if (cyclic or src < dst) and src != parent[dst] and src != dst and parent[dst] >= 0:
                extra.append((src, dst))
    names = [draw(st.sampled_from(NAMES)) for _ in range(n)]
    times = [float(draw(st.integers(1, 4))) for _ in range(n)]
    return gf_from_edges(names, parent, times, extra=sorted(set(extra)))


@st.composite
def conditions(draw):
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return {"name": draw(st.sampled_from(REGEXES))}
    if kind == 1:
        return {"time": f">= {draw(st.integers(1, 4))}"}
    if kind == 2:
        return {"time": float(draw(st.integers(1, 4)))}
    return {"name": draw(st.sampled_from(REGEXES)), "time": f"< {draw(st.integers(2, 4))}"}


@st.composite
def queries(draw):
    out = []
    for _ in range(draw(st.integers(1, 4))):
        quant = draw(st.sampled_from([".", "*", "+", 1, 2]))
        form = draw(st.integers(0, 2))
        if form == 0:
            out.append(quant)
        elif form == 1:
            out.append(draw(conditions()))
        else:
            out.append((quant, draw(conditions())))
    return out


def expand(query):
    steps = []
    for element in query:
        quant, cond = (".", element) if isinstance(element, dict) else \
            element if isinstance(element, tuple) else (element, {})
        if quant == "+":
            steps += [(".", cond), ("*", cond)]
        elif isinstance(quant, int):
            steps += [(".", cond)] * quant
        else:
            steps.append((quant, cond))
    return steps


def satisfies(gf, node, cond):
    name = gf.graph.frame(node)["name"]
    time = float(gf.dataframe.loc[node, "time"])
    for key, value in cond.items():
        if key == "name" and not re.fullmatch(value, name):
            return False
        if key == "time":
            if isinstance(value, float):
                if time != value:
                    return False
            else:
                op, number = value.split()
                if not (time >= float(number) if op == ">=" else time < float(number)):
                    return False
    return True


def children(gf, v):
    return gf.graph.children_of(v).tolist()


def reference_paths(gf, query):
    """Every downward path, accepted like a regular expression (acyclic graphs)."""
    steps = expand(query)
    m = len(steps)

    def accepts(path):
        states = {0}
        for v in path:
            nxt = set()
            for s in states:
                t = s
                while t < m:
                    quant, cond = steps[t]
                    if satisfies(gf, v, cond):
                        nxt.add(t if quant == "*" else t + 1)
                    if quant != "*":
                        break
                    t += 1
            states = nxt
        return any(all(q == "*" for q, _ in steps[s:]) for s in states)

    found = set()
    stack = [[v] for v in range(gf.graph.num_nodes)]
    while stack:
        path = stack.pop()
        if accepts(path):
            found.update(path)
        stack.extend(path + [c] for c in children(gf, path[-1]))
    return sorted(found)


def reference_states(gf, query):
    """Forward/backward search over (node, step) states with Python sets (any graph)."""
    steps = expand(query)
    m = len(steps)

    def nexts(i):
        out = [i] if i >= 0 and steps[i][0] == "*" else []
        for k in range(i + 1, m):
            out.append(k)
            if steps[k][0] != "*":
                break
        return out

    n = gf.graph.num_nodes
    ok = {(v, i) for v in range(n) for i in range(m) if satisfies(gf, v, steps[i][1])}
    forward = {(v, k) for v in range(n) for k in nexts(-1) if (v, k) in ok}
    todo = list(forward)
    edges = {}
    while todo:
        v, i = todo.pop()
        for c in children(gf, v):
            for j in nexts(i):
                if (c, j) in ok:
                    edges.setdefault((c, j), set()).add((v, i))
                    if (c, j) not in forward:
                        forward.add((c, j))
                        todo.append((c, j))
    backward = {(v, i) for v, i in forward if all(q == "*" for q, _ in steps[i + 1:])}
    todo = list(backward)
    while todo:
        state = todo.pop()
        for prev in edges.get(state, ()):
            if prev not in backward:
                backward.add(prev)
                todo.append(prev)
    return sorted({v for v, _ in backward})


def to_string(query):
    nodes, conds = [], []
    for i, element in enumerate(query):
        quant, cond = (".", element) if isinstance(element, dict) else \
            element if isinstance(element, tuple) else (element, {})
        q = f'"{quant}"' if isinstance(quant, str) else str(quant)
        nodes.append(f"({q}, n{i})" if cond else f"({q})")
        for key, value in cond.items():
            if key == "name":
                # =~ matches at the start (Hatchet); anchor the end for a full match
                conds.append(f'n{i}."name" =~ "(?:{value})\\Z"')
            elif isinstance(value, float):
                conds.append(f'n{i}."time" = {value}')
            else:
                conds.append(f'n{i}."time" {value}')
    return "MATCH " + "->".join(nodes) + (" WHERE " + " AND ".join(conds) if conds else "")


SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(graphs(), queries())
def test_matches_path_enumeration_on_acyclic_graphs(gf, query):
    assert matched_nodes(gf, query).tolist() == reference_paths(gf, query)


@SETTINGS
@given(graphs(cyclic=True), queries())
def test_matches_state_search_on_any_graph(gf, query):
    assert matched_nodes(gf, query).tolist() == reference_states(gf, query)


@SETTINGS
@given(graphs(cyclic=True), queries())
def test_dialects_agree(gf, query):
    assert matched_nodes(gf, to_string(query)).tolist() == matched_nodes(gf, query).tolist()
