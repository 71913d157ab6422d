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

test-tsan: setup
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan

test-asan: setup
	$(SWIFT) test --sanitize=address --scratch-path .build-asan

run: build
	$$($(SWIFT) build --show-bin-path)/gstplay $(FIXTURE)

fixtures: setup
	Fixtures/make-fixtures.sh

bench: setup-bench release
	Fixtures/make-fixtures.sh --bench $(BENCH_DIR)
	$$($(SWIFT) build -c release --show-bin-path)/gstplay-bench --clips $(BENCH_DIR) --out docs/BENCHMARKS.md

# A quick run of every bench case (few repetitions, short clips) to prove the harness works; CI runs it.
bench-smoke: build
	Fixtures/make-fixtures.sh --bench $(BENCH_DIR)
	$$($(SWIFT) build --show-bin-path)/gstplay-bench --clips $(BENCH_DIR) --smoke --out $(BENCH_DIR)/BENCHMARKS-smoke.md

clean:
	rm -rf .build .build-*
