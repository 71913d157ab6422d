# gstplay — two commands do all set-up: `make run` plays a bundled fixture, `make test` runs the tests.
# Debian packages are installed only when missing (with sudo when not root).

SHELL := /bin/bash
SWIFT ?= swift
FIXTURE ?= Fixtures/h264-aac-10s.mp4
BENCH_DIR ?= .build-bench

# Debian packages the build, the tests and the player need.
APT_PACKAGES := pkg-config libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
	gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad \
	gstreamer1.0-libav gstreamer1.0-tools gstreamer1.0-plugins-base-apps python3 bsdutils
BENCH_PACKAGES := mpv

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup setup-bench build release test test-tsan test-asan run fixtures bench bench-smoke soak fuzz clean help

help:
	@echo "make run      play $(FIXTURE) (installs what is missing, builds)"
	@echo "make test     run the whole test suite"
	@echo "make build | release | fixtures | bench | bench-smoke | soak | test-tsan | test-asan | fuzz | clean"

# Installs the missing Debian packages of $(1).
define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

setup:
	$(call apt_install,$(APT_PACKAGES))
	@command -v $(SWIFT) >/dev/null || { echo "error: no Swift toolchain on PATH (need Swift 6)"; exit 1; }

setup-bench: setup
	$(call apt_install,$(BENCH_PACKAGES))

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Tests/tsan.supp: only TSan's false reports on Swift `Mutex` (see the file and docs/RELIABILITY.md).
test-tsan: setup
	TSAN_OPTIONS="suppressions=$(CURDIR)/Tests/tsan.supp $$TSAN_OPTIONS" $(SWIFT) test --sanitize=thread --scratch-path .build-tsan

# Tests/lsan.supp: only leaks inside GLib/GStreamer/plugins and two documented false positives.
# Full (DWARF) unwinding on malloc: GLib has no frame pointers, and the suppressions must see the
# stack of an allocation made inside it. No leak check at the test process's exit (XCTest's own
# objects leak there): WholeProcessLeakCheckTests checks during the run. gstplay children get fast
# stacks and no leak check (too slow for real time) except in gstplayTests' LeakCheckTests,
# which check at their exit (GstplayProcess.childEnvironment).
test-asan: setup
	ASAN_OPTIONS="fast_unwind_on_malloc=0 malloc_context_size=16 leak_check_at_exit=0 $$ASAN_OPTIONS" LSAN_OPTIONS="suppressions=$(CURDIR)/Tests/lsan.supp $$LSAN_OPTIONS" \
	  $(SWIFT) test --sanitize=address --scratch-path .build-asan

run: build
	$$($(SWIFT) build --show-bin-path)/gstplay $(FIXTURE)

fixtures: setup
	Fixtures/make-fixtures.sh

# The full benchmark (~10 min): interleaved runs of gstplay, gst-play-1.0, gst-launch-1.0 and mpv,
# in-process seek/tick/concurrency cases; writes docs/BENCHMARKS.md. Not part of `make test`.
# The bench clips are synthesised (not committed) when missing or older than the script. A second
# gstplay linked with the Swift runtime statically (.build-bench-static) is measured as a variant.
bench: setup-bench release
	@for c in bench-short bench-10s bench-30s; do \
	  if [ ! -s $(BENCH_DIR)/$$c.mp4 ] || [ Fixtures/make-fixtures.sh -nt $(BENCH_DIR)/$$c.mp4 ]; then \
	    Fixtures/make-fixtures.sh --bench $(BENCH_DIR); break; fi; done
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-bench-static --product gstplay
	$$($(SWIFT) build -c release --show-bin-path)/gstplay-bench --clips $(BENCH_DIR) --out docs/BENCHMARKS.md \
	  --also "static Swift runtime=$$($(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-bench-static --show-bin-path)/gstplay"

# A quick run of every bench case (few repetitions, short clips) to prove the harness works; CI runs it.
# Exits non-zero when one of the harness's own child programs fails.
bench-smoke: build
	@for c in bench-short bench-10s bench-30s; do \
	  if [ ! -s $(BENCH_DIR)/$$c.mp4 ] || [ Fixtures/make-fixtures.sh -nt $(BENCH_DIR)/$$c.mp4 ]; then \
	    Fixtures/make-fixtures.sh --bench $(BENCH_DIR); break; fi; done
	$$($(SWIFT) build --show-bin-path)/gstplay-bench --clips $(BENCH_DIR) --smoke --out $(BENCH_DIR)/BENCHMARKS-smoke.md

