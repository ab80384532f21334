#!/bin/sh
# lint.sh - the boundaries docs/ARCHITECTURE.md promises, checked: `make
# lint`, and a layer of `make test` (tests/lint.sh).  One PASS/FAIL line per
# check; each FAIL is followed by the offending places, indented.
#
#   third-party-headers  protobuf-c (onnx.pb-c.h) only in src/onnx/, yaml.h
#                        only in src/base/yaml.c, cJSON.h only in src/report/
#                        and three readers: src/analysis/hfconfig.c
#                        (config.json), src/trace/trace_json.c (Scaphandre),
#                        src/workflows/diff.c (estimate --json read back)
#   hwdb-internals       src/hwdb/hwdb_int.h included only inside src/hwdb/
#                        (tests and benchmarks may include it)
#   analysis-internals   src/analysis/ops/'s private headers and tables
#                        (ops.h, actx.h, ops.def, kernels.def) included only
#                        inside src/analysis/ (tests may include them), and
#                        src/estimate/ reads no node's op name, domain or
#                        attribute (op_type, ->domain, jc_node_attr): it reads
#                        the kinds and GEMM shape the analysis hands each
#                        counted node (jc_counted_node: fusion, kernel, gemm)
#   no-printing          the library (src/ except src/cli/) never names
#                        stdout or stderr, never calls printf, puts, putchar,
#                        perror or vprintf: it writes to the FILE * it is given
#   purpose-comment      every source file opens with a comment saying what
#                        it holds (C: "/*" on line 1; shell and Python: a
#                        comment or docstring in the first lines)
#   no-loose-c           no .c file directly in src/ (folders by stage)
#   function-length      no function in src/ longer than 150 lines
#                        (tools/funclen.awk; LINT_MAX_LINES overrides)
#   cjson-checked        no cJSON_Add* / cJSON_Create* call whose result is
#                        dropped (a statement of its own)
#   status-kept          no call of a function returning jc_status cast to
#                        (void) in src/: the status is returned or tested
#   internal-prefix      libjoulecast.a defines jc_ symbols only for names in
#                        the public headers (include/); internal ones use jci_ (or a
#                        stage's own prefix: op_/sh_/co_ ops, hw_/hs_ hwdb,
#                        rj_/fmt_ reports, ...: the table of
#                        docs/ARCHITECTURE.md), never jc_ (reads
#                        build/libjoulecast.a; `make lint` builds it);
#                        no struct/enum/union defined in src/ is named jc_,
#                        no macro, enum constant or pasted constant (JC_X_##)
#                        defined in src/ is named JC_ (JCI_)
#   stage-order          a stage folder's objects call only their own stage
#                        and earlier ones: base onnx analysis hwdb job trace
#                        estimate workflows report bind (nm -u of
#                        build/obj/src/STAGE/*.o; the CLI is outside)
#   estimate-calls       no function-call cycle between the files of
#                        src/estimate/ (nm of build/obj/src/estimate/*.o: a
#                        file calls another when it uses a symbol that one
#                        defines; a cycle is named with one call per edge)
#   dead-functions       every global function of src/ (nm of build/obj/src)
#                        has a caller: another object uses it (nm -u), its
#                        own file names it again, or a test, benchmark, the
#                        web page or the Python package (ctypes) names it
#   file-header          every file's header starts "NAME - purpose" (a file
#                        of src/: "NAME (STAGE) - purpose", STAGE its folder
#                        under src/), and every source file or jc_/jci_
#                        function it names exists (tools/header_lint.sh)
#   exports              libjoulecast.so exports jc_ symbols only, and every
#                        public function the library defines (the build's
#                        -fvisibility=hidden and the public headers'
#                        pragma; `nm -D --defined-only`)
#   public-header        include/joulecast.h is at most 1,500 lines and at
#                        most 30 objects of the build read it (the stages
#                        include their internal header and the joulecast/
#                        headers they need; build/obj's .d files); each
#                        include/joulecast/*.h is read by at most 30 (the
#                        widely named base, model, analysis, job, hwdb and
#                        estimate headers: their own ceilings) and compiles
#                        on its own
#   rules-once           each rule below has one definition, grepped for a
#                        second in src/: the joules in a kWh (JCI_J_PER_KWH,
#                        jc_internal.h; no 3.6e6 elsewhere) and the seconds
#                        in an hour (JCI_S_PER_H; no 3600 in code elsewhere);
#                        which dtypes are
#                        floating point (jci_dtype_is_float, base/dtype.c; no
#                        list of float dtypes joined by || outside it and the
#                        loader); which precisions an estimate runs at
#                        (jci_precision_runs, estimate/checks.c; no
#                        comparison with JC_PREC_FP64/INT4 elsewhere); an
#                        option's bounds (src/job/job_keys.def; no "--KEY
#                        must be" message for a bounded job key outside
#                        src/job/; `joulecast ga` takes the calculator's own
#                        inputs with its bounds, src/workflows/ga.c); the
#                        hwdb search order (jc_hwdb_find_dir, src/hwdb/
#                        locate.c; no "share/joulecast/hwdb" candidate
#                        elsewhere in src/ or python/joulecast/); the
#                        request keys' value grammar (jc_parse_binding,
#                        jc_parse_shape_binding, jc_parse_values_binding,
#                        jc_parse_flag, jc_jobfile_path: src/job/reqparse.c;
#                        no "expects NAME=", "true or false" message or
#                        "yes" flag word elsewhere in src/); the request's
#                        keys set and a job file layered beneath the
#                        caller's (jci_reqset_set, jci_jobfile_pairs:
#                        src/job/reqset.c; no binding parser, convention
#                        parse, jc_jobfile_path or "expects a file name"
#                        outside src/job/, no jc_job_set in the front ends
#                        src/cli/ and src/bind/ but the trace command's own
#                        job of trace keys, src/cli/cmd_trace.c)
#
# Exit status 0 when every check passes, else 1.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# report NAME FILE: PASS when FILE is empty, else FAIL and its lines
report() {
  if [ -s "$2" ]; then
    echo "FAIL lint/$1"
    sed 's/^/    /' "$2" | head -40
    fails=$((fails + 1))
  else
    echo "PASS lint/$1"
  fi
}

