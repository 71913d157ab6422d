#!/usr/bin/env bash
# Peak RSS (/usr/bin/time %M, KiB) and mapped libraries of gstplay binaries against gst-play-1.0,
# for docs/ADR-004-door-libraries.md: `--version`, and a headless local play (fakesink for both
# streams, in real time: sync=true; no DISPLAY). RUNS interleaved rounds (binary A, B, …, gst-play-1.0, then again), the
# median of each. Usage: door-libraries-rss.sh [RUNS] GSTPLAY...   (default RUNS 5, clip vp8-opus-4s.webm)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=5
if [[ ${1:-} =~ ^[0-9]+$ ]]; then runs=$1; shift; fi
clip=${CLIP:-Fixtures/vp8-opus-4s.webm}
unset DISPLAY WAYLAND_DISPLAY
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
peak() { /usr/bin/time -f %M -o /tmp/door-rss.$$ "$@" >/dev/null 2>&1 || true; cat /tmp/door-rss.$$; }
declare -A version play
binaries=("$@" gst-play-1.0)
for ((round = 0; round < runs; round++)); do
    for bin in "${binaries[@]}"; do
        version[$bin]+="$(peak "$bin" --version) "
        if [[ $bin == gst-play-1.0 ]]; then
            play[$bin]+="$(peak "$bin" -q --videosink "fakesink sync=true" --audiosink "fakesink sync=true" "$clip") "
        else
            play[$bin]+="$(peak "$bin" --quiet --video-sink "fakesink sync=true" --audio-sink "fakesink sync=true" "$clip") "
        fi
    done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $runs rounds; clip $clip"
# Shared objects mapped 2 s into one more play.
mapped() {
    "$@" >/dev/null 2>&1 & local pid=$!
    sleep 2
    awk '$6 ~ /\.so/ { print $6 }' "/proc/$pid/maps" | sort -u | wc -l
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
}
printf '%-60s %14s %14s %8s %8s %8s\n' binary "--version KiB" "play KiB" NEEDED ldd mapped
for bin in "${binaries[@]}"; do
    path=$(command -v "$bin")
    printf '%-60s %14s %14s %8s %8s %8s\n' "$bin" "$(tr ' ' '\n' <<<"${version[$bin]}" | grep . | median)" \
        "$(tr ' ' '\n' <<<"${play[$bin]}" | grep . | median)" \
        "$(readelf -d "$path" | grep -c NEEDED)" "$(ldd "$path" | grep -c '=>')" \
        "$(if [[ $bin == gst-play-1.0 ]]; then mapped "$bin" -q --videosink "fakesink sync=true" --audiosink "fakesink sync=true" "$clip"
           else mapped "$bin" --quiet --video-sink "fakesink sync=true" --audio-sink "fakesink sync=true" "$clip"; fi)"
done
rm -f /tmp/door-rss.$$
