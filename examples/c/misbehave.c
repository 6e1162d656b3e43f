/*
 * Example: typed C targets (via fuzz_target.h) that misbehave on purpose,
 * one way each, for fuzz-worker's tests. Built with gcc trace-pc into
 * libmisbehave.so. Unless noted, a target takes one []byte (declared
 * explicitly, "[]byte") and "input" below means that []byte; each target
 * passes on every other input.
 *
 *   FuzzOk             always passes; takes one of two branches on the
 *                      low bit of the first byte (a third when empty), so
 *                      different inputs give different coverage.
 *   FuzzFail           input starting with 'x': writes
 *                      "bad input: starts with 'x' (N bytes)" to stderr and
 *                      returns 1 (a failure).
 *   FuzzReject         empty input: returns -1 (rejected).
 *   FuzzHang           input "hang": loops forever (a timeout).
 *   FuzzExit           input "exit": calls exit(3).
 *   FuzzStackOverflow  input "deep": unbounded recursion, 256-byte frames
 *                      (SIGSEGV on the guard page).
 *   FuzzAbort          input "abort": abort() (SIGABRT).
 *   FuzzSegv           input "segv": writes through a NULL pointer.
 *   FuzzOOM            input "oom": allocates and touches 64 MiB blocks,
 *                      pausing 10 ms between blocks so that an RSS monitor
 *                      polling a few times a second sees the growth; at
 *                      4 GiB without being stopped it frees everything and
 *                      fails with "FuzzOOM: allocated 4096 MiB and was not
 *                      stopped".
 *   FuzzTwoBugs        input starting "A1": SIGSEGV; starting "B2": abort()
 *                      (two crash sites, for -keepfuzzing).
 *   FuzzDrift          "A" alone: abort(); "AB…": SIGSEGV (a smaller input
 *                      reaches another bug, for fuzz-minimize -same).
 *   FuzzSlowFail       sleeps 5 ms per execution; fails on any input
 *                      holding 'F' (for interrupting a minimization).
 *   FuzzTyped          "string, int64, bool": fails (returns 1) when the
 *                      string is "boom" and the int64 is 42, whatever the
 *                      bool, writing "FuzzTyped: boom with 42 (flag=true)"
 *                      (or flag=false) to stderr.
 *
 * Arguments that do not decode (truncated, trailing bytes, a bool byte
 * other than 0 or 1) are rejected (-1) by every target.
 *
 * When FUZZ_EXAMPLE_LOADS names a file, every process that loads the
 * library appends its pid to it, one line each (the tests count loads).
 */
#define _DEFAULT_SOURCE /* usleep */
#include "fuzz_target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads the single []byte argument; false when the arguments are bad. */
static bool one_bytes(const uint8_t *args, size_t len, const uint8_t **p,
                      size_t *n) {
    fuzz_args a = fuzz_args_init(args, len);
    fuzz_args_read_bytes(&a, p, n);
    return fuzz_args_end(&a);
}

static volatile unsigned sink;

__attribute__((constructor)) static void note_load(void) {
    const char *path = getenv("FUZZ_EXAMPLE_LOADS");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (f) {
        fprintf(f, "%d\n", (int)getpid());
        fclose(f);
    }
}

FUZZ_TARGET_BYTES(FuzzOk) {
    const uint8_t *p;
    size_t n;
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))
        return FUZZ_REJECT;
    if (n == 0)
        sink = 0;
    else if (p[0] & 1)
        sink = sink + 1;
    else
        sink = sink * 3;
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzFail) {
    const uint8_t *p;
    size_t n;
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))
        return FUZZ_REJECT;
    if (n > 0 && p[0] == 'x') {
        fprintf(stderr, "bad input: starts with 'x' (%zu bytes)\n", n);
        return FUZZ_FAIL;
    }
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzReject) {
    const uint8_t *p;
    size_t n;
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))
        return FUZZ_REJECT;
    return n == 0 ? FUZZ_REJECT : FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzHang) {
    const uint8_t *p;
    size_t n;
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))
        return FUZZ_REJECT;
    if (fuzz_bytes_eq(p, n, "hang")) {
        for (;;)
            sink = sink + 1;
    }
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzExit) {
    const uint8_t *p;
    size_t n;
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))
        return FUZZ_REJECT;
    if (fuzz_bytes_eq(p, n, "exit"))
        exit(3);
    return FUZZ_PASS;
}

/* Never equal to a depth: keeps the compiler from proving the recursion
 * infinite (and warning, or turning it into a loop). */
static volatile int depth_limit = -1;

static int recurse(int depth) {
    volatile char frame[256];
    frame[0] = (char)depth;
    frame[255] = (char)(depth >> 8);
    if (depth == depth_limit)
        return 0;
    return recurse(depth + 1) + frame[0] + frame[255];
}

