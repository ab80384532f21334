"""_build_backend.py - the PEP 517 build backend pyproject.toml names.

Where a bdist_wheel command exists (the `wheel` package, as Debian's
python3-wheel and every isolated build provide, or setuptools >= 70.1,
which carries its own), this is setuptools.build_meta unchanged.  Where
none exists - a venv of a Python other than Debian's has setuptools but no
`wheel`, so `pip install --no-build-isolation --no-index ./python` stopped
at "invalid command 'bdist_wheel'" (issue 44 item 12) - it builds the same
package with setup.py's own build_py (the C library, the hwdb and its
snapshot) and writes the wheel itself: the py3-none-<platform> wheel that
setup.py's PlatformWheel would write, with its METADATA, WHEEL and RECORD.
So the offline install needs only setuptools in the venv.  Not installed
with the package (setup.py packages only joulecast/).
"""

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

from setuptools import build_meta as _setuptools

HERE = os.path.dirname(os.path.abspath(__file__))


def _have_bdist_wheel():
    """True when setuptools can run bdist_wheel itself."""
    for mod in ("setuptools.command.bdist_wheel", "wheel.bdist_wheel"):
        try:
            __import__(mod)
            return True
        except ImportError:
            pass
    return False


build_sdist = _setuptools.build_sdist
get_requires_for_build_sdist = _setuptools.get_requires_for_build_sdist


def get_requires_for_build_wheel(config_settings=None):
    """setuptools' list where it can build wheels; nothing more otherwise."""
    if _have_bdist_wheel():
        return _setuptools.get_requires_for_build_wheel(config_settings)
    return []


if _have_bdist_wheel():
    # without bdist_wheel pip takes the metadata from build_wheel's wheel
    prepare_metadata_for_build_wheel = _setuptools.prepare_metadata_for_build_wheel
    if hasattr(_setuptools, "build_editable"):
        build_editable = _setuptools.build_editable
        get_requires_for_build_editable = _setuptools.get_requires_for_build_editable
        prepare_metadata_for_build_editable = _setuptools.prepare_metadata_for_build_editable


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """The wheel, by setuptools where it can, else by _own_wheel."""
    if _have_bdist_wheel():
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    return _own_wheel(wheel_directory)


def _metadata(egg_info):
    """METADATA from an egg-info folder: PKG-INFO, with requires.txt's
    extras as Provides-Extra / Requires-Dist lines (as bdist_wheel does)."""
    with open(os.path.join(egg_info, "PKG-INFO"), encoding="utf-8") as f:
        head, sep, body = f.read().partition("\n\n")
    extra_lines, extra = [], ""
    req = os.path.join(egg_info, "requires.txt")
    if os.path.exists(req):
        with open(req, encoding="utf-8") as f:
            for line in (ln.strip() for ln in f):
                if line.startswith("[") and line.endswith("]"):
                    extra = line[1:-1]
                    extra_lines.append("Provides-Extra: " + extra)
                elif line:
                    extra_lines.append("Requires-Dist: %s%s" % (
                        line, '; extra == "%s"' % extra if extra else ""))
    have = set(head.splitlines())
    head += "".join("\n" + ln for ln in extra_lines if ln not in have)
    return head + "\n" + sep + body if sep else head + "\n"


def _record_line(arcname, data):
    """One RECORD line: the path, its urlsafe SHA-256 and its size."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "%s,sha256=%s,%d" % (arcname, digest.decode(), len(data))


def _own_wheel(wheel_directory):
    """setup.py's build (egg_info, build_py) zipped into a wheel."""
    tmp = tempfile.mkdtemp(prefix="joulecast-wheel-")
    try:
        lib = os.path.join(tmp, "lib")
        cmd = [sys.executable, "setup.py", "-q", "egg_info", "--egg-base", tmp,
               "build_py", "--build-lib", lib]
        r = subprocess.run(cmd, cwd=HERE)
        if r.returncode != 0:
            sys.exit("joulecast _build_backend: `%s` failed (exit %d)" % (" ".join(cmd), r.returncode))
        egg = [d for d in os.listdir(tmp) if d.endswith(".egg-info")][0]
        name, version = "joulecast", None
        with open(os.path.join(tmp, egg, "PKG-INFO"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("Version: "):
                    version = line.split(": ", 1)[1].strip()
        plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        tag = "py3-none-" + plat
        info = "%s-%s.dist-info" % (name, version)
        files = []
        for d, dirs, names in os.walk(lib):
            dirs.sort()
            for n in sorted(names):
                p = os.path.join(d, n)
                files.append((os.path.relpath(p, lib).replace(os.sep, "/"), p))
        meta = {
            "METADATA": _metadata(os.path.join(tmp, egg)),
            "WHEEL": "Wheel-Version: 1.0\nGenerator: joulecast _build_backend\n"
                     "Root-Is-Purelib: false\nTag: %s\n" % tag,
            "top_level.txt": "joulecast\n",
        }
        whl = "%s-%s-%s.whl" % (name, version, tag)
        record = []
        with zipfile.ZipFile(os.path.join(wheel_directory, whl), "w", zipfile.ZIP_DEFLATED) as z:
            for arc, path in files:
                with open(path, "rb") as f:
                    data = f.read()
                zi = zipfile.ZipInfo(arc, date_time=(1980, 1, 1, 0, 0, 0))
                zi.external_attr = (os.stat(path).st_mode & 0o777 | 0o100000) << 16
                zi.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(zi, data)
                record.append(_record_line(arc, data))
            for n, text in meta.items():
                data = text.encode("utf-8")
                z.writestr("%s/%s" % (info, n), data)
                record.append(_record_line("%s/%s" % (info, n), data))
            record.append("%s/RECORD,," % info)
            z.writestr("%s/RECORD" % info, "\n".join(record) + "\n")
        return whl
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
