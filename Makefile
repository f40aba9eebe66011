# undercroft — plain make, pkg-config for the libraries.
#
#   make demo    install what is missing, build, write an example booklet
#   make check   install what is missing, build, run every test (also under
#                AddressSanitizer + UBSan)
#   make         just build ./build/undercroft
#   make stats   loops, chokepoints, dead ends per node method over 1,000 seeds
#   make honour  what was drawn as rolled, per method over 1,000 seeds
#   make install PREFIX=/usr/local DESTDIR=

VERSION   := 0.1.0
PREFIX    ?= /usr/local
DATADIR   ?= $(PREFIX)/share/undercroft
CC        ?= gcc
CFLAGS    ?= -O2 -g
PKGS      := cairo cairo-pdf cairo-svg cairo-png pangocairo pangoft2 fontconfig glib-2.0
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# -u: the archive members that set the libraries' zlib level (render/deflate_level.c)
# and format cairo's numbers (render/printf_fast.c) are called by no code of ours
# (only by the libraries), so the linker is told to take them.
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lhpdf -lm -Wl,-u,__snprintf_chk -Wl,-u,deflateInit_
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)
WARN      := -std=c11 -Wall -Wextra -Wshadow
DEFS      := -D_DEFAULT_SOURCE -DUCR_VERSION='"$(VERSION)"' \
             -DUCR_INSTALL_DATADIR='"$(DATADIR)"' -DUCR_SOURCE_DATADIR='"$(CURDIR)"'
ALL_CFLAGS = $(WARN) $(DEFS) -Isrc $(PKG_CFLAGS) $(CFLAGS)

# A second build with the sanitizers, for the tests.
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

