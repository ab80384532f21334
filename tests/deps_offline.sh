#!/bin/sh
# deps_offline.sh - make test's package step on a machine without network
# (issue 44 item 19), with apt-get, dpkg-query and id stubbed and a scratch
# apt folder (JC_APT_DIR), so nothing of this system is touched:
#   - deps.sh test, emscripten missing, as root, apt-get failing (offline):
#     it says what it is about to change before the first apt-get call,
#     then goes on (exit 0) saying that tests/web.sh will skip;
#   - the same with a test package missing: exit 1 (those are required);
#   - deps.sh web (make web) with emscripten missing: exit 1;
#   - every package installed, deb-src configured: silent, no apt-get call;
#   - tests/web.sh with no emcc and deps.sh web failing: every case prints
#     SKIP web/... (allowed by tests/expected_skips.txt), none FAILs.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { echo "PASS deps_offline/$1"; }
ko() { echo "FAIL deps_offline/$1${2:+: $2}"; }

mkdir -p "$T/bin" "$T/apt/sources.list.d"
cat > "$T/bin/dpkg-query" <<'EOF2'
#!/bin/sh
# the last argument is the package; STUB_MISSING lists the absent ones
for p; do :; done
case " $STUB_MISSING " in *" $p "*) exit 1 ;; esac
printf 'install ok installed'
EOF2
cat > "$T/bin/apt-get" <<'EOF2'
#!/bin/sh
echo "STUB apt-get $*" >&2
echo "E: Temporary failure resolving 'deb.debian.org'" >&2
exit 100
EOF2
printf '#!/bin/sh\necho "${STUB_UID:-0}"\n' > "$T/bin/id"
chmod +x "$T/bin/dpkg-query" "$T/bin/apt-get" "$T/bin/id"
printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n' > "$T/apt/sources.list.d/debian.sources"

# deps MODE MISSING: runs deps.sh with the stubs; stderr in $T/err
deps() {
  rm -f "$T/apt/sources.list.d/joulecast-deb-src.sources"
  PATH="$T/bin:$PATH" JC_APT_DIR="$T/apt" STUB_MISSING="$2" sh tools/deps.sh "$1" 2> "$T/err"
}

deps test "emscripten"; rc=$?
first_apt=$(grep -n '^STUB apt-get' "$T/err" | head -n 1 | cut -d: -f1)
notice=$(grep -n '^joulecast: about to ' "$T/err" | head -n 1 | cut -d: -f1)
[ $rc = 0 ] && ok test-goes-on-offline || ko test-goes-on-offline "exit $rc: $(tr '\n' '|' < "$T/err")"
[ -n "$notice" ] && [ -n "$first_apt" ] && [ "$notice" -lt "$first_apt" ] && ok says-so-before-changing ||
  ko says-so-before-changing "notice line ${notice:-none}, first apt-get line ${first_apt:-none}: $(tr '\n' '|' < "$T/err")"
grep -q 'tests/web.sh skips' "$T/err" && ok names-the-skip || ko names-the-skip "$(tr '\n' '|' < "$T/err")"

deps test "emscripten valgrind"; rc=$?
[ $rc = 1 ] && ok test-package-required || ko test-package-required "exit $rc"
deps web "emscripten"; rc=$?
[ $rc = 1 ] && ok web-toolchain-required-by-make-web || ko web-toolchain-required-by-make-web "exit $rc"

printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n' > "$T/apt/sources.list.d/src.sources"
deps test ""; rc=$?
[ $rc = 0 ] && [ ! -s "$T/err" ] && ok silent-when-installed || ko silent-when-installed "exit $rc: $(tr '\n' '|' < "$T/err")"
rm -f "$T/apt/sources.list.d/src.sources"

# tests/web.sh on such a machine: skips, never fails
PATH="$T/bin:$PATH" JC_APT_DIR="$T/apt" STUB_MISSING="emscripten" EMCC="$T/no-emcc" \
  JC_WEB_OUT="$T/web" sh tests/web.sh > "$T/web.out" 2>&1
nskip=$(grep -c '^SKIP web/' "$T/web.out"); nfail=$(grep -c '^FAIL ' "$T/web.out")
[ "$nskip" -gt 0 ] && [ "$nfail" = 0 ] && ok web-skips-without-toolchain ||
  ko web-skips-without-toolchain "$nskip skips, $nfail failures: $(head -n 3 "$T/web.out" | tr '\n' '|')"
exit 0
