/*
 * fuzz_target.h: write Go-style typed fuzz targets in C (or C++).
 *
 * A typed target is an exported function
 *
 *     int FuzzName(const uint8_t *args, size_t len);
 *
 * and an optional exported NUL-terminated string FuzzName_args naming its
 * Go argument types, "string, int64, []byte" (without it the target takes
 * one []byte). The worker passes the arguments packed in order:
 *
 *   int, uint, int64, uint64, float64     8 bytes, little-endian
 *   int32/rune, uint32, float32           4 bytes, little-endian
 *   int16, uint16                         2 bytes, little-endian
 *   int8, uint8/byte, bool (0 or 1)       1 byte
 *   string, []byte                        4-byte little-endian length, bytes
 *
 * Return FUZZ_PASS (0), FUZZ_REJECT (-1: Go's t.Skip, the input is never
 * added to a corpus) or anything else, e.g. FUZZ_FAIL, for a failure (Go's
 * t.Fail); the failure's message is what the target wrote to stderr during
 * that call. A crash (signal, abort, exit) is a failure too.
 *
 *     #include "fuzz_target.h"
 *
 *     FUZZ_TARGET(FuzzParse, "string, int64, []byte") {
 *         fuzz_args a = fuzz_args_init(fuzz_data, fuzz_size);
 *         const uint8_t *name, *payload;
 *         size_t name_len, payload_len;
 *         int64_t n;
 *         fuzz_args_read_string(&a, &name, &name_len);
 *         fuzz_args_read_i64(&a, &n);
 *         fuzz_args_read_bytes(&a, &payload, &payload_len);
 *         if (!fuzz_args_end(&a))
 *             return FUZZ_REJECT;      // truncated or trailing bytes
 *         ...
 *         return FUZZ_PASS;
 *     }
 *
 * FUZZ_TARGET defines FuzzParse_args and opens the definition of
 * FuzzParse, whose parameters are `fuzz_data` and `fuzz_size`. The readers
 * never read out of bounds: a read past the end (or a length prefix larger
 * than what is left) fails, sets a sticky error that fails every later
 * read and fuzz_args_end, and stores zero (NULL and 0 for bytes) in the
 * output, so reading everything first and checking once is safe. A string
 * is not NUL-terminated and may hold any bytes, as a Go string may.
 *
 * A libFuzzer entry needs nothing from this header; it is declared here for
 * convenience: int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size).
 *
 * Custom mutators (fuzz-worker(1), CUSTOM MUTATORS), all with this
 * contract: change the input in place (or build one in out), within the
 * room given, and return its size; 0 means no input was made. The same
 * input and seed must give the same result: draw randomness only from
 * `seed` (fuzz_rng below) and from LLVMFuzzerMutate, which the worker
 * reseeds from `seed` before each call.
 *
 *   size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
 *                                  size_t max_size, unsigned int seed);
 *   size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
 *                                    const uint8_t *data2, size_t size2,
 *                                    uint8_t *out, size_t max_out_size,
 *                                    unsigned int seed);
 *       libFuzzer's, for LLVMFuzzerTestOneInput: define them and the
 *       worker uses them. Either may call the fuzzer's default mutator,
 *       size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size),
 *       which fuzz-worker exports.
 *
 *   FUZZ_CUSTOM_MUTATOR(tree) { body }
 *       defines size_t fuzz_mutate_tree(uint8_t *fuzz_data, size_t fuzz_size,
 *       size_t fuzz_max_size, unsigned int fuzz_seed), the mutator of the
 *       self-mutating custom type "tree": a typed target declares such an
 *       argument as custom(tree) in its signature, reads it with
 *       fuzz_args_read_custom (it is packed as a []byte), and corpus files
 *       store it as custom("tree", []byte("...")). The name is ASCII
 *       letters, digits and _; a custom type without a mutator is never
 *       changed by fuzzing.
 *
 * C99, no dependencies beyond the standard headers. Build the library with
 * SanitizerCoverage, e.g.
 *     clang-19 -g -O1 -fPIC -shared \
 *         -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp t.c -o libt.so
 *     gcc -g -O1 -fPIC -shared -fsanitize-coverage=trace-pc,trace-cmp t.c -o libt.so
 */
#ifndef FUZZ_TARGET_H
#define FUZZ_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
#define FUZZ_EXTERN_C extern "C"
#define FUZZ_EXTERN_DECL extern "C"
#else
#define FUZZ_EXTERN_C
#define FUZZ_EXTERN_DECL extern
#endif

#if defined(__GNUC__) || defined(__clang__)
#define FUZZ_EXPORT __attribute__((visibility("default")))
#define FUZZ_USED __attribute__((used))
#define FUZZ_MAYBE_UNUSED __attribute__((unused))
#else
#define FUZZ_EXPORT
#define FUZZ_USED
#define FUZZ_MAYBE_UNUSED
#endif

