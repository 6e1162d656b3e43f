/*
 * CRC-32 (the ISO-HDLC one zip, gzip and PNG use), bit by bit, and the
 * checked records of the custom-mutator examples: bytes followed by their
 * CRC-32, 4 bytes little-endian.
 *
 * A record is checked the way decoders of such formats can check it: the
 * CRC-32 of the whole record must be the CRC residue 0x2144DF1C, which
 * holds exactly when the last four bytes are the CRC-32 of the rest. The
 * check compares a value computed over the whole input with a constant, so
 * mutations that copy comparison operands into the input (input-to-state)
 * do not help; a random change to a valid record passes it once in 2^32.
 */
#ifndef EXAMPLES_CRC32_H
#define EXAMPLES_CRC32_H

#include <stddef.h>
#include <stdint.h>

#define CRC32_RESIDUE 0x2144DF1Cu

static inline uint32_t crc32_of(const uint8_t *p, size_t n) {
    uint32_t crc = 0xFFFFFFFFu;
    size_t i;
    int bit;
    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (bit = 0; bit < 8; bit++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* True when d[0..n] is a record: at least the CRC, and the CRC right. */
static inline int record_valid(const uint8_t *d, size_t n) {
    return n >= 4 && crc32_of(d, n) == CRC32_RESIDUE;
}

/* Appends the CRC-32 of d[0..n] at d + n; the record is n + 4 bytes. */
static inline size_t record_seal(uint8_t *d, size_t n) {
    uint32_t crc = crc32_of(d, n);
    d[n] = (uint8_t)crc;
    d[n + 1] = (uint8_t)(crc >> 8);
    d[n + 2] = (uint8_t)(crc >> 16);
    d[n + 3] = (uint8_t)(crc >> 24);
    return n + 4;
}

#endif
