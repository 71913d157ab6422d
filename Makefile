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
# Desktop: real outputs (X/GL video, ALSA/PulseAudio sound; without gstreamer1.0-x/-gl
# autovideosink reaches dfbvideosink, which segfaults) and Xlib for Modules/CX11.
APT_PACKAGES += gstreamer1.0-x gstreamer1.0-gl gstreamer1.0-alsa gstreamer1.0-pulseaudio libx11-dev
# libsoup 3 for the media cache's conditional requests (Modules/CSoup).
APT_PACKAGES += libsoup-3.0-dev
# libXss for XScreenSaverSuspend (Modules/CX11), the screensaver fallback without a session bus.
APT_PACKAGES += libxss-dev
# GUPnP and GUPnP-AV for casting to UPnP/DLNA renderers (Modules/CGUPnP).
APT_PACKAGES += libgupnp-1.6-dev libgupnp-av-1.0-dev
# Only `make fixtures` (regenerating the committed fixtures) compiles a small C helper.
FIXTURE_PACKAGES := gcc
BENCH_PACKAGES := mpv
# The thumbnail row's peer (make bench, Sources/gstplay-bench/Cases/ThumbnailCase.swift).
BENCH_PACKAGES += ffmpegthumbnailer
# The sync bench's network namespaces, bridge and veth pairs (make bench-sync).
BENCH_PACKAGES += iproute2
# The sync bench names its commit (git); Tests/Scripts/door-libraries-rss.sh reads NEEDED (readelf).
BENCH_PACKAGES += git binutils
# Desktop: only the tests need these: a private X server (Xvfb) and the tools that look
# at it (xwininfo, xdotool, ImageMagick's import/convert). Tests/DisplayTests starts its own Xvfb.
TEST_PACKAGES := xvfb xauth x11-utils xdotool imagemagick
# A small window manager and its remote control (close button, _NET_WM_STATE), a D-Bus daemon.
TEST_PACKAGES += openbox wmctrl dbus libxfixes-dev libglib2.0-bin
# MPRIS and the desktop entry: playerctl drives MPRIS on a private bus (dbus-daemon, from dbus above);
# desktop-file-validate checks the installed entry.
TEST_PACKAGES += playerctl desktop-file-utils
# Python's venv module (Debian splits it out) for the test venv below.
TEST_PACKAGES += python3-venv
# Python packages the tests need (from PyPI), installed into $(TEST_VENV) only when missing:
# python-mpv-jsonipc drives the control socket as an existing mpv IPC client (MpvClientTests).
PY_TEST_PACKAGES := python-mpv-jsonipc==1.5.0
TEST_VENV := .build/test-venv
# The web remote's tests drive Debian's headless Chromium through chromium-driver with
# Selenium, and talk WebSocket with websocket-client (Tests/Scripts/remote_*.py).
TEST_PACKAGES += chromium chromium-driver
PY_TEST_PACKAGES += selenium==4.51.0 websocket-client==1.8.0
# Casting: real UPnP renderers started by the tests in a network namespace
# (Tests/TestSupport/RendererLab.swift), and async-upnp-client's `upnp-client`, a control point
# nobody here wrote, to find them (`search`) and check their own state (`call-action`).
TEST_PACKAGES += gmediarender rygel rygel-playbin iproute2
PY_TEST_PACKAGES += async-upnp-client==0.49.0

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: docs-check bench-thumbnails setup setup-bench build release release-order test test-tsan test-asan run fixtures bench \
	bench-smoke soak fuzz fuzz-corpus clean help setup-test test-venv man install uninstall

help:
	@echo "make run      play $(FIXTURE) (installs what is missing, builds)"
	@echo "make test     run the whole test suite"
	@echo "make build | release | release-order | fixtures | bench | bench-smoke | soak | test-tsan | test-asan | fuzz | clean"
	@echo "make install [PREFIX=/usr/local] [DESTDIR=]   |   make uninstall [PREFIX=/usr/local]"

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
	@bash Tests/check-tools.sh Tests/tools.list $(TEST_VENV) bench