#define FUZZ_PASS 0
#define FUZZ_REJECT (-1)
#define FUZZ_FAIL 1

/*
 * FUZZ_TARGET(Name, "go, types") { body }: defines the exported signature
 * Name_args and opens the definition of
 * int Name(const uint8_t *fuzz_data, size_t fuzz_size). Name must match
 * ^Fuzz[A-Z0-9_][A-Za-z0-9_]*$ to be found.
 */
#define FUZZ_TARGET(name, signature)                                           \
    FUZZ_EXTERN_DECL FUZZ_EXPORT const char name##_args[];                     \
    FUZZ_EXTERN_C FUZZ_EXPORT FUZZ_USED const char name##_args[] = signature;  \
    FUZZ_EXTERN_C FUZZ_EXPORT int name(const uint8_t *fuzz_data,               \
                                       size_t fuzz_size);                      \
    FUZZ_EXTERN_C FUZZ_EXPORT int name(                                        \
        FUZZ_MAYBE_UNUSED const uint8_t *fuzz_data,                            \
        FUZZ_MAYBE_UNUSED size_t fuzz_size)

/* FUZZ_TARGET_BYTES(Name) { body }: a target taking one []byte. */
#define FUZZ_TARGET_BYTES(name) FUZZ_TARGET(name, "[]byte")

FUZZ_EXTERN_C int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Custom mutators: see the comment at the top. Declared with default
 * visibility, so that a definition is exported even under
 * -fvisibility=hidden. */
FUZZ_EXTERN_C FUZZ_EXPORT size_t LLVMFuzzerCustomMutator(uint8_t *data,
                                                         size_t size,
                                                         size_t max_size,
                                                         unsigned int seed);
FUZZ_EXTERN_C FUZZ_EXPORT size_t LLVMFuzzerCustomCrossOver(
    const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
    uint8_t *out, size_t max_out_size, unsigned int seed);
/* The fuzzer's default mutator, which custom mutators may call. */
FUZZ_EXTERN_C size_t LLVMFuzzerMutate(uint8_t *data, size_t size,
                                      size_t max_size);

/*
 * FUZZ_CUSTOM_MUTATOR(name) { body }: opens the definition of the exported
 * size_t fuzz_mutate_name(uint8_t *fuzz_data, size_t fuzz_size,
 * size_t fuzz_max_size, unsigned int fuzz_seed), the mutator of the custom
 * type name (ASCII letters, digits and _).
 */
#define FUZZ_CUSTOM_MUTATOR(name)                                              \
    FUZZ_EXTERN_C FUZZ_EXPORT size_t fuzz_mutate_##name(                       \
        uint8_t *fuzz_data, size_t fuzz_size, size_t fuzz_max_size,            \
        unsigned int fuzz_seed);                                               \
    FUZZ_EXTERN_C FUZZ_EXPORT size_t fuzz_mutate_##name(                       \
        FUZZ_MAYBE_UNUSED uint8_t *fuzz_data,                                  \
        FUZZ_MAYBE_UNUSED size_t fuzz_size,                                    \
        FUZZ_MAYBE_UNUSED size_t fuzz_max_size,                                \
        FUZZ_MAYBE_UNUSED unsigned int fuzz_seed)

/* A small deterministic generator (SplitMix64) for custom mutators: seed it
 * with the seed the fuzzer passed. */
typedef struct fuzz_rng {
    uint64_t state;
} fuzz_rng;

static inline fuzz_rng fuzz_rng_init(unsigned int seed) {
    fuzz_rng r;
    r.state = (uint64_t)seed ^ UINT64_C(0x6a09e667f3bcc909);
    return r;
}

