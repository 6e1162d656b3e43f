/*
 * Example: a C libFuzzer target with a heap-buffer-overflow that only a
 * sanitizer sees, for ASan builds (clang-19 -fsanitize=address
 * -shared-libasan: the worker must load the ASan runtime first).
 *
 * Input: "HB" and a mode byte. Mode 'O' copies the rest of the input into
 * a heap buffer of exactly its length and then NUL-terminates it: a
 * one-byte write past the end. Trigger: "HBO" (any suffix). Built with
 * -DFIXED, the buffer has room for the terminator.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t total;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096)
        return -1;
    if (size < 3 || data[0] != 'H')
        return 0;
    if (data[1] != 'B')
        return 0;
    if (data[2] == 'O') {
        size_t n = size - 3;
#ifdef FIXED
        char *s = malloc(n + 1);
#else
        char *s = malloc(n); /* the bug: no room for the terminator */
#endif
        if (s == NULL)
            return 0;
        memcpy(s, data + 3, n);
        s[n] = '\0';
        total += strlen(s);
        free(s);
    }
    return 0;
}