LIB_SRC   := $(sort $(filter-out src/main.c,$(wildcard src/*/*.c src/*/*/*.c)))
TEST_SRC  := $(sort $(wildcard tests/check_*.c))

B  := build
BS := build/san
LIB_OBJ   := $(LIB_SRC:src/%.c=$(B)/obj/%.o)
LIB_OBJ_S := $(LIB_SRC:src/%.c=$(BS)/obj/%.o)
TESTS     := $(TEST_SRC:tests/%.c=$(B)/tests/%)
TESTS_S   := $(TEST_SRC:tests/%.c=$(BS)/tests/%)

.PHONY: run/e2e run/hostile run/key-model run/bench-smoke san-run/e2e san-run/hostile fuzz-pipeline-check examples all deps demo check unit unit-san e2e e2e-san install uninstall clean bench mutants stats sizes honour fuzz fuzz-build fuzz-check fuzz-pipeline valgrind test-install key-model

all: $(B)/undercroft

# setup.sh holds the one list of Debian packages; it installs what is missing
# (the README's commands run it first, and tell us so with UCR_DEPS_DONE).
deps:
	@[ -n "$(UCR_DEPS_DONE)" ] || sh ./setup.sh deps

$(B)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BS)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -MMD -MP -c $< -o $@

$(B)/libundercroft.a: $(LIB_OBJ)
	rm -f $@; $(AR) rcs $@ $^

$(BS)/libundercroft.a: $(LIB_OBJ_S)
	rm -f $@; $(AR) rcs $@ $^

$(B)/undercroft: $(B)/obj/main.o $(B)/libundercroft.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BS)/undercroft: $(BS)/obj/main.o $(BS)/libundercroft.a
	$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(B)/tests/%: tests/%.c $(B)/libundercroft.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(B)/libundercroft.a $(PKG_LIBS) $(CHECK_LIBS)

$(BS)/tests/%: tests/%.c $(BS)/libundercroft.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -MMD -MP -o $@ $< $(BS)/libundercroft.a $(PKG_LIBS) $(CHECK_LIBS)

# The example booklet of the README's first command.
DEMO_SEED := goblin-king
demo: deps
	@$(MAKE) --no-print-directory all
	@mkdir -p $(B)/demo
	./$(B)/undercroft --seed $(DEMO_SEED) -o $(B)/demo/$(DEMO_SEED).pdf
	@echo "demo: wrote $(CURDIR)/$(B)/demo/$(DEMO_SEED).pdf (seed '$(DEMO_SEED)'; see README for more)"

# The booklets and models in examples/, made by the commands listed in
# examples/README.md (the same list: keep them together).
EXAMPLES := \
	"--seed goblin-king -o examples/goblin-king.pdf" \
	"--seed goblin-king -o examples/goblin-king.json" \
	"--seed 42 --size 4x2 -o examples/seed-42-4x2.pdf" \
	"--seed goblin-king --size 2x2 --paper a5 -o examples/goblin-king-a5-cairo.pdf" \
	"--seed goblin-king --size 2x2 --paper a5 --backend haru -o examples/goblin-king-a5-haru.pdf" \
	"--seed goblin-king --size 2x2 --paper letter --player -o examples/goblin-king-letter-cairo.pdf" \
	"--seed goblin-king --size 2x2 --paper letter --player --backend haru -o examples/goblin-king-letter-haru.pdf" \
	"--seed goblin-king --size 2x2 --impose saddle -o examples/goblin-king-a5-saddle.pdf" \
	"--seed zine7 --size 1x1 --impose minizine -o examples/zine7-minizine.pdf"

examples: all
	@for e in $(EXAMPLES); do echo "undercroft $$e"; eval ./$(B)/undercroft $$e || exit 1; done

# The non-linearity figures per node method over many seeds (README, "The
# analysis").  make stats STATS_COUNT=200 for a quicker look.
STATS_COUNT ?= 1000
stats: $(B)/undercroft
	./$(B)/undercroft stats --count $(STATS_COUNT)

# Node sizes (doc/generation.md, "Node size"): every method at pocket,
# standard and large over SIZES_COUNT seeds, each node within its bound,
# with the maps and drawn extents measured (make check runs 100 seeds).
SIZES_COUNT ?= 1000
sizes: $(B)/tests/check_size
	UCR_SIZE_SEEDS=$(SIZES_COUNT) CK_FORK=no ./$(B)/tests/check_size

# What was drawn as rolled (doc/analysis.md, issue #22): the stats report's
# last table, every rule the map can override per method, over 1,000 seeds
# per method (HONOUR_COUNT=100 for a quicker look); compass's --drop-dice
# rule needs its option, so compass runs once more with it.
HONOUR_COUNT ?= 1000
honour: $(B)/undercroft
	./$(B)/undercroft stats --count $(HONOUR_COUNT) | sed -n '/^What was drawn as rolled/,$$p'
	./$(B)/undercroft stats --method compass --drop-dice --count $(HONOUR_COUNT) | grep -e '^| compass | --drop-dice'

# Sanitizer runtime settings: leaks count as failures, except those the
# system libraries keep on purpose (tests/lsan.supp).
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
           LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
           UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# make check: everything below, on both cores.  The two builds first; then
# every suite, script and checker is a job of its own (the slowest first),
# make -j2 keeping both cores busy and each job's output together.  The jobs
# share nothing: each script and suite works in a folder of its own.
CHECK_JOBS := san-run/hostile san-run/e2e $(TEST_SRC:tests/%.c=san-run/%) fuzz-pipeline-check \
              run/e2e run/hostile run/key-model $(TEST_SRC:tests/%.c=run/%) run/bench-smoke \
              test-install valgrind fuzz-check
check: deps
	@$(MAKE) --no-print-directory -j2 $(B)/undercroft $(TESTS) $(B)/tests/bench $(BS)/undercroft $(TESTS_S) \
	    $(BS)/tests/fuzz_pipeline
	@$(MAKE) --no-print-directory -j2 --output-sync=target $(CHECK_JOBS)
	@echo "check: all tests passed"

run/e2e: $(B)/undercroft
	@bash tests/e2e.sh ./$(B)/undercroft
run/hostile: $(B)/undercroft
	@bash tests/hostile.sh ./$(B)/undercroft
run/key-model: $(B)/undercroft
	@python3 tests/key_model.py ./$(B)/undercroft $(KEY_MODEL_CHECK)
	@python3 tests/key_model.py ./$(B)/undercroft $(KEY_MODEL_SEEDS)
run/bench-smoke: $(B)/tests/bench
	@echo "== bench --smoke (does it run? the timing is for make bench)"; ./$(B)/tests/bench --smoke >/dev/null
run/%: $(B)/tests/%
	@echo "== $<"; CK_FORK=no ./$<
san-run/e2e: $(BS)/undercroft
	@$(SAN_ENV) UCR_SAN=1 bash tests/e2e.sh ./$(BS)/undercroft
san-run/hostile: $(BS)/undercroft
	@$(SAN_ENV) UCR_SAN=1 bash tests/hostile.sh ./$(BS)/undercroft
san-run/%: $(BS)/tests/%
	@echo "== $< (sanitizers)"; $(SAN_ENV) CK_FORK=no UCR_SAN=1 ./$<
fuzz-pipeline-check: $(BS)/tests/fuzz_pipeline
	@$(MAKE) --no-print-directory fuzz-pipeline FUZZ_PIPELINE_SECONDS=$(FUZZ_PIPELINE_CHECK)

unit: $(TESTS) $(B)/tests/bench $(B)/undercroft
	@for t in $(TESTS); do echo "== $$t"; CK_FORK=no ./$$t || exit 1; done
	@echo "== bench --smoke (does it run? the timing is for make bench)"; ./$(B)/tests/bench --smoke >/dev/null

unit-san: $(TESTS_S) $(BS)/tests/fuzz_pipeline
	@for t in $(TESTS_S); do echo "== $$t (sanitizers)"; $(SAN_ENV) CK_FORK=no UCR_SAN=1 ./$$t || exit 1; done
	@$(MAKE) --no-print-directory fuzz-pipeline FUZZ_PIPELINE_SECONDS=$(FUZZ_PIPELINE_CHECK)

e2e: $(B)/undercroft
	@bash tests/e2e.sh ./$(B)/undercroft
	@bash tests/hostile.sh ./$(B)/undercroft
	@python3 tests/key_model.py ./$(B)/undercroft $(KEY_MODEL_CHECK)
	@python3 tests/key_model.py ./$(B)/undercroft $(KEY_MODEL_SEEDS)

# The key is the model (tests/key_model.py): every key entry and room-table
# row of KEY_MODEL_COUNT mixed booklets, read back with pdftotext, against
# their JSON; make check reads KEY_MODEL_CHECK of them.  About ten minutes
# for 1,000 on a free 2-core machine.
KEY_MODEL_CHECK ?= 20
# ...and the dungeons a 1,000-dungeon run once found different: an exit in a
# map corner whose other side's tunnel another exit takes (collapsed beyond),
# a door to a collapsed passage to the way out.
KEY_MODEL_SEEDS ?= keymodel-72,keymodel-83,keymodel-623,keymodel-726
KEY_MODEL_COUNT ?= 1000
key-model: $(B)/undercroft
	python3 tests/key_model.py ./$(B)/undercroft $(KEY_MODEL_COUNT)

e2e-san: $(BS)/undercroft
	@$(SAN_ENV) UCR_SAN=1 bash tests/e2e.sh ./$(BS)/undercroft
	@$(SAN_ENV) UCR_SAN=1 bash tests/hostile.sh ./$(BS)/undercroft

# How many seeds make a one-sheet mini-zine, per node method that draws
# pocket nodes and for the mix: ZINE_N seeds each (default 1000, about a
# minute a method on two cores), ZINE_PAPER=letter for US Letter sheets
# (tests/zine_rate.sh).  Fails under 95% (issue #21).
.PHONY: zine-rate
zine-rate: $(B)/undercroft
	bash tests/zine_rate.sh ./$(B)/undercroft

# Speed and memory, one table (tests/bench.c says what each row measures):
# CPU (user + sys) and wall, min and median over repeats, of generation per
# method, the default booklet's layout and replay per backend, whole runs per
# backend (KB per page), PNG maps, a batch with --jobs 1 and 2, and --size
# 2x2 ... 10x10 (ms and peak RSS per node); then a batch's memory over
# BENCH_MEMORY JSON files (tests/bench_batch.py; 0 skips it).  About four
# minutes on a free 2-core machine; trim with e.g.
#   make bench BENCH_REPEAT=3 BENCH_SIZES=2,4,10 BENCH_BATCH=10 BENCH_MEMORY=0
BENCH_REPEAT      ?= 5
BENCH_SEEDS       ?= 3
BENCH_SIZES       ?= 2,3,4,6,8,10
BENCH_SIZE_REPEAT ?= 3
BENCH_BATCH       ?= 20
BENCH_BATCH_REPEAT ?= 3
BENCH_MEMORY      ?= 1000
bench: $(B)/tests/bench $(B)/undercroft
	./$(B)/tests/bench --bin $(B)/undercroft --repeat $(BENCH_REPEAT) --seeds $(BENCH_SEEDS) \
	    --sizes $(BENCH_SIZES) --size-repeat $(BENCH_SIZE_REPEAT) --batch $(BENCH_BATCH) \
	    --batch-repeat $(BENCH_BATCH_REPEAT)
	@if [ "$(BENCH_MEMORY)" -gt 0 ]; then python3 tests/bench_batch.py ./$(B)/undercroft $(BENCH_MEMORY); fi

# Mutation check of the test suite (tests/mutants.sh): small deliberate bugs,
# one at a time, in a throwaway copy; lists the survivors.  Not in make check
# (it rebuilds and reruns the fast suites once per mutant: half an hour).
mutants:
	bash tests/mutants.sh $(MUTANTS)

$(B)/tests/bench: tests/bench.c $(B)/libundercroft.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(B)/libundercroft.a $(PKG_LIBS)

# valgrind memcheck of one whole booklet: no invalid read or write, no
# uninitialised value used, no leak — except the library caches named in
# tests/valgrind.supp (pango's and fontconfig's, nothing of ours).
VALGRIND_FLAGS := --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect,possible \
                  --errors-for-leak-kinds=definite,indirect,possible --track-origins=yes \
                  --num-callers=40 --suppressions=$(CURDIR)/tests/valgrind.supp --error-exitcode=99
valgrind: $(B)/undercroft
	@if ! command -v valgrind >/dev/null; then echo "valgrind: not installed, skipped (setup.sh installs it)"; exit 0; fi; \
	echo "== valgrind memcheck, the default booklet"; mkdir -p $(B)/valgrind; \
	if valgrind $(VALGRIND_FLAGS) --log-file=$(B)/valgrind/memcheck.log \
	        ./$(B)/undercroft --seed goblin-king -o $(B)/valgrind/goblin-king.pdf; then \
	    grep -E 'ERROR SUMMARY|suppressed:' $(B)/valgrind/memcheck.log | sed 's/^==[0-9]*== */   /'; \
	else cat $(B)/valgrind/memcheck.log; exit 1; fi

# libFuzzer targets (clang) for every parser of user data: tables, a table
# folder, styles, page templates, letter shapes and the command line.  Each
# runs FUZZ_SECONDS from its seed corpus (tests/fuzz/corpus/NAME, copied to
# build/fuzz/corpus/NAME, where what it finds accumulates) with its
# dictionary.  make check runs them when clang is there (setup.sh installs
# it), for FUZZ_SECONDS, 30 s under CI=true.
FUZZ_CC      ?= clang
FUZZ_TARGETS := table tables style page letters options
ifeq ($(CI),true)
FUZZ_SECONDS ?= 30
else
FUZZ_SECONDS ?= 60
endif
FZ          := build/fuzz
FUZZ_FLAGS  := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LIB_OBJ_F   := $(LIB_SRC:src/%.c=$(FZ)/obj/%.o)
FUZZ_BINS   := $(FUZZ_TARGETS:%=$(FZ)/fuzz_%)

$(FZ)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FZ)/libundercroft.a: $(LIB_OBJ_F)
	rm -f $@; $(AR) rcs $@ $^

$(FZ)/obj/main_fuzz.o: src/main.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -Dmain=undercroft_main -MMD -MP -c $< -o $@

$(FZ)/fuzz_options: tests/fuzz/fuzz_options.c $(FZ)/obj/main_fuzz.o $(FZ)/libundercroft.a
	$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FZ)/obj/main_fuzz.o $(FZ)/libundercroft.a $(PKG_LIBS)

$(FZ)/fuzz_%: tests/fuzz/fuzz_%.c $(FZ)/libundercroft.a
	$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FZ)/libundercroft.a $(PKG_LIBS)