# Everything the tests need: the Debian packages, the Python venv (made when missing with Debian's
# python3, each of $(PY_TEST_PACKAGES) installed when missing), then every program of
# Tests/tools.list's test group checked (present, and from its package).
setup-test: setup
	$(call apt_install,$(TEST_PACKAGES))
	@[ -x $(TEST_VENV)/bin/python3 ] || /usr/bin/python3 -m venv $(TEST_VENV)
	@missing=""; for p in $(PY_TEST_PACKAGES); do \
	  $(TEST_VENV)/bin/pip show -q "$${p%%[=<>]*}" >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then echo "installing into $(TEST_VENV):$$missing"; $(TEST_VENV)/bin/pip install -q $$missing; fi
	@bash Tests/check-tools.sh Tests/tools.list $(TEST_VENV) test

test-venv: setup-test

build: setup
	$(SWIFT) build

# The shipped gstplay: release, Swift runtime linked statically (less memory and a
# faster start than the shared runtime, docs/BENCHMARKS.md), in its own scratch directory.
# No `$ORIGIN` run path (`--disable-local-rpath`): it links only system libraries, and the loader
# would first look for each of them in the binary's directory (~25 failed opens at every start).
# Linked by the toolchain's lld with packed relative relocations (DT_RELR, glibc ≥ 2.36: 1.2 MB of
# .rela.dyn become 10 KB that the loader reads at start) and no exported symbol
# (Modules/Release/exports.map); measured in docs/BENCHMARKS.md ("The floor").
# Every function in a section of its own, and the functions a start, a headless play and a JSON
# console run execute laid out together at the front of .text (Modules/Release/startup.order, from
# `make release-order`): the kernel maps code in 64 KiB blocks around each page fault, so start-up
# code spread over 12 MB of .text would map megabytes that never run. The compiler's private
# functions have no symbol to order: Modules/Release/unnamed-functions.ld gathers them.
RELEASE_SCRATCH := .build-release
RELEASE_LINK := -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --version-script=$(CURDIR)/Modules/Release/exports.map \
	-Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/Modules/Release/startup.order -Xlinker --no-warn-symbol-ordering \
	-Xlinker --script=$(CURDIR)/Modules/Release/unnamed-functions.ld
RELEASE_BUILD = $(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath --scratch-path $(RELEASE_SCRATCH) $(RELEASE_LINK)
release: setup
	$(call apt_install,binutils)
	$(RELEASE_BUILD) --product gstplay
	@bin=$$($(RELEASE_BUILD) --show-bin-path)/gstplay; echo "release binary: $$bin"; \
	missing=$$(nm "$$bin" | awk '{print $$NF}' | sort -u | comm -13 - <(sort -u Modules/Release/startup.order) | wc -l); \
	[ "$$missing" -eq 0 ] || echo "note: $$missing functions named in Modules/Release/startup.order are not in the binary (renamed by a code change): run 'make release-order' before measuring or shipping"

# Regenerates Modules/Release/startup.order from the release binary: which functions run during
# `--version`, a headless play and a `--json` play (valgrind's callgrind, instruction addresses
# mapped to symbols), then links again (the binary removed first: SwiftPM does not track the file).
release-order: release
	$(call apt_install,valgrind binutils)
	bin=$$($(RELEASE_BUILD) --show-bin-path); \
	python3 Modules/Release/startup-order.py $$bin/gstplay Fixtures/short-0.2s.mp4 > Modules/Release/startup.order.new && \
	mv Modules/Release/startup.order.new Modules/Release/startup.order && rm -f $$bin/gstplay
	$(RELEASE_BUILD) --product gstplay

# One process per test, TEST_WORKERS at a time (the tests mostly wait on real-time playback; 8 on
# the 2-core machine, measured in docs/RELIABILITY.md §10), each with its own HOME, XDG directories
# and TMPDIR (Tests/TestSupport/TestProcess.swift). Tests/run-suite.sh prints `N passed, N failed,
# N skipped` and the failed tests; a test that failed under the parallel load is run once more
# alone (at most TEST_RETRY_LIMIT of them) and listed as "flaky (passed alone)" when it passes
# then; any other failure makes the target fail. Serial: `swift test`.
TEST_WORKERS ?= 8
TEST_RETRY_LIMIT ?= 5
TEST_RESULTS := .build/test-results
test: setup-test hls-fixtures
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) bash Tests/Embedding/check.sh
	SWIFT=$(SWIFT) WORKERS=$(TEST_WORKERS) RESULTS=$(TEST_RESULTS) RETRY_LIMIT=$(TEST_RETRY_LIMIT) bash Tests/run-suite.sh