csrc() { find src include -name '*.c' -o -name '*.h' -o -name '*.def' | sort; }

# ---- third-party headers, each in its owner folder ------------------------
: > "$tmp/tp"
for f in $(csrc); do
  case "$f" in src/onnx/*) ;; *)
    grep -Hn '#[[:space:]]*include[[:space:]]*[<"]\(protobuf-c/\|onnx\.pb-c\.h\)' "$f" >> "$tmp/tp" ;;
  esac
  case "$f" in src/base/yaml.c) ;; *)
    grep -Hn '#[[:space:]]*include[[:space:]]*[<"]yaml\.h' "$f" >> "$tmp/tp" ;;
  esac
  case "$f" in src/report/*|src/analysis/hfconfig.c|src/trace/trace_json.c|src/workflows/diff.c) ;; *)
    grep -Hn '#[[:space:]]*include[[:space:]]*[<"]\(cjson/\)\{0,1\}cJSON\.h' "$f" >> "$tmp/tp" ;;
  esac
done
report third-party-headers "$tmp/tp"

# ---- the hwdb's private header -------------------------------------------
: > "$tmp/hi"
for f in $(csrc); do
  case "$f" in src/hwdb/*) continue ;; esac
  grep -Hn '#[[:space:]]*include[[:space:]]*"\(hwdb/\)\{0,1\}hwdb_int\.h"' "$f" >> "$tmp/hi"
done
report hwdb-internals "$tmp/hi"

# ---- the analysis stage's private headers; estimate reads no ONNX node ---
: > "$tmp/ai"
for f in $(csrc); do
  case "$f" in src/analysis/*) continue ;; esac
  grep -Hn '#[[:space:]]*include[[:space:]]*"analysis/ops/' "$f" >> "$tmp/ai"
done
grep -Hn 'op_type\|->domain\|jc_node_attr[[:space:]]*(' src/estimate/*.c src/estimate/*.h /dev/null |
  sed 's/$/  (estimate reads the analysis'"'"'s jc_counted_node kinds and gemm, not the ONNX node)/' >> "$tmp/ai"
report analysis-internals "$tmp/ai"

# ---- no printing from the library ----------------------------------------
: > "$tmp/pr"
# one awk over every library file; comments and string literals are blanked
# first (a word in prose is fine)
csrc | grep -v '^src/cli/\|^include/' |
  xargs awk '
    FNR == 1 { incomment = 0 }
    { sub(/\/\/.*$/, ""); gsub(/"([^"\\]|\\.)*"/, "\"\"")
      line = $0
      while (incomment) { e = index(line, "*/"); if (!e) { line = ""; break }
                          line = substr(line, e + 2); incomment = 0 }
      out = ""
      while ((s = index(line, "/*"))) {
        out = out substr(line, 1, s - 1); rest = substr(line, s + 2); e = index(rest, "*/")
        if (!e) { incomment = 1; line = ""; break }
        line = substr(rest, e + 2)
      }
      out = out line
      if (out ~ /(^|[^A-Za-z0-9_])(stdout|stderr)([^A-Za-z0-9_]|$)/ ||
          out ~ /(^|[^A-Za-z0-9_])(printf|puts|putchar|perror|vprintf)[ \t]*\(/)
        print FILENAME ":" FNR ": " $0 }' >> "$tmp/pr"
