/*
 * Example: typed C targets (via fuzz_target.h) with the faults a target
 * can have beyond a plain crash, one each, for the fault matrix
 * (tests/e2e/faults.rs). Built with gcc trace-pc and -pthread into
 * libfaults.so. Each takes one []byte and passes on every other input;
 * each fault sits behind a short word, so that a seed one byte away
 * reaches it quickly.
 *
 *   FuzzNoisy       "noisy": writes 50 MB to stderr, then abort().
 *   FuzzKillSelf    "kill": raise(SIGKILL), as the OOM killer would.
 *   FuzzExitZero    "done": exit(0), a death that looks like success.
 *   FuzzThread      "thread": a second thread writes through NULL.
 *   FuzzHeap        "heap": a second thread overwrites the size of its
 *                   heap's top chunk, so that its next malloc aborts
 *                   ("malloc(): corrupted top size") holding the arena's
 *                   lock: a crash handler that allocates then blocks.
 *   FuzzCloseFds    "close": closes every descriptor from 3 up, returns.
 *   FuzzQuiet       "quiet": closes stderr, then writes through NULL.
 *   FuzzFork        "fork": forks a child that sleeps for 300 s, returns.
 *   FuzzFourBugs    first byte 'A': exit(3); 'B': raise(SIGKILL);
 *                   'C': a hang; 'D': exit(0). Four bugs, none with a
 *                   stack, for -keepfuzzing.
 *   FuzzKillGroup   "group": kill(0, SIGTERM), its whole process group.
 *   FuzzRaiseTerm   "term": raise(SIGTERM), and FuzzRaiseInt "intr":
 *                   raise(SIGINT): signals a scheduler stops a job with,
 *                   sent by the target to itself.
 *   FuzzEasyExit    first byte 'E': exit(3), found again every few
 *                   hundred executions once found.
 *   FuzzBig         over 1,100,000 bytes, not all 'a': abort(). A finding
 *                   that stays over 1 MiB when minimized.
 */
#define _DEFAULT_SOURCE
#include "fuzz_target.h"

#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool one_bytes(const uint8_t *args, size_t len, const uint8_t **p,
                      size_t *n) {
    fuzz_args a = fuzz_args_init(args, len);
    fuzz_args_read_bytes(&a, p, n);
    return fuzz_args_end(&a);
}

static volatile unsigned sink;
static volatile int *volatile null_ptr;

#define BYTES_OR_REJECT                                                      \
    const uint8_t *p;                                                        \
    size_t n;                                                                \
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))                            \
        return FUZZ_REJECT

FUZZ_TARGET_BYTES(FuzzNoisy) {
    BYTES_OR_REJECT;
    if (fuzz_bytes_eq(p, n, "noisy")) {
        static char line[1024];
        memset(line, 'n', sizeof line - 1);
        line[sizeof line - 1] = '\n';
        for (int i = 0; i < 50 * 1024; i++)
            fwrite(line, 1, sizeof line, stderr);
        abort();
    }
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzKillSelf) {
    BYTES_OR_REJECT;
    if (fuzz_bytes_eq(p, n, "kill"))
        raise(SIGKILL);
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzExitZero) {
    BYTES_OR_REJECT;
    if (fuzz_bytes_eq(p, n, "done"))
        exit(0);
    return FUZZ_PASS;
}

static void *crash_in_thread(void *arg) {
    (void)arg;
    *null_ptr = 1;
    return NULL;
}

FUZZ_TARGET_BYTES(FuzzThread) {
    BYTES_OR_REJECT;
    if (fuzz_bytes_eq(p, n, "thread")) {
        pthread_t t;
        if (pthread_create(&t, NULL, crash_in_thread, NULL) == 0)
            pthread_join(t, NULL);
    }
    return FUZZ_PASS;
}

static void *corrupt_heap_in_thread(void *arg) {
    (void)arg;
    /* A new thread gets an arena of its own, or one an exited thread left
     * (the worker's own helpers leave some): either may hold free chunks,
     * but none as large as this, so it comes from the arena's top chunk,
     * whose size field is the word right past its usable bytes. */
    enum { BIG = 120 * 1024 }; /* under malloc's mmap threshold */
    char *chunk = malloc(BIG);
    volatile size_t *top_size = (volatile size_t *)(chunk + malloc_usable_size(chunk));
    *top_size = ~(size_t)7;
    /* No free chunk is large enough either: served from the top chunk,
     * under the arena's lock. */
    void *volatile big = malloc(BIG);
    (void)big;
    return NULL;
}

FUZZ_TARGET_BYTES(FuzzHeap) {
    BYTES_OR_REJECT;
    if (fuzz_bytes_eq(p, n, "heap")) {
        pthread_t t;
        if (pthread_create(&t, NULL, corrupt_heap_in_thread, NULL) == 0)
            pthread_join(t, NULL);
    }
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzCloseFds) {
    BYTES_OR_REJECT;
    if (fuzz_bytes_eq(p, n, "close")) {
        long max = sysconf(_SC_OPEN_MAX);
        for (long fd = 3; fd < max; fd++)
            close((int)fd);
    }
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzQuiet) {
    BYTES_OR_REJECT;
    if (fuzz_bytes_eq(p, n, "quiet")) {
        close(2);
        *null_ptr = 1;
    }
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzFork) {
    BYTES_OR_REJECT;
    if (fuzz_bytes_eq(p, n, "fork")) {
        pid_t pid = fork();
        if (pid == 0) {
            sleep(300);
            _exit(0);
        }
    }
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzFourBugs) {
    BYTES_OR_REJECT;
    if (n == 0)
        return FUZZ_PASS;
    switch (p[0]) {
    case 'A':
        exit(3);
    case 'B':
        raise(SIGKILL);
        break;
    case 'C':
        for (;;)
            sink = sink + 1;
    case 'D':
        exit(0);
    default:
        sink = p[0];
    }
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzKillGroup) {
    BYTES_OR_REJECT;
    if (fuzz_bytes_eq(p, n, "group"))
        kill(0, SIGTERM);
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzRaiseTerm) {
    BYTES_OR_REJECT;
    if (fuzz_bytes_eq(p, n, "term"))
        raise(SIGTERM);
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzRaiseInt) {
    BYTES_OR_REJECT;
    if (fuzz_bytes_eq(p, n, "intr"))
        raise(SIGINT);
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzBig) {
    BYTES_OR_REJECT;
    if (n > 1100000) {
        for (size_t i = 0; i < n; i++)
            if (p[i] != 'a')
                abort();
    }
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzEasyExit) {
    BYTES_OR_REJECT;
    if (n > 0 && p[0] == 'E')
        exit(3);
    for (size_t i = 0; i < n; i++)
        sink = sink + p[i];
    return FUZZ_PASS;
}
