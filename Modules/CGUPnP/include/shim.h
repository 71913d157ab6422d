/*
 * CGUPnP: GNOME's UPnP stack (GUPnP 1.6 on GSSDP, and GUPnP-AV for DIDL-Lite and LastChange) for
 * casting to UPnP/DLNA MediaRenderers (target BackendCast). Its functions import into Swift as they
 * are; nothing is wrapped. None of these libraries is linked: stubs.S holds a trampoline for each
 * function the package calls, and the first call opens the library (Modules/DoorLoader). The
 * headers are found through the links in include/ (libgupnp, libgssdp, libgupnp-av, libxml).
 *
 * libxml2 (which GUPnP's headers include) is built with ICU, so its encoding.h would include ICU's
 * unicode/ucnv.h, whose UErrorCode clashes with Foundation's own ICU copy (_FoundationICU) in any
 * module that imports both. Nothing here uses libxml2's ICU converter fields (the only thing the
 * macro adds), so the macro is dropped before GUPnP's headers are read.
 */
#ifndef CGUPNP_SHIM_H
#define CGUPNP_SHIM_H

#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libgupnp/gupnp.h>
#include <libgupnp-av/gupnp-av.h>

#endif /* CGUPNP_SHIM_H */
