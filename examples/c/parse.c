/*
 * Example: a C libFuzzer target, a small TLV parser with a planted bug.
 *
 * Input: the magic "TLV", then records of a type byte, a length byte and
 * that many value bytes, each handled through a table of handlers (an
 * indirect call). A 'K' record sets the current key; a 'V' record counts
 * its value under the current key's first byte. The planted bug: a 'V'
 * record before any 'K' record (or after an empty key) reads through the
 * NULL key: SIGSEGV. Trigger: "TLVV\x00". Built with -DFIXED, such records
 * are skipped.
 *
 * Every check is a single byte, so plain coverage finds the bug quickly.
 * The entry point calls functions (it is not a leaf), so a
 * -fsanitize=fuzzer-no-link build references __sancov_lowest_stack and
 * __sanitizer_cov_trace_pc_indir.
 */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct state {
    const uint8_t *key;
    size_t key_len;
    unsigned counts[16];
};

typedef void (*handler)(struct state *st, const uint8_t *value, size_t len);

static void on_key(struct state *st, const uint8_t *value, size_t len) {
    st->key = len ? value : NULL;
    st->key_len = len;
}

static void on_value(struct state *st, const uint8_t *value, size_t len) {
    (void)value;
#ifdef FIXED
    if (st->key == NULL)
        return;
#endif
    /* The bug: the key may still be NULL here. */
    st->counts[st->key[0] & 15] += (unsigned)len;
}

static void on_other(struct state *st, const uint8_t *value, size_t len) {
    (void)value;
    st->counts[len & 15]++;
}

static handler handlers[256];

static void init_handlers(void) {
    int i;
    for (i = 0; i < 256; i++)
        handlers[i] = on_other;
    handlers['K'] = on_key;
    handlers['V'] = on_value;
}

static volatile unsigned sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct state st = {NULL, 0, {0}};
    size_t i;

    if (size > 4096)
        return -1;
    if (size < 3 || data[0] != 'T')
        return 0;
    if (data[1] != 'L')
        return 0;
    if (data[2] != 'V')
        return 0;
    if (handlers[0] == NULL)
        init_handlers();

    i = 3;
    while (i + 2 <= size) {
        uint8_t type = data[i];
        size_t len = data[i + 1];
        if (len > size - i - 2)
            break; /* truncated record */
        handlers[type](&st, data + i + 2, len);
        i += 2 + len;
    }
    sink = st.counts[0] + (unsigned)st.key_len;
    return 0;
}
