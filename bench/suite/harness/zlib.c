/* bench/suite: zlib target. Inflate the input (a zlib stream) into a fixed
   64 KiB buffer, reused until the stream ends or inflate stops making
   progress. Our own harness, the same job as bench/vs-libfuzzer.sh's. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "zlib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char out[64 * 1024];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit(&s) != Z_OK) return 0;
    s.next_in = (Bytef *)data;
    s.avail_in = (uInt)size;
    int ret;
    do {
        s.next_out = out;
        s.avail_out = sizeof out;
        ret = inflate(&s, Z_NO_FLUSH);
    } while (ret == Z_OK);
    inflateEnd(&s);
    return 0;
}
