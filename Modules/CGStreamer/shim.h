/*
 * CGStreamer shim: the only C in gstplay.
 *
 * GStreamer and GLib expose part of their API as macros and varargs functions, which
 * Swift cannot import. Each helper below wraps exactly one such construct, is
 * `static inline`, holds no state and takes no decisions: policy lives in Swift.
 * Names follow `CGStreamer_<what it wraps>`.
 */
#ifndef CGSTREAMER_SHIM_H
#define CGSTREAMER_SHIM_H

#include <gst/gst.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <gst/video/video.h>
#include <gst/audio/audio.h>
#include <gst/audio/streamvolume.h>
#include <gst/pbutils/pbutils.h>
#include <gst/tag/tag.h>
#include <malloc.h>              /* malloc_trim (freed helper-pipeline memory back to the system), mallopt */

/* ---- Thread placement: glibc declares these GNU extensions only under _GNU_SOURCE, which
   Swift's Glibc module is built without; CPU_COUNT / CPU_CLR are macros. ---- */
#include <pthread.h>
#include <sched.h>
extern int sched_getcpu(void);
extern int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set);
extern int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set);
extern int pthread_attr_setaffinity_np(pthread_attr_t *attr, size_t size, const cpu_set_t *set);
extern int pthread_setname_np(pthread_t thread, const char *name);
static inline int CGStreamer_cpu_count(const cpu_set_t *set) { return __CPU_COUNT_S(sizeof(cpu_set_t), set); }
static inline void CGStreamer_cpu_clear(int cpu, cpu_set_t *set) { if (cpu >= 0) __CPU_CLR_S(cpu, sizeof(cpu_set_t), set); }

/* ---- Clock-time constants: GST_CLOCK_TIME_NONE and GST_SECOND are macros. ---- */
static inline GstClockTime CGStreamer_CLOCK_TIME_NONE(void) { return GST_CLOCK_TIME_NONE; }
static inline GstClockTime CGStreamer_SECOND(void) { return GST_SECOND; }

/* ---- Element-factory list types: GST_ELEMENT_FACTORY_TYPE_DECODABLE and _SRC are macros. ---- */
static inline GstElementFactoryListType CGStreamer_FACTORY_TYPE_DECODABLE(void) { return GST_ELEMENT_FACTORY_TYPE_DECODABLE; }
static inline GstElementFactoryListType CGStreamer_FACTORY_TYPE_SRC(void) { return GST_ELEMENT_FACTORY_TYPE_SRC; }

/* ---- Debug categories: GST_DEBUG_CATEGORY_INIT is a macro (over _gst_debug_category_new). ---- */
/* The category named `name` (registered once by GStreamer; the same pointer on later calls). */
static inline GstDebugCategory *CGStreamer_debug_category_new(const gchar *name, const gchar *description) {
    GstDebugCategory *category = NULL;
    GST_DEBUG_CATEGORY_INIT(category, name, 0, description);
    return category;
}

/* ---- Message accessors: GST_MESSAGE_TYPE / GST_MESSAGE_SRC are field macros. ---- */
static inline GstMessageType CGStreamer_message_type(GstMessage *msg) { return GST_MESSAGE_TYPE(msg); }
static inline GstObject *CGStreamer_message_src(GstMessage *msg) { return GST_MESSAGE_SRC(msg); }
/* Borrowed name of the posting object, or NULL; valid as long as the message is. */
static inline const gchar *CGStreamer_message_src_name(GstMessage *msg) {
    return GST_MESSAGE_SRC(msg) ? GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)) : NULL;
}

