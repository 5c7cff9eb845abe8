/*
 * internal.h -- private declarations shared by the C shim (shim.c) and the
 * Go side of capi. Not installed; not part of the ABI.
 */
#ifndef TRANSPARSE_CAPI_INTERNAL_H
#define TRANSPARSE_CAPI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
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

/* The stream, and its model, whose read callback this thread is running (0:
 * none). The entry points (shim.c) refuse calls on them from inside the
 * callback: they would wait for the lock the callback's caller holds. */
extern __thread uintptr_t tp__reading_stream;
extern __thread uintptr_t tp__reading_model;

/* tp__reading_model_is reports whether this thread is inside the read
 * callback of a stream on model (a handle). */
static inline int tp__reading_model_is(uintptr_t model) {
    return tp__reading_model != 0 && model == tp__reading_model;
}

/* tp__call_read calls the read callback of stream (a handle) on model (Go
 * cannot call a C function pointer itself), marking this thread as inside
 * it; a callback that reads another stream restores the outer marks. */
static inline ptrdiff_t tp__call_read(tp_read_fn read, void *ctx, char *buf,
                                      size_t cap, uintptr_t stream,
                                      uintptr_t model) {
    uintptr_t outer_stream = tp__reading_stream;
    uintptr_t outer_model = tp__reading_model;
    tp__reading_stream = stream;
    tp__reading_model = model;
    ptrdiff_t n = read(ctx, buf, cap);
    tp__reading_stream = outer_stream;
    tp__reading_model = outer_model;
    return n;
}

#endif
