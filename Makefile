# joulecast - top-level Makefile.
#
#   make            build build/joulecast, build/libjoulecast.{a,so} and
#                   build/hwdb.snap (the bundled hwdb pre-loaded)
#   make demo       install missing packages, build, run a real example
#   make test       install missing packages, build (also with ASan+UBSan),
#                   run every test layer; ends with "N passed, N failed,
#                   N skipped" (the skips allowed: tests/expected_skips.txt)
#   make golden     the golden CLI outputs (tests/golden/); CASE=name: one
#                   case (make golden-update [CASE=name] rewrites them)
#   make docs-figures  rewrite the command outputs README.md and docs/ show
#                   (each marked "<!-- output: COMMAND -->") with what the
#                   build prints, and the prose figures quoting them; make
#                   test fails when one differs or a prose figure is in no
#                   checked output and names no source
#   make check      the fast loop from a built tree: unit tests, goldens,
#                   lint, cli_consistency and the docs' shown outputs
#                   (tools/docs_figures.py; no venv, no valgrind); about 25 s
#   make deps       install the Debian packages joulecast needs (as root),
#                   or print the exact apt-get command
#   make bench      run the benchmarks in bench/ (not part of make test)
#   make accuracy   predict the published measurements of tests/accuracy/ and
#                   write docs/accuracy.md (tools/accuracy.sh; not part of make test);
#                   ONLY=NAME runs tools/accuracy_NAME.py alone (e.g. ONLY=training_mlperf)
#   make install    PREFIX=/usr/local DESTDIR=: CLI, libjoulecast.{so,a},
#                   joulecast.h, joulecast.pc, share/joulecast/hwdb (+ its
#                   snapshot hwdb.snap), the man page, bash and zsh
#                   completion; make uninstall
#   make fuzz       build the libFuzzer targets (clang) and run each for
#                   FUZZ_SECONDS (default 60); tests/fuzz/README.md
#   make fuzz-long  the whole op sweep (tests/opsweep.sh: every op of ops.def
#                   with extreme attributes, constants and ranks, about
#                   85,000 models under ASan+UBSan; make test runs 1 in 40),
#                   then the HF config.json and the snapshot reader's
#                   fuzz targets for FUZZ_SECONDS each
#   make fuzz-opsweep  the randomised op sweep, seed after seed, for
#                   FUZZ_SECONDS of CPU (default 600; tests/opsweep/fuzz_opsweep.sh)
#   make valgrind   inspect + count of every backend-suite model under
#                   valgrind (make test runs a sample: 60 models, one
#                   command each)
#   make web        web/joulecast.wasm (+ its loader scripts) for the static
#                   page web/index.html (emscripten; tools/web_deps.sh builds
#                   cJSON, libyaml and protobuf-c from Debian's sources)
#   make clean
#
# Everything built goes under build/.  C for onnx.proto is generated into
# build/gen/ by protoc-c from the schema Debian's libonnx-dev installs.

CC       ?= cc
ONNX_PROTO ?= /usr/include/onnx/onnx.proto
BUILD    := build
GEN      := $(BUILD)/gen

PKG_CFLAGS := $(shell pkg-config --cflags libprotobuf-c yaml-0.1 libcjson 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs libprotobuf-c yaml-0.1 libcjson 2>/dev/null || echo -lprotobuf-c -lyaml -lcjson)

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
# -fvisibility=hidden: libjoulecast.so exports only what include/joulecast/*.h
# declare (their visibility pragma); nm -D lists jc_ symbols alone
BASEFLAGS := -std=c11 -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 $(WARN) -fvisibility=hidden \
             -DJC_HWDB_DIR=\"$(CURDIR)/hwdb\" \
             -Iinclude -Isrc -I$(GEN) $(PKG_CFLAGS)
CFLAGS   ?= -O2 -g
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=undefined
LDLIBS   := $(PKG_LIBS) -lm

