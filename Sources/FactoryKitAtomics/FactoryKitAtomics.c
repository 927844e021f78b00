#include "FactoryKitAtomics.h"

// `nodebug`: with nothing else in this file, clang then writes no DWARF 5 unit, which the
// valgrind the benchmarks use (3.19) cannot read.
__attribute__((nodebug)) _Alignas(64) fk_word fk_process_words[FK_PROCESS_LINES * (64 / sizeof(uintptr_t))];
