/*
 * CX11: Xlib for gstplay's video window (title, fullscreen, geometry of the sink's window) and
 * for the embedding example (Sources/ExampleX11Player). Xlib's functions import into Swift as they
 * are; the helpers below wrap only macros Swift cannot import. Names follow `CX11_<what it wraps>`.
 * libX11 and libXss are not linked: stubs.S holds a trampoline for each function the package calls,
 * and the first call opens the library (Modules/DoorLoader), so a run without a window maps neither.
 */
#ifndef CX11_SHIM_H
#define CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/XKBlib.h>
#include <X11/extensions/scrnsaver.h>

/* ---- Screen accessors: DefaultScreen, RootWindow, BlackPixel, … are macros. ---- */
static inline int CX11_default_screen(Display *display) { return DefaultScreen(display); }
static inline Window CX11_root_window(Display *display, int screen) { return RootWindow(display, screen); }
static inline unsigned long CX11_black_pixel(Display *display, int screen) { return BlackPixel(display, screen); }
static inline int CX11_display_width(Display *display, int screen) { return DisplayWidth(display, screen); }
static inline int CX11_display_height(Display *display, int screen) { return DisplayHeight(display, screen); }

#endif /* CX11_SHIM_H */
