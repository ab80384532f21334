"""_result.py - what the package's functions return: the CLI's JSON
document as a dict (a dict subclass: json.dumps, ==, indexing work as on
a plain dict), plus two notebook conveniences:

  _repr_html_()  Jupyter shows the HTML report the CLI writes with --html
                 (estimate, compare, sweep: the same request run again with
                 the binding's "html" key); results without an HTML report
                 (count, ga, hw, region) have none and display
                 as a dict
  to_frame()     the rows as a pandas DataFrame: per node for count and
                 estimate, one row of the serving figures for a
                 generation estimate, per model for compare, per entry for
                 sweep; a range {low, central, high} is three columns
                 (NAME, NAME_low, NAME_high).
  warnings       the document's warnings are also issued as Python
                 warnings (JoulecastWarning) when the result is made.
                 pandas is imported here, on first use, never at
                 `import joulecast`
"""

import sys
import warnings

from ._native import Error, USAGE


class JoulecastWarning(UserWarning):
    """A warning of a joulecast result (the document's "warnings"): issued
    as a Python warning when the result is made, and kept in the dict."""


def _issue_warnings(doc):
    """Each warning of the document (and of a compare's models) as a
    JoulecastWarning, pointing at the caller of the joulecast function."""
    seen = []
    for w in doc.get("warnings") or []:
        seen.append(str(w))
    for m in doc.get("models") or []:
        if isinstance(m, dict):
            seen += ["%s: %s" % (m.get("model"), w) for w in m.get("warnings") or []]
    # point at the first frame outside the package: the user's call
    level, f = 2, sys._getframe(1)
    while f is not None and f.f_globals.get("__name__", "").split(".")[0] == "joulecast":
        level += 1
        f = f.f_back
    for w in seen:
        warnings.warn(w, JoulecastWarning, stacklevel=level)


def _flat(row):
    """A row for a DataFrame: a range {low, central, high} becomes three
    columns (NAME the central, NAME_low, NAME_high), another dict
    NAME_KEY columns; other values stay as they are."""
    out = {}
    for k, v in row.items():
        if isinstance(v, dict) and set(v) == {"low", "central", "high"}:
            out[k] = v["central"]
            out[k + "_low"] = v["low"]
            out[k + "_high"] = v["high"]
        elif isinstance(v, dict):
            for k2, v2 in _flat(v).items():
                out["%s_%s" % (k, k2)] = v2
        else:
            out[k] = v
    return out


class Result(dict):
    """A joulecast result: the CLI's --json document (docs/json-schemas.md)."""

    __slots__ = ("_html", "_rows")

    def __init__(self, doc, html=None, rows=None):
        super().__init__(doc)
        self._html = html    # () -> the HTML report, or None
        self._rows = rows    # () -> list of row dicts, or None
        _issue_warnings(doc)

    def __reduce__(self):
        return (dict, (dict(self),))

    def _repr_html_(self):
        if self._html is None:
            return None  # Jupyter falls back to the text repr
        return self._html()

    def html(self):
        """The HTML report (the CLI's --html output) as a string."""
        if self._html is None:
            raise Error("this result has no HTML report (estimate, compare and sweep "
                        "have one)", USAGE, "usage error")
        return self._html()

    def to_frame(self):
        """The result's rows as a pandas DataFrame (needs pandas)."""
        if self._rows is None:
            raise Error("this result has no rows for a DataFrame (count, estimate, "
                        "compare and sweep have)", USAGE, "usage error")
        try:
            import pandas
        except ImportError as e:
            raise Error("to_frame() needs pandas (Debian: apt-get install python3-pandas): "
                        "%s" % e, USAGE, "usage error") from None
        return pandas.DataFrame([_flat(r) for r in self._rows()])
