// bench/realbugs: the 2 GiB memory limit of the AFL++ builds (build.sh's
// aflpp440 flavour), as libFuzzer's -rss_limit_mb=2048 and fuzz-run's
// default -rss_limit_mb 2048 give the other engines. AFL++ has only -m, a
// limit on address space (RLIMIT_AS), which AddressSanitizer's shadow
// memory cannot live under and which is not what the others measure; so
// afl-fuzz runs with -m none and this object, linked into the target,
// watches the resident set instead: in every process the fork server
// forks (the one that runs the persistent loop), a thread reads
// /proc/self/statm once a second, as libFuzzer's RSS thread does, and
// aborts the process (SIGABRT: a crash to afl-fuzz, which saves the input)
// when the resident set passes RB_RSS_LIMIT_MB (default 2048; 0: no limit).
// Not instrumented: it is compiled by plain clang.
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long limit_mb = 2048;

static void *watch(void *arg) {
    (void)arg;
    long page = sysconf(_SC_PAGESIZE);
    for (;;) {
        sleep(1);
        FILE *f = fopen("/proc/self/statm", "r");
        if (!f) continue;
        long size = 0, resident = 0;
        int n = fscanf(f, "%ld %ld", &size, &resident);
        fclose(f);
        if (n != 2) continue;
        long mb = resident * (page / 1024) / 1024;
        if (mb > limit_mb) {
            char msg[128];
            int len = snprintf(msg, sizeof msg, "rss_limit: %ld MiB resident, over the %ld MiB limit\n", mb,
                               limit_mb);
            if (len > 0) (void)!write(2, msg, (size_t)len);
            abort();
        }
    }
    return NULL;
}

// In the child of a fork (the fork server's): start the watcher there, as
// threads do not survive fork().
static void start_watch(void) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    pthread_create(&t, &attr, watch, NULL);
    pthread_attr_destroy(&attr);
}

__attribute__((constructor)) static void rss_limit_init(void) {
    const char *env = getenv("RB_RSS_LIMIT_MB");
    if (env && *env) limit_mb = atol(env);
    if (limit_mb <= 0) return;
    pthread_atfork(NULL, NULL, start_watch);
}
