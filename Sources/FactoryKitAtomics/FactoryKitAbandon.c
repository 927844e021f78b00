#include "FactoryKitAbandon.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>

// `nodebug` throughout, as in FactoryKitAtomics.c, and `0` for null (`NULL` is a cast, whose type
// clang keeps): no DWARF 5 unit, which the benchmarks' valgrind cannot read.

/// The innermost `fk_run_abandonable` of this thread: where `fk_abandon_run` returns to, and where
/// the frames it discards end.
typedef struct {
    jmp_buf *target;
    void *base;
} fk_abandonable_run;

__attribute__((nodebug)) static _Thread_local fk_abandonable_run fk_current_run;

/// A copy of the frames an abandoned run discarded, kept for good. Those frames had retained
/// objects they will never release; the copy holds the pointers to them, so that they stay
/// reachable (for LeakSanitizer, among others) rather than merely lost.
typedef struct fk_kept_frames {
    struct fk_kept_frames *next;
    size_t words;
    uintptr_t frames[];
} fk_kept_frames;

__attribute__((nodebug)) static fk_kept_frames *fk_kept;
__attribute__((nodebug)) static pthread_mutex_t fk_kept_lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((nodebug)) bool fk_run_abandonable(void (*body)(void *), void *context) {
    jmp_buf target;
    volatile fk_abandonable_run outer = fk_current_run;
    if (setjmp(target) != 0) {
        fk_current_run = outer;
        return true;
    }
    fk_current_run.target = &target;
    fk_current_run.base = &target;
    body(context);
    fk_current_run = outer;
    return false;
}

__attribute__((nodebug)) bool fk_in_abandonable_run(void) { return fk_current_run.target != 0; }

/// Copies the stack between `low` and `high`, both word-aligned (each is a `jmp_buf`), word by
/// word: it holds other frames' locals and the sanitizers' red zones between them, which are
/// read, not used. (No casts in this file: clang keeps a cast's type as debug information.)
__attribute__((nodebug, noinline, no_sanitize("address", "thread", "memory"))) static void
fk_keep_frames(const void *low, const void *high) {
    const volatile uintptr_t *source = low;
    const volatile uintptr_t *end = high;
    if (end <= source) return;
    size_t words = end - source;
    fk_kept_frames *kept = malloc(sizeof(fk_kept_frames) + words * sizeof(uintptr_t));
    if (kept == 0) return;
    kept->words = words;
    for (size_t index = 0; index < words; index++) kept->frames[index] = source[index];
    pthread_mutex_lock(&fk_kept_lock);
    kept->next = fk_kept;
    fk_kept = kept;
    pthread_mutex_unlock(&fk_kept_lock);
}

__attribute__((nodebug, noinline, noreturn)) void fk_abandon_run(void) {
    if (fk_current_run.target == 0) abort();
    // Spills the callee-saved registers, which may hold the discarded frames' pointers, into this
    // frame, below the frames, so that the copy has them too.
    jmp_buf registers;
    if (setjmp(registers) == 0) fk_keep_frames(&registers, fk_current_run.base);
    longjmp(*fk_current_run.target, 1);
}

typedef struct {
    pthread_t thread;
    void (*body)(void *);
    void *context;
} fk_thread;

__attribute__((nodebug)) static void *fk_thread_main(void *argument) {
    fk_thread *thread = argument;
    thread->body(thread->context);
    return 0;
}

__attribute__((nodebug)) void *fk_thread_start(void (*body)(void *), void *context, size_t stack_size) {
    fk_thread *thread = malloc(sizeof(fk_thread));
    if (thread == 0) return 0;
    thread->body = body;
    thread->context = context;
    pthread_attr_t attributes;
    int status = pthread_attr_init(&attributes);
    if (status == 0) {
        pthread_attr_setstacksize(&attributes, stack_size);
        status = pthread_create(&thread->thread, &attributes, fk_thread_main, thread);
        pthread_attr_destroy(&attributes);
    }
    if (status != 0) {
        free(thread);
        return 0;
    }
    return thread;
}

__attribute__((nodebug)) void fk_thread_join(void *handle) {
    fk_thread *thread = handle;
    pthread_join(thread->thread, 0);
    free(thread);
}
