#!/usr/bin/env bash
# Regenerate the media fixtures used by the gstplay tests.
#
# Usage:
#   Fixtures/make-fixtures.sh              regenerate the committed fixtures in Fixtures/
#   Fixtures/make-fixtures.sh --bench DIR  write ONLY the (uncommitted) benchmark clips into DIR
#   Fixtures/make-fixtures.sh --hls DIR    write ONLY the (uncommitted) HLS ladder into DIR/hls
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
    sed -n '2,8p' "$SELF" | sed 's/^# \{0,1\}//'
}

BENCH_DIR=""
HLS_DIR=""
while [ $# -gt 0 ]; do
    case "$1" in
        --hls)
            [ $# -ge 2 ] || { echo "error: --hls needs a directory" >&2; exit 2; }
            HLS_DIR="$2"; shift 2 ;;
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
          vp8enc opusenc webmmux theoraenc vorbisenc oggmux matroskamux subparse taginject lamemp3enc id3v2mux \
          avenc_ac3 ac3parse; do
    gst-inspect-1.0 --exists "$el" || { echo "error: GStreamer element '$el' is missing" >&2; exit 1; }
done

TMPFILES=()
cleanup() { if [ ${#TMPFILES[@]} -gt 0 ]; then rm -f "${TMPFILES[@]}"; fi; }
trap cleanup EXIT

# srt TIMING TEXT [TIMING TEXT ...]: prints an SRT file of numbered cues, each with its
# timing line ("00:00:01,000 --> 00:00:02,000", or a broken one) and one line of text.
srt() {
    local n=0
    while [ $# -ge 2 ]; do
        if [ $n -gt 0 ]; then echo; fi
        n=$((n + 1))
        printf '%d\n%s\n%s\n' "$n" "$1" "$2"
        shift 2
    done
}

# commit_text NAME: writes stdin to NAME through a temporary file, moved into place when
# complete, and says its size.
commit_text() {
    cat > ".tmp-$1"
    mv -f ".tmp-$1" "$1"
    echo "  $1 ($(wc -c < "$1") bytes)"
}

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

# tags and cover art (issue 23), all with gst-launch-1.0 (taginject, id3v2mux):
#   cover-art.png     128x128 SMPTE bars (pngenc): the picture embedded below
#   tagged-cover.mp3  3 s MP3 (LAME 64 kbit/s) with an ID3v2 tag: title, artist, album,
#                     track number, genre, comment, date and cover-art.png as the front
#                     cover (APIC). The picture goes through taginject as a serialised
#                     GstSample ("<hex bytes>:<base64 caps>:None:None", the format of
#                     gst_value_deserialize_sample; python3 only hex/base64-encodes it,
#                     and marks the APIC frame as the front cover afterwards).
#   tagged.ogg        3 s Vorbis with Vorbis comments (title, artist, album, track number,
#                     genre, comment, date) and no picture: they arrive as the audio
#                     stream's tags, not the container's.
make_tag_fixtures() {
    run_gst cover-art.png \
        videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,width=128,height=128 \
        ! videoconvert ! pngenc ! filesink location=@OUT@
    local sample
    sample="$(python3 -c '
import base64, sys
def b64(text): return base64.b64encode(text.encode() + b"\0").decode().replace("=", "_")
data = open(sys.argv[1], "rb").read()
print(data.hex() + ":" + b64("image/png") + ":None:None")
' cover-art.png)"
    # gst-launch-1.0 joins its arguments and parses them again: the tag list is one quoted
    # value, and each string with spaces inside it is quoted again (\\\").
    audio_src 90
    run_gst tagged-cover.mp3 \
        "${ASRC[@]}" ! lamemp3enc target=bitrate bitrate=64 cbr=true \
        ! taginject "tags=\"title=\\\"Test Tone\\\",artist=\\\"gstplay Fixtures\\\",album=\\\"Fixture Album\\\",track-number=(uint)3,genre=Test,comment=\\\"a 440 Hz sine\\\",date=(GDate)2024-05-01,image=(GstSample)$sample\"" \
        ! id3v2mux ! filesink location=@OUT@
    # The picture's kind cannot go through taginject (its GstTagImageType is not registered
    # when the tag list is parsed), so id3v2mux writes "other": python3 sets the APIC frame's
    # picture-type byte (after the text encoding byte and the MIME type) to 3, front cover.
    python3 - tagged-cover.mp3 <<'EOF'
import sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
frame = data.index(b"APIC")
mime_end = data.index(b"\0", frame + 11)
data[mime_end + 1] = 3
open(path, "wb").write(data)
EOF
    audio_src 90
    run_gst tagged.ogg \
        "${ASRC[@]}" \
        ! taginject "tags=\"title=\\\"Ogg Tone\\\",artist=\\\"gstplay Fixtures\\\",album=\\\"Fixture Album\\\",track-number=(uint)7,genre=Test,comment=\\\"Vorbis comments\\\",datetime=(GstDateTime)2023-02-03\"" \
        ! vorbisenc quality=0.1 ! oggmux ! filesink location=@OUT@
}

SMALL_H264="rate-control=off qp-min=36 qp-max=36"

# make_chapters: compiles the TOC helper into a temporary directory and writes chapters.mkv.
make_chapters() {
    local dir; dir="$(mktemp -d)"
    TMPFILES+=("$dir/toc-mux.c" "$dir/toc-mux" .tmp-chapters.mkv)
    cat > "$dir/toc-mux.c" <<'EOF_C'
/* toc-mux OUT: a 6 s VP8 + Vorbis Matroska file; matroskamux (a GstTocSetter) gets an edition
 * with three chapters, the middle one holding two nested chapters. */
#include <gst/gst.h>

static GstTocEntry *chapter(const char *uid, const char *title, gint64 start_s, gint64 stop_s) {
    GstTocEntry *entry = gst_toc_entry_new(GST_TOC_ENTRY_TYPE_CHAPTER, uid);
    gst_toc_entry_set_start_stop_times(entry, start_s * GST_SECOND, stop_s * GST_SECOND);
    gst_toc_entry_set_tags(entry, gst_tag_list_new(GST_TAG_TITLE, title, NULL));
    return entry;
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    if (argc != 2) { g_printerr("usage: toc-mux OUT.mkv\n"); return 2; }
    gchar *description = g_strdup_printf(
        "matroskamux name=mux ! filesink location=\"%s\" "
        "videotestsrc num-buffers=180 pattern=ball ! video/x-raw,width=160,height=120,framerate=30/1,pixel-aspect-ratio=1/1 "
        "! timeoverlay font-desc=\"Sans 12\" halignment=left valignment=top ! videoconvert "
        "! vp8enc keyframe-max-dist=30 target-bitrate=60000 deadline=1 cpu-used=4 threads=2 ! queue ! mux.video_0 "
        "audiotestsrc num-buffers=180 samplesperbuffer=1600 wave=sine freq=440 volume=0.3 ! audio/x-raw,rate=48000,channels=2 "
        "! audioconvert ! vorbisenc quality=0.1 ! queue ! mux.audio_0", argv[1]);
    GError *error = NULL;
    GstElement *pipeline = gst_parse_launch(description, &error);
    g_free(description);
    if (!pipeline) { g_printerr("toc-mux: %s\n", error->message); return 1; }
    GstElement *mux = gst_bin_get_by_name(GST_BIN(pipeline), "mux");

    GstToc *toc = gst_toc_new(GST_TOC_SCOPE_GLOBAL);
    GstTocEntry *edition = gst_toc_entry_new(GST_TOC_ENTRY_TYPE_EDITION, "edition");
    gst_toc_entry_set_start_stop_times(edition, 0, 6 * GST_SECOND);
    GstTocEntry *middle = chapter("middle", "Middle", 2, 4);
    gst_toc_entry_append_sub_entry(middle, chapter("middle-1", "Middle, part one", 2, 3));
    gst_toc_entry_append_sub_entry(middle, chapter("middle-2", "Middle, part two", 3, 4));
    gst_toc_entry_append_sub_entry(edition, chapter("opening", "Opening", 0, 2));
    gst_toc_entry_append_sub_entry(edition, middle);
    gst_toc_entry_append_sub_entry(edition, chapter("closing", "Closing", 4, 6));
    gst_toc_append_entry(toc, edition);
    gst_toc_setter_set_toc(GST_TOC_SETTER(mux), toc);
    gst_toc_unref(toc);
    gst_object_unref(mux);

    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    GstBus *bus = gst_element_get_bus(pipeline);
    GstMessage *message = gst_bus_timed_pop_filtered(bus, 60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    int status = 0;
    if (!message || GST_MESSAGE_TYPE(message) != GST_MESSAGE_EOS) { g_printerr("toc-mux: the pipeline failed or timed out\n"); status = 1; }
    if (message) gst_message_unref(message);
    gst_object_unref(bus);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
    return status;
}
EOF_C
    for tool in cc pkg-config; do
        command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool not found (needed for chapters.mkv)" >&2; exit 1; }
    done
    # shellcheck disable=SC2046
    cc -O1 -o "$dir/toc-mux" "$dir/toc-mux.c" $(pkg-config --cflags --libs gstreamer-1.0)
    "$dir/toc-mux" .tmp-chapters.mkv
    rm -rf "$dir"
    mv -f .tmp-chapters.mkv chapters.mkv
    echo "  chapters.mkv ($(wc -c < chapters.mkv) bytes)"
}

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

    # 2 s Theora (400 kbit/s) + Vorbis in Ogg, ~110 KB: smaller than oggdemux's push-mode
    # "near the end" window, so without download buffering its duration scan re-reads the
    # whole body over HTTP (issue #16.3).
    # SMPTE bars instead of the ball: the ball compresses to half that size.
    video_src 60 320 240; audio_src 60
    VSRC=("${VSRC[@]/pattern=ball/pattern=smpte}")
    run_gst theora-vorbis-2s-400k.ogg \
        "${VSRC[@]}" \
        ! theoraenc keyframe-freq=$FPS bitrate=400 ! queue \
        ! oggmux name=mux ! filesink location=@OUT@ \
        "${ASRC[@]}" ! vorbisenc quality=0.1 ! queue ! mux.

    # 4 s MP3 (LAME, 64 kbit/s CBR), for the throttled-HTTP tests.
    audio_src 120
    run_gst mp3-4s.mp3 \
        "${ASRC[@]}" ! lamemp3enc target=bitrate bitrate=64 cbr=true ! id3v2mux ! filesink location=@OUT@

    # 2 s 720x576 with PAR 64/45 (display size 1024x576), H.264 in Matroska,
    # video only; matroskamux stores the PAR as DisplayWidth/DisplayHeight.
    video_src 60 720 576 64/45
    run_gst par-64-45.mkv \
        "${VSRC[@]}" \
        ! openh264enc gop-size=$FPS rate-control=off qp-min=40 qp-max=40 ! h264parse \
        ! matroskamux ! filesink location=@OUT@

    # 10 s H.264 + AC-3 (448 kbit/s) in Matroska, ~650 KB: two players on one throttled
    # URL (issue 20.1). matroskademux reads the Cues at the end first, so downloadbuffer
    # fetches the tail with a Range request and posts 100 % before the body has arrived.
    video_src 300 320 240; audio_src 300
    run_gst h264-ac3-10s.mkv \
        "${VSRC[@]}" ! openh264enc gop-size=$FPS rate-control=off qp-min=36 qp-max=36 ! h264parse ! queue \
        ! matroskamux name=mux ! filesink location=@OUT@ \
        "${ASRC[@]}" ! avenc_ac3 bitrate=448000 ! ac3parse ! queue ! mux.

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
    srt "00:00:00,000 --> 00:00:01,000" "First cue" \
        "00:00:01,000 --> 00:00:02,000" "Second cue" \
        "00:00:02,000 --> 00:00:03,000" "Third cue" | commit_text subtitles.srt
    video_src 120 320 240; audio_src 120
    run_gst with-subs.mkv \
        matroskamux name=mux ! filesink location=@OUT@ \
        "${VSRC[@]}" \
        ! vp8enc keyframe-max-dist=$FPS target-bitrate=120000 deadline=1 cpu-used=4 threads=2 ! queue ! mux.video_0 \
        "${ASRC[@]}" ! vorbisenc quality=0.1 ! queue ! mux.audio_0 \
        filesrc location=subtitles.srt ! subparse ! queue ! mux.subtitle_0

    # --- media info, tracks and subtitles (issue #11) ------------------------------
    # tracks.mkv: 4 s, VP8 160x120 + two Vorbis tracks (eng stereo 440 Hz, deu mono
    # 880 Hz: channel count and pitch tell which one is decoded) + two embedded
    # subtitle tracks (eng, deu) from two temporary SRT files. Languages and titles
    # come from taginject (matroskamux writes them as Language/Name). matroskamux
    # 1.22 cannot write FlagForced, so the deu subtitle is "forced" by title only.
    # tracks-external.srt: the external subtitle file; broken-timestamps.srt and
    # binary.srt: bad input for addSubtitleFile. subparse's type finder reads the
    # first 129 bytes, so a shorter .srt is "Could not determine type of stream":
    # keep every text fixture here longer than that.
    srt "00:00:00,500 --> 00:00:01,500" "Hello" \
        "00:00:02,000 --> 00:00:03,000" "Goodbye" > .tmp-tracks-eng.srt
    srt "00:00:00,500 --> 00:00:01,500" "Hallo" \
        "00:00:02,000 --> 00:00:03,000" "Auf Wiedersehen" > .tmp-tracks-deu.srt
    TMPFILES+=(.tmp-tracks-eng.srt .tmp-tracks-deu.srt)
    run_gst tracks.mkv \
        matroskamux name=mux ! filesink location=@OUT@ \
        videotestsrc num-buffers=120 pattern=ball \
            ! "video/x-raw,width=160,height=120,framerate=$FPS/1,pixel-aspect-ratio=1/1" \
            ! timeoverlay "font-desc=Sans 12" halignment=left valignment=top ! videoconvert \
            ! vp8enc keyframe-max-dist=$FPS target-bitrate=60000 deadline=1 cpu-used=4 threads=2 ! queue ! mux.video_0 \
        audiotestsrc num-buffers=120 samplesperbuffer=$SPB wave=sine freq=440 volume=0.3 \
            ! audio/x-raw,rate=48000,channels=2 ! audioconvert ! vorbisenc quality=0.1 \
            ! taginject "tags=language-code=eng,title=English-stereo" ! queue ! mux.audio_0 \
        audiotestsrc num-buffers=120 samplesperbuffer=$SPB wave=sine freq=880 volume=0.3 \
            ! audio/x-raw,rate=48000,channels=1 ! audioconvert ! vorbisenc quality=0.1 \
            ! taginject "tags=language-code=deu,title=Deutsch-mono" ! queue ! mux.audio_1 \
        filesrc location=.tmp-tracks-eng.srt ! subparse \
            ! taginject "tags=language-code=eng,title=English" ! queue ! mux.subtitle_0 \
        filesrc location=.tmp-tracks-deu.srt ! subparse \
            ! taginject "tags=language-code=deu,title=Deutsch-forced" ! queue ! mux.subtitle_1
    rm -f .tmp-tracks-eng.srt .tmp-tracks-deu.srt
    srt "00:00:01,000 --> 00:00:02,000" "External one" \
        "00:00:02,500 --> 00:00:03,500" "External two" \
        "00:00:03,600 --> 00:00:03,900" "External three" | commit_text tracks-external.srt
    srt "00:00:xx,000 --> soon" "Never shown" \
        "99:99 -> 00:00" "Nor this" \
        "12:ab:00,000 --> 12:ab:01,000" "Nor this one either" \
        "--> --> -->" "Broken timestamps all the way down" | commit_text broken-timestamps.srt
    python3 -c '
import random, sys
sys.stdout.buffer.write(random.Random(20261123).randbytes(4096))
' | commit_text binary.srt

    # --- chapters (issue 23) -------------------------------------------------------
    # chapters.mkv: 6 s, VP8 160x120 + Vorbis, with a table of contents: one edition with
    # "Opening" 0-2 s, "Middle" 2-4 s (nested inside it: "Middle, part one" 2-3 s and
    # "Middle, part two" 3-4 s) and "Closing" 4-6 s. gst-launch cannot give matroskamux a
    # TOC, so a tiny C helper (below, compiled with cc and pkg-config against the
    # GStreamer headers the build needs anyway) sets it through the GstTocSetter interface.
    # matroskamux 1.22 writes ChapString but no ChapLanguage, so the chapters have no
    # language (BackendTests build a GstToc with languages to test reading them).
    make_chapters

    # --- snapshots and thumbnails (issue 15) ------------------------------------
    # colour-steps-4s.webm: 4 s VP8, 320x240, solid red/green/blue/white for one
    # second each (concat), the running time (0-4 s) burnt in top-left; a key frame every
    # 15 frames (0.5 s), so key-unit seeks land inside the same colour second.
    local colour_args=() colour
    for colour in red green blue white; do
        colour_args+=(videotestsrc num-buffers=$FPS pattern=$colour
                      ! "video/x-raw,width=320,height=240,framerate=$FPS/1,pixel-aspect-ratio=1/1" ! c.)
    done
    run_gst colour-steps-4s.webm \
        concat name=c ! timeoverlay time-mode=running-time "font-desc=Sans 20" halignment=left valignment=top \
        ! videoconvert ! video/x-raw,format=I420 \
        ! vp8enc keyframe-max-dist=15 target-bitrate=100000 deadline=1 cpu-used=4 threads=2 \
        ! webmmux ! filesink location=@OUT@ \
        "${colour_args[@]}"

    # black-start-4s.webm (issue 24): 4 s VP8, 320x240, 3 s of pure black (no text), then
    # 1 s of SMPTE bars; a key frame every 15 frames. A thumbnailer that takes the first frame,
    # or the frame at 1/3 or 2/3 of the duration, gets a uniform black picture.
    run_gst black-start-4s.webm \
        concat name=b ! videoconvert ! video/x-raw,format=I420 \
        ! vp8enc keyframe-max-dist=15 target-bitrate=100000 deadline=1 cpu-used=4 threads=2 \
        ! webmmux ! filesink location=@OUT@ \
        videotestsrc num-buffers=$((3 * FPS)) pattern=black \
        ! "video/x-raw,width=320,height=240,framerate=$FPS/1,pixel-aspect-ratio=1/1" ! b. \
        videotestsrc num-buffers=$FPS pattern=smpte \
        ! "video/x-raw,width=320,height=240,framerate=$FPS/1,pixel-aspect-ratio=1/1" ! b.
    # --- tags and cover art (issue 23) ----------------------------------------
    make_tag_fixtures

    # --- queue / gapless (issue #12) ------------------------------------------
    # Three 1 s Vorbis sines of different pitch (440, 660, 880 Hz), same format
    # (48 kHz mono): played back to back, the join between items is identifiable
    # by frequency and any gap by its silence.
    local freq
    for freq in 440 660 880; do
        run_gst "gapless-$freq.ogg" \
            audiotestsrc num-buffers=48 samplesperbuffer=1000 wave=sine freq=$freq volume=0.3 \
            ! audio/x-raw,rate=48000,channels=1 ! audioconvert ! vorbisenc quality=0.3 \
            ! oggmux ! filesink location=@OUT@
    done

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

# ---------------------------------------------------------------------------
# HLS ladder (adaptive streaming, issue 14).  Not committed: `make test` and
# the ABR tests generate it into .build-fixtures/hls when missing.
#
#   DIR/hls/master.m3u8                    3 variants, BANDWIDTH measured from the segments
#   DIR/hls/{240p,480p,720p}/playlist.m3u8 + segment00000.ts ...  (VOD, ENDLIST)
#   DIR/hls/manifest.mpd                   the same ladder as MPEG-DASH (mp2t-simple profile,
#                                          SegmentTemplate over the same .ts segments)
#
# 30 s, 2 s segments (keyframe every 2 s), 15 fps (halves the encoding time;
# the bitrate is what matters), H.264 (openh264, Constrained Baseline) + AAC
# 64 kb/s in MPEG-TS.  One source, one pipeline: a tee feeds three scalers and
# encoders; the one AAC stream is teed into every variant.  zone-plate with a
# moving phase is hard enough to encode that openh264 reaches its bitrate
# (ball and snow do not: ~0.5 Mb/s and ~30 Mb/s at a 2.3 Mb/s target).
# hlssink2 sometimes hangs at EOS after writing everything (1.22): the run is
# bounded by `timeout` and judged by the playlists' #EXT-X-ENDLIST.
# The test HTTP server synthesises live (sliding-window) playlists over these
# segments; nothing here is live.
# ---------------------------------------------------------------------------
# The ladder's length in seconds: HLS_SECONDS from the environment (the QoE bench, `make bench-abr`,
# makes a 120 s ladder: at least as long as its longest trace), 30 by default.
HLS_SECONDS="${HLS_SECONDS:-30}"
HLS_FPS=15
# name width height video-bitrate
HLS_LADDER=("240p 426 240 180000" "480p 854 480 820000" "720p 1280 720 2200000")

make_hls() {
    local dir="$1/hls"
    local tmp="$1/.tmp-hls"
    for el in hlssink2 mpegtsmux tee videoscale; do
        gst-inspect-1.0 --exists "$el" || { echo "error: GStreamer element '$el' is missing" >&2; exit 1; }
    done
    rm -rf "$tmp"; mkdir -p "$tmp"
    echo "Generating the HLS ladder in $dir"
    local frames=$(( HLS_SECONDS * HLS_FPS ))
    local spb=$(( 48000 / HLS_FPS ))
    local args=(videotestsrc num-buffers="$frames" pattern=zone-plate kx2=20 ky2=20 kt=1
                ! "video/x-raw,width=1280,height=720,framerate=$HLS_FPS/1"
                ! timeoverlay "font-desc=Sans 28" ! videoconvert ! tee name=v
                audiotestsrc num-buffers="$frames" samplesperbuffer=$spb wave=sine freq=440 volume=0.3
                ! "$AUDIO_CAPS" ! audioconvert ! avenc_aac bitrate=64000 ! aacparse ! tee name=a)
    local rung name w h br
    for rung in "${HLS_LADDER[@]}"; do
        read -r name w h br <<< "$rung"
        mkdir -p "$tmp/$name"
        args+=(v. ! queue ! videoscale ! "video/x-raw,width=$w,height=$h,pixel-aspect-ratio=1/1"
               ! openh264enc rate-control=bitrate bitrate="$br" enable-frame-skip=false
                 gop-size=$(( 2 * HLS_FPS )) multi-thread=2 ! h264parse
               ! hlssink2 name="s$name" target-duration=2 playlist-length=0 max-files=0
                 location="$tmp/$name/segment%05d.ts" playlist-location="$tmp/$name/playlist.m3u8"
               a. ! queue ! "s$name.audio")
    done
    local log rc=0
    # The bound grows with a longer ladder (120 s at 30 s; 5 s per media second above that).
    log="$(timeout $(( HLS_SECONDS > 30 ? HLS_SECONDS * 5 : 120 )) gst-launch-1.0 -q -e "${args[@]}" 2>&1)" || rc=$?
    for rung in "${HLS_LADDER[@]}"; do
        read -r name _ <<< "$rung"
        if ! grep -q '#EXT-X-ENDLIST' "$tmp/$name/playlist.m3u8" 2>/dev/null; then
            echo "error: gst-launch-1.0 (exit $rc) did not finish the $name playlist:" >&2
            echo "$log" >&2
            rm -rf "$tmp"
            exit 1
        fi
        # hlssink2 writes segment paths as given; make them relative.
        sed -i "s|^$tmp/$name/||" "$tmp/$name/playlist.m3u8"
    done
    # The master playlist: BANDWIDTH = the peak segment bitrate, AVERAGE-BANDWIDTH
    # the mean (RFC 8216 4.3.4.2), both measured from the files.
    python3 - "$tmp" "${HLS_LADDER[@]}" > "$tmp/master.m3u8" <<'EOF'
import os, re, sys
root, ladder = sys.argv[1], sys.argv[2:]
def measure(name):
    """A rung's (duration, file) pairs from its playlist, the files' sizes, and the peak bitrate."""
    text = open(os.path.join(root, name, "playlist.m3u8")).read()
    pairs = re.findall(r"#EXTINF:([0-9.]+),\s*\n(\S+)", text)
    sizes = [os.path.getsize(os.path.join(root, name, f)) for _, f in pairs]
    return pairs, sizes, max(s * 8 / float(d) for s, (d, _) in zip(sizes, pairs))
print("#EXTM3U\n#EXT-X-VERSION:3")
for rung in ladder:
    name, w, h, _ = rung.split()
    pairs, sizes, peak = measure(name)
    mean = sum(sizes) * 8 / sum(float(d) for d, _ in pairs)
    print('#EXT-X-STREAM-INF:BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,RESOLUTION=%sx%s,CODECS="avc1.42c01f,mp4a.40.2"'
          % (peak, mean, w, h))
    print("%s/playlist.m3u8" % name)
# The same ladder as an MPEG-DASH manifest over the very same segments, so one
# set of bytes serves both protocols (and both carry the same measured bandwidths).
mpd = ['<?xml version="1.0" encoding="UTF-8"?>',
       '<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:mp2t-simple:2011"'
       ' type="static" mediaPresentationDuration="PT%.3fS" minBufferTime="PT2S">',
       '  <Period id="0" start="PT0S">',
       '    <AdaptationSet id="0" contentType="video" mimeType="video/mp2t" segmentAlignment="true" bitstreamSwitching="true">']
total = 0.0
for rung in ladder:
    name, w, h, _ = rung.split()
    pairs, sizes, peak = measure(name)
    total = sum(float(d) for d, _ in pairs)
    step = float(pairs[0][0])
    mpd.append('      <Representation id="%s" bandwidth="%d" width="%s" height="%s" codecs="avc1.42c01f,mp4a.40.2">' % (name, peak, w, h))
    mpd.append('        <SegmentTemplate media="%s/segment$Number%%05d$.ts" startNumber="0" timescale="1000" duration="%d"/>' % (name, step * 1000))
    mpd.append('      </Representation>')
mpd[1] = mpd[1] % total
mpd += ['    </AdaptationSet>', '  </Period>', '</MPD>']
open(os.path.join(root, "manifest.mpd"), "w").write("\n".join(mpd) + "\n")
EOF
    rm -rf "$dir"
    mv "$tmp" "$dir"
    echo "  $dir/master.m3u8 ($(du -sb "$dir" | cut -f1) bytes in all)"
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

if [ -n "$HLS_DIR" ]; then
    case "$HLS_DIR" in
        /*) ;;
        *) HLS_DIR="$CALLER_PWD/$HLS_DIR" ;;
    esac
    make_hls "$HLS_DIR"
elif [ -n "$BENCH_DIR" ]; then
    # Resolve relative to the caller's directory, not Fixtures/.
    case "$BENCH_DIR" in
        /*) ;;
        *) BENCH_DIR="$CALLER_PWD/$BENCH_DIR" ;;
    esac
    make_bench "$BENCH_DIR"
else
    make_fixtures
fi
