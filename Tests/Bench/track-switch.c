/*
 * track-switch: measures an audio track switch mid-play on Fixtures/tracks.mkv (eng stereo,
 * deu mono) with playbin (`current-audio`, optionally followed by an accurate flushing seek to
 * the position, which is what gstplay does) and with playbin3 (`select-streams` on the
 * GstStreamCollection). Evidence for docs/ADR-001-playbin.md.
 *
 * For each mode: the switch is requested at 1.5 s; a probe on the audio sink's pad notes the
 * first buffer whose caps have 1 channel (the deu track). Printed: wall-clock ms from the
 * request to that buffer reaching the sink, its PTS, and the position just before the request.
 * Fake sinks with sync=true (real time), no display or sound card needed.
 *
 * Build and run (about 15 s):
 *   cc -O2 -o /tmp/track-switch Tests/Bench/track-switch.c $(pkg-config --cflags --libs gstreamer-1.0)
 *   /tmp/track-switch Fixtures/tracks.mkv
 */
#include <gst/gst.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *mode;          /* "playbin", "playbin+seek", "playbin3" */
    GstElement *pipeline;
    GMainLoop *loop;
    GstStreamCollection *collection;
    gint64 requested_at;       /* monotonic µs, 0 until requested */
    gint64 heard_at;           /* monotonic µs of the first mono buffer after the request */
    GstClockTime heard_pts;
    gint64 position_before;
} Run;

static GstPadProbeReturn on_buffer(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    Run *run = data;
    if (run->requested_at == 0 || run->heard_at != 0) return GST_PAD_PROBE_OK;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    gint channels = 0;
    if (caps) { gst_structure_get_int(gst_caps_get_structure(caps, 0), "channels", &channels); gst_caps_unref(caps); }
    if (channels == 1) { run->heard_at = g_get_monotonic_time(); run->heard_pts = GST_BUFFER_PTS(GST_PAD_PROBE_INFO_BUFFER(info)); }
    return GST_PAD_PROBE_OK;
}

static void request_switch(Run *run) {
    gst_element_query_position(run->pipeline, GST_FORMAT_TIME, &run->position_before);
    run->requested_at = g_get_monotonic_time();
    if (strcmp(run->mode, "playbin3") == 0) {
        GList *ids = NULL;
        guint n = run->collection ? gst_stream_collection_get_size(run->collection) : 0;
        gboolean audio_seen = FALSE;
        for (guint i = 0; i < n; i++) {
            GstStream *s = gst_stream_collection_get_stream(run->collection, i);
            GstStreamType type = gst_stream_get_stream_type(s);
            if (type & GST_STREAM_TYPE_AUDIO) {
                if (audio_seen) ids = g_list_append(ids, (gchar *)gst_stream_get_stream_id(s)); /* the second audio */
                audio_seen = TRUE;
            } else if (type & GST_STREAM_TYPE_VIDEO) {
                ids = g_list_append(ids, (gchar *)gst_stream_get_stream_id(s));
            }
        }
        gst_element_send_event(run->pipeline, gst_event_new_select_streams(ids));
        g_list_free(ids);
    } else {
        g_object_set(run->pipeline, "current-audio", 1, NULL);
        if (strcmp(run->mode, "playbin+seek") == 0)
            gst_element_seek_simple(run->pipeline, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, run->position_before);
    }
}

static gboolean tick(gpointer data) {
    Run *run = data;
    gint64 position = 0;
    if (run->requested_at == 0 && gst_element_query_position(run->pipeline, GST_FORMAT_TIME, &position) && position >= 1500 * GST_MSECOND) {
        request_switch(run);
    }
    return G_SOURCE_CONTINUE;
}

static gboolean on_message(GstBus *bus, GstMessage *message, gpointer data) {
    Run *run = data;
    switch (GST_MESSAGE_TYPE(message)) {
    case GST_MESSAGE_STREAM_COLLECTION:
        if (run->collection) gst_object_unref(run->collection);
        gst_message_parse_stream_collection(message, &run->collection);
        break;
    case GST_MESSAGE_EOS:
    case GST_MESSAGE_ERROR:
        if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) fprintf(stderr, "%s: error\n", run->mode);
        g_main_loop_quit(run->loop);
        break;
    default: break;
    }
    return TRUE;
}

static void measure(const char *mode, const char *uri) {
    Run run = { .mode = mode };
    run.pipeline = gst_element_factory_make(strcmp(mode, "playbin3") == 0 ? "playbin3" : "playbin", NULL);
    GstElement *audio = gst_element_factory_make("fakesink", NULL);
    g_object_set(audio, "sync", TRUE, NULL);
    GstElement *video = gst_element_factory_make("fakesink", NULL);
    g_object_set(video, "sync", TRUE, NULL);
    GstElement *text = gst_element_factory_make("fakesink", NULL);
    g_object_set(text, "sync", TRUE, NULL);
    g_object_set(run.pipeline, "uri", uri, "audio-sink", audio, "video-sink", video, "text-sink", text, NULL);
    GstPad *pad = gst_element_get_static_pad(audio, "sink");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, &run, NULL);
    gst_object_unref(pad);
    run.loop = g_main_loop_new(NULL, FALSE);
    GstBus *bus = gst_element_get_bus(run.pipeline);
    guint watch = gst_bus_add_watch(bus, on_message, &run);
    gst_object_unref(bus);
    guint timer = g_timeout_add(10, tick, &run);
    gint64 started = g_get_monotonic_time();
    gst_element_set_state(run.pipeline, GST_STATE_PLAYING);
    g_main_loop_run(run.loop);
    gint64 took = g_get_monotonic_time() - started;
    gst_element_set_state(run.pipeline, GST_STATE_NULL);
    g_source_remove(timer);
    g_source_remove(watch);
    if (run.heard_at)
        printf("%-13s requested at %.3f s; new track at the sink after %4lld ms (pts %.3f s); run %.2f s\n", mode,
               run.position_before / 1e9, (long long)((run.heard_at - run.requested_at) / 1000), run.heard_pts / 1e9, took / 1e6);
    else
        printf("%-13s requested at %.3f s; the new track never reached the sink; run %.2f s\n", mode, run.position_before / 1e9, took / 1e6);
    if (run.collection) gst_object_unref(run.collection);
    gst_object_unref(run.pipeline);
    g_main_loop_unref(run.loop);
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    if (argc < 2) { fprintf(stderr, "usage: %s FILE\n", argv[0]); return 2; }
    gchar *uri = gst_filename_to_uri(argv[1], NULL);
    const char *modes[] = { "playbin", "playbin+seek", "playbin3" };
    for (int round = 0; round < 3; round++)
        for (unsigned i = 0; i < G_N_ELEMENTS(modes); i++) measure(modes[i], uri);
    g_free(uri);
    return 0;
}
