#include "door_loader.h"

#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The three GModule calls this file makes (gmodule.h, GLib 2.x ABI), declared here: a package
 * that depends on this one builds this target without GLib's include path. */
typedef struct _GModule GModule;
enum { DOOR_LOADER_G_MODULE_BIND_LOCAL = 1 << 1 };
extern GModule *g_module_open(const char *file_name, int flags);
extern const char *g_module_error(void);

/* One line on stderr, then the documented exit status: the caller cannot be handed an error (it
 * called the library's function itself), and `_exit` because other threads may be running. */
__attribute__((noreturn))
static void door_loader_fail(const DoorLibrary *library, const char *reason) {
    fprintf(stderr, "gstplay: %s needs %s (apt install %s): %s\n",
            library->doors, library->library, library->package, reason ? reason : "unknown error");
    fflush(stderr);
    _exit(DOOR_LOADER_EXIT_STATUS);
}

/* `directory`/`soname` in `path` when that names a readable file. */
static int door_loader_candidate(char *path, size_t size, const char *directory, size_t length, const char *soname) {
    return length > 0 && directory[0] == '/' && snprintf(path, size, "%.*s/%s", (int)length, directory, soname) < (int)size
        && access(path, R_OK) == 0;
}

/* The library's absolute path, looked up as the dynamic linker would for the places a door library
 * lives: LD_LIBRARY_PATH's absolute directories first, then GModule's own directory (where Debian's
 * multiarch layout puts every library). 0 when it is in neither. */
static int door_loader_find(const DoorLibrary *library, char *path, size_t size) {
    const char *search = getenv("LD_LIBRARY_PATH");
    while (search != NULL && *search != '\0') {
        size_t length = strcspn(search, ":;");
        if (door_loader_candidate(path, size, search, length, library->soname)) return 1;
        search += length;
        if (*search != '\0') search++;
    }
    Dl_info gmodule;
    if (dladdr((void *)g_module_open, &gmodule) == 0 || gmodule.dli_fname == NULL) return 0;
    const char *slash = strrchr(gmodule.dli_fname, '/');
    return slash != NULL && door_loader_candidate(path, size, gmodule.dli_fname, (size_t)(slash - gmodule.dli_fname), library->soname);
}

/*
 * Opens `library` through GModule, not dlopen directly, so that this thread takes GModule's lock
 * before the dynamic linker's, in the order every GStreamer plugin load takes them
 * (`g_module_open` → `dlopen`). libsoup 3's constructor calls `g_module_open` (to refuse a process
 * that also has libsoup 2); a plain `dlopen` of it held the dynamic linker's lock while that
 * constructor waited for GModule's, which a plugin load on another thread held while it waited for
 * the dynamic linker's: a deadlock at start-up when a door opened beside the start-up's plugin
 * loads. GModule gets an absolute path (`door_loader_find`): with a bare name it would first try
 * a file of that name in the working directory. A library found in neither place is left to
 * `dlopen` and its soname.
 */
static void *door_loader_open(const DoorLibrary *library) {
    char path[PATH_MAX];
    if (!door_loader_find(library, path, sizeof path)) return dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (g_module_open(path, DOOR_LOADER_G_MODULE_BIND_LOCAL) == NULL) door_loader_fail(library, g_module_error());
    /* Loaded now, and kept open by GModule: the handle for dlsym, with no constructor to run. */
    return dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
}

void *door_loader_resolve(DoorLibrary *library, unsigned int index) {
    void *handle = __atomic_load_n(&library->handle, __ATOMIC_ACQUIRE);
    if (handle == NULL) {
        /* Two threads may both open it: dlopen counts references and returns the same handle. */
        handle = door_loader_open(library);
        if (handle == NULL) door_loader_fail(library, dlerror());
        __atomic_store_n(&library->handle, handle, __ATOMIC_RELEASE);
    }
    void *function = dlsym(handle, library->names[index]);
    if (function == NULL) door_loader_fail(library, dlerror());
    __atomic_store_n(&library->table[index], function, __ATOMIC_RELEASE);
    return function;
}
