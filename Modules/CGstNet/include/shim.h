/*
 * CGstNet: the two constructors of libgstnet (GStreamer's network clock) that the sync feature
 * calls. Declared here with untyped pointers instead of including <gst/net/net.h>: that header
 * includes <gst/gst.h> again, and a second module holding the GStreamer headers would give Swift
 * a second, distinct GstClock. The objects go back and forth as CGStreamer's types
 * (`GstClock *`, `GstObject *`); the ABI is the same (pointers, gint, GstClockTime = guint64).
 * libgstnet is not linked: stubs.S holds a trampoline for each of the two, and the first call
 * opens libgstnet-1.0.so.0 (Modules/DoorLoader), so a player that does not sync never maps it.
 */
#ifndef CGSTNET_SHIM_H
#define CGSTNET_SHIM_H

#include <stdint.h>

/* gst_net_time_provider_new(GstClock *clock, const gchar *address, gint port): a GstNetTimeProvider
   answering clock requests on UDP address:port (port 0: a free one; property "port" tells). */
void *gst_net_time_provider_new(void *clock, const char *address, int port);

/* gst_net_client_clock_new(const gchar *name, const gchar *remote_address, gint remote_port,
   GstClockTime base_time): a GstClock slaved to the provider at remote_address:remote_port. */
void *gst_net_client_clock_new(const char *name, const char *remote_address, int remote_port, uint64_t base_time);

#endif /* CGSTNET_SHIM_H */