# Tests/tsan.supp: only TSan's false reports on Swift `Mutex` (see the file and docs/RELIABILITY.md).
test-tsan: setup-test hls-fixtures
	TSAN_OPTIONS="suppressions=$(CURDIR)/Tests/tsan.supp $$TSAN_OPTIONS" $(SWIFT) test --sanitize=thread --scratch-path .build-tsan

# Tests/lsan.supp: only leaks inside GLib/GStreamer/plugins and two documented false positives.
# Full (DWARF) unwinding on malloc: GLib has no frame pointers, and the suppressions must see the
# stack of an allocation made inside it. No leak check at the test process's exit (XCTest's own
# objects leak there): WholeProcessLeakCheckTests checks during the run. gstplay children get fast
# stacks and no leak check (too slow for real time) except in gstplayTests' LeakCheckTests,
# which check at their exit (GstplayProcess.childEnvironment).
test-asan: setup-test hls-fixtures
	ASAN_OPTIONS="fast_unwind_on_malloc=0 malloc_context_size=16 leak_check_at_exit=0 $$ASAN_OPTIONS" LSAN_OPTIONS="suppressions=$(CURDIR)/Tests/lsan.supp $$LSAN_OPTIONS" \
	  $(SWIFT) test --sanitize=address --scratch-path .build-asan

run: build
	$$($(SWIFT) build --show-bin-path)/gstplay $(FIXTURE)

fixtures: setup
	$(call apt_install,$(FIXTURE_PACKAGES))
	@bash Tests/check-tools.sh Tests/tools.list $(TEST_VENV) test fixtures
	Fixtures/make-fixtures.sh

# --- Adaptive streaming: the HLS ladder the ABR tests and bench play (~20 s to make,
# ~15 MB, not committed). Regenerated when missing or older than the script.
HLS_DIR ?= .build-fixtures
hls-fixtures:
	@if [ ! -s $(HLS_DIR)/hls/master.m3u8 ] || [ ! -s $(HLS_DIR)/hls/manifest.mpd ] || [ Fixtures/make-fixtures.sh -nt $(HLS_DIR)/hls/master.m3u8 ]; then \
	  Fixtures/make-fixtures.sh --hls $(HLS_DIR); fi

# The full benchmark (~10 min): interleaved runs of gstplay, gst-play-1.0, gst-launch-1.0 and mpv,
# in-process seek/tick/concurrency cases; writes docs/BENCHMARKS.md. Not part of `make test`.
# The bench clips are synthesised (not committed) when missing or older than the script. "gstplay"
# is the shipped binary (`make release`: static Swift runtime); the same CLI linked with the shared
# Swift runtime (the harness's own release build in .build) is measured as a variant.
bench: setup-bench release hls-fixtures
	@for c in bench-short bench-10s bench-30s; do \
	  if [ ! -s $(BENCH_DIR)/$$c.mp4 ] || [ Fixtures/make-fixtures.sh -nt $(BENCH_DIR)/$$c.mp4 ]; then \
	    Fixtures/make-fixtures.sh --bench $(BENCH_DIR); break; fi; done
	$(SWIFT) build -c release
	$$($(SWIFT) build -c release --show-bin-path)/gstplay-bench --clips $(BENCH_DIR) --out docs/BENCHMARKS.md \
	  --gstplay $$($(RELEASE_BUILD) --show-bin-path)/gstplay \
	  --also "shared Swift runtime=$$($(SWIFT) build -c release --show-bin-path)/gstplay"

