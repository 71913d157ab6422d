#!/usr/bin/env bash
# Regenerate the media fixtures used by the gstplay tests.
#
# Usage:
#   Fixtures/make-fixtures.sh              regenerate the committed fixtures in Fixtures/
#   Fixtures/make-fixtures.sh --bench DIR  write ONLY the (uncommitted) benchmark clips into DIR
#
# Everything is synthesised with gst-launch-1.0 (videotestsrc/audiotestsrc);
# nothing is downloaded.  python3 is used only to cut files (no-moov.mp4) and
# to write deterministic pseudo-random bytes (garbage.bin).  The script is
# idempotent: every output is written to a temporary file and then moved into
# place, so it can be re-run at any time.
#
# Note: the files are NOT byte-for-byte reproducible (mp4mux/matroskamux embed
# the creation time, oggmux picks random stream serials), but their streams,
# durations and sizes are the same on every run.
#
# Requirements: gst-launch-1.0 with plugins base/good/bad + libav
# (openh264enc, avenc_aac, vp8enc, opusenc, theoraenc, vorbisenc, ...), python3.
set -euo pipefail

CALLER_PWD="$PWD"
cd "$(dirname "${BASH_SOURCE[0]}")"
SELF="$(basename "${BASH_SOURCE[0]}")"

usage() {
    sed -n '2,7p' "$SELF" | sed 's/^# \{0,1\}//'
}

BENCH_DIR=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bench)
            [ $# -ge 2 ] || { echo "error: --bench needs a directory" >&2; exit 2; }
            BENCH_DIR="$2"; shift 2 ;;
        --bench=*)
            BENCH_DIR="${1#--bench=}"; shift ;;
        -h|--help)
            usage; exit 0 ;;
        *)
            echo "error: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
done

for tool in gst-launch-1.0 gst-inspect-1.0 python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool not found" >&2; exit 1; }
done
for el in videotestsrc audiotestsrc timeoverlay videoconvert audioconvert concat \
          openh264enc h264parse avenc_aac aacparse mp4mux \
          vp8enc opusenc webmmux theoraenc vorbisenc oggmux matroskamux subparse; do
    gst-inspect-1.0 --exists "$el" || { echo "error: GStreamer element '$el' is missing" >&2; exit 1; }
done

