"""run_tests.py - runs the unittest modules of this folder and prints one
line per test, "PASS python/NAME" or "FAIL python/NAME (why)", on stdout
(what tests/run.sh counts); tracebacks and anything the tests or torch
print go to stderr.  Exit status 1 when a test failed or none ran.
Usage: python run_tests.py [PATTERN]   (default test_*.py)"""

import os
import sys
import unittest


class Lines(unittest.TextTestResult):
    def _line(self, test, ok, why=""):
        name = test.id().rsplit(".", 1)[-1]
        sys.stdout.write("%s python/%s%s\n" % ("PASS" if ok else "FAIL", name,
                                               "" if ok else " (%s)" % why))
        sys.stdout.flush()

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(test, True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line(test, False, "failed: %s" % str(err[1]).splitlines()[0][:200] if str(err[1]) else "failed")

    def addError(self, test, err):
        super().addError(test, err)
        self._line(test, False, "error: %s: %s" % (err[0].__name__, str(err[1])[:200]))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(test, False, "skipped: %s" % reason)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here, pattern=sys.argv[1] if len(sys.argv) > 1
                                                else "test_*.py")
    r = unittest.TextTestRunner(stream=sys.stderr, verbosity=1, resultclass=Lines).run(suite)
    sys.exit(0 if r.wasSuccessful() and r.testsRun else 1)


if __name__ == "__main__":
    main()
