"""setup.py - builds the joulecast Python package from the repository.

`pip install ./python` (or `pip wheel ./python`) runs this: it builds the
C library with the repository's Makefile (`make all`, which is a no-op
when build/ is up to date), then puts into the package

  joulecast/libjoulecast.so   the library the ctypes binding loads
  joulecast/hwdb/             the bundled hardware database (YAML, README,
                              VERSION), as `make install` installs it
  joulecast/hwdb.snap         its snapshot, written for this copy
  joulecast/_version.py       the C library's JC_VERSION

so the installed package needs nothing from the checkout.  A snapshot
records each file's size and modification time (src/hwdb/snapshot.c), and
installing a wheel writes new files, so the shipped snapshot is stale
once installed: the package rewrites it in place on first use when its
folder is writable (joulecast.hwdb_snapshot()), and otherwise parses the
YAML (same numbers, about 20 ms a call).  Shipping the file means pip's
RECORD lists it, so `pip uninstall joulecast` removes the rewritten one.

The wheel holds a compiled library, so it is tagged for this platform
(py3-none-<platform>); it links the system's libprotobuf-c, libyaml and
libcjson, so it installs on machines of the same kind.
"""

import os
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

try:  # setuptools >= 70.1 carries bdist_wheel; before, the wheel package
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:
    try:
        from wheel.bdist_wheel import bdist_wheel
    except ImportError:  # _build_backend.py writes the wheel itself
        bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HEADER = os.path.join(ROOT, "include", "joulecast.h")
HWDB_FILES = (".yaml",)
HWDB_EXTRA = ("README.md", "VERSION")


def c_version():
    """JC_VERSION of include/joulecast.h."""
    try:
        with open(HEADER, encoding="utf-8") as f:
            m = re.search(r'^#define JC_VERSION "([^"]+)"', f.read(), re.M)
    except OSError as e:
        sys.exit("joulecast setup.py: %s: %s (build from a joulecast checkout: "
                 "pip install ./python at the repository root)" % (HEADER, e.strerror))
    if not m:
        sys.exit("joulecast setup.py: %s has no JC_VERSION" % HEADER)
    return m.group(1)


def run_make():
    """`make all` in the repository; the recursive-make variables of a
    caller (make test) are dropped so this make runs on its own."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    cmd = ["make", "-C", ROOT, "--no-print-directory", "all"]
    print("joulecast: " + " ".join(cmd), flush=True)
    r = subprocess.run(cmd, env=env)
    if r.returncode != 0:
        sys.exit("joulecast setup.py: `%s` failed (exit %d); `make check-deps` lists "
                 "the Debian packages the build needs" % (" ".join(cmd), r.returncode))


def copy_hwdb(src, dst):
    """The hwdb files `make install` installs: every *.yaml, README.md and
    VERSION, with their folders."""
    if os.path.isdir(dst):
        shutil.rmtree(dst)
    for d, dirs, files in os.walk(src):
        dirs.sort()
        rel = os.path.relpath(d, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for f in sorted(files):
            if f.endswith(HWDB_FILES) or f in HWDB_EXTRA:
                shutil.copyfile(os.path.join(d, f), os.path.join(dst, rel, f))


class BuildWithLibrary(build_py):
    """build_py, then the C library, the hwdb and its snapshot."""

    def run(self):
        run_make()
        pkg = os.path.join(self.build_lib, "joulecast")
        # a fresh copy: setuptools leaves files of earlier builds in build/
        shutil.rmtree(pkg, ignore_errors=True)
        super().run()
        os.makedirs(pkg, exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, "build", "libjoulecast.so"),
                        os.path.join(pkg, "libjoulecast.so"))
        os.chmod(os.path.join(pkg, "libjoulecast.so"), 0o755)
        copy_hwdb(os.path.join(ROOT, "hwdb"), os.path.join(pkg, "hwdb"))
        snap = os.path.join(pkg, "hwdb.snap")
        r = subprocess.run([os.path.join(ROOT, "build", "joulecast"), "hwdb", "snapshot",
                            os.path.join(pkg, "hwdb"), "-o", snap])
        if r.returncode != 0:
            sys.exit("joulecast setup.py: writing the hwdb snapshot failed (exit %d)"
                     % r.returncode)
        with open(os.path.join(pkg, "_version.py"), "w", encoding="utf-8") as f:
            f.write('"""Written by setup.py: the C library\'s JC_VERSION."""\n'
                    "__version__ = %r\n" % c_version())


cmdclass = {"build_py": BuildWithLibrary}

if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        """A wheel for this platform (it carries libjoulecast.so) that any
        Python 3 loads: ctypes, no compiled extension module."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass["bdist_wheel"] = PlatformWheel

setup(
    name="joulecast",
    version=c_version(),
    description="Predict the time, energy and emissions of training or running a "
                "neural network from its ONNX graph (ctypes binding of libjoulecast)",
    long_description="See the README of the joulecast repository.",
    packages=["joulecast"],
    python_requires=">=3.7",
    extras_require={"pandas": ["pandas"], "torch": ["torch", "onnx"]},
    cmdclass=cmdclass,
    zip_safe=False,
)
