/*
 * internal.h -- private declarations shared by the C shim (shim.c) and the
 * Go side of capi. Not installed; not part of the ABI.
 */
#ifndef TRANSPARSE_CAPI_INTERNAL_H
#define TRANSPARSE_CAPI_INTERNAL_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "transparse.h"

/* The definition of the opaque error object. */
struct tp_error {
    int code;
    char *message; /* malloc'd, or static for the out-of-memory sentinel */
};

/* tp__alloc is malloc without cgo's abort-on-failure wrapper, so that the Go
 * side can turn an allocation failure into TP_ERR_NOMEM. */
static inline void *tp__alloc(size_t n) { return malloc(n == 0 ? 1 : n); }

/* tp__call_progress calls a caller's progress callback (Go cannot call a C
 * function pointer itself). */
static inline int tp__call_progress(tp_progress_fn fn, const tp_progress *p,
                                    void *user) {
    return fn(p, user);
}

/* tp__call_read calls a stream's read callback (Go cannot call a C function
 * pointer itself). */
static inline ptrdiff_t tp__call_read(tp_read_fn read, void *ctx, char *buf,
                                      size_t cap) {
    return read(ctx, buf, cap);
}

#endif
