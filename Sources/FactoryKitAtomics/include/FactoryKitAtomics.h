// The atomic operations FactoryKit needs, over one machine word, for every platform it supports:
// C11 atomics are available on every OS version, unlike `Synchronization.Atomic` on Apple
// platforms. Each function is `static inline`, so Swift code calling it compiles to the single
// instruction it names. Internal to FactoryKit; not a public API.
#ifndef FACTORYKIT_ATOMICS_H
#define FACTORYKIT_ATOMICS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/// One machine word, read and written only through the functions below.
typedef struct {
    _Atomic(uintptr_t) value;
} fk_word;

static inline uintptr_t fk_load_relaxed(fk_word *word) {
    return atomic_load_explicit(&word->value, memory_order_relaxed);
}
static inline uintptr_t fk_load_acquire(fk_word *word) {
    return atomic_load_explicit(&word->value, memory_order_acquire);
}
static inline void fk_store_relaxed(fk_word *word, uintptr_t value) {
    atomic_store_explicit(&word->value, value, memory_order_relaxed);
}
/// Stores `desired` if the word holds `*expected`; otherwise loads the word into `*expected`.
static inline bool fk_compare_exchange(fk_word *word, uintptr_t *expected, uintptr_t desired) {
    return atomic_compare_exchange_strong_explicit(
        &word->value, expected, desired, memory_order_seq_cst, memory_order_seq_cst);
}

/// Words per 64-byte cache line.
#define FK_LINE_WORDS (64 / sizeof(uintptr_t))

/// How many cache lines of process-wide words there are (see `fk_process_line`).
#define FK_PROCESS_LINES 1

/// The process-wide words, all zero at start, statically allocated so reading one needs neither
/// a lazy-initialization check nor a pointer load. Only through `fk_process_line`.
extern fk_word fk_process_words[FK_PROCESS_LINES * (64 / sizeof(uintptr_t))];

/// The first word of cache line `line` of the process-wide words; FactoryKit's
/// `ProcessWords` names what each line holds.
static inline fk_word *fk_process_line(intptr_t line) {
    return &fk_process_words[line * (intptr_t)FK_LINE_WORDS];
}

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <unistd.h>

/// A lock for Linux, on a futex: 0 free, 1 held, 2 held with threads waiting. Taking it free and
/// giving it up with no one waiting are one atomic instruction each, inlined into the caller;
/// a thread that finds it held sleeps in the kernel (never spins) until the holder wakes one
/// waiter. Not recursive, not fair, no priority inheritance: FactoryKit holds it for a few
/// hundred instructions and never around user code. Its owner, `fk_thread_id()`, is kept for
/// the recursion check only.
typedef struct {
    _Atomic(uint32_t) state;
    _Atomic(uintptr_t) owner;
} fk_lock;

/// Takes `lock`, sleeping while another thread holds it: the contended half of
/// `fk_lock_acquire`. It marks the lock contended, so whoever gives it up next wakes one sleeper,
/// which takes it marked contended again (it cannot tell whether others still sleep).
static __attribute__((noinline)) void fk_lock_wait(fk_lock *lock) {
    while (atomic_exchange_explicit(&lock->state, 2, memory_order_acquire) != 0) {
        syscall(SYS_futex, &lock->state, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
    }
}
/// Wakes one thread sleeping on `lock`: the contended half of `fk_lock_release`.
static __attribute__((noinline)) void fk_lock_wake(fk_lock *lock) {
    syscall(SYS_futex, &lock->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static inline void fk_lock_acquire(fk_lock *lock) {
    uint32_t expected = 0;
    if (!atomic_compare_exchange_strong_explicit(
            &lock->state, &expected, 1, memory_order_acquire, memory_order_relaxed)) {
        fk_lock_wait(lock);
    }
}
static inline void fk_lock_release(fk_lock *lock) {
    if (atomic_exchange_explicit(&lock->state, 0, memory_order_release) == 2) {
        fk_lock_wake(lock);
    }
}
/// A word that names the calling thread among the living ones, never zero: the thread pointer
/// (one instruction) on the two architectures whose compilers have read it for years, or
/// `pthread_self()` (a call into the C library).
static inline uintptr_t fk_thread_id(void) {
#if (defined(__x86_64__) || defined(__aarch64__)) && __has_builtin(__builtin_thread_pointer)
    return (uintptr_t)__builtin_thread_pointer();
#else
    return (uintptr_t)pthread_self();
#endif
}
/// The thread holding `lock`, `fk_thread_id()`, for the recursion check; 0 when none does.
static inline uintptr_t fk_lock_owner(fk_lock *lock) {
    return atomic_load_explicit(&lock->owner, memory_order_relaxed);
}
static inline void fk_lock_set_owner(fk_lock *lock, uintptr_t owner) {
    atomic_store_explicit(&lock->owner, owner, memory_order_relaxed);
}
#endif

#endif
