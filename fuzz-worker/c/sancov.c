/*
 * The parts of fuzz-worker's SanitizerCoverage runtime that are C:
 *
 *  - the thread-local __sancov_lowest_stack that -fsanitize=fuzzer-no-link
 *    builds reference (stable Rust cannot define a TLS export);
 *  - __sanitizer_cov_trace_pc, which needs its caller's address (gcc's
 *    trace-pc gives no guard, only the return address);
 *  - the integer comparison callbacks, which need theirs too (the site of
 *    each comparison, for fuzz-run -cmp_outcomes), and the operand table
 *    they record into;
 *  - the libc comparison functions fuzz-worker interposes (memcmp, bcmp,
 *    strcmp, ...), so that comparisons made through libc, and Rust slice
 *    equality, reach the fuzzer as libFuzzer's do.
 *
 * This file is compiled with -fno-builtin, so the compiler never turns the
 * comparison loops below back into calls to the functions they define.
 * Everything else (counters, the byte-string comparison table) lives in
 * Rust; the hooks called from here are defined in fuzz-worker/src/sancov.rs.
 */
#include <stddef.h>
#include <stdint.h>

__thread uintptr_t __sancov_lowest_stack;

/* Set by the worker while a target runs; comparisons made outside a target
 * execution (the worker's own) are not recorded. */
volatile int fuzz_worker_tracing;

/* --- trace-pc: hashed (module-relative) PCs, AFL-style edges ------------ */

#define PC_MODULES 64
struct pc_module {
    uintptr_t lo, hi;
};
static struct pc_module pc_modules[PC_MODULES];
static int pc_module_count;

/* 64 KiB of 8-bit counters, read and reset by the worker. */
uint8_t fuzz_worker_pc_map[1 << 16];
static __thread uintptr_t pc_prev;

void fuzz_worker_pc_add_module(uintptr_t lo, uintptr_t hi) {
    if (pc_module_count < PC_MODULES) {
        pc_modules[pc_module_count].lo = lo;
        pc_modules[pc_module_count].hi = hi;
        pc_module_count++;
    }
}

void fuzz_worker_pc_reset_edge(void) { pc_prev = 0; }

static inline uintptr_t hash_pc(uintptr_t pc) {
    /* Relative to the module's load address, so that workers with different
     * ASLR bases agree on coverage. */
    for (int i = 0; i < pc_module_count; i++) {
        if (pc >= pc_modules[i].lo && pc < pc_modules[i].hi) {
            pc = (pc - pc_modules[i].lo) + ((uintptr_t)i << 40);
            break;
        }
    }
    uint64_t h = (uint64_t)pc * 0x9e3779b97f4a7c15ULL;
    return (uintptr_t)(h >> 48);
}

void __sanitizer_cov_trace_pc(void) {
    uintptr_t cur = hash_pc((uintptr_t)__builtin_return_address(0));
    fuzz_worker_pc_map[(cur ^ pc_prev) & 0xffff]++;
    pc_prev = cur >> 1;
}

/* --- integer comparisons ---------------------------------------------- */

/* The operand table the mutator draws its hints from (read in Rust,
 * sancov.rs's IntCmp): the latest unequal comparisons, hashed by their
 * operands, overwritten as it fills, so that a callback costs a hash and a
 * store (real targets make tens of thousands of comparisons per input). */
struct int_cmp {
    uint64_t a, b;
    uint8_t size;
};
/* Rust reads it as [IntCmp; INT_CMPS] (sancov.rs checks the same size). */
_Static_assert(sizeof(struct int_cmp) == 24, "struct int_cmp is sancov.rs's IntCmp");
#define HASH_BITS 10
#define INT_CMPS (1 << HASH_BITS)
/* Hidden: one instruction to reach from here (no GOT), still linked to
 * the Rust half of the same executable. */
__attribute__((visibility("hidden"))) struct int_cmp fuzz_worker_int_table[INT_CMPS];
/* Its size, for sancov.rs's test that Rust reads no more than there is. */
__attribute__((visibility("hidden"))) const uint64_t fuzz_worker_int_table_bytes =
    sizeof fuzz_worker_int_table;

