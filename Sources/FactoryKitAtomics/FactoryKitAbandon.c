#include "FactoryKitAbandon.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>

// `nodebug` throughout, as in FactoryKitAtomics.c: no DWARF 5 unit for the benchmarks' valgrind.

/// Where `fk_abandon_run` returns to on this thread: the innermost `fk_run_abandonable`.
static _Thread_local jmp_buf *fk_abandon_target;

__attribute__((nodebug)) bool fk_run_abandonable(void (*body)(void *), void *context) {
    jmp_buf target;
    jmp_buf *volatile outer = fk_abandon_target;
    if (setjmp(target) != 0) {
        fk_abandon_target = outer;
        return true;
    }
    fk_abandon_target = &target;
    body(context);
    fk_abandon_target = outer;
    return false;
}

__attribute__((nodebug)) bool fk_in_abandonable_run(void) { return fk_abandon_target != NULL; }

__attribute__((nodebug, noreturn)) void fk_abandon_run(void) {
    if (fk_abandon_target == NULL) abort();
    longjmp(*fk_abandon_target, 1);
}

typedef struct {
    pthread_t thread;
    void (*body)(void *);
    void *context;
} fk_thread;

__attribute__((nodebug)) static void *fk_thread_main(void *argument) {
    fk_thread *thread = argument;
    thread->body(thread->context);
    return NULL;
}

__attribute__((nodebug)) void *fk_thread_start(void (*body)(void *), void *context, size_t stack_size) {
    fk_thread *thread = malloc(sizeof(fk_thread));
    if (thread == NULL) return NULL;
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
        return NULL;
    }
    return thread;
}

__attribute__((nodebug)) void fk_thread_join(void *handle) {
    fk_thread *thread = handle;
    pthread_join(thread->thread, NULL);
    free(thread);
}
