"""test_layout.py - the binding's hand copy of a C struct checked against
the C compiler: _native._Diag must have jc_diag's size and each field its
offset (include/joulecast.h), else every error the library reports would
be read from the wrong bytes.  Compiles and runs a small C program with
cc; run by tests/python.sh like the other modules (JC_SRC: the checkout).
"""

import ctypes
import os
import shutil
import subprocess
import tempfile
import unittest

from joulecast import _native

ROOT = os.environ.get("JC_SRC") or os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


class LayoutTest(unittest.TestCase):
    def test_diag_matches_c_struct(self):
        cc = shutil.which("cc") or shutil.which("gcc")
        self.assertIsNotNone(cc, "no C compiler to read jc_diag's layout")
        fields = [name for name, _ in _native._Diag._fields_]
        lines = ['#include <stddef.h>', '#include <stdio.h>', '#include "joulecast.h"',
                 'int main(void) {', '    printf("size %zu\\n", sizeof(jc_diag));']
        lines += ['    printf("%s %%zu\\n", offsetof(jc_diag, %s));' % (f, f) for f in fields]
        lines += ['    return 0;', '}']
        with tempfile.TemporaryDirectory() as t:
            src, exe = os.path.join(t, "layout.c"), os.path.join(t, "layout")
            with open(src, "w") as fh:
                fh.write("\n".join(lines) + "\n")
            subprocess.run([cc, "-std=c11", "-I", os.path.join(ROOT, "include"), "-o", exe, src],
                           check=True, capture_output=True)
            out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
        want = dict(line.split() for line in out.splitlines())
        self.assertEqual(ctypes.sizeof(_native._Diag), int(want["size"]), "sizeof(jc_diag)")
        for f in fields:
            self.assertEqual(getattr(_native._Diag, f).offset, int(want[f]), "offsetof(jc_diag, %s)" % f)


if __name__ == "__main__":
    unittest.main()
