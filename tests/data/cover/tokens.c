/*
 * A small tokenizer and evaluator, the kind of C parser a user points
 * `fuzz-corpus cover` at: numbers (signed, decimal and hex, with an
 * overflow check), strings with escapes, words checked byte by byte,
 * a switch on the next character, loops, inlined helpers and choices a
 * compiler may turn into conditional moves. tests/e2e/cover_llvm.rs
 * holds the line marks of `fuzz-corpus cover` over a corpus to
 * llvm-cov's line counts for the same corpus, at -O0, -O1 and -O2.
 */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct lexer {
    const uint8_t *p;
    size_t n;
    size_t at;
    long sum;
    int errors;
    int depth;
    char text[32];
};

static inline int peek(const struct lexer *lx) {
    return lx->at < lx->n ? lx->p[lx->at] : -1;
}

static inline int is_digit(int c) {
    return c >= '0' && c <= '9';
}

static int hex_value(int c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void skip_space(struct lexer *lx) {
    while (lx->at < lx->n) {
        int c = lx->p[lx->at];
        if (c != ' ' && c != '\t' && c != '\n')
            break;
        lx->at++;
    }
}

static long number(struct lexer *lx) {
    int negative = 0;
    long v = 0;
    if (peek(lx) == '-') {
        negative = 1;
        lx->at++;
    }
    if (peek(lx) == '0' && lx->at + 1 < lx->n && lx->p[lx->at + 1] == 'x') {
        lx->at += 2;
        int digits = 0;
        while (lx->at < lx->n) {
            int h = hex_value(lx->p[lx->at]);
            if (h < 0)
                break;
            if (v > 0x7ffffffL) {
                lx->errors++;
                return 0;
            }
            v = v * 16 + h;
            lx->at++;
            digits++;
        }
        if (digits == 0)
            lx->errors++;
    } else {
        while (is_digit(peek(lx))) {
            v = v * 10 + (peek(lx) - '0');
            lx->at++;
        }
    }
    return negative ? -v : v;
}

static int escape(int c) {
    switch (c) {
    case 'n':
        return '\n';
    case 't':
        return '\t';
    case '\\':
        return '\\';
    case '"':
        return '"';
    default:
        return -1;
    }
}

static int string(struct lexer *lx) {
    size_t len = 0;
    lx->at++;
    while (lx->at < lx->n && lx->p[lx->at] != '"') {
        int c = lx->p[lx->at++];
        if (c == '\\') {
            if (lx->at >= lx->n) {
                lx->errors++;
                return -1;
            }
            c = escape(lx->p[lx->at++]);
            if (c < 0) {
                lx->errors++;
                c = '?';
            }
        }
        if (len + 1 < sizeof lx->text)
            lx->text[len++] = (char)c;
    }
    lx->text[len] = 0;
    if (lx->at >= lx->n) {
        lx->errors++;
        return -1;
    }
    lx->at++;
    return (int)len;
}

static int word(struct lexer *lx) {
    const uint8_t *d = lx->p + lx->at;
    size_t n = lx->n - lx->at;
    if (n > 0 && d[0] == 'q') {
        if (n > 1 && d[1] == 'u') {
            if (n > 2 && d[2] == 'i') {
                if (n > 3 && d[3] == 't') {
                    lx->at += 4;
                    return 2;
                }
            }
        }
    }
    if (n >= 4 && d[0] == 't' && d[1] == 'r' && d[2] == 'u' && d[3] == 'e') {
        lx->at += 4;
        lx->sum += 1;
        return 1;
    }
    if (n >= 5 && d[0] == 'f' && d[1] == 'a' && d[2] == 'l' && d[3] == 's' && d[4] == 'e') {
        lx->at += 5;
        return 1;
    }
    lx->at++;
    lx->errors++;
    return 0;
}

static int clamp(int v, int lo, int hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

static int token(struct lexer *lx) {
    skip_space(lx);
    int c = peek(lx);
    switch (c) {
    case -1:
        return 0;
    case '(':
        lx->depth++;
        lx->at++;
        return 1;
    case ')':
        if (lx->depth == 0)
            lx->errors++;
        else
            lx->depth--;
        lx->at++;
        return 1;
    case '"':
        return string(lx) >= 0;
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
        lx->sum += number(lx);
        return 1;
    case '#':
        while (lx->at < lx->n && lx->p[lx->at] != '\n')
            lx->at++;
        return 1;
    default:
        if (word(lx) == 2)
            return 0;
        return 1;
    }
}

/* Inlined (at -O1 and above) into a function the corpus reaches and into
 * one it never does: its line is covered; the copy nothing reached is
 * that caller's gap, shown on the caller's own lines. */
static inline int weight(int errors) {
    return errors * 2 + 1;
}

int tokens_never_called(int errors) {
    return weight(errors) - 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct lexer lx = {data, size, 0, 0, 0, 0, {0}};
    int tokens = 0;
    while (token(&lx)) {
        tokens++;
        if (tokens > 1000)
            break;
    }
    int level = clamp(weight(lx.errors), 0, 7);
    if (lx.depth != 0)
        level++;
    return level * lx.sum == 12345 ? -1 : 0;
}
