// The atomic operations FactoryKit needs, over one machine word, for every platform it supports:
// C11 atomics are available on every OS version, unlike `Synchronization.Atomic` on Apple
// platforms. Each function is `static inline`, so Swift code calling it compiles to the single
// instruction it names. Internal to FactoryKit; not a public API. The module also holds the thread
// and the abandonable run `validate` resolves synchronous factories in (FactoryKitAbandon.h).
#ifndef FACTORYKIT_ATOMICS_H
#define FACTORYKIT_ATOMICS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "FactoryKitAbandon.h"

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
static inline void fk_store_release(fk_word *word, uintptr_t value) {
    atomic_store_explicit(&word->value, value, memory_order_release);
}
/// Stores `desired` if the word holds `*expected`; otherwise loads the word into `*expected`.
static inline bool fk_compare_exchange(fk_word *word, uintptr_t *expected, uintptr_t desired) {
    return atomic_compare_exchange_strong_explicit(
        &word->value, expected, desired, memory_order_seq_cst, memory_order_seq_cst);
}
static inline uintptr_t fk_fetch_add_relaxed(fk_word *word, uintptr_t delta) {
    return atomic_fetch_add_explicit(&word->value, delta, memory_order_relaxed);
}

/// Words per 64-byte cache line.
#define FK_LINE_WORDS (64 / sizeof(uintptr_t))

/// How many cache lines of process-wide words there are (see `fk_process_line`).
#define FK_PROCESS_LINES 3

/// The process-wide words, all zero at start, statically allocated so reading one needs neither
/// a lazy-initialization check nor a pointer load. Only through `fk_process_line`.
extern fk_word fk_process_words[FK_PROCESS_LINES * (64 / sizeof(uintptr_t))];

/// The first word of cache line `line` of the process-wide words; FactoryKit's
/// `ProcessWords` names what each line holds.
static inline fk_word *fk_process_line(intptr_t line) {
    return &fk_process_words[line * (intptr_t)FK_LINE_WORDS];
}

#endif
