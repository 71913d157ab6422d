// One private set of directories per test process: before main() runs, a test process
// makes `$TMPDIR/gstplay-test-<pid>-XXXXXX` (mkdtemp) and points HOME, XDG_CACHE_HOME,
// XDG_STATE_HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_RUNTIME_DIR (0700) and TMPDIR into it, sets
// GSTPLAY_TEST_ROOT to it, and removes it at exit (atexit, in this process only). So no test reads
// or writes another's media cache, resume state or temporary files, whichever test process runs
// beside it (`swift test --parallel` runs one process per test), and gstplay children inherit the
// same directories. GST_REGISTRY (when unset) keeps pointing at the user's plugin registry, so a
// test process does not rescan every plugin.
//
// Plain libc on purpose, in a constructor: GLib caches g_get_user_cache_dir(), g_get_tmp_dir() and
// g_get_home_dir() on first use, so the variables must be set before any GLib or Foundation call.
#define _XOPEN_SOURCE 700
#include "CTestIsolation.h"
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static char root[PATH_MAX];
static pid_t owner;

static int remove_entry(const char *path, const struct stat *info, int type, struct FTW *walk) {
    (void)info; (void)type; (void)walk;
    remove(path);   // FTW_DEPTH: a directory comes after its contents
    return 0;
}

static void remove_root(void) {
    if (getpid() == owner) nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

// Makes `<root>/<name>` with `mode` and sets `variable` to it.
static void point(const char *variable, const char *name, mode_t mode) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", root, name);
    mkdir(path, mode);
    chmod(path, mode);   // exactly `mode`, whatever the umask
    setenv(variable, path, 1);
}

// GStreamer's default registry (`<user cache dir>/gstreamer-1.0/registry.<cpu>.bin`), as it is
// before the variables change.
static void keep_registry(void) {
    if (getenv("GST_REGISTRY")) return;
    const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    struct utsname machine;
    if (uname(&machine) != 0) return;
    char path[PATH_MAX];
    if (cache && cache[0] == '/') snprintf(path, sizeof path, "%s/gstreamer-1.0/registry.%s.bin", cache, machine.machine);
    else if (home && home[0] == '/') snprintf(path, sizeof path, "%s/.cache/gstreamer-1.0/registry.%s.bin", home, machine.machine);
    else return;
    setenv("GST_REGISTRY", path, 1);
}

__attribute__((constructor)) static void isolate_test_process(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/gstplay-test-%d-XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp", (int)getpid());
    if (!mkdtemp(root)) { perror("gstplay tests: mkdtemp"); abort(); }
    chmod(root, 0755);   // gstplay children run as `nobody` by HostileCLITests must reach their files
    owner = getpid();
    atexit(remove_root);
    keep_registry();
    setenv("GSTPLAY_TEST_ROOT", root, 1);
    point("HOME", "home", 0755);
    point("XDG_CACHE_HOME", "cache", 0755);
    point("XDG_STATE_HOME", "state", 0755);
    point("XDG_CONFIG_HOME", "config", 0755);
    point("XDG_DATA_HOME", "data", 0755);
    point("XDG_RUNTIME_DIR", "runtime", 0700);
    point("TMPDIR", "tmp", 0755);
}

const char *gstplay_test_root(void) { return root; }
