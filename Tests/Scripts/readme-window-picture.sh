#!/usr/bin/env bash
# Makes docs/window-subtitles-osd.png, the README's picture of the video window: gstplay
# under a private Xvfb plays Fixtures/colour-steps-4s.webm with Fixtures/subtitles.srt, pauses,
# seeks to 2.5 s (the cue "Third cue"; the seek shows the OSD; the seek preview is off, it would cover
# the cue), and `import` screenshots the window.
# Needs Xvfb, x11-utils and imagemagick (`make test` installs them) and a built gstplay
# (default .build/debug/gstplay; GSTPLAY=… for another). Usage: Tests/Scripts/readme-window-picture.sh [out.png]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gstplay=${GSTPLAY:-$root/.build/debug/gstplay}
out=${1:-$root/docs/window-subtitles-osd.png}
work=$(mktemp -d)
cleanup() {
    [[ -n ${player:-} ]] && kill "$player" 2>/dev/null || true
    [[ -n ${xvfb:-} ]] && kill "$xvfb" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
Xvfb -displayfd 5 -screen 0 800x600x24 -nolisten tcp 5>"$work/display" 2>/dev/null &
xvfb=$!
for _ in $(seq 100); do [[ $(wc -l <"$work/display") -ge 1 ]] && break; sleep 0.1; done
export DISPLAY=":$(cat "$work/display")"
mkfifo "$work/in"
"$gstplay" --json --video-sink ximagesink --osd-seek-preview=no --sub-file "$root/Fixtures/subtitles.srt" "$root/Fixtures/colour-steps-4s.webm" <"$work/in" >"$work/out" 2>&1 &
player=$!
exec 4>"$work/in"
window=
for _ in $(seq 200); do
    window=$(xwininfo -root -children | awk '/"colour-steps-4s.webm"/ {print $1; exit}')
    [[ -n $window ]] && grep -q '"event":"subtitle"' "$work/out" && break
    sleep 0.1
done
[[ -n $window ]] || { echo "no window" >&2; cat "$work/out" >&2; exit 1; }
echo pause >&4
echo "seek 2.5" >&4
for _ in $(seq 100); do [[ $(grep -c '"event":"seek-done"' "$work/out") -ge 2 ]] && break; sleep 0.1; done
sleep 0.5   # the paused frame at 2.5 s reaches the window
import -window "$window" "$out"
echo quit >&4
echo "wrote $out"
