#include "FactoryKitAtomics.h"

_Alignas(64) fk_word fk_process_words[FK_PROCESS_LINES * (64 / sizeof(uintptr_t))];
