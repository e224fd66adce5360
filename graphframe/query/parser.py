"""Recursive-descent parser of the string dialect (text -> syntax tree).

Grammar (keywords are upper-case, as in Hatchet; ``AND`` binds tighter
than ``XOR``, which binds tighter than ``OR``; braces nest at most
:data:`MAX_NESTING` deep)::

    query     := match | sets(braced_query)
    braced_query := "{" query "}"
    match     := MATCH node ("->" node)* [WHERE where]
    node      := "(" quant ["," NAME] ")" | "(" NAME ")"
    quant     := "." | "*" | "+" (as strings) | INT >= 1
    where     := conds | sets(braced_conds)
    braced_conds := "{" (conds | sets(braced_conds)) "}"
    sets(p)   := p ((AND | XOR | OR) p)*
    conds     := unary ((AND | OR) unary)*
    unary     := [NOT] cond
    cond      := NAME IS [NOT] LEAF
               | NAME "." prop ( "=" (STRING | NUMBER) | ("!=" | "<>") (STRING | NUMBER)
                               | "=~" STRING | STARTS WITH STRING | ENDS WITH STRING
                               | CONTAINS STRING | ("<" | "<=" | ">" | ">=") NUMBER
                               | IS [NOT] (NAN | INF | NONE) )
    prop      := STRING | INT | "(" (STRING | INT) ("," (STRING | INT))* ")"

Nothing in the text is ever evaluated: each condition becomes an
:class:`~graphframe.query.atoms.Atom`. Every error is a
:class:`QuerySyntaxError` at the offending token.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from .atoms import Atom
from .errors import QuerySyntaxError, RedundantQueryFilterWarning
from .lexer import KEYWORDS, Token, tokenize


@dataclass
class PathNode:
    """One ``( ... )`` of the MATCH clause."""

    quantifier: Union[str, int]
    name: Optional[str]
    start: int


@dataclass
class Condition:
    """One condition of the WHERE clause, attached to a named node."""

    name: str
    atom: Atom
    negated: bool


@dataclass
class Where:
    """Conditions combined as an OR of AND-terms."""

    terms: List[List[Condition]]


@dataclass
class SetExpr:
    """Results of braced operands combined by ``AND`` / ``OR`` / ``XOR``."""

    op: str
    operands: List[Any]


@dataclass
class MatchQuery:
    """``MATCH path [WHERE ...]``."""

    path: List[PathNode]
    where: Union[None, Where, SetExpr] = None
    names: Dict[str, int] = field(default_factory=dict)


_SET_LEVELS = ("OR", "XOR", "AND")
#: deepest nesting of braces; each level costs a few Python frames of the parser
MAX_NESTING = 64
_COMPARE = {"<": "<", "<=": "<=", ">": ">", ">=": ">="}


def parse(text: str) -> Union[MatchQuery, SetExpr]:
    """Parse a string-dialect query into its syntax tree.

    Examples
    --------
    >>> tree = parse('MATCH (p)->("*")->(q) WHERE p."name" = "a" AND q."time" > 1')
    >>> [(n.quantifier, n.name) for n in tree.path]
    [('.', 'p'), ('*', None), ('.', 'q')]
    >>> [[(c.name, c.atom) for c in term] for term in tree.where.terms]
    [[('p', Atom(column name str== 'a')), ('q', Atom(column time > 1))]]
    """
    return _Parser(text).parse()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0
        self.nesting = 0

    # ------------------------------------------------------------- tokens
    def peek(self) -> Token:
        return self.tokens[self.i]

    def at(self, kind: str, value: Any = None) -> bool:
        tok = self.tokens[self.i]
        return tok.kind == kind and (value is None or tok.value == value)

    def take(self) -> Token:
        tok = self.tokens[self.i]
        if tok.kind != "EOF":
            self.i += 1
        return tok

    def accept(self, kind: str, value: Any = None) -> bool:
        if self.at(kind, value):
            self.take()
            return True
        return False

    def expect(self, kind: str, value: Any = None, what: str = "") -> Token:
        if not self.at(kind, value):
            wanted = what or (repr(value) if value is not None else kind.lower())
            raise self.error(self.peek(), f"unexpected {self.peek().describe()}", (wanted,))
        return self.take()

    def error(self, tok: Token, problem: str, expected: Tuple[str, ...] = ()) -> QuerySyntaxError:
        if tok.kind == "NAME" and tok.value.upper() in KEYWORDS:
            problem += f" (keywords are upper-case: {tok.value.upper()})"
        return QuerySyntaxError(problem, self.text, tok.start, expected)

    # -------------------------------------------------------------- query
    def parse(self) -> Union[MatchQuery, SetExpr]:
        tree = self.query()
        if not self.at("EOF"):
            tok = self.peek()
            if tok.kind == "KEYWORD" and tok.value in _SET_LEVELS:
                raise self.error(tok, f"unexpected {tok.value}: to combine whole queries put "
                                      "each in braces, {MATCH ...} " + tok.value + " {MATCH ...}")
            raise self.error(tok, f"unexpected {tok.describe()}", ("end of query",))
        return tree

    def query(self) -> Union[MatchQuery, SetExpr]:
        if self.at("PUNCT", "{"):
            return self.sets(self.braced_query, 0)
        if self.at("KEYWORD", "MATCH"):
            return self.match()
        raise self.error(self.peek(), f"unexpected {self.peek().describe()}", ("MATCH", "'{'"))

    def sets(self, primary: Callable[[], Any], level: int) -> Any:
        if level == len(_SET_LEVELS):
            return primary()
        op = _SET_LEVELS[level]
        operands = [self.sets(primary, level + 1)]
        while self.at("KEYWORD", op):
            self.take()
            operands.append(self.sets(primary, level + 1))
        return operands[0] if len(operands) == 1 else SetExpr(op, operands)

    def braced_query(self) -> Any:
        self.open_brace()
        inner = self.query()
        self.close_brace()
        return inner

    def open_brace(self) -> None:
        """Take a '{', refusing nesting deeper than MAX_NESTING (the parser recurses)."""
        tok = self.expect("PUNCT", "{", "'{'")
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise self.error(tok, f"nesting too deep: more than {MAX_NESTING} levels of braces")

    def close_brace(self) -> None:
        self.expect("PUNCT", "}", "'}'")
        self.nesting -= 1

    def match(self) -> MatchQuery:
        self.expect("KEYWORD", "MATCH")
        path = [self.path_node()]
        while self.at("PUNCT", "->"):
            self.take()
            path.append(self.path_node())
        names: Dict[str, int] = {}
        for index, node in enumerate(path):
            if node.name is not None:
                if node.name in names:
                    raise QuerySyntaxError(f"the node name {node.name!r} is used twice",
                                           self.text, node.start)
                names[node.name] = index
        query = MatchQuery(path, None, names)
        if self.at("KEYWORD", "WHERE"):
            self.take()
            if self.at("PUNCT", "{"):
                query.where = self.sets(lambda: self.braced_conditions(names), 0)
            else:
                query.where = self.conditions(names)
        return query

    def path_node(self) -> PathNode:
        open_tok = self.expect("PUNCT", "(", "'(' (a query node)")
        tok = self.peek()
        quantifier: Union[str, int] = "."
        name, start = None, open_tok.start
        if tok.kind in ("STRING", "NUMBER"):
            quantifier = self.quantifier(self.take())
            if self.accept("PUNCT", ","):
                name_tok = self.expect("NAME", None, "a node name")
                name, start = name_tok.value, name_tok.start
        elif tok.kind == "NAME":
            name, start = self.take().value, tok.start
        else:
            raise self.error(tok, f"unexpected {tok.describe()}",
                             ('a quantifier (".", "*", "+", a count)', "a node name"))
        self.expect("PUNCT", ")", "')'")
        return PathNode(quantifier, name, start)

    def quantifier(self, tok: Token) -> Union[str, int]:
        if tok.kind == "STRING" and tok.value in (".", "*", "+"):
            return tok.value
        if tok.kind == "NUMBER" and isinstance(tok.value, int) and tok.value >= 1:
            return tok.value
        raise self.error(tok, f"bad quantifier {tok.value!r}",
                         ('".", "*", "+" or a count >= 1',))

    # --------------------------------------------------------- conditions
    def braced_conditions(self, names: Dict[str, int]) -> Any:
        self.open_brace()
        if self.at("PUNCT", "{"):
            inner = self.sets(lambda: self.braced_conditions(names), 0)
        else:
            inner = self.conditions(names)
        self.close_brace()
        return inner

    def conditions(self, names: Dict[str, int]) -> Where:
        terms = [[self.unary(names)]]
        while True:
            if self.at("KEYWORD", "AND"):
                self.take()
                terms[-1].append(self.unary(names))
            elif self.at("KEYWORD", "OR"):
                self.take()
                terms.append([self.unary(names)])
            else:
                return Where(terms)

    def unary(self, names: Dict[str, int]) -> Condition:
        if self.at("KEYWORD", "NOT"):
            self.take()
            cond = self.condition(names)
            return Condition(cond.name, cond.atom, not cond.negated)
        return self.condition(names)

    def condition(self, names: Dict[str, int]) -> Condition:
        tok = self.expect("NAME", None, "a node name")
        if tok.value not in names:
            known = ", ".join(names) if names else "none (name one, as in MATCH (p))"
            raise self.error(tok, f"unknown node name {tok.value!r}; the MATCH clause names "
                                  f"{known}")
        if self.at("KEYWORD", "IS"):
            self.take()
            negated = self.accept("KEYWORD", "NOT")
            self.expect("KEYWORD", "LEAF", "LEAF")
            return Condition(tok.value, Atom("leaf"), negated)
        self.expect("PUNCT", ".", "'.' then a quoted column name, or IS [NOT] LEAF")
        key = self.prop()
        operator_at = self.peek().start
        atom, negated = self.operation(key)
        if atom.kind == "column":  # evaluation errors (type mismatches) point here
            atom = replace(atom, source=(self.text, operator_at))
        return Condition(tok.value, atom, negated)

    def prop(self) -> Any:
        if self.at("STRING"):
            return self.take().value
        if self.at("NUMBER") and isinstance(self.peek().value, int):
            return self.take().value
        if self.at("PUNCT", "("):
            self.take()
            parts = [self.prop_part()]
            while self.at("PUNCT", ","):
                self.take()
                parts.append(self.prop_part())
            self.expect("PUNCT", ")", "')'")
            return tuple(parts)
        raise self.error(self.peek(), f"unexpected {self.peek().describe()}",
                         ('a quoted column name such as "time (inc)"', "a tuple of names"))

    def prop_part(self) -> Any:
        if self.at("STRING") or (self.at("NUMBER") and isinstance(self.peek().value, int)):
            return self.take().value
        raise self.error(self.peek(), f"unexpected {self.peek().describe()}",
                         ("a quoted column name",))

    def operation(self, key: Any) -> Tuple[Atom, bool]:
        tok = self.take()
        special = key if isinstance(key, str) and key in ("depth", "node_id") else None
        if tok.kind == "PUNCT" and tok.value in ("=", "!=", "<>"):
            value_tok = self.peek()
            if value_tok.kind == "STRING":
                self.take()
                if special:
                    raise self.error(value_tok, f"Type mismatch in filter: {special!r} is a "
                                                "number, compare it with a number")
                op = "str==" if tok.value == "=" else "str!="
                return Atom("column", op, key, value_tok.value), False
            number = self.expect("NUMBER", None, "a string or a number").value
            return self.number_atom(key, special, "==" if tok.value == "=" else "!=",
                                    number, tok), False
        if tok.kind == "PUNCT" and tok.value in _COMPARE:
            number = self.expect("NUMBER", None, "a number").value
            return self.number_atom(key, special, _COMPARE[tok.value], number, tok), False
        if tok.kind == "PUNCT" and tok.value == "=~":
            value_tok = self.expect("STRING", None, "a quoted regular expression")
            try:
                re.compile(value_tok.value)
            except re.error as exc:
                raise self.error(value_tok, f"bad regular expression: {exc}") from exc
            return self.string_atom(key, special, "regex", value_tok), False
        if tok.kind == "KEYWORD" and tok.value in ("STARTS", "ENDS"):
            self.expect("KEYWORD", "WITH", "WITH")
            value_tok = self.expect("STRING", None, "a quoted string")
            op = "startswith" if tok.value == "STARTS" else "endswith"
            return self.string_atom(key, special, op, value_tok), False
        if tok.kind == "KEYWORD" and tok.value == "CONTAINS":
            value_tok = self.expect("STRING", None, "a quoted string")
            return self.string_atom(key, special, "contains", value_tok), False
        if tok.kind == "KEYWORD" and tok.value == "IS":
            negated = self.accept("KEYWORD", "NOT")
            what = self.peek()
            if not (what.kind == "KEYWORD" and what.value in ("NAN", "INF", "NONE")):
                raise self.error(what, f"unexpected {what.describe()}", ("NAN", "INF", "NONE"))
            self.take()
            op = {"NAN": "isnan", "INF": "isinf", "NONE": "isnone"}[what.value]
            return (Atom(special, op) if special else Atom("column", op, key)), negated
        raise self.error(tok, f"unexpected {tok.describe()}",
                         ("=", "!=", "<", "<=", ">", ">=", "=~", "STARTS WITH", "ENDS WITH",
                          "CONTAINS", "IS"))

    def string_atom(self, key: Any, special: Optional[str], op: str, tok: Token) -> Atom:
        if special:
            raise self.error(tok, f"Type mismatch in filter: {special!r} is a number, "
                                  "not a string")
        return Atom("column", op, key, tok.value)

    def number_atom(self, key: Any, special: Optional[str], op: str, number: Any,
                    tok: Token) -> Atom:
        if not special:
            return Atom("column", op, key, number)
        if special == "depth" and op == "==" and number == -1:
            return Atom("leaf")
        if (op == "==" and number < 0) or (op == "<" and number <= 0) or \
                (op == "<=" and number < 0):
            warnings.warn(f"{special!r} is never negative: the condition at offset "
                          f"{tok.start} of the query is always false",
                          RedundantQueryFilterWarning, stacklevel=4)
        return Atom(special, op, None, number)