# A quick run of every bench case (few repetitions, short clips) to prove the harness works; CI runs it.
# Exits non-zero when one of the harness's own child programs fails.
bench-smoke: build hls-fixtures
	@for c in bench-short bench-10s bench-30s; do \
	  if [ ! -s $(BENCH_DIR)/$$c.mp4 ] || [ Fixtures/make-fixtures.sh -nt $(BENCH_DIR)/$$c.mp4 ]; then \
	    Fixtures/make-fixtures.sh --bench $(BENCH_DIR); break; fi; done
	$$($(SWIFT) build --show-bin-path)/gstplay-bench --clips $(BENCH_DIR) --smoke --out $(BENCH_DIR)/BENCHMARKS-smoke.md
	$$($(SWIFT) build --show-bin-path)/gstplay-bench abr-qoe --smoke --hls $(HLS_DIR)/hls --out $(BENCH_DIR)/abr-smoke

# Long runs (docs/RELIABILITY.md): 1000 load/play/stop cycles through the Backend and
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
	  $(SWIFT) test --skip-build $(if $(SCRATCH),--scratch-path $(SCRATCH)) --filter 'Soak|HostileNetworkCLITests/testStalledServer' 2>&1 | tee $(SOAK_LOG)
	@echo "--- soak figures ($(SOAK_LOG)):"; grep -o 'SOAK name=.*' $(SOAK_LOG)

# libFuzzer (docs/RELIABILITY.md §4) on every parser of outside text. The fuzz targets
# are the FuzzTests target (Tests/Fuzz), built by SwiftPM on the product's own gstplay and Backend
# modules: no source list to keep, so it cannot drift. Here the whole package is built in
# $(FUZZ_DIR) with ASan and libFuzzer's coverage, libFuzzer's library (no main) is linked in, and
# FuzzCorpusTests/testLibFuzzer hands it each of FUZZ_TARGETS for FUZZ_SECONDS on a scratch corpus
# seeded from Tests/Fuzz/corpus/<target> (kept between runs; `make clean` resets it). Crashes and
# invariant violations ("INVARIANT VIOLATED: …") land in $(FUZZ_DIR)/artifacts/<target>/; the
# target fails when any fuzzer found something. `make test` replays the committed corpus.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= console playlist subtitle hls dash arguments config cache-index resume mpv
FUZZ_DIR ?= .build-fuzz
FUZZ_ARGS ?=
FUZZER_LIB = $(shell clang -print-file-name=libclang_rt.fuzzer_no_main-$(shell uname -m).a)
FUZZ_BUILD = $(SWIFT) build --build-tests --scratch-path $(FUZZ_DIR) -Xswiftc -sanitize=address \
	-Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table -Xswiftc -use-ld=lld \
	-Xlinker $(FUZZER_LIB) -Xlinker -lstdc++ -Xlinker --undefined=LLVMFuzzerRunDriver -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver

# The fuzz targets' environment: the test binary, the target, its flags; fuzz-self.sh for
# libFuzzer's child processes; scratch files in $(FUZZ_DIR)/tmp; ASan without the Swift
# backtracer (it trips ASan), LSan with the project's suppressions.
FUZZ_BIN = $$($(SWIFT) build --scratch-path $(FUZZ_DIR) --show-bin-path)/gstplayPackageTests.xctest
FUZZ_ENV = GSTPLAY_FUZZ_BIN=$$bin GSTPLAY_FUZZ_SELF=$(CURDIR)/Tests/Fuzz/fuzz-self.sh TMPDIR=$(CURDIR)/$(FUZZ_DIR)/tmp \
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="malloc_context_size=0 $$ASAN_OPTIONS" \
	LSAN_OPTIONS="suppressions=$(CURDIR)/Tests/lsan.supp $$LSAN_OPTIONS"

