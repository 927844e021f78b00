// A thread of its own for one synchronous resolution of `validate`, and a way to abandon that
// resolution from deep inside it: a synchronous factory returns a value or nothing at all, so a
// dependency cycle in it cannot be unwound with an error. Internal to FactoryKit; not a public API.
#ifndef FACTORYKIT_ABANDON_H
#define FACTORYKIT_ABANDON_H

#include <stdbool.h>
#include <stddef.h>

/// Runs `body(context)` and returns false, or returns true as soon as `fk_abandon_run` is called
/// on this thread inside it. The frames `body` had entered are discarded without running any
/// cleanup: what they retained stays retained (a copy of them is kept, so it stays reachable),
/// and what they locked stays locked.
bool fk_run_abandonable(void (*body)(void *), void *context);

/// Whether a `fk_run_abandonable` is in progress on the calling thread.
bool fk_in_abandonable_run(void);

/// Returns from the innermost `fk_run_abandonable` of the calling thread, which must have one.
__attribute__((noreturn)) void fk_abandon_run(void);

/// Starts a thread with `stack_size` bytes of stack that runs `body(context)`; returns a handle
/// for `fk_thread_join`, or NULL if no thread could be started.
void *fk_thread_start(void (*body)(void *), void *context, size_t stack_size);

/// Waits until the thread `fk_thread_start` returned has ended, and frees its handle.
void fk_thread_join(void *handle);

#endif
