// Fields in the right order: the planted bug needs a list whose first
// four fields are "alpha", "bravo", "charlie" and "delta", in that order
// and separated by '|', as a regular expression's alternation of literals
// takes another searcher once it holds enough of them. The start seed
// holds the four in the opposite order ("delta|charlie|bravo|alpha"); each
// word is coverage of its own wherever it stands (as a parser covers each
// kind of item it reads), so the seed stays in the corpus as it is. Each
// field more in place is new coverage too, so the way is a ladder of three
// rungs; what makes each rung hard for byte mutations is that they must
// copy a whole field, 5 to 7 bytes, exactly to the start of another: no
// field turns into another by a few changed bytes, and which word a field
// is is decided outside the instrumented code, so a part of one is no
// coverage. fuzz-run moves whole fields (-fields). Built with gcc's
// trace-pc alone, so no comparison operand helps.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__clang__)
#define NO_COVERAGE __attribute__((no_sanitize("coverage"), noinline))
#else
#define NO_COVERAGE __attribute__((no_sanitize_coverage, noinline))
#endif

static const char *const WORDS[] = {"alpha", "bravo", "charlie", "delta"};

// Which of WORDS d[0..n) is (0 to 3), or -1.
NO_COVERAGE static int word(const uint8_t *d, size_t n) {
    for (int w = 0; w < 4; w++) {
        const char *s = WORDS[w];
        size_t i = 0;
        while (i < n && s[i] && d[i] == (uint8_t)s[i])
            i++;
        if (i == n && !s[i])
            return w;
    }
    return -1;
}

// Stores of their own, so that each case keeps a branch of its own (a sum
// would fold them into one).
static volatile int seen_alpha, seen_bravo, seen_charlie, seen_delta;
static volatile int one, two, three;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    int in_place = 0, still = 1;
    size_t i = 0;
    for (int k = 0; i <= size; k++) {
        size_t end = i;
        while (end < size && data[end] != '|')
            end++;
        int w = word(data + i, end - i);
        switch (w) {
        case 0:
            seen_alpha = 1;
            break;
        case 1:
            seen_bravo = 1;
            break;
        case 2:
            seen_charlie = 1;
            break;
        case 3:
            seen_delta = 1;
            break;
        default:
            break;
        }
        if (still && w == k)
            in_place++;
        else
            still = 0;
        i = end + 1;
    }
    switch (in_place) {
    case 0:
        break;
    case 1:
        one = 1;
        break;
    case 2:
        two = 1;
        break;
    case 3:
        three = 1;
        break;
    default:
        abort();
    }
    return 0;
}
