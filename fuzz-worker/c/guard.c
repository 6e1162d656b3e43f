/*
 * A call of the target that a crash can return from: once -keepfuzzing has
 * recorded a crash, an execution that crashes at a site already recorded
 * is not worth a new worker (a shallow bug hit every hundred executions
 * would otherwise cost a process start each time). The crash handler
 * (fuzz-worker/src/crash.rs) jumps back here instead of ending the process.
 *
 * sigsetjmp without saving the signal mask, so that a guarded call costs
 * no system call; the handler unblocks what it must itself.
 */
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

typedef int (*fuzz_target_fn)(const uint8_t *, size_t);

static sigjmp_buf *guard_env;

/* Calls f(data, size); returns its result, or, when the crash handler
 * escapes from it, sets *crashed and returns 0. */
int fuzz_worker_guarded_call(fuzz_target_fn f, const uint8_t *data, size_t size,
                             int *crashed) {
    sigjmp_buf env;
    volatile int ret = 0;
    if (sigsetjmp(env, 0) != 0) {
        guard_env = NULL;
        *crashed = 1;
        return 0;
    }
    guard_env = &env;
    ret = f(data, size);
    guard_env = NULL;
    return ret;
}

/* True while a guarded call runs: the crash handler may escape. */
int fuzz_worker_guard_active(void) { return guard_env != NULL; }

/* Leaves the crash handler back into the guarded call. */
void fuzz_worker_guard_escape(void) {
    if (guard_env != NULL)
        siglongjmp(*guard_env, 1);
}