fuzz-build: $(FUZZ_BINS)

# The generation fuzzer (tests/fuzz_pipeline.c): random valid table sets,
# page templates and styles (the shipped ones with values changed within
# their limits) through generation, stocking, the analysis, the layout and
# both PDF backends, under the sanitizers; a set that loads must make a
# dungeon and a booklet, or be refused when it loads.  make check runs it
# for FUZZ_PIPELINE_CHECK seconds (4 under CI=true), make fuzz for
# FUZZ_SECONDS; FUZZ_PIPELINE_SEED picks another series of cases.  A broken
# case is kept in build/fuzz-pipeline-case.
ifeq ($(CI),true)
FUZZ_PIPELINE_CHECK ?= 4
else
FUZZ_PIPELINE_CHECK ?= 20
endif
FUZZ_PIPELINE_SECONDS ?= $(FUZZ_SECONDS)
FUZZ_PIPELINE_SEED    ?= undercroft-fuzz
fuzz-pipeline: $(BS)/tests/fuzz_pipeline
	@if [ "$(FUZZ_PIPELINE_SECONDS)" = 0 ]; then exit 0; fi; \
	echo "== fuzz_pipeline, $(FUZZ_PIPELINE_SECONDS) s (sanitizers)"; \
	$(SAN_ENV) UCR_SAN=1 ./$(BS)/tests/fuzz_pipeline --seconds $(FUZZ_PIPELINE_SECONDS) \
	    --seed $(FUZZ_PIPELINE_SEED) --keep $(B)/fuzz-pipeline-case