static inline void record(uint64_t a, uint64_t b, uint8_t size) {
    if (a == b)
        return;
    uint64_t h = (a ^ (b << 23 | b >> 41) ^ size) * 0x9e3779b97f4a7c15ULL;
    struct int_cmp *e = &fuzz_worker_int_table[h >> (64 - HASH_BITS)];
    e->a = a;
    e->b = b;
    e->size = size;
}

/* For the Rust callbacks that record operands too (floats, switches,
 * divisions, array indices). */
void fuzz_worker_record(uint64_t a, uint64_t b, uint8_t size) { record(a, b, size); }

/* Comparison outcomes (fuzz-run -cmp_outcomes): each comparison site, named
 * by its return address relative to the target library, has three slots,
 * one for each outcome (equal, below, above, unsigned), so that an input
 * that decides a comparison another way than the corpus ever did counts as
 * new coverage even when no edge tells it (a result stored, or fed to a
 * select or to arithmetic), as AFL++'s instrumentation counts such hidden
 * decisions. A slot is set once per execution and listed as it is set, so
 * that the worker reads only the slots set (fuzz-worker/src/coverage.rs). */
#define OUTCOME_BITS 18
__attribute__((visibility("hidden"))) uint64_t fuzz_worker_outcome_seen[(1 << OUTCOME_BITS) / 64];
__attribute__((visibility("hidden"))) uint32_t fuzz_worker_outcome_list[1 << OUTCOME_BITS];
__attribute__((visibility("hidden"))) uint32_t fuzz_worker_outcome_count;
/* On when non-zero (set in Rust, before any target runs). */
__attribute__((visibility("hidden"))) int fuzz_worker_outcomes_on;
static uintptr_t outcome_lo;

void fuzz_worker_outcome_module(uintptr_t lo) { outcome_lo = lo; }

/* Apart from the callbacks, so that their common path (off) saves no
 * register: this is a tail call from them. */
__attribute__((noinline)) static void outcome_and_record(uintptr_t pc, uint64_t a, uint64_t b,
                                                         uint8_t size) {
    /* Relative to the library, so that every worker numbers its sites
     * alike (a site in another module gets some other number, the same in
     * every execution of this process). */
    uint64_t site = (uint64_t)(pc - outcome_lo) * 0x9e3779b97f4a7c15ULL >> (64 - OUTCOME_BITS + 2);
    uint32_t i = (uint32_t)site << 2 | (a == b ? 0 : a < b ? 1 : 2);
    /* A bit per slot keeps the set within the first-level cache. */
    uint64_t bit = 1ULL << (i & 63);
    uint64_t *word = &fuzz_worker_outcome_seen[i >> 6];
    /* (A target's own threads may race here: the count stays in bounds.) */
    if (!(*word & bit) && fuzz_worker_outcome_count < (1u << OUTCOME_BITS)) {
        *word |= bit;
        fuzz_worker_outcome_list[fuzz_worker_outcome_count++] = i;
    }
    record(a, b, size);
}

/* The callbacks are here, not in Rust, for the return address: the
 * comparison site, whose outcome fuzz-run -cmp_outcomes counts. Off, a
 * callback is the record and one load and branch more. */
#define CMP(name, type, size)                                                                      \
    void name(type a, type b) {                                                                    \
        if (__builtin_expect(fuzz_worker_outcomes_on, 0))                                          \
            outcome_and_record((uintptr_t)__builtin_return_address(0), a, b, size);                \
        else                                                                                       \
            record(a, b, size);                                                                    \
    }
CMP(__sanitizer_cov_trace_cmp1, uint8_t, 1)
CMP(__sanitizer_cov_trace_cmp2, uint16_t, 2)
CMP(__sanitizer_cov_trace_cmp4, uint32_t, 4)
CMP(__sanitizer_cov_trace_cmp8, uint64_t, 8)
CMP(__sanitizer_cov_trace_const_cmp1, uint8_t, 1)
CMP(__sanitizer_cov_trace_const_cmp2, uint16_t, 2)
CMP(__sanitizer_cov_trace_const_cmp4, uint32_t, 4)
CMP(__sanitizer_cov_trace_const_cmp8, uint64_t, 8)