/* ---- Signals: g_signal_connect is a macro over g_signal_connect_data with a cast callback. ---- */
/* For signals whose handler takes (instance, pointer, user_data), e.g. notify::caps, source-setup. */
static inline gulong CGStreamer_signal_connect_2(gpointer instance, const gchar *signal,
        void (*handler)(gpointer instance, gpointer arg, gpointer user_data),
        gpointer user_data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(handler), user_data, destroy, (GConnectFlags)0);
}
/* For signals whose handler takes (instance, pointer, pointer, user_data), e.g. deep-element-added. */
static inline gulong CGStreamer_signal_connect_3(gpointer instance, const gchar *signal,
        void (*handler)(gpointer instance, gpointer arg1, gpointer arg2, gpointer user_data),
        gpointer user_data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(handler), user_data, destroy, (GConnectFlags)0);
}

/* ---- Typed g_object_set / g_object_get: the originals are NULL-terminated varargs. ---- */
static inline void CGStreamer_set_string(gpointer obj, const gchar *name, const gchar *value) { g_object_set(obj, name, value, NULL); }
static inline void CGStreamer_set_boolean(gpointer obj, const gchar *name, gboolean value) { g_object_set(obj, name, value, NULL); }
static inline void CGStreamer_set_int(gpointer obj, const gchar *name, gint value) { g_object_set(obj, name, value, NULL); }
static inline void CGStreamer_set_uint(gpointer obj, const gchar *name, guint value) { g_object_set(obj, name, value, NULL); }
static inline void CGStreamer_set_int64(gpointer obj, const gchar *name, gint64 value) { g_object_set(obj, name, value, NULL); }
static inline void CGStreamer_set_double(gpointer obj, const gchar *name, gdouble value) { g_object_set(obj, name, value, NULL); }
static inline void CGStreamer_set_object(gpointer obj, const gchar *name, gpointer value) { g_object_set(obj, name, value, NULL); }
/* Flags properties (playbin "flags") are set through their integer value. */
static inline void CGStreamer_set_flags(gpointer obj, const gchar *name, guint value) { g_object_set(obj, name, value, NULL); }
static inline void CGStreamer_set_from_string(gpointer obj, const gchar *name, const gchar *value) { gst_util_set_object_arg(G_OBJECT(obj), name, value); }

static inline gpointer CGStreamer_get_object(gpointer obj, const gchar *name) { gpointer v = NULL; g_object_get(obj, name, &v, NULL); return v; }
static inline gdouble CGStreamer_get_double(gpointer obj, const gchar *name) { gdouble v = 0; g_object_get(obj, name, &v, NULL); return v; }
static inline gboolean CGStreamer_get_boolean(gpointer obj, const gchar *name) { gboolean v = FALSE; g_object_get(obj, name, &v, NULL); return v; }
static inline gint CGStreamer_get_int(gpointer obj, const gchar *name) { gint v = 0; g_object_get(obj, name, &v, NULL); return v; }
static inline guint CGStreamer_get_uint(gpointer obj, const gchar *name) { guint v = 0; g_object_get(obj, name, &v, NULL); return v; }
/* Caller frees the result with g_free. */
static inline gchar *CGStreamer_get_string(gpointer obj, const gchar *name) { gchar *v = NULL; g_object_get(obj, name, &v, NULL); return v; }
/* TRUE when the object's class has a property of that name. */
static inline gboolean CGStreamer_has_property(gpointer obj, const gchar *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(obj), name) != NULL;
}

/* ---- GLib sources on a given context: gst_bus_add_watch only targets the thread-default context,
 *      and the bus callback must be cast to GSourceFunc. The bus watch and timeout return a new
 *      reference to the source; the idle source is owned by the context alone (it runs once). ---- */
