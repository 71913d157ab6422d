/* libgupnp 1.6 leaks an interface name per RTM_NEWLINK of an interface it already knows.
 *
 * GUPnPLinuxContextManager's netlink handler (receive_netlink_message, from a GSocket source)
 * g_strdup's IFLA_IFNAME (extract_link_message_info) and hands it to
 * handle_device_status_change, which keeps it only for a new interface: for a known one it calls
 * network_device_up/down and returns without g_free. This program holds and drops every
 * reference it makes; run in a private network namespace, each `ip link set lo down|up` while the
 * manager lives costs one "lo" string:
 *
 *   cc -g -fsanitize=address gupnp-newlink-leak.c -o newlink $(pkg-config --cflags --libs gupnp-1.6)
 *   unshare -n sh -c 'ip link set lo up; (ASAN_OPTIONS=fast_unwind_on_malloc=0 ./newlink &); sleep 1;
 *                     ip link set lo down; sleep 0.2; ip link set lo up; sleep 3'
 *   -> Direct leak of 6 byte(s) in 2 object(s): g_strdup <- libgupnp-1.6.so.0+0x25392
 *      <- libgupnp-1.6.so.0+0x261dd <- libgio-2.0.so.0+0x9fe16 <- g_main_context_dispatch
 *
 * The stack of the `make test-asan` report, frame for frame (Debian 12, libgupnp-1.6-0 1.6.3-1);
 * the test suite's RendererLab adds and removes veth pairs, which is the link traffic there.
 * Used to establish the suppression in Tests/lsan.supp (docs/RELIABILITY.md §20). */
#include <libgupnp/gupnp.h>

static gboolean quit(gpointer loop) { g_main_loop_quit(loop); return G_SOURCE_REMOVE; }

int main(void) {
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    GUPnPContextManager *manager = gupnp_context_manager_create_full(GSSDP_UDA_VERSION_1_0, G_SOCKET_FAMILY_IPV4, 0);
    g_timeout_add(3000, quit, loop);
    g_main_loop_run(loop);
    g_object_unref(manager);
    g_main_loop_unref(loop);
    return 0;
}