report no-printing "$tmp/pr"

# ---- a purpose comment atop every source file ----------------------------
: > "$tmp/pc"
# the files to check (generated and data files are not), then one awk: a C
# file's line 1 opens "/*"; a script has a comment or docstring in its first
# four lines (an empty file has neither)
git ls-files 'src/*' 'include/*' 'tests/*' 'tools/*' 'bench/*' 'python/*' 2>/dev/null |
  grep -v '^tests/\(golden\|data\|models\|hwdb\)/\|^tests/fuzz/seeds/\|^tests/fuzz/regress/' |
  grep '\.\(c\|h\|def\|sh\|py\|awk\)$' | while read -r f; do
    [ -f "$f" ] || continue
    [ -s "$f" ] && echo "$f" || echo "$f: empty, no purpose comment" >> "$tmp/pc"
  done > "$tmp/pcf"
[ -s "$tmp/pcf" ] && xargs awk '
  function verdict() {
    if (ok) return
    if (c) print f ": no /* purpose */ comment on line 1"
    else   print f ": no purpose comment in its first lines"
  }
  FNR == 1 { if (f != "") verdict(); f = FILENAME; c = (f ~ /\.(c|h|def)$/); ok = 0 }
  c && FNR == 1 && /^\/\*/ { ok = 1 }
  !c && FNR <= 4 && (/^#[^!]/ || /^"""/ || /^#$/) { ok = 1 }
  END { if (f != "") verdict() }' < "$tmp/pcf" >> "$tmp/pc"
report purpose-comment "$tmp/pc"

# ---- no .c loose in src/ ----------------------------------------------------
find src -maxdepth 1 -name '*.c' | sort > "$tmp/lc"
report no-loose-c "$tmp/lc"

# ---- function length ---------------------------------------------------------
max=${LINT_MAX_LINES:-150}
find src -name '*.c' | sort | xargs awk -f tools/funclen.awk |
  awk -v M="$max" '$3 + 0 > M { print $0 " lines (over " M ")" }' > "$tmp/fl"
report function-length "$tmp/fl"

# ---- every cJSON_Add* / cJSON_Create* result used ----------------------------
# a call that starts a statement (the line before ends one: ; { } ) else :)
# and ends it on the same line drops the result
find src -name '*.c' | sort | xargs awk '
  FNR == 1 { prev = ";" }
  /^[ \t]*cJSON_(Add|Create)[A-Za-z]*\(.*\);[ \t]*$/ && prev ~ /([;{})]|else|:)[ \t]*$/ {
    print FILENAME ":" FNR ": " $0 }
  /[^ \t]/ && !/^[ \t]*(\/\*|\*|\/\/|#)/ { prev = $0 }' > "$tmp/cj"
report cjson-checked "$tmp/cj"

# ---- no status discarded -------------------------------------------------------
# a call of a function that returns jc_status (any declared in src/ or
# include/) is never cast to (void): its status is returned or tested, so
# the diagnostic it filled is never lost (status + diagnostic, STYLE.md)
csrc | xargs grep -ohE 'jc_status[[:space:]]+[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(' |
  sed -E 's/^jc_status[[:space:]]+//; s/[[:space:]]*\($//' | sort -u > "$tmp/stfn"
find src -name '*.c' | sort | xargs grep -nE '\(void\)[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(' |
  while IFS= read -r l; do
    fn=$(printf '%s\n' "$l" | sed -E 's/.*\(void\)[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\(.*/\1/')
    if grep -qxF "$fn" "$tmp/stfn"; then printf '%s  (a jc_status cast to (void): return or test it)\n' "$l"; fi
  done > "$tmp/sk"
report status-kept "$tmp/sk"

# ---- internal prefix -----------------------------------------------------------
: > "$tmp/ip"
lib=build/libjoulecast.a
if [ ! -f "$lib" ]; then
  echo "$lib missing: run make first" > "$tmp/ip"
else
  cat include/joulecast.h include/joulecast/*.h | grep -o '\bjc_[A-Za-z0-9_]*' | sort -u > "$tmp/public"
  nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/defined"
  grep '^jc_' "$tmp/defined" | comm -23 - "$tmp/public" |
    sed 's/^/not in the public headers (include\/) but named jc_ (use jci_): /' >> "$tmp/ip"
  # every other global symbol has a prefix docs/ARCHITECTURE.md lists
  grep -v '^\(jc\|jci\|op\|sh\|co\|dim\|fold\|oprules\|ax\|hw\|hs\|tr\|rj\|rcsv\|fmt\|bind\)_' "$tmp/defined" |
    grep -v '^onnx__\|^protobuf_c_' |
    sed 's/^/a prefix docs\/ARCHITECTURE.md does not list: /' >> "$tmp/ip"
fi
# and no type defined in src/ takes the public prefix (the public types are
# defined in include/; a type has no symbol for nm to see)
grep -rnE '^[[:space:]]*(typedef[[:space:]]+)?(struct|enum|union)[[:space:]]+jc_[A-Za-z0-9_]*[[:space:]]*\{|^[[:space:]]*\}[[:space:]]*jc_[A-Za-z0-9_]*[[:space:]]*;' src |
  sed 's/^/a type of src\/ named jc_ (use jci_; tools\/rename_internal.sh): /' >> "$tmp/ip"
# nor a macro, an enum constant or a pasted constant name (JC_X_##e) defined
# in src/: JC_ is what include/joulecast/ defines, src/'s own are JCI_
find src -name '*.c' -o -name '*.h' -o -name '*.def' | sort | xargs perl -e '
  for my $f (@ARGV) {
    open(my $h, "<", $f) or next; my @l = <$h>; close $h;
    my $s = join("", @l);
    $s =~ s{/\*.*?\*/}{my $c = $&; $c =~ s/[^\n]//g; $c}gse; $s =~ s{//[^\n]*}{}g;
    my @ln = split /\n/, $s, -1;
    for my $i (0 .. $#ln) {
      print "$f:", $i + 1, ": macro $1\n" if $ln[$i] =~ /^\s*#\s*define\s+(JC_\w+)/;
      print "$f:", $i + 1, ": pasted constant $1##\n" while $ln[$i] =~ /\b(JC_\w*)\s*##/g;
    }
    while ($s =~ /\benum\b[^{};()]*\{(.*?)\}/gs) {
      my ($b, $at) = ($1, $-[1]);
      while ($b =~ /(?:^|,)\s*(JC_\w+)/g) {
        my $line = 1 + (substr($s, 0, $at + $-[1]) =~ tr/\n//);
        print "$f:$line: enum constant $1\n";
      }
    }
  }' | sed 's/$/ (defined in src\/ with the public prefix: use JCI_; tools\/rename_internal.sh)/' >> "$tmp/ip"
report internal-prefix "$tmp/ip"

# ---- stage order: a stage calls only itself and the stages before it -------
# The order of docs/ARCHITECTURE.md's flow; the release objects of each
# folder (build/obj/src/STAGE/) name the symbols they use (nm -u), and each
# one defined in a later stage is a call the wrong way.
: > "$tmp/so"
stages="base onnx analysis hwdb job trace estimate workflows report bind"
# the objects of a stage whose source is still there (a moved file leaves
# its old object behind)
stage_objs() {
  find "build/obj/src/$1" -name '*.o' 2>/dev/null | sort | while read -r o; do
    c=${o#build/obj/}; [ -f "${c%.o}.c" ] && echo "$o"
  done
}
# every object's global symbols from one nm run, read by the three checks
# below (an nm per object made them most of make lint's time): "OBJ D SYM
# TYPE" for a definition, "OBJ U SYM" for a reference
for s in $stages cli; do stage_objs "$s"; done | sort -u > "$tmp/objs"
if [ -s "$tmp/objs" ]; then
  xargs nm -g -A < "$tmp/objs" 2>/dev/null | awk '{
    i = index($0, ":"); n = split(substr($0, i + 1), f, " ")
    if (n == 3) print substr($0, 1, i - 1), "D", f[3], f[2]
    else if (n == 2) print substr($0, 1, i - 1), "U", f[2] }' > "$tmp/nm"
fi
if [ ! -d build/obj/src/base ]; then
  echo "build/obj/src missing: run make first" > "$tmp/so"
else
  awk -v stages="$stages" 'BEGIN { n = split(stages, a, " "); for (i = 1; i <= n; i++) rank[a[i]] = i }
    { split($1, p, "/"); s = p[4] }
    !(s in rank) { next }
    $2 == "D" { dr[$3] = rank[s]; ds[$3] = s; next }
    { u[++m] = $3; uo[m] = substr($1, 11); us[m] = s }
    END { for (k = 1; k <= m; k++) if ((u[k] in dr) && dr[u[k]] > rank[us[k]])
            print uo[k] " (" us[k] ") calls " u[k] " of the later stage " ds[u[k]] }' "$tmp/nm" > "$tmp/so"
fi
report stage-order "$tmp/so"

# ---- calls between the files of src/estimate/ form no cycle ------------------
# Each object's defined globals and undefined references (nm) give the
# file-to-file call graph; the transitive closure finds a file that reaches
# itself; a cycle is printed by its files in order, with the symbol of each
# call (a file already printed in one is not the start of another).
: > "$tmp/cy"
if [ ! -d build/obj/src/estimate ]; then
  echo "build/obj/src/estimate missing: run make first" > "$tmp/cy"
else
  awk '{ n = split($1, p, "/") } p[4] == "estimate" { f = p[n]; sub(/\.o$/, "", f); print $2, $3, f }' "$tmp/nm" | awk '
    $1 == "D" { def[$2] = $3; next }
    { use[++n] = $2; by[n] = $3 }
    END {
      for (i = 1; i <= n; i++) {
        t = def[use[i]]
        if (t == "" || t == by[i]) continue
        f = by[i]; files[f] = 1; files[t] = 1
        if (!((f, t) in e)) { e[f, t] = use[i]; r[f, t] = 1; nx[f, t] = t }
      }
      for (k in files) for (i in files) if ((i, k) in r) for (j in files)
        if ((k, j) in r && !((i, j) in r)) { r[i, j] = 1; nx[i, j] = nx[i, k] }
      for (f in files) {
        if (!((f, f) in r) || seen[f]) continue
        path = f ".c"; c = f; cnt = 0
        do { t = nx[c, f]; path = path " -> " t ".c (" e[c, t] ")"; seen[c] = 1; c = t } while (c != f && ++cnt < 100)
        print "call cycle: " path
      }
    }' >> "$tmp/cy"
fi
report estimate-calls "$tmp/cy"

# ---- no dead function: each global function has a caller or a test ---------
# A function an object of build/obj/src defines (nm, T) that no object uses
# (nm -u), that no test, benchmark, web page or Python module (ctypes)
# names, and that its own file names only once (no caller there).
: > "$tmp/df"
if [ ! -d build/obj/src/base ]; then
  echo "build/obj/src missing: run make first" > "$tmp/df"
else
  awk '$2 == "D" && $4 == "T" { print $3, $1 }' "$tmp/nm" > "$tmp/dfdef"
  { awk '$2 == "U" { print $3 }' "$tmp/nm"
    git ls-files 'tests/*.c' 'tests/*.h' 'tests/*.py' 'tests/*.sh' 'bench/*.c' 'web/*.c' 'web/*.js' \
      'python/joulecast/*.py' | xargs cat | grep -o '[A-Za-z_][A-Za-z0-9_]*'
  } | sort -u > "$tmp/dfref"
  awk 'NR == FNR { ref[$1] = 1; next } !($1 in ref) && $1 != "main"' "$tmp/dfref" "$tmp/dfdef" |
    while read -r f o; do
      c=${o#build/obj/}; c=${c%.o}.c
      [ "$(grep -cw "$f" "$c")" -gt 1 ] || echo "$c: $f has no caller and no test (remove it or test it)"
    done > "$tmp/df"
fi
report dead-functions "$tmp/df"

# ---- file headers: the file's own name, its stage, nothing stale ----------
sh tools/header_lint.sh > "$tmp/fh"
report file-header "$tmp/fh"

# ---- exports: libjoulecast.so defines for clients only the public API --------
: > "$tmp/ex"
so=build/libjoulecast.so
if [ ! -f "$so" ]; then
  echo "$so missing: run make first" > "$tmp/ex"
else
  nm -D --defined-only "$so" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u |
    grep -v '^jc_' | sed 's/^/exported but not jc_ (built without -fvisibility=hidden?): /' >> "$tmp/ex"
  # and every public function the library defines is exported: a definition
  # that does not see its public declaration stays hidden
  cat include/joulecast.h include/joulecast/*.h | grep -o '\bjc_[A-Za-z0-9_]*' | sort -u > "$tmp/pub"
  nm -g --defined-only build/libjoulecast.a 2>/dev/null | awk 'NF == 3 && $2 == "T" { print $3 }' |
    sort -u | comm -12 - "$tmp/pub" > "$tmp/pubdef"
  nm -D --defined-only "$so" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u |
    comm -23 "$tmp/pubdef" - | sed 's/^/declared in include\/ but not exported (its file does not include its header?): /' >> "$tmp/ex"
fi
report exports "$tmp/ex"

# ---- the public header: a reader can hold it, a change to it rebuilds little --
: > "$tmp/ph"
n=$(wc -l < include/joulecast.h)
[ "$n" -le 1500 ] || echo "include/joulecast.h: $n lines (at most 1500)" >> "$tmp/ph"
if [ ! -d build/obj/src ]; then
  echo "build/obj/src missing: run make first" >> "$tmp/ph"
else
  # the dependency files (-MMD) of the objects whose source is in the tree
  # ("src": src/ or include/) or generated under build/ ("gen"), listed once
  find build/obj -name '*.d' | sort | while read -r d; do
    o=${d#build/obj/}; c=${o%.d}.c
    if [ -f "$c" ]; then echo "src $d"; elif [ -f "build/$c" ]; then echo "gen $d"; fi
  done > "$tmp/deps"
  # readers KIND... HEADER: the sources whose compile read HEADER, one grep
  # over the listed .d files of those kinds
  readers() {
    h=$1; shift
    for k in "$@"; do awk -v k="$k" '$1 == k { print $2 }' "$tmp/deps"; done |
      xargs grep -l "\(^\| \)$h\( \|:\|\$\)" 2>/dev/null |
      sed 's|^build/obj/||; s|\.d$|.c|' | sort
  }
  # the objects whose compile read include/joulecast.h
  readers 'include/joulecast\.h' src gen > "$tmp/phr"
  r=$(wc -l < "$tmp/phr")
  [ "$r" -le 30 ] || { echo "include/joulecast.h is read by $r objects (at most 30):"; cat "$tmp/phr"; } >> "$tmp/ph"
  # and each stage header: a file includes the include/joulecast/ headers it
  # uses (src/base/jc_internal.h includes base.h alone), so touching one
  # rebuilds the files that use it: at most 30, but for the types most
  # stages name (ceilings: the figures of 2026-12-06 plus room for a few
  # files; base.h, jc_status and jc_diag, is read by every object)
  for h in include/joulecast/*.h; do
    case "${h##*/}" in
      base.h) max=1000 ;; model.h) max=45 ;; analysis.h) max=55 ;; job.h) max=85 ;;
      hwdb.h) max=75 ;; estimate.h) max=75 ;; *) max=30 ;;
    esac
    readers "$h" src > "$tmp/phh"
    r=$(wc -l < "$tmp/phh")
    [ "$r" -le "$max" ] || { echo "$h is read by $r objects (at most $max): include it only where its names are used, name its types by pointer with a typedef (C11), or move a type every stage needs to base.h"; head -n 40 "$tmp/phh"; } >> "$tmp/ph"
  done