/* --- interposed libc comparisons ------------------------------------- */

/* Defined in Rust: records up to 32 bytes of each operand. */
void fuzz_worker_hook_memcmp(const void *a, const void *b, size_t n1, size_t n2);

static inline void hook(const void *a, const void *b, size_t n1, size_t n2) {
    if (fuzz_worker_tracing && n1 && n2)
        fuzz_worker_hook_memcmp(a, b, n1, n2);
}

static size_t bounded_len(const char *s, size_t max) {
    size_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

static inline int lower(int c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

/* The length of the common prefix, eight bytes at a time while they
 * agree (string interning compares equal keys all the time). */
static inline size_t same_words(const unsigned char *p, const unsigned char *q, size_t n) {
    size_t i = 0;
    while (i + 8 <= n) {
        uint64_t x, y;
        __builtin_memcpy(&x, p + i, 8);
        __builtin_memcpy(&y, q + i, 8);
        if (x != y)
            break;
        i += 8;
    }
    return i;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *p = a, *q = b;
    int r = 0;
    size_t i = same_words(p, q, n);
    for (; i < n; i++) {
        if (p[i] != q[i]) {
            r = p[i] < q[i] ? -1 : 1;
            break;
        }
    }
    if (r)
        hook(a, b, n, n);
    return r;
}

int bcmp(const void *a, const void *b, size_t n) {
    const unsigned char *p = a, *q = b;
    for (size_t i = same_words(p, q, n); i < n; i++) {
        if (p[i] != q[i]) {
            hook(a, b, n, n);
            return 1;
        }
    }
    return 0;
}

int strcmp(const char *a, const char *b) {
    size_t i = 0;
    for (;; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x != y || !x) {
            if (x != y)
                hook(a, b, bounded_len(a, 64), bounded_len(b, 64));
            return x < y ? -1 : (x > y ? 1 : 0);
        }
    }
}

int strncmp(const char *a, const char *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x != y || !x) {
            if (x != y)
                hook(a, b, bounded_len(a, n), bounded_len(b, n));
            return x < y ? -1 : (x > y ? 1 : 0);
        }
    }
    return 0;
}

int strcasecmp(const char *a, const char *b) {
    for (size_t i = 0;; i++) {
        int x = lower((unsigned char)a[i]), y = lower((unsigned char)b[i]);
        if (x != y || !x) {
            if (x != y)
                hook(a, b, bounded_len(a, 64), bounded_len(b, 64));
            return x - y;
        }
    }
}

int strncasecmp(const char *a, const char *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        int x = lower((unsigned char)a[i]), y = lower((unsigned char)b[i]);
        if (x != y || !x) {
            if (x != y)
                hook(a, b, bounded_len(a, n), bounded_len(b, n));
            return x - y;
        }
    }
    return 0;
}

static const char *find(const char *h, size_t hn, const char *n, size_t nn, int nocase) {
    if (nn == 0)
        return h;
    for (size_t i = 0; i + nn <= hn; i++) {
        size_t j = 0;
        while (j < nn && (nocase ? lower((unsigned char)h[i + j]) == lower((unsigned char)n[j])
                                 : h[i + j] == n[j]))
            j++;
        if (j == nn)
            return h + i;
    }
    return NULL;
}

static size_t full_len(const char *s) {
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

char *strstr(const char *h, const char *n) {
    const char *r = find(h, full_len(h), n, full_len(n), 0);
    if (!r)
        hook(h, n, bounded_len(h, 64), bounded_len(n, 64));
    return (char *)r;
}

char *strcasestr(const char *h, const char *n) {
    const char *r = find(h, full_len(h), n, full_len(n), 1);
    if (!r)
        hook(h, n, bounded_len(h, 64), bounded_len(n, 64));
    return (char *)r;
}

void *memmem(const void *h, size_t hn, const void *n, size_t nn) {
    const char *r = find(h, hn, n, nn, 0);
    if (!r)
        hook(h, n, hn < 64 ? hn : 64, nn);
    return (void *)r;
}
