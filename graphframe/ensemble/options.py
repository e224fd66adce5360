"""Reader options of an ensemble read, when the files are of several formats.

A folder may hold Caliper ``.cali`` files, HPCToolkit databases and Hatchet
JSON side by side, and each reader has its own keywords (``no_path`` is
Caliper's, ``metric_names`` HPCToolkit's). ``Ensemble.read`` takes them two
ways:

* **plain keywords** (``Ensemble.read(d, no_path="drop")``): each file gets
  the plain options *its* format accepts and no others, so a Caliper option
  does not break the HPCToolkit databases next to the ``.cali`` files. An
  option no reader has is an :class:`ArgumentError` before any file is read;
  an option none of the formats actually read accepts is an
  :class:`ArgumentError` after reading, naming the option, the formats read
  and the formats that have it (a misspelt or misplaced option is never
  ignored silently);
* **options keyed by format** (``options={"caliper": {...}, "hpctoolkit":
  {...}}``; keys are the names :func:`graphframe.formats` lists, so
  ``"caliper"`` is ``.cali`` and ``"caliper-json"`` json-split): each is
  checked strictly against that format's reader before any file is read,
  applies to the files of that format only, and wins over a plain keyword
  of the same name.

With ``format=`` every file is read by that one reader, so plain keywords
are checked strictly against it, as :func:`graphframe.read` does.
``Ensemble.profiles["options"]`` records the options each file was read
with.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Dict, Iterable, Mapping, Optional

import graphframe_readers
from graphframe_readers.registry import check_options

from ..errors import ArgumentError

#: Keywords of ``Ensemble.read`` itself, never passed to a reader.
OWN = ("progress",)


@dataclass(frozen=True)
class ReaderOptions:
    """Plain options (given to every format that accepts them) and per-format options.

    Examples
    --------
    >>> opts = ReaderOptions.resolve(None, {"no_path": "drop"}, {"hpctoolkit": {"ranks": [0]}})
    >>> opts.for_format("caliper"), opts.for_format("hpctoolkit"), opts.for_format("literal")
    ({'no_path': 'drop'}, {'ranks': [0]}, {})
    >>> try:
    ...     opts.check_used(["literal"])
    ... except ArgumentError as exc:
    ...     print(exc)
    option 'no_path' applies to none of the formats read (literal); it is an option of the formats: caliper-json, caliper
    """

    plain: Dict[str, Any] = field(default_factory=dict)
    by_format: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    format: Optional[str] = None

    @classmethod
    def resolve(cls, format: Optional[str], plain: Mapping[str, Any],
                by_format: Optional[Mapping[str, Any]] = None) -> "ReaderOptions":
        """Check what the caller gave (see the module docs) and keep it."""
        plain = dict(plain)
        for key in OWN:
            if key in plain:
                raise ArgumentError(f"{key!r} is an argument of the ensemble read itself, "
                                    "not a reader option")
        keyed = _keyed(by_format, format)
        if format is not None and format in graphframe_readers.formats():
            check_options(graphframe_readers.format_info(format), plain)
        else:
            for key in plain:
                if not _formats_with(key):
                    raise ArgumentError(f"no reader has an option {key!r} (see "
                                        "graphframe.formats() and each reader's options)")
        return cls(plain, keyed, format)

    @classmethod
    def coerce(cls, options: Any) -> "ReaderOptions":
        """``options`` as ReaderOptions (a plain mapping becomes the plain options)."""
        if isinstance(options, ReaderOptions):
            return options
        return cls(dict(options or {}))

    def for_format(self, name: str) -> Dict[str, Any]:
        """The options a file of format ``name`` is read with.

        Examples
        --------
        >>> ReaderOptions({"no_path": "drop"}, {}, "caliper").for_format("caliper")
        {'no_path': 'drop'}
        """
        if name == self.format or not self.plain:
            out = dict(self.plain)
        else:
            accepted = _options_of(name)
            out = {k: v for k, v in self.plain.items() if k in accepted}
        out.update(self.by_format.get(name, {}))
        return out

    def check_used(self, formats_read: Iterable[str]) -> None:
        """Raise :class:`ArgumentError` for a plain option none of ``formats_read`` accepts."""
        read = sorted(set(formats_read))
        if not read or self.format is not None:
            return
        for key in self.plain:
            if not any(key in _options_of(name) for name in read):
                raise ArgumentError(
                    f"option {key!r} applies to none of the formats read ({', '.join(read)}); "
                    f"it is an option of the formats: {', '.join(_formats_with(key))}")

    def describe(self, name: str) -> str:
        """The options of format ``name`` as JSON (the ``profiles["options"]`` column)."""
        return json.dumps(self.for_format(name), sort_keys=True, default=repr)


def _keyed(by_format: Optional[Mapping[str, Any]], format: Optional[str]
           ) -> Dict[str, Dict[str, Any]]:
    if by_format is None:
        return {}
    if not isinstance(by_format, Mapping):
        raise ArgumentError(f"options={by_format!r}: give a dict format name -> dict of that "
                            "format's reader options, e.g. {'caliper': {'no_path': 'drop'}}")
    known = graphframe_readers.formats()
    out: Dict[str, Dict[str, Any]] = {}
    for name, opts in by_format.items():
        if name not in known:
            raise ArgumentError(f"options[{name!r}]: not a format; the formats are: "
                                f"{', '.join(known)}")
        if format is not None and name != format:
            raise ArgumentError(f"options[{name!r}]: format={format!r} reads every file, so "
                                f"options for {name!r} would apply to none")
        if not isinstance(opts, Mapping):
            raise ArgumentError(f"options[{name!r}]={opts!r}: give a dict of reader options")
        opts = dict(opts)
        for key in OWN:
            if key in opts:
                raise ArgumentError(f"options[{name!r}][{key!r}]: {key!r} is an argument of "
                                    "the ensemble read itself, not a reader option")
        check_options(graphframe_readers.format_info(name), opts)
        out[name] = opts
    return out


@lru_cache(maxsize=None)
def _options_of(name: str) -> tuple:
    if name not in graphframe_readers.formats():   # e.g. graphframe's own archives: no options
        return ()
    return tuple(o for o in graphframe_readers.format_info(name).options if o not in OWN)


def _formats_with(key: str) -> list:
    return [name for name in graphframe_readers.formats() if key in _options_of(name)]