LIB_SRC  := $(sort $(shell find src -name '*.c' -not -path 'src/cli/*'))
CLI_SRC  := $(sort $(wildcard src/cli/*.c))
GEN_SRC  := $(GEN)/onnx.pb-c.c
# Header dependencies are real: each object's compiler writes a .d file
# (-MMD -MP) naming the headers and .def tables it read, included below.
# The generated onnx.pb-c.h is an order-only prerequisite so that it
# exists before the first compile (its .d files name it afterwards).
DEPFLAGS := -MMD -MP
GEN_HDR  := $(GEN)/onnx.pb-c.h
# the compile flags, recorded: a change to them (e.g. -fvisibility=hidden)
# rebuilds every object, as a header change rebuilds those that read it
FLAGS_STAMP := $(BUILD)/flags.stamp
FLAGS_NOW   := $(CC) $(BASEFLAGS) $(CFLAGS) $(SANFLAGS)
$(shell mkdir -p $(BUILD) && { printf '%s\n' '$(FLAGS_NOW)' | cmp -s - $(FLAGS_STAMP) || printf '%s\n' '$(FLAGS_NOW)' > $(FLAGS_STAMP); })

LIB_OBJ  := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRC)) $(BUILD)/obj/gen/onnx.pb-c.o
CLI_OBJ  := $(patsubst %.c,$(BUILD)/obj/%.o,$(CLI_SRC))
ALIB_OBJ := $(patsubst %.c,$(BUILD)/asan/%.o,$(LIB_SRC)) $(BUILD)/asan/gen/onnx.pb-c.o
ACLI_OBJ := $(patsubst %.c,$(BUILD)/asan/%.o,$(CLI_SRC))

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/asan/tests/%,$(UNIT_SRC))
UNIT_OBJ := $(patsubst tests/unit/%.c,$(BUILD)/asan/unit/%.o,$(UNIT_SRC))

SONAME   := libjoulecast.so.0
VERSION  := $(shell sed -n 's/^\#define JC_VERSION "\(.*\)"/\1/p' include/joulecast.h)

# ---- install layout (make install PREFIX=... DESTDIR=...) --------------------
PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR    ?= $(PREFIX)/share
MANDIR     ?= $(DATADIR)/man
HWDBDIR    := $(DATADIR)/joulecast/hwdb
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions

.PHONY: all deps demo test check test-build clean bench accuracy lint check-deps golden golden-update docs-figures golden-freeze fuzz fuzz-build valgrind hwdb-schema

all: $(BUILD)/joulecast $(BUILD)/libjoulecast.a $(BUILD)/libjoulecast.so $(BUILD)/hwdb.snap

# ---- hwdb snapshot: the bundled YAML pre-loaded (src/hwdb/snapshot.c) -------------
# Runs find it next to the program and use it while hwdb/ is unchanged;
# it is rewritten whenever a YAML file or the program changes.
# (the folders too: a snapshot records their modification times)
HWDB_YAML := $(shell find hwdb -name '*.yaml' -o -type d 2>/dev/null)

$(BUILD)/hwdb.snap: $(BUILD)/joulecast $(HWDB_YAML)
	$(BUILD)/joulecast hwdb snapshot hwdb -o $@

$(BUILD)/asan/hwdb.snap: $(BUILD)/asan/joulecast $(HWDB_YAML)
	$(BUILD)/asan/joulecast hwdb snapshot hwdb -o $@

# ---- packages -------------------------------------------------------------
deps:
	@sh tools/deps.sh all

check-deps:
	@sh tools/deps.sh build

# ---- generated protobuf-c code ---------------------------------------------
$(GEN)/onnx.pb-c.c $(GEN)/onnx.pb-c.h &: $(ONNX_PROTO)
	@mkdir -p $(GEN)
	protoc-c --c_out=$(GEN) -I$(dir $(ONNX_PROTO)) $(ONNX_PROTO)

# ---- release build ----------------------------------------------------------
$(BUILD)/obj/gen/onnx.pb-c.o: $(GEN)/onnx.pb-c.c $(GEN)/onnx.pb-c.h $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(DEPFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden -I$(GEN) $(PKG_CFLAGS) -w -c $< -o $@

$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP) | $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(DEPFLAGS) $(CFLAGS) -fPIC -c $< -o $@

$(BUILD)/libjoulecast.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libjoulecast.so: $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(LDLIBS)

$(BUILD)/joulecast: $(CLI_OBJ) $(BUILD)/libjoulecast.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libjoulecast.a $(LDLIBS)

# ---- sanitizer build (used by make test) ------------------------------------
$(BUILD)/asan/gen/onnx.pb-c.o: $(GEN)/onnx.pb-c.c $(GEN)/onnx.pb-c.h $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(DEPFLAGS) $(SANFLAGS) -I$(GEN) $(PKG_CFLAGS) -w -c $< -o $@

$(BUILD)/asan/%.o: %.c $(FLAGS_STAMP) | $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(DEPFLAGS) $(SANFLAGS) -c $< -o $@

$(BUILD)/asan/libjoulecast.a: $(ALIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/asan/joulecast: $(ACLI_OBJ) $(BUILD)/asan/libjoulecast.a
	$(CC) $(SANFLAGS) -o $@ $(ACLI_OBJ) $(BUILD)/asan/libjoulecast.a $(LDLIBS)

# unit tests: compiled to objects of their own (so a header change
# recompiles only the tests that include it), linked with the static lib
$(BUILD)/asan/unit/%.o: tests/unit/%.c $(FLAGS_STAMP) | $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(DEPFLAGS) $(SANFLAGS) -Itests/unit -c $< -o $@

$(BUILD)/asan/tests/%: $(BUILD)/asan/unit/%.o $(BUILD)/asan/libjoulecast.a
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $< $(BUILD)/asan/libjoulecast.a $(LDLIBS)

# fuzz targets replayed over tests/fuzz/regress/ (tests/fuzz_regress.sh)
FUZZ_TARGETS := onnx hwdb jobfile estimate_cli oprules trace hfconfig snapshot
ACLI_LIB_OBJ := $(filter-out %/main.o %/cmd_estimate.o,$(ACLI_OBJ))
REPLAY_BIN   := $(patsubst %,$(BUILD)/asan/fuzz/replay_%,$(FUZZ_TARGETS))
REPLAY_OBJ   := $(patsubst %,$(BUILD)/asan/fuzzobj/fuzz_%.o,$(FUZZ_TARGETS)) $(BUILD)/asan/fuzzobj/replay_main.o

$(BUILD)/asan/fuzz/libcli.a: $(ACLI_LIB_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/asan/fuzzobj/%.o: tests/fuzz/%.c $(FLAGS_STAMP) | $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(DEPFLAGS) $(SANFLAGS) -c $< -o $@

$(BUILD)/asan/fuzz/replay_%: $(BUILD)/asan/fuzzobj/fuzz_%.o $(BUILD)/asan/fuzzobj/replay_main.o $(BUILD)/asan/fuzz/libcli.a $(BUILD)/asan/libjoulecast.a
	$(CC) $(SANFLAGS) -o $@ $< $(BUILD)/asan/fuzzobj/replay_main.o $(BUILD)/asan/fuzz/libcli.a $(BUILD)/asan/libjoulecast.a $(LDLIBS)

test-build: all $(BUILD)/asan/joulecast $(BUILD)/asan/hwdb.snap $(UNIT_BIN) $(REPLAY_BIN)

# ---- man page (generated from the commands' help text: tools/gen_man.sh) ----
.PHONY: man install uninstall
test-build: man
man: $(BUILD)/man/joulecast.1

$(BUILD)/man/joulecast.1: $(BUILD)/joulecast man/joulecast.1.in tools/gen_man.sh
	@mkdir -p $(dir $@)
	sh tools/gen_man.sh $(BUILD)/joulecast man/joulecast.1.in > $@.tmp && mv $@.tmp $@

# ---- install / uninstall ------------------------------------------------------
install: all man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR) \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(HWDBDIR)
	install -m 755 $(BUILD)/joulecast $(DESTDIR)$(BINDIR)/joulecast
	install -m 644 $(BUILD)/libjoulecast.a $(DESTDIR)$(LIBDIR)/libjoulecast.a
	install -m 755 $(BUILD)/libjoulecast.so $(DESTDIR)$(LIBDIR)/libjoulecast.so.$(VERSION)
	ln -sf libjoulecast.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libjoulecast.so
	install -d $(DESTDIR)$(INCLUDEDIR)/joulecast
	install -m 644 include/joulecast.h $(DESTDIR)$(INCLUDEDIR)/joulecast.h
	install -m 644 include/joulecast/*.h $(DESTDIR)$(INCLUDEDIR)/joulecast/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))|' \
	    -e 's|@HWDBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(HWDBDIR))|' -e 's|@VERSION@|$(VERSION)|' tools/joulecast.pc.in \
	    > $(DESTDIR)$(LIBDIR)/pkgconfig/joulecast.pc
	cd hwdb && find . -type d | while read -r d; do install -d "$(DESTDIR)$(HWDBDIR)/$$d" || exit 1; done
	cd hwdb && find . -type f \( -name '*.yaml' -o -name VERSION -o -name README.md \) | \
	    while read -r f; do install -m 644 "$$f" "$(DESTDIR)$(HWDBDIR)/$$f" || exit 1; done
	@# the snapshot only speeds loading up: without one, runs parse the YAML
	if $(BUILD)/joulecast hwdb snapshot $(DESTDIR)$(HWDBDIR) -o $(DESTDIR)$(DATADIR)/joulecast/hwdb.snap; then \
	    chmod 644 $(DESTDIR)$(DATADIR)/joulecast/hwdb.snap; \
	else echo "make install: no hwdb snapshot written; joulecast will parse the YAML (about 16 ms a run)"; fi
	install -m 644 $(BUILD)/man/joulecast.1 $(DESTDIR)$(MANDIR)/man1/joulecast.1
	install -m 644 completion/joulecast.bash $(DESTDIR)$(BASHCOMPDIR)/joulecast
	install -m 644 completion/_joulecast $(DESTDIR)$(ZSHCOMPDIR)/_joulecast

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/joulecast $(DESTDIR)$(LIBDIR)/libjoulecast.a \
	    $(DESTDIR)$(LIBDIR)/libjoulecast.so $(DESTDIR)$(LIBDIR)/$(SONAME) \
	    $(DESTDIR)$(LIBDIR)/libjoulecast.so.$(VERSION) $(DESTDIR)$(LIBDIR)/pkgconfig/joulecast.pc \
	    $(DESTDIR)$(INCLUDEDIR)/joulecast.h $(DESTDIR)$(MANDIR)/man1/joulecast.1 \
	    $(DESTDIR)$(BASHCOMPDIR)/joulecast $(DESTDIR)$(ZSHCOMPDIR)/_joulecast
	rm -rf $(DESTDIR)$(HWDBDIR) $(DESTDIR)$(INCLUDEDIR)/joulecast
	rm -f $(DESTDIR)$(DATADIR)/joulecast/hwdb.snap
	-rmdir $(DESTDIR)$(DATADIR)/joulecast 2>/dev/null

# ---- the two commands ---------------------------------------------------------
demo:
	@sh tools/deps.sh build
	@$(MAKE) --no-print-directory all
	@sh tools/demo.sh

# the build under make test runs JOBS compiles at once (default: the cores)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

test:
	@sh tools/deps.sh test
	@$(MAKE) --no-print-directory -j$(JOBS) test-build
	@sh tests/run.sh

# the fast loop: unit tests, goldens, lint, cli_consistency, the docs' shown
# outputs (tests/run.sh --check)
check: test-build
	@sh tests/run.sh --check

bench: all
	@sh bench/run.sh

accuracy: all
	@sh tools/accuracy.sh

# ---- WebAssembly: make web (web/README.md) -----------------------------------
# The library, the generated onnx.pb-c.c and web/jc_wasm.c compiled by emcc;
# the C libraries from Debian's source packages (tools/web_deps.sh, cached
# in build/web/deps); the hwdb YAML embedded in the module's file system.
EMCC     ?= emcc
WEB      := $(BUILD)/web
WEB_CFLAGS := -std=c11 -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 $(WARN) -DJC_HWDB_DIR=\"/hwdb\" \
              -Iinclude -Isrc -I$(GEN) -I$(WEB)/deps/include -Oz
WEB_OBJ  := $(patsubst %.c,$(WEB)/obj/%.o,$(LIB_SRC)) $(WEB)/obj/gen/onnx.pb-c.o $(WEB)/obj/web/jc_wasm.o
WEB_DEPS := $(WEB)/deps/stamp
WEB_EXPORTS := _jcw_run,_jcw_free,_malloc,_free
# bundled in the page: the example models (lstm_lm.onnx, which carries its
# weights, left out) and a few Hugging Face configs of tests/serving/configs
WEB_MODELS  := $(filter-out models/lstm_lm.onnx,$(wildcard models/*.onnx))
WEB_CONFIGS := $(patsubst %,tests/serving/configs/%.json,llama-3.1-8b mistral-7b-v0.3 qwen2.5-7b gpt2 mixtral-8x7b)
WEB_EMBED   := --embed-file hwdb@/hwdb --exclude-file '*.md' \
               $(foreach f,$(WEB_MODELS),--embed-file $(f)@/$(f)) \
               $(foreach f,$(WEB_CONFIGS),--embed-file $(f)@/configs/$(notdir $(f)))
WEB_LDFLAGS := -Oz -sMODULARIZE=1 -sEXPORT_NAME=createJoulecast -sENVIRONMENT=web \
              -sALLOW_MEMORY_GROWTH=1 -sEXPORTED_FUNCTIONS=$(WEB_EXPORTS) \
              -sEXPORTED_RUNTIME_METHODS=FS,ccall,UTF8ToString \
              -sFILESYSTEM=1 $(WEB_EMBED)

.PHONY: web
web: web/joulecast.js web/joulecast-wasm.js

$(WEB_DEPS): tools/web_deps.sh
	@sh tools/deps.sh web
	sh tools/web_deps.sh $(WEB)/deps

$(WEB)/obj/gen/onnx.pb-c.o: $(GEN)/onnx.pb-c.c $(GEN)/onnx.pb-c.h $(WEB_DEPS)
	@mkdir -p $(dir $@)
	$(EMCC) -std=c11 -Oz -I$(GEN) -I$(WEB)/deps/include -w -c $< -o $@

$(WEB)/obj/%.o: %.c $(WEB_DEPS) | $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(EMCC) $(WEB_CFLAGS) $(DEPFLAGS) -c $< -o $@

# joulecast.js (emscripten's loader) and joulecast.wasm come out together
web/joulecast.js: $(WEB_OBJ) $(HWDB_YAML) $(WEB_MODELS) $(WEB_CONFIGS)
	NODE_PATH=/usr/share/nodejs $(EMCC) $(WEB_LDFLAGS) -o $@ $(WEB_OBJ) $(WEB)/deps/lib/libyaml.a \
	    $(WEB)/deps/lib/libprotobuf-c.a $(WEB)/deps/lib/libcjson.a -lm

# the module as a script, for pages opened from file:// (no fetch there)
web/joulecast-wasm.js: web/joulecast.js tools/web_embed.sh
	sh tools/web_embed.sh web/joulecast.wasm > $@.tmp && mv $@.tmp $@

# ---- fuzzing (clang libFuzzer + ASan + UBSan; tests/fuzz/README.md) ---------
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   := -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
                -fno-omit-frame-pointer -fno-sanitize-recover=undefined
FLIB_OBJ := $(patsubst %.c,$(BUILD)/fuzz/%.o,$(LIB_SRC)) $(BUILD)/fuzz/gen/onnx.pb-c.o
FCLI_OBJ := $(patsubst %.c,$(BUILD)/fuzz/%.o,$(filter-out %/main.c %/cmd_estimate.c,$(CLI_SRC)))
FUZZ_BIN := $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZ_TARGETS))

$(BUILD)/fuzz/gen/onnx.pb-c.o: $(GEN)/onnx.pb-c.c $(GEN)/onnx.pb-c.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 $(DEPFLAGS) $(FUZZ_FLAGS) -I$(GEN) $(PKG_CFLAGS) -w -c $< -o $@

$(BUILD)/fuzz/%.o: %.c | $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(DEPFLAGS) $(FUZZ_FLAGS) -c $< -o $@

$(BUILD)/fuzz/libjoulecast.a: $(FLIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz/libcli.a: $(FCLI_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(BUILD)/fuzz/libcli.a $(BUILD)/fuzz/libjoulecast.a
	$(FUZZ_CC) $(BASEFLAGS) $(DEPFLAGS) -MF $@.d -MT $@ $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(BUILD)/fuzz/libcli.a $(BUILD)/fuzz/libjoulecast.a $(LDLIBS)

fuzz-build: $(FUZZ_BIN)

fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh $(FUZZ_TARGETS)

.PHONY: fuzz-long fuzz-opsweep
fuzz-long: test-build $(BUILD)/fuzz/fuzz_hfconfig $(BUILD)/fuzz/fuzz_snapshot
	@OPSWEEP_SAMPLE=1 nice -n 19 sh tests/opsweep.sh
	@FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh hfconfig snapshot

fuzz-opsweep: test-build
	@sh tests/opsweep/fuzz_opsweep.sh

valgrind: all
	@FULL=1 sh tests/valgrind.sh

lint: $(BUILD)/libjoulecast.a $(BUILD)/libjoulecast.so
	@sh tools/lint.sh

clean:
	rm -rf $(BUILD)
	rm -f web/joulecast.js web/joulecast.wasm web/joulecast-wasm.js

# the header dependencies the compiler wrote (-MMD -MP; see DEPFLAGS)
DEP_FILES := $(shell find $(BUILD) -name '*.d' 2>/dev/null)
-include $(DEP_FILES)

# an object left by a build from before -MMD has no .d file, so nothing
# says which headers it read: it is rebuilt once
.PHONY: FORCE
FORCE:
$(filter-out $(DEP_FILES:.d=.o),$(LIB_OBJ) $(CLI_OBJ) $(ALIB_OBJ) $(ACLI_OBJ) \
    $(UNIT_OBJ) $(REPLAY_OBJ) $(FLIB_OBJ) $(FCLI_OBJ) $(filter-out %/onnx.pb-c.o,$(WEB_OBJ))): FORCE

# the generated copies of the hwdb field tables (src/hwdb/fields_*.def):
# docs/hwdb-schema.md's tables and tools/hwdb_fields.json (tests/hwdb.sh)
hwdb-schema: $(BUILD)/joulecast
	python3 tools/hwdb_schema.py --update $(BUILD)/joulecast

# the command outputs README.md, docs/*.md and the man page show (each
# block after "<!-- output: COMMAND -->", and hidden blocks "<!-- output:
# COMMAND" ... "-->"), rewritten with what the build prints, and the prose
# figures that quoted an old figure: after a refit or an output change
# (tests/docs_figures.sh checks them; it lists prose figures left to mend)
docs-figures: all
	python3 tools/docs_figures.py --update

# the goldens (tests/golden/), or one: make golden CASE=name
golden: all
	@CASE='$(CASE)' JC=$(CURDIR)/build/joulecast sh tests/golden.sh

golden-update: all
	CASE='$(CASE)' UPDATE=1 JC=$(CURDIR)/build/joulecast sh tests/golden.sh

# a new copy of hwdb/ for the goldens (tests/golden/hwdb-frozen/README.md),
# then the goldens rewritten against it: review the diff
golden-freeze: all
	find tests/golden/hwdb-frozen -name '*.yaml' -delete
	find tests/golden/hwdb-frozen -depth -type d -empty -delete
	mkdir -p tests/golden/hwdb-frozen
	cd hwdb && find . -name '*.yaml' -o -name VERSION | while read -r f; do \
	    mkdir -p "../tests/golden/hwdb-frozen/$$(dirname "$$f")" && cp "$$f" "../tests/golden/hwdb-frozen/$$f" || exit 1; done
	UPDATE=1 JC=$(CURDIR)/build/joulecast sh tests/golden.sh
