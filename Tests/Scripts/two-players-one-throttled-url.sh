#!/usr/bin/env bash
# Two gstplay processes play the same throttled URL at once; count how many play
# to the end.
#
# Usage: Tests/Scripts/two-players-one-throttled-url.sh [RUNS] [RATE]
#   RUNS  pairs to run (default 20): odd runs with --no-cache, even runs with the media cache
#         (both processes of a pair share one fresh cache directory, as two players of one
#         user do)
#   RATE  server throttle in bytes/s (default 100000)
#
# The file is Fixtures/h264-ac3-10s.mkv (H.264 + AC-3 Matroska, 653 KB, 10 s) served by
# Tests/TestSupport/http_test_server.py at /file/h264-ac3-10s.mkv?rate=RATE. Each process
# runs with --json and a 60 s limit; it "plays to the end" when it printed an `eos` event and
# exited 0. Prints one line per process and a summary; exits 0 only when every run (pair)
# played to the end. The engine's debug category is on (GST_DEBUG=gstplay:5, on stderr), so the
# summary also counts the late lower levels
# the buffering policy set aside ("probe busy false" on a level below 100 %).
# Plays with the debug build (`swift build`) unless GSTPLAY names another binary; work files go
# to a temporary directory, removed at exit unless KEEP=1.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
RUNS="${1:-20}"
RATE="${2:-100000}"
BIN="${GSTPLAY:-$(cd "$ROOT" && swift build --show-bin-path)/gstplay}"
[ -x "$BIN" ] || { echo "error: $BIN not found: run 'swift build' first" >&2; exit 2; }
WORK="$(mktemp -d "${TMPDIR:-/tmp}/two-players.XXXXXX")"
cleanup() {
    exec 4>&- 2>/dev/null || true
    if [ "${KEEP:-0}" = 1 ]; then echo "work files kept in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# The server exits when its stdin (fd 4 here) closes.
exec 4> >(exec python3 "$ROOT/Tests/TestSupport/http_test_server.py" > "$WORK/port" 2>/dev/null)
for _ in $(seq 100); do grep -q PORT "$WORK/port" 2>/dev/null && break; sleep 0.1; done
PORT="$(awk '/PORT/ {print $2}' "$WORK/port")"
[ -n "$PORT" ] || { echo "error: the test server did not start" >&2; exit 2; }
URL="http://127.0.0.1:$PORT/file/h264-ac3-10s.mkv?rate=$RATE"

good_runs=0; good_players=0; set_aside=0
for run in $(seq 1 "$RUNS"); do
    if [ $((run % 2)) = 1 ]; then mode=--no-cache; else mode=--cache; fi
    shared="$WORK/$run/shared-cache"; mkdir -p "$shared"
    pids=()
    for player in a b; do
        dir="$WORK/$run/$player"; mkdir -p "$dir/home" "$dir/state"
        (
            cd "$dir"
            start=$(date +%s.%N)
            status=0
            HOME="$dir/home" XDG_CACHE_HOME="$shared" XDG_STATE_HOME="$dir/state" GST_DEBUG=gstplay:5 \
                timeout 60 "$BIN" --json "$mode" "$URL" > out.json 2> err.log < /dev/null || status=$?
            echo "$status $(echo "$(date +%s.%N) - $start" | bc)" > result
        ) &
        pids+=($!)
    done
    wait "${pids[@]}"
    pair_ok=1
    for player in a b; do
        dir="$WORK/$run/$player"
        read -r status seconds < "$dir/result"
        if [ "$status" = 0 ] && grep -q '"event":"eos"' "$dir/out.json"; then
            verdict="played to the end"; good_players=$((good_players + 1))
        else
            verdict="DID NOT FINISH (last buffering: $(grep -o '"event":"buffering","percent":[0-9]*' "$dir/out.json" | tail -1 | grep -o '[0-9]*$' || echo none))"
            pair_ok=0
        fi
        late=$(grep -cE 'buffering [0-9]{1,2}% download probe busy false' "$dir/err.log" || true)
        set_aside=$((set_aside + late))
        printf 'run %2d%s %-10s exit %-3s %6.1f s  %s%s\n' "$run" "$player" "$mode" "$status" "$seconds" "$verdict" \
            "$([ "$late" -gt 0 ] && echo "; late lower levels set aside: $late" || true)"
    done
    good_runs=$((good_runs + pair_ok))
done
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $URL"
echo "runs played to the end (both players): $good_runs of $RUNS; players: $good_players of $((RUNS * 2)); late lower levels set aside: $set_aside"
[ "$good_runs" = "$RUNS" ]
