#!/bin/sh
# libFuzzer's own child processes (`-merge=1`, `-fork=N`) run argv[0] with libFuzzer flags. In
# `make fuzz` argv[0] is this script: it runs the same fuzz target in the test binary again, with
# those flags (GSTPLAY_FUZZ_BIN and GSTPLAY_FUZZ_TARGET come from the parent's environment).
GSTPLAY_FUZZ_ARGS="$*" exec "$GSTPLAY_FUZZ_BIN" FuzzTests.FuzzCorpusTests/testLibFuzzer
