/* ximagesink's lent pool outlives its X context (GStreamer 1.22, gst-plugins-base sys/ximage).
 *
 * The sink answers an ALLOCATION query with a pool of its own; that pool's allocator
 * (ximage_memory_alloc) reads sink->xcontext->use_xshm with no NULL check, and the sink frees its
 * X context in READY->NULL. So an upstream element that needs one more buffer from the lent pool
 * after the sink went to NULL (playsink does that to its video chain at the end of its
 * PAUSED->READY, before playbin stops the decoders) reads address 0x58.
 *
 *   cc ximagesink-lent-pool.c -o lent-pool $(pkg-config --cflags --libs gstreamer-1.0 gstreamer-video-1.0)
 *   Xvfb :77 & DISPLAY=:77 ./lent-pool      # SIGSEGV: mov 0x58(%r12),%esi in libgstximagesink.so
 *
 * Used to establish docs/RELIABILITY.md §20; gstplay's guard is Sources/BackendCore/Sinks/XImageSinkPoolGuard.swift. */
#include <gst/gst.h>
#include <gst/video/video.h>

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    GstElement *sink = gst_element_factory_make("ximagesink", NULL);
    gst_object_ref_sink(sink);
    GstPad *pad = gst_element_get_static_pad(sink, "sink");
    gst_element_set_state(sink, GST_STATE_PAUSED);   /* pads active, X context open */
    GstCaps *caps = gst_caps_from_string("video/x-raw,format=BGRx,width=320,height=240,framerate=25/1");
    GstQuery *query = gst_query_new_allocation(caps, TRUE);
    GstBufferPool *pool = NULL;
    if (gst_pad_query(pad, query) && gst_query_get_n_allocation_pools(query) > 0)
        gst_query_parse_nth_allocation_pool(query, 0, &pool, NULL, NULL, NULL);
    if (!pool) { g_printerr("no pool lent\n"); return 1; }
    GstStructure *config = gst_buffer_pool_get_config(pool);
    gst_buffer_pool_config_set_params(config, caps, 320 * 240 * 4, 2, 0);
    gst_buffer_pool_set_config(pool, config);
    gst_buffer_pool_set_active(pool, TRUE);           /* allocates the 2 minimum buffers */
    GstBuffer *a, *b, *c;
    gst_buffer_pool_acquire_buffer(pool, &a, NULL);
    gst_buffer_pool_acquire_buffer(pool, &b, NULL);
    g_print("two buffers from the lent pool while the sink is PAUSED\n");
    gst_element_set_state(sink, GST_STATE_NULL);      /* what playsink does to its video chain */
    g_print("sink in NULL; a third buffer grows the pool...\n");
    gst_buffer_pool_acquire_buffer(pool, &c, NULL);   /* ximage_memory_alloc: NULL xcontext */
    g_print("not reached with 1.22's ximagesink\n");
    return 0;
}
