"""fmt_rule.py - the text reports' number rule (docs/json-schemas.md,
"Numbers in text and HTML") written again in Python from the document, so
the shell layers can say which text a figure of the JSON must appear as
in a text report; an independent check of src/base/fmt.c."""
import math


def fmt_num(v):
    """A whole number in full, else four significant digits with trailing
    zeros dropped; thousands separators from 1,000; an exponent below 1e-4
    or from 1e15; n/a for unknown."""
    if v is None or not math.isfinite(v):
        return "n/a"
    if abs(v) < 1e15 and v == math.floor(v):
        return "{:,}".format(int(v))
    ex = int(("%.3e" % v).split("e")[1])
    if 3 <= ex < 15:
        return "{:,}".format(int(math.copysign(math.floor(abs(v) + 0.5), v)))  # llround
    s = "%.3e" % v if (ex >= 15 or ex < -4) else "%.*f" % (3 - ex, v)
    mant, _, exp = s.partition("e")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return mant + ("e" + exp if exp else "")