fi
for h in include/joulecast/*.h; do
  printf '#include "%s"\n' "${h#include/}" |
    ${CC:-cc} -std=c11 -Wall -Wextra -Werror -Iinclude -x c -fsyntax-only - 2>&1 |
    head -n 3 | sed "s|^|$h on its own: |" >> "$tmp/ph"
done
report public-header "$tmp/ph"


# ---- every rule once: a second definition of one of them --------------------
: > "$tmp/ro"
grep -rn '3\.6e6' src | grep -v '^src/base/jc_internal\.h:' |
  sed 's/^/joules per kWh written again (use JCI_J_PER_KWH): /' >> "$tmp/ro"
# and the seconds in an hour (JCI_S_PER_H): no 3600 in code elsewhere
# (comments may say it)
grep -rnE '(^|[^.0-9A-Za-z_])3600([^0-9.eE]|\.0*[^0-9eE]|$)' src --include='*.c' --include='*.h' --include='*.def' |
  grep -v '^src/base/jc_internal\.h:' | sed 's:/\*.*\*/::g; s://.*$::' |
  grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/\*|\*[[:space:]/]|\*$)' |
  grep -E '^[^:]*:[0-9]+:.*(^|[^.0-9A-Za-z_])3600([^0-9.eE]|\.0*[^0-9eE]|$)' |
  sed 's/^/seconds per hour written again (use JCI_S_PER_H): /' >> "$tmp/ro"