static inline GSource *CGStreamer_bus_watch_attach(GstBus *bus, GMainContext *context,
        gboolean (*func)(GstBus *bus, GstMessage *message, gpointer user_data),
        gpointer user_data, GDestroyNotify destroy) {
    GSource *source = gst_bus_create_watch(bus);
    g_source_set_callback(source, (GSourceFunc)(void (*)(void))func, user_data, destroy);
    g_source_attach(source, context);
    return source;
}
static inline GSource *CGStreamer_idle_attach(GMainContext *context, gint priority,
        GSourceFunc func, gpointer user_data, GDestroyNotify destroy) {
    GSource *source = g_idle_source_new();
    g_source_set_priority(source, priority);
    g_source_set_callback(source, func, user_data, destroy);
    g_source_attach(source, context);
    g_source_unref(source); /* the context keeps it until it runs once */
    return source;
}
static inline GSource *CGStreamer_timeout_attach(GMainContext *context, guint interval_ms,
        GSourceFunc func, gpointer user_data, GDestroyNotify destroy) {
    GSource *source = g_timeout_source_new(interval_ms);
    g_source_set_callback(source, func, user_data, destroy);
    g_source_attach(source, context);
    return source;
}

/* A GSocket readiness source on `context` (g_socket_create_source, g_source_set_callback,
   g_source_attach): Swift cannot pass a GSocketSourceFunc where a GSourceFunc is expected. The
   caller owns the returned reference (g_source_destroy + g_source_unref). */
static inline GSource *CGStreamer_socket_source_attach(GSocket *socket, GIOCondition condition, GMainContext *context,
        GSocketSourceFunc func, gpointer user_data, GDestroyNotify destroy) {
    GSource *source = g_socket_create_source(socket, condition, NULL);
    g_source_set_callback(source, (GSourceFunc)(void (*)(void))func, user_data, destroy);
    g_source_attach(source, context);
    return source;
}

/* ---- A file descriptor watched for input on a context (g_unix_fd_source_new takes a GUnixFDSourceFunc). ---- */
static inline GSource *CGStreamer_fd_watch_attach(GMainContext *context, gint fd,
        GUnixFDSourceFunc func, gpointer user_data, GDestroyNotify destroy) {
    GSource *source = g_unix_fd_source_new(fd, G_IO_IN | G_IO_HUP | G_IO_ERR);
    g_source_set_callback(source, (GSourceFunc)(void (*)(void))func, user_data, destroy);
    g_source_attach(source, context);
    return source;
}

/* ---- Video caps: GstVideoInfo fields behind macros; returns FALSE if the caps are not raw video. ---- */
static inline gboolean CGStreamer_video_caps_size(GstCaps *caps, gint *width, gint *height, gint *par_n, gint *par_d) {
    GstVideoInfo info;
    if (caps == NULL || !gst_video_info_from_caps(&info, caps)) return FALSE;
    *width = GST_VIDEO_INFO_WIDTH(&info);
    *height = GST_VIDEO_INFO_HEIGHT(&info);
    *par_n = GST_VIDEO_INFO_PAR_N(&info);
    *par_d = GST_VIDEO_INFO_PAR_D(&info);
    return TRUE;
}

/* ---- Action signals with return values: g_signal_emit_by_name is varargs. ---- */
static inline GstSample *CGStreamer_playbin_convert_sample(GstElement *playbin, GstCaps *caps) {
    GstSample *sample = NULL;
    g_signal_emit_by_name(playbin, "convert-sample", caps, &sample);
    return sample;
}

/* ---- Casts the type system checks in C (G_OBJECT, GST_BIN, ...) but Swift sees as unrelated. ---- */
static inline GstObject *CGStreamer_as_object(gpointer p) { return GST_OBJECT(p); }
static inline GstElement *CGStreamer_as_element(gpointer p) { return GST_ELEMENT(p); }
static inline GstBin *CGStreamer_as_bin(gpointer p) { return GST_BIN(p); }
static inline gboolean CGStreamer_is_bin(gpointer p) { return p != NULL && GST_IS_BIN(p); }

