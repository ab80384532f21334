"""_result.py - what the package's functions return: the CLI's JSON
document as a dict (a dict subclass: json.dumps, ==, indexing work as on
a plain dict), plus two notebook conveniences:

  _repr_html_()  Jupyter shows the HTML report the CLI writes with --html
                 (estimate, compare, sweep: the same request run again with
                 the binding's "html" key); results without an HTML report
                 (count, ga, hw, region) have none and display
                 as a dict
  to_frame()     the rows as a pandas DataFrame: per node for count and
                 estimate, per model for compare, per entry for sweep.
                 pandas is imported here, on first use, never at
                 `import joulecast`
"""

from ._native import Error, USAGE


class Result(dict):
    """A joulecast result: the CLI's --json document (docs/json-schemas.md)."""

    __slots__ = ("_html", "_rows")

    def __init__(self, doc, html=None, rows=None):
        super().__init__(doc)
        self._html = html    # () -> the HTML report, or None
        self._rows = rows    # () -> list of row dicts, or None

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
        return pandas.DataFrame(self._rows())