grep -rnE 'JC_DT_(FLOAT|DOUBLE|FLOAT16|BFLOAT16)\b[^;]*\|\|[^;]*JC_DT_(FLOAT|DOUBLE|FLOAT16|BFLOAT16)\b' src |
  grep -v '^src/base/dtype\.c:\|^src/onnx/' |
  sed 's/^/a float-dtype rule written again (use jci_dtype_is_float): /' >> "$tmp/ro"
grep -rnE '[=!]=[[:space:]]*JC_PREC_(FP64|INT4)\b' src | grep -v '^src/estimate/checks\.c:' |
  sed 's/^/a precision-runs rule written again (use jci_precision_runs): /' >> "$tmp/ro"
for k in $(sed -n 's/^JOB_KEY("\([a-z0-9-]*\)", NUM, [a-z_0-9]*, [^,]*, \(GT\|GE\|WHOLE\|IN\|INGT\), .*/\1/p' src/job/job_keys.def); do
  grep -rn -- "\"--$k must be" src | grep -v '^src/job/\|^src/workflows/ga\.c:' |
    sed "s/^/the bound of --$k written again (job_keys.def holds it): /" >> "$tmp/ro"
done
grep -rn '"/\.\./share/joulecast/hwdb\|"share", "joulecast"' src python/joulecast |
  grep -v '^src/hwdb/locate\.c:' |
  sed 's/^/the hwdb search order written again (use jc_hwdb_find_dir): /' >> "$tmp/ro"
grep -rn 'expects NAME=\|"true or false"\|expects true or false\|"yes")' src | grep -v '^src/job/reqparse\.c:' |
  sed 's/^/a request value grammar written again (use jc_parse_*, src\/job\/reqparse.c): /' >> "$tmp/ro"
# the request's keys: one key->field setter and one job-file layering
# (src/job/reqset.c), for the CLI and the bindings alike
grep -rnE 'jc_parse_(binding|shape_binding|values_binding)[[:space:]]*\(|jc_convention_parse[[:space:]]*\(|jc_jobfile_path[[:space:]]*\(|expects a file name' src |
  grep -v '^src/job/\|^src/analysis/analyze\.c:' |
  sed 's/^/a request key set or a job file layered again (use jci_reqset_set, jci_jobfile_pairs: src\/job\/reqset.c): /' >> "$tmp/ro"
grep -rn 'jc_job_set[[:space:]]*(' src/cli src/bind | grep -v '^src/cli/cmd_trace\.c:' |
  sed 's/^/a second key->field setter of the front ends (use jci_reqset_set, src\/job\/reqset.c): /' >> "$tmp/ro"
report rules-once "$tmp/ro"
[ "$fails" -eq 0 ]
