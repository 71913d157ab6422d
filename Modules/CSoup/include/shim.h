/*
 * CSoup: libsoup 3 for the media cache's conditional requests and HTTPServe (the web remote's and
 * casting's server). Its functions import into Swift as they are; nothing is wrapped. libsoup is not
 * linked: stubs.S holds a trampoline for each function the package calls, and the first call opens
 * libsoup-3.0.so.0 (Modules/DoorLoader). GStreamer's souphttpsrc opens libsoup on its own and
 * prefers libsoup 3 when none is loaded yet, so both use the same one.
 * The headers are found through include/libsoup, a link to /usr/include/libsoup-3.0/libsoup.
 */
#ifndef CSOUP_SHIM_H
#define CSOUP_SHIM_H

#include <libsoup/soup.h>

#endif /* CSOUP_SHIM_H */
