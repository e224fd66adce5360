"""Queries on Hatchet's own test literal (shared corpus), checked against Hatchet 2026.2.0.

Each expected set is the matched nodes' call paths as Hatchet returns them,
except where a comment explains why Hatchet is wrong.
"""

import pytest

import graphframe

CASES = [
    ([{'time (inc)': '>= 30.0'}, (2, {'name': '[^b][a-z]+'}), ('*', {'name': '[^b][a-z]+'}),
      {'name': 'gr[a-z]+'}],
     ['foo', 'foo/qux', 'foo/qux/quux', 'foo/qux/quux/corge', 'foo/qux/quux/corge/grault']),
    ([{'time (inc)': '>= 30.0'}, '.', {'name': 'bar'}, '*'],
     ['foo/qux/quux', 'foo/qux/quux/corge', 'foo/qux/quux/corge/bar',
      'foo/qux/quux/corge/bar/baz', 'foo/qux/quux/corge/bar/grault']),
    ([{'name': 'foo'}, {'name': 'bar'}, {'time': 5.0}],
     ['foo', 'foo/bar', 'foo/bar/baz']),
    ([{'name': 'foo'}, {'name': 'qux'}, ('+', {'time (inc)': '> 15.0'})],
     ['foo', 'foo/qux', 'foo/qux/quux', 'foo/qux/quux/corge', 'foo/qux/quux/corge/bar']),
    (['*', {'name': 'bar'}, {'name': 'grault'}, '*'],
     ['foo', 'foo/bar', 'foo/bar/grault', 'foo/qux', 'foo/qux/quux', 'foo/qux/quux/corge',
      'foo/qux/quux/corge/bar', 'foo/qux/quux/corge/bar/grault', 'waldo', 'waldo/bar',
      'waldo/bar/grault']),
    (['*', {'name': 'bar'}, {'name': 'grault'}, '+'],
     []),
    ([{'name': 'foo'}, '*', {'name': 'grault'}],
     ['foo', 'foo/bar', 'foo/bar/grault', 'foo/qux', 'foo/qux/quux', 'foo/qux/quux/corge',
      'foo/qux/quux/corge/bar', 'foo/qux/quux/corge/bar/grault', 'foo/qux/quux/corge/grault']),
    ([{'name': 'foo'}, '+', {'name': 'grault'}],
     ['foo', 'foo/bar', 'foo/bar/grault', 'foo/qux', 'foo/qux/quux', 'foo/qux/quux/corge',
      'foo/qux/quux/corge/bar', 'foo/qux/quux/corge/bar/grault', 'foo/qux/quux/corge/grault']),
    ([{'name': 'waldo'}, '*', {'name': 'garply'}],
     ['foo/waldo', 'foo/waldo/fred', 'foo/waldo/fred/xyzzy', 'foo/waldo/fred/xyzzy/thud',
      'foo/waldo/fred/xyzzy/thud/garply', 'foo/waldo/garply']),
    ([{'depth': -1}],
     ['foo/bar/baz', 'foo/bar/grault', 'foo/qux/quux/corge/bar/baz',
      'foo/qux/quux/corge/bar/grault', 'foo/qux/quux/corge/garply',
      'foo/qux/quux/corge/grault', 'foo/waldo/fred/plugh', 'foo/waldo/fred/xyzzy/thud/baz',
      'foo/waldo/fred/xyzzy/thud/garply', 'foo/waldo/garply', 'waldo/bar/baz',
      'waldo/bar/grault']),
    ([{'depth': '>= 4'}],
     ['foo/qux/quux/corge/bar', 'foo/qux/quux/corge/bar/baz', 'foo/qux/quux/corge/bar/grault',
      'foo/qux/quux/corge/garply', 'foo/qux/quux/corge/grault', 'foo/waldo/fred/xyzzy/thud',
      'foo/waldo/fred/xyzzy/thud/baz', 'foo/waldo/fred/xyzzy/thud/garply']),
    ([{'name': '[bg].*', 'time': ['> 4', '< 12']}],
     ['foo/bar', 'foo/bar/baz', 'foo/bar/grault', 'foo/qux/quux/corge/bar',
      'foo/qux/quux/corge/bar/baz', 'foo/qux/quux/corge/bar/grault',
      'foo/qux/quux/corge/grault', 'foo/waldo/fred/xyzzy/thud/baz', 'waldo/bar',
      'waldo/bar/baz', 'waldo/bar/grault']),
    ([('*', {'time (inc)': '> 10'}), {'name': 'ba.*'}],
     ['foo', 'foo/bar', 'foo/bar/baz', 'foo/qux', 'foo/qux/quux', 'foo/qux/quux/corge',
      'foo/qux/quux/corge/bar', 'foo/qux/quux/corge/bar/baz', 'foo/waldo', 'foo/waldo/fred',
      'foo/waldo/fred/xyzzy', 'foo/waldo/fred/xyzzy/thud', 'foo/waldo/fred/xyzzy/thud/baz',
      'waldo', 'waldo/bar', 'waldo/bar/baz']),
    ('MATCH (p)->(".")->(q) WHERE p."name" = "foo" AND q."name" = "baz"',
     ['foo', 'foo/bar', 'foo/bar/baz']),
    ('MATCH ("*", p)->(q) WHERE p."time (inc)" > 10 AND q."name" STARTS WITH "ba"',
     ['foo', 'foo/bar', 'foo/bar/baz', 'foo/qux', 'foo/qux/quux', 'foo/qux/quux/corge',
      'foo/qux/quux/corge/bar', 'foo/qux/quux/corge/bar/baz', 'foo/waldo', 'foo/waldo/fred',
      'foo/waldo/fred/xyzzy', 'foo/waldo/fred/xyzzy/thud', 'foo/waldo/fred/xyzzy/thud/baz',
      'waldo', 'waldo/bar', 'waldo/bar/baz']),
    ('MATCH (p)->("*")->(q) WHERE p."name" = "waldo" AND q."name" = "garply"',
     ['foo/waldo', 'foo/waldo/fred', 'foo/waldo/fred/xyzzy', 'foo/waldo/fred/xyzzy/thud',
      'foo/waldo/fred/xyzzy/thud/garply', 'foo/waldo/garply']),
    ('MATCH (p) WHERE p."name" ENDS WITH "ly" OR p."name" CONTAINS "ux"',
     ['foo/qux', 'foo/qux/quux', 'foo/qux/quux/corge/garply',
      'foo/waldo/fred/xyzzy/thud/garply', 'foo/waldo/garply']),
    ('MATCH (p)->(q) WHERE p."name" = "corge" AND NOT q."name" = "bar"',
     ['foo/qux/quux/corge', 'foo/qux/quux/corge/garply', 'foo/qux/quux/corge/grault']),
    # Hatchet raises a Python SyntaxError (the type checks of IS LEAF and the
    # next condition are glued into invalid code); this is the correct result
    ('MATCH (p) WHERE p IS LEAF AND p."time" >= 10',
     ['foo/bar/grault', 'foo/qux/quux/corge/bar/grault', 'foo/qux/quux/corge/garply',
      'foo/qux/quux/corge/grault', 'foo/waldo/fred/xyzzy/thud/garply', 'foo/waldo/garply',
      'waldo/bar/grault']),
    ('MATCH (p)->("+", q) WHERE p."name" = "quux" AND q."time (inc)" >= 10',
     ['foo/qux/quux', 'foo/qux/quux/corge', 'foo/qux/quux/corge/bar',
      'foo/qux/quux/corge/bar/grault', 'foo/qux/quux/corge/garply',
      'foo/qux/quux/corge/grault']),
    ('MATCH (p) WHERE p."name" =~ "gr.*"',
     ['foo/bar/grault', 'foo/qux/quux/corge/bar/grault', 'foo/qux/quux/corge/grault',
      'waldo/bar/grault']),
    ('MATCH (p) WHERE p."depth" = 2 AND p."node_id" > 5',
     ['foo/waldo/fred', 'foo/waldo/garply', 'waldo/bar/baz', 'waldo/bar/grault']),
    # Hatchet's lazy '*' stops at quux (the first node matching the last step) and
    # misses corge and everything below it
    ([{'name': 'qux'}, '*', {'time (inc)': '>= 10'}],
     ['foo/qux', 'foo/qux/quux', 'foo/qux/quux/corge', 'foo/qux/quux/corge/bar',
      'foo/qux/quux/corge/bar/grault', 'foo/qux/quux/corge/garply',
      'foo/qux/quux/corge/grault']),
    # Hatchet's lazy '*' stops at the first node matching the last step and misses
    # ['foo/qux/quux/corge/bar/grault']
    ([{'name': 'qux'}, '*', {'name': 'bar|grault'}],
     ['foo/qux', 'foo/qux/quux', 'foo/qux/quux/corge', 'foo/qux/quux/corge/bar',
      'foo/qux/quux/corge/bar/grault', 'foo/qux/quux/corge/grault']),
]


@pytest.fixture(scope="module")
def literal_gf(shared_data):
    return graphframe.read(shared_data / "literal" / "hatchet_graph_literal.json")


@pytest.mark.parametrize("query, expected", CASES)
def test_query_on_hatchet_literal(literal_gf, query, expected):
    paths = sorted("/".join(n.frame["name"] for n in node.path())
                   for node in literal_gf.query(query))
    assert paths == expected


def test_filter_on_hatchet_literal(literal_gf):
    out = literal_gf.filter([{"name": "qux"}, "*", {"name": "bar|grault"}])
    assert out.tree(render_header=False, unicode=False, color=False) == (
        "0.000 qux\n"
        "`- 5.000 quux\n"
        "   `- 10.000 corge\n"
        "      |- 5.000 bar\n"
        "      |  `- 10.000 grault\n"
        "      `- 10.000 grault\n")