# Long runs (issue #6, docs/RELIABILITY.md): 1000 load/play/stop cycles through the Backend and
# 200 player lifecycles in one process, 200 gstplay runs and 200 play/stop cycles inside one
# gstplay process (RSS, descriptors, threads before/after), plus the ~90 s stalled-server CLI
# case. `make test` runs the same tests with 50 cycles / 10 runs. SCRATCH=<dir> builds elsewhere.
SOAK_CYCLES ?= 1000
SOAK_CLI_RUNS ?= 200
SOAK_LOG ?= .build-soak/soak.log
soak: setup
	mkdir -p $(dir $(SOAK_LOG))
	$(SWIFT) build --build-tests $(if $(SCRATCH),--scratch-path $(SCRATCH))
	set -o pipefail; GSTPLAY_SOAK_CYCLES=$(SOAK_CYCLES) GSTPLAY_SOAK_CLI_RUNS=$(SOAK_CLI_RUNS) GSTPLAY_SLOW_TESTS=1 \
	  $(SWIFT) test --skip-build $(if $(SCRATCH),--scratch-path $(SCRATCH)) --filter 'Soak|HostileCLITests/testStalledServer' 2>&1 | tee $(SOAK_LOG)
	@echo "--- soak figures ($(SOAK_LOG)):"; grep -o 'SOAK name=.*' $(SOAK_LOG)

# libFuzzer on the console/JSON request parser (Tests/Fuzz/ConsoleFuzz.swift). Compiles only the
# parser files and the Backend model values they use (not SwiftPM: -sanitize=fuzzer needs its own
# link), then fuzzes for FUZZ_SECONDS on a scratch copy of the committed seeds; crashes land in
# $(FUZZ_DIR)/artifacts. Findings also print as "INVARIANT VIOLATED: …".
SWIFTC ?= swiftc
FUZZ_SECONDS ?= 60
FUZZ_DIR ?= .build-fuzz
FUZZ_FLAGS = -swift-version 6 -parse-as-library -sanitize=fuzzer,address -use-ld=lld -g -I Modules/CGStreamer \
	$(addprefix -Xcc ,$(filter-out -pthread,$(shell pkg-config --cflags gstreamer-1.0)))
FUZZ_LIBS = $(shell pkg-config --libs gstreamer-1.0 gstreamer-video-1.0 gstreamer-audio-1.0 gstreamer-pbutils-1.0)
FUZZ_BACKEND_SOURCES := $(filter-out %/PlayerDelegate.swift,$(wildcard Sources/Backend/Model/*.swift)) \
	Sources/Backend/GLib/GStreamerRuntime.swift
FUZZ_PARSER_SOURCES := $(addprefix Sources/gstplay/,LineConsole.swift ConsoleCommand.swift SeekArgument.swift \
	JSONValue.swift JSONProtocol.swift Version.swift)

$(FUZZ_DIR)/console-fuzz: $(FUZZ_BACKEND_SOURCES) $(FUZZ_PARSER_SOURCES) Tests/Fuzz/ConsoleFuzz.swift
	mkdir -p $(FUZZ_DIR)/module
	$(SWIFTC) $(FUZZ_FLAGS) -module-name Backend -emit-module -emit-module-path $(FUZZ_DIR)/module/Backend.swiftmodule \
	  -emit-library -static -o $(FUZZ_DIR)/libBackend.a $(FUZZ_BACKEND_SOURCES)
	$(SWIFTC) $(FUZZ_FLAGS) -module-name ConsoleFuzz -I $(FUZZ_DIR)/module -L $(FUZZ_DIR) -lBackend $(FUZZ_LIBS) \
	  $(FUZZ_PARSER_SOURCES) Tests/Fuzz/ConsoleFuzz.swift -o $@

fuzz: setup $(FUZZ_DIR)/console-fuzz
	mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts
	cp -n Tests/Fuzz/corpus/* $(FUZZ_DIR)/corpus/
	ASAN_OPTIONS=malloc_context_size=0 $(FUZZ_DIR)/console-fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=1024 \
	  -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/artifacts/ $(FUZZ_DIR)/corpus

clean:
	rm -rf .build .build-*