/* The next 64 random bits. */
static inline uint64_t fuzz_rng_next(fuzz_rng *r) {
    uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A number in [0, n); 0 when n is 0. */
static inline size_t fuzz_rng_below(fuzz_rng *r, size_t n) {
    return n ? (size_t)(fuzz_rng_next(r) % (uint64_t)n) : 0;
}

/* A cursor over packed arguments. */
typedef struct fuzz_args {
    const uint8_t *p; /* next unread byte */
    size_t left;      /* bytes left */
    bool error;       /* a read failed: every later read fails too */
} fuzz_args;

static inline fuzz_args fuzz_args_init(const uint8_t *data, size_t size) {
    fuzz_args a;
    a.p = data;
    a.left = data ? size : 0;
    a.error = data == NULL && size != 0;
    return a;
}

/* True when every read succeeded and every byte was consumed. */
static inline bool fuzz_args_end(const fuzz_args *a) {
    return !a->error && a->left == 0;
}

/* True when every read so far succeeded. */
static inline bool fuzz_args_ok(const fuzz_args *a) { return !a->error; }

/* Takes n bytes; NULL (and a sticky error) when fewer are left. */
static inline const uint8_t *fuzz_args_take_(fuzz_args *a, size_t n) {
    const uint8_t *p;
    if (a->error || n > a->left) {
        a->error = true;
        return NULL;
    }
    p = a->p;
    a->p += n;
    a->left -= n;
    return p;
}

static inline uint64_t fuzz_args_le_(const uint8_t *p, size_t n) {
    uint64_t v = 0;
    size_t i;
    for (i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

#define FUZZ_ARGS_UNSIGNED_(suffix, type, n)                                   \
    static inline bool fuzz_args_read_##suffix(fuzz_args *a, type *out) {     \
        const uint8_t *p = fuzz_args_take_(a, n);                              \
        *out = p ? (type)fuzz_args_le_(p, n) : (type)0;                        \
        return p != NULL;                                                      \
    }

FUZZ_ARGS_UNSIGNED_(u8, uint8_t, 1)
FUZZ_ARGS_UNSIGNED_(u16, uint16_t, 2)
FUZZ_ARGS_UNSIGNED_(u32, uint32_t, 4)
FUZZ_ARGS_UNSIGNED_(u64, uint64_t, 8)

/* Two's complement, without implementation-defined conversions. */
#define FUZZ_ARGS_SIGNED_(suffix, type, utype, usuffix, max)                   \
    static inline bool fuzz_args_read_##suffix(fuzz_args *a, type *out) {     \
        utype u;                                                               \
        bool ok = fuzz_args_read_##usuffix(a, &u);                             \
        if (u <= (utype)(max))                                                 \
            *out = (type)u;                                                    \
        else                                                                   \
            *out = (type)(-(type)(utype)~u - 1);                               \
        return ok;                                                             \
    }

FUZZ_ARGS_SIGNED_(i8, int8_t, uint8_t, u8, INT8_MAX)
FUZZ_ARGS_SIGNED_(i16, int16_t, uint16_t, u16, INT16_MAX)
FUZZ_ARGS_SIGNED_(i32, int32_t, uint32_t, u32, INT32_MAX)
FUZZ_ARGS_SIGNED_(i64, int64_t, uint64_t, u64, INT64_MAX)

/* Go's int and uint are 8 bytes. */
static inline bool fuzz_args_read_int(fuzz_args *a, int64_t *out) {
    return fuzz_args_read_i64(a, out);
}
static inline bool fuzz_args_read_uint(fuzz_args *a, uint64_t *out) {
    return fuzz_args_read_u64(a, out);
}
/* Go's rune is an int32 (any value, not only valid code points). */
static inline bool fuzz_args_read_rune(fuzz_args *a, int32_t *out) {
    return fuzz_args_read_i32(a, out);
}
/* Go's byte is a uint8. */
static inline bool fuzz_args_read_byte(fuzz_args *a, uint8_t *out) {
    return fuzz_args_read_u8(a, out);
}

/* bool is one byte, 0 or 1; any other byte is a failed read. */
static inline bool fuzz_args_read_bool(fuzz_args *a, bool *out) {
    uint8_t b;
    bool ok = fuzz_args_read_u8(a, &b);
    if (ok && b > 1) {
        a->error = true;
        ok = false;
    }
    *out = ok && b == 1;
    return ok;
}

static inline bool fuzz_args_read_f32(fuzz_args *a, float *out) {
    uint32_t u;
    bool ok = fuzz_args_read_u32(a, &u);
    memcpy(out, &u, sizeof *out);
    return ok;
}

static inline bool fuzz_args_read_f64(fuzz_args *a, double *out) {
    uint64_t u;
    bool ok = fuzz_args_read_u64(a, &u);
    memcpy(out, &u, sizeof *out);
    return ok;
}

/*
 * A []byte: a 4-byte length, then that many bytes, which *ptr points to
 * inside the arguments (valid for the call). On failure *ptr is NULL and
 * *len 0.
 */
static inline bool fuzz_args_read_bytes(fuzz_args *a, const uint8_t **ptr,
                                        size_t *len) {
    uint32_t n;
    const uint8_t *p = NULL;
    if (fuzz_args_read_u32(a, &n))
        p = fuzz_args_take_(a, (size_t)n);
    *ptr = p;
    *len = p ? (size_t)n : 0;
    return p != NULL;
}

/* A string: encoded as a []byte; not NUL-terminated, any bytes. */
static inline bool fuzz_args_read_string(fuzz_args *a, const uint8_t **ptr,
                                         size_t *len) {
    return fuzz_args_read_bytes(a, ptr, len);
}

/* A custom value (custom(name) in the signature): encoded as a []byte. */
static inline bool fuzz_args_read_custom(fuzz_args *a, const uint8_t **ptr,
                                         size_t *len) {
    return fuzz_args_read_bytes(a, ptr, len);
}

/* True when the n bytes at p equal the NUL-terminated string s. */
static inline bool fuzz_bytes_eq(const uint8_t *p, size_t n, const char *s) {
    size_t sn = strlen(s);
    return n == sn && (n == 0 || memcmp(p, s, n) == 0);
}

#endif /* FUZZ_TARGET_H */
