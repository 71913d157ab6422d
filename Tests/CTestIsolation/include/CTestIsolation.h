#ifndef GSTPLAY_TEST_ISOLATION_H
#define GSTPLAY_TEST_ISOLATION_H

/// This test process's private directory (`$TMPDIR/gstplay-test-<pid>-XXXXXX`), made before
/// main() and removed at exit; see isolation.c. Any thread.
const char *gstplay_test_root(void);

#endif
