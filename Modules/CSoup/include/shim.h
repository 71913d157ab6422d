/*
 * CSoup: libsoup 3 (the HTTP library souphttpsrc itself loads) for the media cache's conditional
 * requests (issue 20). Its functions import into Swift as they are; nothing is wrapped.
 * Linking libsoup 3 also makes souphttpsrc pick libsoup 3 (it uses the one already loaded).
 */
#ifndef CSOUP_SHIM_H
#define CSOUP_SHIM_H

#include <libsoup/soup.h>

#endif /* CSOUP_SHIM_H */
