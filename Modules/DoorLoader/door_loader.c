#include "door_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

/* One line on stderr, then the documented exit status: the caller cannot be handed an error (it
 * called the library's function itself), and `_exit` because other threads may be running. */
__attribute__((noreturn))
static void door_loader_fail(const DoorLibrary *library, const char *reason) {
    fprintf(stderr, "gstplay: %s needs %s (apt install %s): %s\n",
            library->doors, library->library, library->package, reason ? reason : "unknown error");
    fflush(stderr);
    _exit(DOOR_LOADER_EXIT_STATUS);
}

void *door_loader_resolve(DoorLibrary *library, unsigned int index) {
    void *handle = __atomic_load_n(&library->handle, __ATOMIC_ACQUIRE);
    if (handle == NULL) {
        /* Two threads may both open it: dlopen counts references and returns the same handle. */
        handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) door_loader_fail(library, dlerror());
        __atomic_store_n(&library->handle, handle, __ATOMIC_RELEASE);
    }
    void *function = dlsym(handle, library->names[index]);
    if (function == NULL) door_loader_fail(library, dlerror());
    __atomic_store_n(&library->table[index], function, __ATOMIC_RELEASE);
    return function;
}