/* ---- Adaptive streaming: pad-probe info and event fields are macros. ---- */
/* The buffer of a probe, or NULL when the probe carries something else (GST_PAD_PROBE_INFO_BUFFER). */
static inline GstBuffer *CGStreamer_probe_info_buffer(GstPadProbeInfo *info) {
    return (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_BUFFER) ? GST_PAD_PROBE_INFO_BUFFER(info) : NULL;
}
/* The event of a probe, or NULL (GST_PAD_PROBE_INFO_EVENT). */
static inline GstEvent *CGStreamer_probe_info_event(GstPadProbeInfo *info) {
    return (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) ? GST_PAD_PROBE_INFO_EVENT(info) : NULL;
}
/* The event of an upstream probe, or NULL. */
static inline GstEvent *CGStreamer_probe_info_event_upstream(GstPadProbeInfo *info) {
    return (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_EVENT_UPSTREAM) ? GST_PAD_PROBE_INFO_EVENT(info) : NULL;
}
/* Puts `event` in place of the probe's event, which it unrefs (GST_PAD_PROBE_INFO_DATA). */
static inline void CGStreamer_probe_info_replace_event(GstPadProbeInfo *info, GstEvent *event) {
    gst_event_unref(GST_PAD_PROBE_INFO_EVENT(info));
    GST_PAD_PROBE_INFO_DATA(info) = event;
}
/* Typed g_object_get / g_object_set for guint64 properties (queue levels, max-size-time). */
static inline guint64 CGStreamer_get_uint64(gpointer obj, const gchar *name) { guint64 v = 0; g_object_get(obj, name, &v, NULL); return v; }
static inline void CGStreamer_set_uint64(gpointer obj, const gchar *name, guint64 value) { g_object_set(obj, name, value, NULL); }
/* GST_EVENT_TYPE is a field macro. */
static inline GstEventType CGStreamer_event_type(GstEvent *event) { return GST_EVENT_TYPE(event); }

/* ---- Snapshots and thumbnails: appsrc's push-buffer / end-of-stream action signals are varargs. ---- */
/* Queues `buffer` on an appsrc (the signal takes its own reference; the caller keeps and unrefs its own). */
static inline GstFlowReturn CGStreamer_appsrc_push_buffer(GstElement *appsrc, GstBuffer *buffer) {
    GstFlowReturn ret = GST_FLOW_ERROR;
    g_signal_emit_by_name(appsrc, "push-buffer", buffer, &ret);
    return ret;
}
static inline GstFlowReturn CGStreamer_appsrc_end_of_stream(GstElement *appsrc) {
    GstFlowReturn ret = GST_FLOW_ERROR;
    g_signal_emit_by_name(appsrc, "end-of-stream", &ret);
    return ret;
}

/* ---- Queue / gapless: playbin's about-to-finish handler takes (instance, user_data). ---- */
static inline gulong CGStreamer_signal_connect_1(gpointer instance, const gchar *signal,
        void (*handler)(gpointer instance, gpointer user_data),
        gpointer user_data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(handler), user_data, destroy, (GConnectFlags)0);
}

/* ---- Tracks: playbin's per-stream action signals return values through varargs. ---- */
/* `get-video-tags` / `get-audio-tags` / `get-text-tags`: a new tag list or NULL (caller unrefs). */
static inline GstTagList *CGStreamer_playbin_stream_tags(GstElement *playbin, const gchar *signal, gint index) {
    GstTagList *tags = NULL;
    g_signal_emit_by_name(playbin, signal, index, &tags);
    return tags;
}
/* `get-video-pad` / `get-audio-pad` / `get-text-pad`: a new pad reference or NULL (caller unrefs). */
static inline GstPad *CGStreamer_playbin_stream_pad(GstElement *playbin, const gchar *signal, gint index) {
    GstPad *pad = NULL;
    g_signal_emit_by_name(playbin, signal, index, &pad);
    return pad;
}

/* ---- Audio pictures: overlaycomposition's `draw` handler returns its composition. ---- */
/* For signals whose handler takes (instance, pointer, user_data) and returns a pointer. */
static inline gulong CGStreamer_signal_connect_2_returning(gpointer instance, const gchar *signal,
        gpointer (*handler)(gpointer instance, gpointer arg, gpointer user_data),
        gpointer user_data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(handler), user_data, destroy, (GConnectFlags)0);
}

#endif /* CGSTREAMER_SHIM_H */
