/*
 * CXFixes: the X Fixes extension, for the display tests only (Tests/DisplayTests): the cursor
 * the server shows now (XFixesGetCursorImage), to check that gstplay hides the pointer over
 * playing video. Nothing the player links.
 */
#ifndef CXFIXES_SHIM_H
#define CXFIXES_SHIM_H

#include <X11/Xlib.h>
#include <X11/extensions/Xfixes.h>

#endif /* CXFIXES_SHIM_H */