fuzz: fuzz-build fuzz-pipeline
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p $(FZ)/corpus/$$t && cp -n tests/fuzz/corpus/$$t/* $(FZ)/corpus/$$t/ && \
	    echo "== fuzz_$$t, $(FUZZ_SECONDS) s" && \
	    $(SAN_ENV) ./$(FZ)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=30 -rss_limit_mb=2048 \
	        -max_len=8192 -dict=tests/fuzz/$$t.dict -artifact_prefix=$(FZ)/crash-$$t- \
	        -print_final_stats=1 $(FZ)/corpus/$$t >$(FZ)/fuzz_$$t.log 2>&1; \
	    rc=$$?; grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)' $(FZ)/fuzz_$$t.log | tr '\n' ' '; echo; \
	    if [ $$rc -ne 0 ]; then tail -40 $(FZ)/fuzz_$$t.log; exit 1; fi; \
	done

# (the generation fuzzer ran in unit-san)
fuzz-check:
	@if command -v $(FUZZ_CC) >/dev/null; then $(MAKE) --no-print-directory fuzz FUZZ_PIPELINE_SECONDS=0; \
	else echo "fuzz: no $(FUZZ_CC), skipped (setup.sh installs it)"; fi

# make install PREFIX=/usr/local DESTDIR=: the program, its data (templates/,
# fonts/ with their licences) and the man page.  The installed program finds
# its data beside itself (../share/undercroft), so a staged DESTDIR install
# runs where it lies; tests/install.sh checks it.
MANDIR ?= $(PREFIX)/share/man
install: $(B)/undercroft
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(B)/undercroft $(DESTDIR)$(PREFIX)/bin/undercroft
	cp -R templates fonts $(DESTDIR)$(DATADIR)/
	chmod -R u=rwX,go=rX $(DESTDIR)$(DATADIR)
	install -m 644 doc/undercroft.1 $(DESTDIR)$(MANDIR)/man1/undercroft.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/undercroft $(DESTDIR)$(MANDIR)/man1/undercroft.1
	rm -rf $(DESTDIR)$(DATADIR)

test-install: $(B)/undercroft
	@bash tests/install.sh

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
