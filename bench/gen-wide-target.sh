#!/usr/bin/env bash
# Writes a C libFuzzer target with many edges to stdout: FUNCS functions of
# BRANCHES data-dependent branches each, all called for every input, so one
# execution touches a few hundred counters out of a table of 100k+ (the
# shape of a large real library: big coverage table, small per-input path).
# Usage: gen-wide-target.sh [FUNCS [BRANCHES]]
set -euo pipefail
funcs="${1:-4000}"
branches="${2:-25}"
echo '#include <stddef.h>'
echo '#include <stdint.h>'
echo 'static volatile unsigned sink;'
for ((f = 0; f < funcs; f++)); do
    echo "__attribute__((noinline)) void f$f(const uint8_t *d, size_t n) {"
    echo "  if (n <= $((f % 7))) return;"
    echo "  unsigned v = d[$((f % 7))];"
    for ((b = 0; b < branches; b++)); do
        echo "  if (v == $(((f * 31 + b * 7) % 251))u) { __asm__ volatile(\"\"); sink += $b; }"
    done
    echo "}"
done
echo 'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {'
echo "  switch (n ? d[0] % 64 : 0) {"
for ((f = 0; f < 64; f++)); do
    echo "  case $f:"
    for ((g = f; g < funcs; g += 64)); do
        if ((g < f + 64 * 4)); then echo "    f$g(d, n);"; fi
    done
    echo "    break;"
done
echo "  }"
echo "  return 0;"
echo "}"