TMPFILES=()
cleanup() { if [ ${#TMPFILES[@]} -gt 0 ]; then rm -f "${TMPFILES[@]}"; fi; }
trap cleanup EXIT

# run_gst OUTPUT PIPELINE...
# Runs gst-launch-1.0 with the pipeline, where the literal word @OUT@ is
# replaced by a temporary file name; on success the temporary file is moved to
# OUTPUT.  gst-launch output (e.g. openh264's harmless "cmInitParaError" line at
# EOS) is only shown on failure.
run_gst() {
    local out="$1"; shift
    local tmp; tmp="$(dirname "$out")/.tmp-$(basename "$out")"
    TMPFILES+=("$tmp")
    local args=() a
    for a in "$@"; do args+=("${a//@OUT@/$tmp}"); done
    local log
    if ! log="$(gst-launch-1.0 -q -e "${args[@]}" 2>&1)"; then
        echo "error: gst-launch-1.0 failed while generating $out:" >&2
        echo "$log" >&2
        exit 1
    fi
    if [ ! -s "$tmp" ]; then
        echo "error: $out came out empty" >&2
        echo "$log" >&2
        exit 1
    fi
    mv -f "$tmp" "$out"
    echo "  $out ($(wc -c < "$out") bytes)"
}

# ---------------------------------------------------------------------------
# Building blocks.  All audio is 48 kHz stereo with 1600 samples per buffer, so
# one audio buffer == one video frame at 30 fps and num-buffers is identical
# for both branches (30 buffers per second).
# ---------------------------------------------------------------------------
FPS=30
SPB=1600
AUDIO_CAPS="audio/x-raw,rate=48000,channels=2"

# video_src FRAMES WIDTH HEIGHT [PAR] -> pipeline fragment in array VSRC
# (a moving ball with the running time burnt in, so frames are identifiable).
video_src() {
    local n="$1" w="$2" h="$3" par="${4:-1/1}"
    VSRC=(videotestsrc num-buffers="$n" pattern=ball
          ! "video/x-raw,width=$w,height=$h,framerate=$FPS/1,pixel-aspect-ratio=$par"
          ! timeoverlay "font-desc=Sans 20" halignment=left valignment=top
          ! videoconvert)
}
# audio_src BUFFERS -> pipeline fragment in array ASRC (440 Hz sine)
audio_src() {
    local n="$1"
    ASRC=(audiotestsrc num-buffers="$n" samplesperbuffer=$SPB wave=sine freq=440 volume=0.3
          ! "$AUDIO_CAPS" ! audioconvert)
}

# H.264 (openh264) + AAC in MP4.  keyframe every second (gop-size=30).
# mp4_h264_aac OUT FRAMES WIDTH HEIGHT VIDEO_ENC_OPTS AAC_BITRATE FASTSTART
mp4_h264_aac() {
    local out="$1" n="$2" w="$3" h="$4" venc="$5" abr="$6" fast="$7"
    local venc_opts; read -r -a venc_opts <<< "$venc"
    video_src "$n" "$w" "$h"; audio_src "$n"
    run_gst "$out" \
        "${VSRC[@]}" ! openh264enc gop-size=$FPS "${venc_opts[@]}" ! h264parse ! queue \
        ! mp4mux name=mux faststart="$fast" ! filesink location=@OUT@ \
        "${ASRC[@]}" ! avenc_aac bitrate="$abr" ! aacparse ! queue ! mux.
}

SMALL_H264="rate-control=off qp-min=36 qp-max=36"

make_fixtures() {
    echo "Generating fixtures in $(pwd)"

    # 10 s H.264/AAC, 320x240, square pixels, moov first.
    mp4_h264_aac h264-aac-10s.mp4 300 320 240 "$SMALL_H264" 64000 true

    # 0.2 s H.264/AAC (6 frames).
    mp4_h264_aac short-0.2s.mp4 6 320 240 "$SMALL_H264" 64000 true

    # 4 s VP8/Opus in WebM.
    video_src 120 320 240; audio_src 120
    run_gst vp8-opus-4s.webm \
        "${VSRC[@]}" \
        ! vp8enc keyframe-max-dist=$FPS target-bitrate=120000 deadline=1 cpu-used=4 threads=2 ! queue \
        ! webmmux name=mux ! filesink location=@OUT@ \
        "${ASRC[@]}" ! opusenc bitrate=48000 ! queue ! mux.

    # 4 s Theora/Vorbis in Ogg.
    video_src 120 320 240; audio_src 120
    run_gst theora-vorbis-4s.ogg \
        "${VSRC[@]}" \
        ! theoraenc keyframe-freq=$FPS bitrate=120 ! queue \
        ! oggmux name=mux ! filesink location=@OUT@ \
        "${ASRC[@]}" ! vorbisenc quality=0.1 ! queue ! mux.

    # 4 s Vorbis-only Ogg.
    audio_src 120
    run_gst audio-only-4s.ogg \
        "${ASRC[@]}" ! vorbisenc quality=0.1 ! oggmux ! filesink location=@OUT@

    # 2 s 720x576 with PAR 64/45 (display size 1024x576), H.264 in Matroska,
    # video only; matroskamux stores the PAR as DisplayWidth/DisplayHeight.
    video_src 60 720 576 64/45
    run_gst par-64-45.mkv \
        "${VSRC[@]}" \
        ! openh264enc gop-size=$FPS rate-control=off qp-min=40 qp-max=40 ! h264parse \
        ! matroskamux ! filesink location=@OUT@

    # 2 s VP8 in WebM, video only: 320x240 for 1 s, then 640x480 for 1 s.
    # The container header only announces 320x240; the switch is in-band (VP8
    # keyframe) and vp8dec renegotiates caps downstream at pts 1.0 s.
    run_gst size-change.webm \
        concat name=c ! vp8enc keyframe-max-dist=$FPS target-bitrate=200000 deadline=1 cpu-used=4 threads=2 \
        ! webmmux ! filesink location=@OUT@ \
        videotestsrc num-buffers=30 pattern=ball \
            ! video/x-raw,width=320,height=240,framerate=$FPS/1,pixel-aspect-ratio=1/1 \
            ! timeoverlay "font-desc=Sans 20" ! videoconvert ! video/x-raw,format=I420 ! c. \
        videotestsrc num-buffers=30 pattern=ball \
            ! video/x-raw,width=640,height=480,framerate=$FPS/1,pixel-aspect-ratio=1/1 \
            ! timeoverlay "font-desc=Sans 20" ! videoconvert ! video/x-raw,format=I420 ! c.

    # 3-cue SRT and a 4 s VP8/Vorbis Matroska file with it embedded.
    cat > .tmp-subtitles.srt <<'EOF'
1
00:00:00,000 --> 00:00:01,000
First cue

2
00:00:01,000 --> 00:00:02,000
Second cue

3
00:00:02,000 --> 00:00:03,000
Third cue
EOF
    mv -f .tmp-subtitles.srt subtitles.srt
    echo "  subtitles.srt ($(wc -c < subtitles.srt) bytes)"
    video_src 120 320 240; audio_src 120
    run_gst with-subs.mkv \
        matroskamux name=mux ! filesink location=@OUT@ \
        "${VSRC[@]}" \
        ! vp8enc keyframe-max-dist=$FPS target-bitrate=120000 deadline=1 cpu-used=4 threads=2 ! queue ! mux.video_0 \
        "${ASRC[@]}" ! vorbisenc quality=0.1 ! queue ! mux.audio_0 \
        filesrc location=subtitles.srt ! subparse ! queue ! mux.subtitle_0

    # --- broken / degenerate inputs -------------------------------------------

    # truncated.mp4: h264-aac-10s.mp4 (moov first) cut to 40 %, i.e. the mdat
    # ends early while the moov still references the missing samples.
    local full cut
    full=$(wc -c < h264-aac-10s.mp4)
    cut=$(( full * 40 / 100 ))
    head -c "$cut" h264-aac-10s.mp4 > .tmp-truncated.mp4
    mv -f .tmp-truncated.mp4 truncated.mp4
    echo "  truncated.mp4 ($(wc -c < truncated.mp4) bytes)"

    # no-moov.mp4: a 2 s H.264/AAC MP4 written WITHOUT faststart (ftyp, mdat,
    # moov) and cut exactly where the moov atom starts -> no moov at all.
    TMPFILES+=(.tmp-no-moov-full.mp4)
    mp4_h264_aac .tmp-no-moov-full.mp4 60 320 240 "$SMALL_H264" 64000 false >/dev/null
    python3 - .tmp-no-moov-full.mp4 .tmp-no-moov.mp4 <<'EOF'
import struct, sys
src, dst = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()
pos = 0
while pos + 8 <= len(data):
    size, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if size == 1:
        size = struct.unpack(">Q", data[pos + 8:pos + 16])[0]
    if kind == b"moov":
        break
    if size < 8:
        sys.exit("unexpected atom size %d at %d" % (size, pos))
    pos += size
else:
    sys.exit("no moov atom found in " + src)
open(dst, "wb").write(data[:pos])
EOF
    rm -f .tmp-no-moov-full.mp4
    mv -f .tmp-no-moov.mp4 no-moov.mp4
    echo "  no-moov.mp4 ($(wc -c < no-moov.mp4) bytes)"

    # garbage.bin: 64 KiB of deterministic pseudo-random bytes (fixed seed).
    python3 -c '
import random, sys
sys.stdout.buffer.write(random.Random(20240601).randbytes(65536))
' > .tmp-garbage.bin
    mv -f .tmp-garbage.bin garbage.bin
    echo "  garbage.bin ($(wc -c < garbage.bin) bytes)"

    # empty.mp4: zero bytes.
    : > empty.mp4
    echo "  empty.mp4 (0 bytes)"
}

make_bench() {
    local dir="$1"
    mkdir -p "$dir"
    echo "Generating benchmark clips in $dir"
    local venc="rate-control=bitrate bitrate=1000000 enable-frame-skip=false multi-thread=2"
    mp4_h264_aac "$dir/bench-10s.mp4"   300 640 360 "$venc" 128000 true
    mp4_h264_aac "$dir/bench-30s.mp4"   900 640 360 "$venc" 128000 true
    mp4_h264_aac "$dir/bench-short.mp4"   6 640 360 "$venc" 128000 true
}

if [ -n "$BENCH_DIR" ]; then
    # Resolve relative to the caller's directory, not Fixtures/.
    case "$BENCH_DIR" in
        /*) ;;
        *) BENCH_DIR="$CALLER_PWD/$BENCH_DIR" ;;
    esac
    make_bench "$BENCH_DIR"
else
    make_fixtures
fi
