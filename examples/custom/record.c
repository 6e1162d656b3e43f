/*
 * Example: a libFuzzer target whose input is a checksummed record, and the
 * custom mutator that makes such records (see crc32.h for the format).
 *
 * Byte-level mutation of a valid record almost never gives another valid
 * one, so without help the fuzzer never gets past the checksum: the
 * payload's own branches stay unexplored. LLVMFuzzerCustomMutator below
 * decodes the record (an invalid one counts as an empty payload), mutates
 * the payload with the fuzzer's default mutator, LLVMFuzzerMutate, and
 * seals it with the right CRC, so every input it makes reaches the payload.
 * It draws no randomness of its own: the worker seeds LLVMFuzzerMutate
 * from `seed` before each call, so a seeded run is reproducible.
 *
 * Planted bug: abort() when the payload starts with "CRC!", checked with one
 * memcmp (built with -fno-builtin-memcmp, so it stays a call the worker
 * interposes): comparison feedback hands LLVMFuzzerMutate the four bytes,
 * but only an input that passes the checksum gets to the comparison.
 * Trigger: known-inputs/custom_record ("CRC!" and its CRC).
 * Built with -DFIXED: no abort. With -DNO_CUSTOM_MUTATOR: the same target
 * without its mutator (libcustom_record_nomutator.so), whose bug the
 * default mutators, comparison feedback included, do not reach.
 * With -DFIXED -DMUTATOR_BUG=1 (libcustom_record_mutator_crash.so) the
 * mutator itself crashes, and with -DMUTATOR_BUG=2
 * (libcustom_record_mutator_hang.so) it never returns, on the calls whose
 * seed is a multiple of 64: fuzz-run must blame the mutator call, with its
 * seed and the input it was mutating, not the input executed before.
 */
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "fuzz_target.h"

static volatile int reached;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!record_valid(data, size))
        return 0;
    size -= 4;
    reached = 1;
    if (size >= 4 && memcmp(data, "CRC!", 4) == 0) {
        reached = 2;
#ifndef FIXED
        abort();
#endif
    }
    return 0;
}

#ifndef NO_CUSTOM_MUTATOR
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed) {
    size_t payload = record_valid(data, size) ? size - 4 : 0;
    (void)seed; /* LLVMFuzzerMutate is seeded from it */
#ifdef MUTATOR_BUG
    if (seed % 64 == 0) {
#if MUTATOR_BUG == 1
        *(volatile int *)0 = 0;
#else
        for (volatile unsigned spin = 0;; spin++) {
        }
#endif
    }
#endif
    if (max_size < 4)
        return 0;
    payload = LLVMFuzzerMutate(data, payload, max_size - 4);
    return record_seal(data, payload);
}
#endif