FUZZ_TARGET_BYTES(FuzzStackOverflow) {
    const uint8_t *p;
    size_t n;
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))
        return FUZZ_REJECT;
    if (fuzz_bytes_eq(p, n, "deep"))
        sink = (unsigned)recurse(0);
    return FUZZ_PASS;
}

FUZZ_TARGET_BYTES(FuzzAbort) {
    const uint8_t *p;
    size_t n;
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))
        return FUZZ_REJECT;
    if (fuzz_bytes_eq(p, n, "abort"))
        abort();
    return FUZZ_PASS;
}

/* A NULL the compiler cannot see through (a constant NULL store may be
 * compiled to a trap instruction: SIGILL, not SIGSEGV). */
static int *volatile null_ptr = NULL;

FUZZ_TARGET_BYTES(FuzzSegv) {
    const uint8_t *p;
    size_t n;
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))
        return FUZZ_REJECT;
    if (fuzz_bytes_eq(p, n, "segv"))
        *null_ptr = 1;
    return FUZZ_PASS;
}

#define OOM_STEP ((size_t)64 << 20)
#define OOM_STEPS 64 /* 4 GiB */

FUZZ_TARGET_BYTES(FuzzOOM) {
    static char *volatile blocks[OOM_STEPS];
    const uint8_t *p;
    size_t n;
    int i, got = 0;
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))
        return FUZZ_REJECT;
    if (!fuzz_bytes_eq(p, n, "oom"))
        return FUZZ_PASS;
    for (i = 0; i < OOM_STEPS; i++) {
        char *b = malloc(OOM_STEP);
        if (b == NULL)
            break;
        memset(b, 0xA5, OOM_STEP);
        blocks[i] = b;
        got++;
        usleep(10000);
    }
    for (i = 0; i < got; i++) {
        free(blocks[i]);
        blocks[i] = NULL;
    }
    fprintf(stderr, "FuzzOOM: allocated %d MiB and was not stopped\n",
            got * (int)(OOM_STEP >> 20));
    return FUZZ_FAIL;
}

FUZZ_TARGET(FuzzTyped, "string, int64, bool") {
    fuzz_args a = fuzz_args_init(fuzz_data, fuzz_size);
    const uint8_t *s;
    size_t n;
    int64_t i;
    bool flag;
    fuzz_args_read_string(&a, &s, &n);
    fuzz_args_read_i64(&a, &i);
    fuzz_args_read_bool(&a, &flag);
    if (!fuzz_args_end(&a))
        return FUZZ_REJECT;
    if (fuzz_bytes_eq(s, n, "boom") && i == 42) {
        fprintf(stderr, "FuzzTyped: boom with 42 (flag=%s)\n",
                flag ? "true" : "false");
        return FUZZ_FAIL;
    }
    return FUZZ_PASS;
}

/* Two different bugs behind single-byte checks, for -keepfuzzing: input
 * starting "A1" writes through a NULL pointer (SIGSEGV); input starting
 * "B2" calls abort() (SIGABRT). Plain coverage feedback finds both. */
FUZZ_TARGET_BYTES(FuzzTwoBugs) {
    const uint8_t *p;
    size_t n;
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))
        return FUZZ_REJECT;
    if (n >= 2 && p[0] == 'A') {
        sink = 1;
        if (p[1] == '1')
            *null_ptr = 1;
    }
    if (n >= 2 && p[0] == 'B') {
        sink = 2;
        if (p[1] == '2')
            abort();
    }
    return FUZZ_PASS;
}

/* Two bugs where the smaller input reaches the other one, for
 * fuzz-minimize -same: "AB…" writes through a NULL pointer (SIGSEGV), but
 * the single byte "A" calls abort() (SIGABRT). Shrinking "ABxyz" without
 * -same may end at "A", another bug; with -same it stays at "AB". */
FUZZ_TARGET_BYTES(FuzzDrift) {
    const uint8_t *p;
    size_t n;
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))
        return FUZZ_REJECT;
    if (n == 1 && p[0] == 'A')
        abort();
    if (n >= 2 && p[0] == 'A' && p[1] == 'B')
        *null_ptr = 1;
    return FUZZ_PASS;
}

/* A slow failure, for interrupting a minimization: every execution sleeps
 * 5 ms; an input holding the byte 'F' fails. */
FUZZ_TARGET_BYTES(FuzzSlowFail) {
    const uint8_t *p;
    size_t n;
    if (!one_bytes(fuzz_data, fuzz_size, &p, &n))
        return FUZZ_REJECT;
    usleep(5000);
    if (memchr(p, 'F', n)) {
        fprintf(stderr, "FuzzSlowFail: found F in %zu bytes\n", n);
        return FUZZ_FAIL;
    }
    return FUZZ_PASS;
}
