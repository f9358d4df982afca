#ifndef C_HEAP_USAGE_H
#define C_HEAP_USAGE_H

#include <stddef.h>

/// The bytes the C heap hands out now, in use by the program (glibc's mallinfo2, the default
/// malloc zone on Apple platforms; 0 elsewhere). Unlike resident memory it grows by what a
/// value keeps even when the allocator reuses pages that earlier work freed. malloc.h is not
/// part of Swift's Glibc module.
size_t heap_usage_bytes_in_use(void);

#endif
