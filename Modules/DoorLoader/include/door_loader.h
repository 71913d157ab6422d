/*
 * DoorLoader: the C libraries that only a door needs (libsoup for the web remote, casting and the
 * cache's revalidation; GUPnP for casting; Xlib for the video window) are not linked. Each module
 * that declares one of them (CSoup, CGUPnP, CX11) carries generated trampolines for exactly the
 * functions the package calls (Modules/DoorLoader/generate-stubs.py); the first call of any of them
 * opens the library by its soname and binds that function, so a headless play maps none of them.
 */
#ifndef DOOR_LOADER_H
#define DOOR_LOADER_H

/* Exit status when a door's library cannot be opened or lacks a function (docs/CLI.md). */
#define DOOR_LOADER_EXIT_STATUS 8

/* One lazily opened library: what the trampolines of one soname share. */
typedef struct DoorLibrary {
    /* The soname dlopen'ed at the first call, e.g. "libsoup-3.0.so.0". */
    const char *soname;
    /* The doors that need it, for the failure line: "casting needs libgupnp-1.6 …". */
    const char *doors;
    /* The library's name and the Debian package that installs it, for the failure line. */
    const char *library;
    const char *package;
    /* The functions' names; table[i] is the address the i-th trampoline jumps to. */
    const char *const *names;
    void **table;
    /* The dlopen handle once opened. */
    void *handle;
} DoorLibrary;

/*
 * Opens `library` if needed, binds its `index`-th function into its table and returns its address.
 * Called by the trampolines on a function's first call; never returns when the library or the
 * function is missing: prints one `gstplay:` line and ends the process with DOOR_LOADER_EXIT_STATUS.
 */
__attribute__((visibility("hidden")))
void *door_loader_resolve(DoorLibrary *library, unsigned int index);

#endif /* DOOR_LOADER_H */
