"""The string dialect's MATCH clause and WHERE condition compiled into query steps.

The parser (``parser.py``) gives a path of query nodes and a WHERE clause as
an OR of AND-terms of conditions, each attached to a named node. The WHERE
clause is a condition on the whole path: when every term constrains the same
node it becomes one predicate on that node (one path alternative); otherwise
each term is a path alternative with one predicate per constrained node, and
the query matches the union of the alternatives.

Under ``graphframe.options.hatchet_compat`` the clause has Hatchet's meaning
instead: each query node's conditions, in the order written, are combined
among themselves (``AND`` before ``OR``; the operator written before a node's
first condition is dropped), and the nodes' predicates are ANDed.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Dict, List, Optional

from .. import options
from .object_dialect import Step, expand
from .parser import MatchQuery, Where
from .predicates import Predicate, true_predicate


def compile_match(tree: MatchQuery, where: Optional[Where], mode: str) -> List[List[Step]]:
    """The path alternatives of one MATCH: each a list of ``(quantifier, predicate)`` steps.

    Examples
    --------
    >>> from graphframe.query.parser import parse
    >>> tree = parse('MATCH (p)->("+", q) WHERE p."name" = "a" OR q."name" = "b"')
    >>> for alternative in compile_match(tree, tree.where, "off"):
    ...     print(alternative)
    [('.', Predicate(Atom(column name str== 'a'))), ('.', Predicate(True)), ('*', Predicate(True))]
    [('.', Predicate(True)), ('.', Predicate(Atom(column name str== 'b'))), ('*', Predicate(Atom(column name str== 'b')))]
    """
    return [[step for node, pred in zip(tree.path, preds)
             for step in expand(node.quantifier, pred)]
            for preds in node_predicates(tree, where, mode)]


def node_predicates(tree: MatchQuery, where: Optional[Where], mode: str) -> List[List[Any]]:
    """Per path alternative, one predicate per MATCH node (labelled with the node's name).

    Examples
    --------
    >>> from graphframe.query.parser import parse
    >>> tree = parse('MATCH (p)->(q) WHERE q."time" > 1 OR q IS LEAF')
    >>> [[p.label for p in alt] for alt in node_predicates(tree, tree.where, "off")]
    [[None, "node 'q'"]]
    """
    true = true_predicate(mode)
    size = len(tree.path)
    if where is None:
        return [[true] * size]
    labels = {index: f"node {name!r}" for name, index in tree.names.items()}
    if options.hatchet_compat:
        return [hatchet_node_predicates(tree, where, mode, labels)]
    referenced = {cond.name for term in where.terms for cond in term}
    if len(referenced) == 1:
        # every term constrains the same node: one alternative, an OR on that node
        index = tree.names[referenced.pop()]
        preds: List[Any] = [true] * size
        preds[index] = Predicate([[(c.atom, c.negated) for c in term] for term in where.terms],
                                 mode, labels[index])
        return [preds]
    alternatives = []
    for term in where.terms:
        literals: Dict[int, list] = defaultdict(list)
        for cond in term:
            literals[tree.names[cond.name]].append((cond.atom, cond.negated))
        alternatives.append([Predicate([literals[i]], mode, labels[i]) if i in literals
                             else true for i in range(size)])
    return alternatives


def hatchet_node_predicates(tree: MatchQuery, where: Where, mode: str,
                            labels: Dict[int, str]) -> List[Any]:
    """One predicate per MATCH node with Hatchet's reading of the WHERE clause.

    Each node gets its own conditions in the order written, each joined to the
    previous condition *of that node* by the operator written before it (the
    operator before the node's first condition is dropped), ``AND`` before
    ``OR``; the nodes' predicates are ANDed, as the steps of one path.

    Examples
    --------
    >>> from graphframe.query.parser import parse
    >>> tree = parse('MATCH (p)->(q) WHERE p."x" > 1 OR p."x" < 0 AND q."y" = 2')
    >>> labels = {0: "node 'p'", 1: "node 'q'"}
    >>> for pred in hatchet_node_predicates(tree, tree.where, "off", labels):
    ...     print(pred)
    Predicate(Atom(column x > 1) OR Atom(column x < 0))
    Predicate(Atom(column y == 2))
    """
    terms: Dict[int, List[list]] = {}
    for t, term in enumerate(where.terms):
        for c, cond in enumerate(term):
            index = tree.names[cond.name]
            literal = (cond.atom, cond.negated)
            if index not in terms:
                terms[index] = [[literal]]
            elif c == 0 and t > 0:  # written after an OR
                terms[index].append([literal])
            else:
                terms[index][-1].append(literal)
    true = true_predicate(mode)
    return [Predicate(terms[i], mode, labels[i]) if i in terms else true
            for i in range(len(tree.path))]