fuzz: setup
	@bash Tests/check-tools.sh Tests/tools.list $(TEST_VENV) fuzz
	$(FUZZ_BUILD)
	@bin=$(FUZZ_BIN); failed=""; \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/artifacts/$$t $(FUZZ_DIR)/tmp; \
	  if [ -d Tests/Fuzz/corpus/$$t ]; then cp -n Tests/Fuzz/corpus/$$t/* $(FUZZ_DIR)/corpus/$$t/ 2>/dev/null || true; fi; \
	  echo "--- fuzz $$t: $(FUZZ_SECONDS) s"; \
	  GSTPLAY_FUZZ_TARGET=$$t GSTPLAY_FUZZ_ARGS="-max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=$(CURDIR)/$(FUZZ_DIR)/artifacts/$$t/ $(FUZZ_ARGS) $(CURDIR)/$(FUZZ_DIR)/corpus/$$t" \
	    $(FUZZ_ENV) $$bin FuzzTests.FuzzCorpusTests/testLibFuzzer </dev/null || failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: findings in:$$failed (see $(FUZZ_DIR)/artifacts)"; exit 1; fi

# After `make fuzz`: adds to Tests/Fuzz/corpus/<target> only the inputs of $(FUZZ_DIR)/corpus/<target>
# that reach coverage the committed files do not (libFuzzer -set_cover_merge=1: a small set;
# committed files are kept).
fuzz-corpus: setup
	$(FUZZ_BUILD)
	@bin=$(FUZZ_BIN); for t in $(FUZZ_TARGETS); do \
	  [ -d $(FUZZ_DIR)/corpus/$$t ] || continue; mkdir -p Tests/Fuzz/corpus/$$t $(FUZZ_DIR)/tmp; \
	  GSTPLAY_FUZZ_TARGET=$$t GSTPLAY_FUZZ_ARGS="-set_cover_merge=1 $(CURDIR)/Tests/Fuzz/corpus/$$t $(CURDIR)/$(FUZZ_DIR)/corpus/$$t" \
	    $(FUZZ_ENV) $$bin FuzzTests.FuzzCorpusTests/testLibFuzzer </dev/null || exit 1; \
	done

clean:
	rm -rf .build .build-* Tests/Embedding/.build Tests/Embedding/ReadmeExample

# An embedder's own package (Tests/Embedding) links no libX11 with product BackendCore and
# builds the README's example unchanged with product Backend (~1 s warm; part of `make test`).
.PHONY: check-embedding
check-embedding: setup
	SWIFT=$(SWIFT) bash Tests/Embedding/check.sh

# DocC check of the public API of every library target, offline: one symbol graph per
# module (with extension blocks, so a feature's `Player` extension gets its pages), one
# `docc convert --analyze` per module in .build-docs/modules, merged (`docc merge`) into
# .build-docs/Backend.doccarchive. Each module's archive stands alone: a doc comment links
# (``Name``) only to its own module's symbols and names another module's as a code span (`Player`).
# `Backend` re-exports the others, so its archive holds their symbols again; building
# BackendControl (the command language, above the umbrella) builds every one of them. The compiler rewrites
# a module's graph in .build-docs/symbols whenever it compiles the module (its doc comments are in
# its sources), so the directory is kept between runs. Fails on any
# documentation warning (broken or ambiguous links, undocumented parameters).
DOC_MODULES := BackendCore BackendQueue BackendCache BackendTracks BackendAdaptive BackendWindow \
	BackendThumbnails BackendResume BackendChapters BackendMPRIS Backend BackendTags BackendOSD BackendControl GLibSupport
docs-check: setup
	rm -rf .build-docs/modules .build-docs/Backend.doccarchive && mkdir -p .build-docs/symbols
	$(SWIFT) build --target BackendControl --scratch-path .build-docs -Xswiftc -emit-symbol-graph -Xswiftc -emit-extension-block-symbols \
	  -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build-docs/symbols
	@warned=""; for m in $(DOC_MODULES); do \
	  [ -e .build-docs/symbols/$$m.symbols.json ] || { echo "docs-check: no symbol graph for $$m (the compiler writes it only when it compiles $$m: rm -rf .build-docs and run again)"; exit 1; }; \
	  mkdir -p .build-docs/modules/$$m; cp .build-docs/symbols/$$m.symbols.json .build-docs/modules/$$m/; \
	  for f in .build-docs/symbols/$$m@*.symbols.json; do [ ! -e "$$f" ] || cp "$$f" .build-docs/modules/$$m/; done; \
	  out=$$(docc convert --additional-symbol-graph-dir .build-docs/modules/$$m --fallback-display-name $$m \
	    --fallback-bundle-identifier gstplay.$$m --output-dir .build-docs/modules/$$m.doccarchive --analyze 2>&1) \
	    || { echo "$$out"; echo "docs-check: docc convert failed for $$m"; exit 1; }; \
	  if echo "$$out" | grep -qE "warning|error"; then echo "$$out"; warned="$$warned $$m"; fi; \
	done; \
	docc merge $(foreach m,$(DOC_MODULES),.build-docs/modules/$(m).doccarchive) --synthesized-landing-page-name gstplay \
	  --output-path .build-docs/Backend.doccarchive >/dev/null || { echo "docs-check: docc merge failed"; exit 1; }; \
	if [ -n "$$warned" ]; then echo "docs-check: documentation warnings above (in$$warned)"; exit 1; fi; \
	echo "docs-check: no warnings in $(words $(DOC_MODULES)) modules; .build-docs/Backend.doccarchive"

# ---- Desktop: make install / make uninstall ----
# `make install PREFIX=/usr/local` installs the release gstplay (Swift runtime linked statically,
# see docs/BENCHMARKS.md), its man page (swift-argument-parser's generate-manual plugin, built from
# the package's own checkout: no network) and bash/zsh/fish completions
# (`gstplay --generate-completion-script`). DESTDIR stages into a root for packaging.
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_BIN := $(DESTDIR)$(PREFIX)/bin
INSTALL_MAN := $(DESTDIR)$(PREFIX)/share/man/man1
INSTALL_BASH := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
INSTALL_ZSH := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
INSTALL_FISH := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
MAN_PAGE := .build/plugins/GenerateManual/outputs/gstplay/gstplay.1
# The freedesktop thumbnailer (Exec=gstplay thumbnail -s %s %u %o).
INSTALL_THUMBNAILER := $(DESTDIR)$(PREFIX)/share/thumbnailers

# The plugin builds every product in release mode (in .build) and writes gstplay.1.
man: setup
	$(SWIFT) package --disable-sandbox plugin generate-manual --configuration release
	@test -s $(MAN_PAGE)

# The binary is `make release`'s (static Swift runtime, .build-release; the plugin's own release
# build in .build links the runtime dynamically and is not installed), stripped.
install: release man
	install -d $(INSTALL_BIN) $(INSTALL_MAN) $(INSTALL_BASH) $(INSTALL_ZSH) $(INSTALL_FISH)
	install -s -m 755 $$($(RELEASE_BUILD) --show-bin-path)/gstplay $(INSTALL_BIN)/gstplay
	install -m 644 $(MAN_PAGE) $(INSTALL_MAN)/gstplay.1
	$(INSTALL_BIN)/gstplay --generate-completion-script bash > $(INSTALL_BASH)/gstplay
	$(INSTALL_BIN)/gstplay --generate-completion-script zsh > $(INSTALL_ZSH)/_gstplay
	$(INSTALL_BIN)/gstplay --generate-completion-script fish > $(INSTALL_FISH)/gstplay.fish
	install -D -m 644 share/thumbnailers/gstplay.thumbnailer $(INSTALL_THUMBNAILER)/gstplay.thumbnailer
	@echo "installed $(INSTALL_BIN)/gstplay, man page and completions under $(DESTDIR)$(PREFIX)"

uninstall:
	rm -f $(INSTALL_BIN)/gstplay $(INSTALL_MAN)/gstplay.1 $(INSTALL_BASH)/gstplay $(INSTALL_ZSH)/_gstplay $(INSTALL_FISH)/gstplay.fish
	rm -f $(INSTALL_THUMBNAILER)/gstplay.thumbnailer
	@echo "removed gstplay from $(DESTDIR)$(PREFIX)"

# ---- Desktop entry and icon: part of make install / make uninstall ----
# share/applications/gstplay.desktop (Exec=gstplay %U, Terminal=false) with its MimeType from
# `gstplay mime-types`: a checked list (Sources/BackendControl/Files/PlayableMIMETypes.swift) kept to the types
# whose demuxer or parser the installed plugins have; and the scalable icon. DESKTOP_GSTPLAY names
# the binary asked for the types (default: the release build). update-desktop-database refreshes
# the MIME cache file managers read, when installing to the live system (no DESTDIR).
INSTALL_APPS := $(DESTDIR)$(PREFIX)/share/applications
INSTALL_ICONS := $(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps
DESKTOP_SOURCES := Sources/gstplay/Desktop
.PHONY: install-desktop uninstall-desktop
install: install-desktop
uninstall: uninstall-desktop

install-desktop: release
	install -d $(INSTALL_APPS) $(INSTALL_ICONS)
	$(DESKTOP_SOURCES)/desktop-entry.sh "$${DESKTOP_GSTPLAY:-$$($(RELEASE_BUILD) --show-bin-path)/gstplay}" \
	  $(DESKTOP_SOURCES)/gstplay.desktop.in > $(INSTALL_APPS)/gstplay.desktop.new
	chmod 644 $(INSTALL_APPS)/gstplay.desktop.new && mv $(INSTALL_APPS)/gstplay.desktop.new $(INSTALL_APPS)/gstplay.desktop
	install -m 644 $(DESKTOP_SOURCES)/gstplay.svg $(INSTALL_ICONS)/gstplay.svg
	@if [ -z "$(DESTDIR)" ] && command -v update-desktop-database >/dev/null; then update-desktop-database -q $(INSTALL_APPS); fi

uninstall-desktop:
	rm -f $(INSTALL_APPS)/gstplay.desktop $(INSTALL_ICONS)/gstplay.svg
	@if [ -z "$(DESTDIR)" ] && command -v update-desktop-database >/dev/null; then \
	  if ls $(INSTALL_APPS)/*.desktop >/dev/null 2>&1; then update-desktop-database -q $(INSTALL_APPS); \
	  else rm -f $(INSTALL_APPS)/mimeinfo.cache; fi; fi

# Thumbnail speed against a gst-launch-1.0 decode of the same clip (docs/BENCHMARKS.md, by hand).
bench-thumbnails: release
	@for c in bench-short bench-10s bench-30s; do \
	  if [ ! -s $(BENCH_DIR)/$$c.mp4 ]; then Fixtures/make-fixtures.sh --bench $(BENCH_DIR); break; fi; done
	python3 Tests/Bench/bench-thumbnails.py $$($(RELEASE_BUILD) --show-bin-path)/gstplay Fixtures/h264-aac-10s.mp4 $(BENCH_DIR)/bench-30s.mp4 --runs 15

# The adaptive-streaming QoE benchmark (~30 min; not part of `make bench`): every trace of
# Fixtures/traces × gstplay's buffer-aware ABR, its throughput rule and a bare playbin (its own
# adaptivedemux heuristic) × ABR_RUNS runs, over HLS and the ladder's DASH rendition; the three players
# of a cell play at once, ABR_JOBS cells at a time. On a 126 s ladder (HLS_SECONDS, not committed:
# longer than the longest trace, 120 s, so no stream ends in a run). Writes its section of docs/BENCHMARKS.md (between the
# abr-qoe markers), $(ABR_OUT)/results.json and one PNG per trace in docs/img/abr/ (matplotlib from
# $(BENCH_VENV)). `make bench-smoke` runs a 20 s slice of it (gstplay-bench abr-qoe --smoke).
ABR_HLS_DIR ?= .build-fixtures/hls-qoe
ABR_HLS_SECONDS ?= 126
ABR_RUNS ?= 3
ABR_JOBS ?= 3
ABR_OUT ?= $(BENCH_DIR)/abr
BENCH_VENV := .build/bench-venv
PY_BENCH_PACKAGES := matplotlib==3.9.2
.PHONY: bench-abr bench-venv abr-fixtures

# The bench's Python venv (matplotlib for the QoE pictures): made when missing, packages installed when missing.
bench-venv: setup
	$(call apt_install,python3-venv)
	@[ -x $(BENCH_VENV)/bin/python3 ] || python3 -m venv $(BENCH_VENV)
	@missing=""; for p in $(PY_BENCH_PACKAGES); do \
	  $(BENCH_VENV)/bin/pip show -q "$${p%%[=<>]*}" >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then echo "installing into $(BENCH_VENV):$$missing"; $(BENCH_VENV)/bin/pip install -q $$missing; fi

abr-fixtures:
	@if [ ! -s $(ABR_HLS_DIR)/hls/master.m3u8 ] || [ ! -s $(ABR_HLS_DIR)/hls/manifest.mpd ] || [ Fixtures/make-fixtures.sh -nt $(ABR_HLS_DIR)/hls/master.m3u8 ]; then \
	  HLS_SECONDS=$(ABR_HLS_SECONDS) Fixtures/make-fixtures.sh --hls $(ABR_HLS_DIR); fi

bench-abr: setup bench-venv abr-fixtures
	$(SWIFT) build -c release --product gstplay-bench
	$$($(SWIFT) build -c release --show-bin-path)/gstplay-bench abr-qoe --hls $(ABR_HLS_DIR)/hls --runs $(ABR_RUNS) --jobs $(ABR_JOBS) \
	  --out $(ABR_OUT) --section docs/BENCHMARKS.md; status=$$?; \
	$(BENCH_VENV)/bin/python3 Tests/Bench/plot-abr.py $(ABR_OUT)/results.json docs/img/abr && exit $$status

# Playing in sync across machines (~6 min; not part of `make bench`; root: network namespaces). The leader and
# 2, 4, 8 followers each in a network namespace on one bridge, all with --render-log; cases clean, clock packets
# through udp-relay (5 ms ± 2 ms, 1 % loss), a late joiner, a leader restart. Writes its section of
# docs/BENCHMARKS.md (between the sync-bench markers) and docs/sync-offsets.png (matplotlib from $(BENCH_VENV)).
# Without --sync-serve in gstplay it runs dry (no sync: proves the harness). SYNC_ARGS passes more options.
SYNC_ARGS ?=
.PHONY: bench-sync
bench-sync: setup bench-venv release
	$(call apt_install,$(BENCH_PACKAGES))
	@if [ ! -s $(BENCH_DIR)/bench-30s.mp4 ] || [ Fixtures/make-fixtures.sh -nt $(BENCH_DIR)/bench-30s.mp4 ]; then \
	  Fixtures/make-fixtures.sh --bench $(BENCH_DIR); fi
	$(SWIFT) build -c release --product udp-relay
	$(BENCH_VENV)/bin/python3 Tests/Bench/bench-sync.py --self-test
	$(BENCH_VENV)/bin/python3 Tests/Bench/bench-sync.py --gstplay $$($(RELEASE_BUILD) --show-bin-path)/gstplay \
	  --relay $$($(SWIFT) build -c release --show-bin-path)/udp-relay --clip $(BENCH_DIR)/bench-30s.mp4 $(SYNC_ARGS)
