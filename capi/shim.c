/*
 * shim.c -- the exported tp_* symbols of libtransparse.
 *
 * Each function here is a thin C entry point. It exists for two reasons:
 *
 *  1. fork: a Go runtime does not survive fork(). In a forked child, entering
 *     Go at all can deadlock (the runtime's other threads are gone, locks they
 *     held stay held). So the pid check happens here, in C, before any Go code
 *     runs, and such calls fail with TP_ERR_FORK.
 *  2. the public types: these definitions are compiled against
 *     include/transparse.h, so the compiler checks that the implementation
 *     matches the published prototypes exactly (the Go exports, tpgo_*, use
 *     integer handles and are not part of the ABI; cgo's _cgo_export.h
 *     declares them, so each call below is checked against its //export).
 *
 * The Go side (capi.go) returns a status code and a malloc'd message; this
 * file turns the message into a tp_error for the caller.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "transparse.h"
#include "internal.h"
#include "_cgo_export.h"

/* The process that loaded the library (and started its Go runtime). */
static pid_t tp__runtime_pid;

__attribute__((constructor)) static void tp__init(void) {
    tp__runtime_pid = getpid();
}

/* Given out when even an error object cannot be allocated. Never freed. */
static struct tp_error tp__nomem_error = {TP_ERR_NOMEM,
                                          (char *)"out of memory"};

static int tp__forked(void) { return getpid() != tp__runtime_pid; }

/* tp__finish hands a status code and a malloc'd message (may be NULL) from
 * the Go side to the caller. It consumes msg. */
static int tp__finish(int rc, char *msg, tp_error **err) {
    if (rc == TP_OK || err == NULL) {
        free(msg);
        if (err != NULL)
            *err = NULL;
        return rc;
    }
    if (msg == NULL) {
        /* The Go side could not allocate the message. */
        msg = strdup(tp_status_name(rc));
        if (msg == NULL) {
            *err = &tp__nomem_error;
            return rc;
        }
    }
    tp_error *e = malloc(sizeof *e);
    if (e == NULL) {
        free(msg);
        *err = &tp__nomem_error;
        return rc;
    }
    e->code = rc;
    e->message = msg;
    *err = e;
    return rc;
}

static int tp__fork_error(const char *fn, tp_error **err) {
    char buf[512];
    snprintf(buf, sizeof buf,
             "%s: called in a child process created by fork() (pid %ld; the "
             "library was loaded in pid %ld); the Go runtime does not survive "
             "fork: exec a new program, or load the library after forking "
             "(Python multiprocessing: use the \"spawn\" or \"forkserver\" "
             "start method)",
             fn, (long)getpid(), (long)tp__runtime_pid);
    return tp__finish(TP_ERR_FORK, strdup(buf), err);
}

/* ---- version, status, errors, frees: pure C, safe after fork ---------- */

const char *tp_version(void) { return TP_VERSION_STRING; }

unsigned tp_version_number(void) { return TP_VERSION_NUMBER; }

const char *tp_status_name(int code) {
    switch (code) {
    case TP_OK: return "TP_OK";
    case TP_ERR_ARGUMENT: return "TP_ERR_ARGUMENT";
    case TP_ERR_INPUT: return "TP_ERR_INPUT";
    case TP_ERR_IO: return "TP_ERR_IO";
    case TP_ERR_MODEL_FORMAT: return "TP_ERR_MODEL_FORMAT";
    case TP_ERR_MODEL_VERSION: return "TP_ERR_MODEL_VERSION";
    case TP_ERR_FORK: return "TP_ERR_FORK";
    case TP_ERR_NOMEM: return "TP_ERR_NOMEM";
    case TP_ERR_INTERNAL: return "TP_ERR_INTERNAL";
    case TP_ERR_CANCELED: return "TP_ERR_CANCELED";
    }
    return "TP_ERR_UNKNOWN";
}

int tp_error_code(const tp_error *err) { return err ? err->code : TP_OK; }

const char *tp_error_message(const tp_error *err) {
    return (err && err->message) ? err->message : "";
}

void tp_error_free(tp_error *err) {
    if (err == NULL || err == &tp__nomem_error)
        return;
    free(err->message);
    free(err);
}

void tp_string_free(char *s) { free(s); }

/* A tp_result is one malloc'd block (see buildResult in capi.go). */
void tp_result_free(tp_result *result) { free(result); }

/* ---- calls into Go ----------------------------------------------------
 *
 * Each entry point clears its out parameters, returns TP_ERR_FORK in a
 * forked child (TP__FORK_CHECK), calls its tpgo_* function and hands the
 * outcome to the caller (tp__finish). */

/* TP__FORK_CHECK_AS(fn, err): in a child created by fork(), return
 * TP_ERR_FORK from the entry point fn, with an error object naming it in
 * *err (err may be NULL: the code only). TP__FORK_CHECK(err) names the
 * function it is used in. */
#define TP__FORK_CHECK_AS(fn, err)                                           \
    do {                                                                     \
        if (tp__forked())                                                    \
            return tp__fork_error((fn), (err));                              \
    } while (0)
#define TP__FORK_CHECK(err) TP__FORK_CHECK_AS(__func__, err)

__thread uintptr_t tp__reading_stream;
__thread uintptr_t tp__reading_model;

static int tp__in_read_error(const char *fn, tp_error **err) {
    char buf[512];
    snprintf(buf, sizeof buf,
             "%s: called from inside the read callback (tp_read_fn) of a "
             "stream on this model or stream; no tp_ call may use the "
             "stream being read or its model until the callback returns",
             fn);
    return tp__finish(TP_ERR_ARGUMENT, strdup(buf), err);
}

/* TP__READ_CHECK_AS(fn, model, stream, err): inside the read callback of a
 * stream (tp__call_read), return TP_ERR_ARGUMENT from the entry point fn if
 * it would use that stream or its model (a handle, or 0). Such a call would
 * otherwise wait forever for the lock the reading tp_stream_next holds. */
#define TP__READ_CHECK_AS(fn, model, stream, err)                            \
    do {                                                                     \
        if ((tp__reading_model != 0 &&                                       \
             (uintptr_t)(model) == tp__reading_model) ||                     \
            (tp__reading_stream != 0 &&                                      \
             (uintptr_t)(stream) == tp__reading_stream))                     \
            return tp__in_read_error((fn), (err));                           \
    } while (0)
#define TP__READ_CHECK(model, stream, err)                                   \
    TP__READ_CHECK_AS(__func__, model, stream, err)

/* tp__model_out finishes a call that made a model handle h. */
static int tp__model_out(int rc, uintptr_t h, tp_model **model, char *msg,
                         tp_error **err) {
    if (rc == TP_OK)
        *model = (tp_model *)h;
    return tp__finish(rc, msg, err);
}

int tp_model_load(const char *path, tp_model **model, tp_error **err) {
    if (model != NULL)
        *model = NULL;
    TP__FORK_CHECK(err);
    uintptr_t h = 0;
    char *msg = NULL;
    int rc = tpgo_model_load((char *)path, model ? &h : NULL, &msg);
    return tp__model_out(rc, h, model, msg, err);
}

int tp_model_load_from_memory(const void *data, size_t size, tp_model **model,
                              tp_error **err) {
    if (model != NULL)
        *model = NULL;
    TP__FORK_CHECK(err);
    uintptr_t h = 0;
    char *msg = NULL;
    int rc = tpgo_model_load_from_memory((void *)data, size, model ? &h : NULL,
                                         &msg);
    return tp__model_out(rc, h, model, msg, err);
}

int tp_model_free(tp_model *model) {
    if (model == NULL)
        return TP_OK;
    TP__FORK_CHECK(NULL);
    TP__READ_CHECK(model, 0, NULL);
    char *msg = NULL;
    return tp__finish(tpgo_model_free((uintptr_t)model, &msg), msg, NULL);
}

int tp_model_card_json(const tp_model *model, char **json, tp_error **err) {
    if (json != NULL)
        *json = NULL;
    TP__FORK_CHECK(err);
    TP__READ_CHECK(model, 0, err);
    char *msg = NULL;
    int rc = tpgo_model_card_json((uintptr_t)model, json, &msg);
    return tp__finish(rc, msg, err);
}

int tp_model_default_beam(const tp_model *model, int *width,
                          tp_error **err) {
    if (width != NULL)
        *width = 0;
    TP__FORK_CHECK(err);
    TP__READ_CHECK(model, 0, err);
    char *msg = NULL;
    int rc = tpgo_model_default_beam((uintptr_t)model, width, &msg);
    return tp__finish(rc, msg, err);
}

/* model_strings is tp_model_deprels (which 0), tp_model_upos_tags (1) and
 * tp_model_xpos_tags (2). */
static int model_strings(int which, const tp_model *model,
                         const char *const **out, size_t *n, tp_error **err) {
    static const char *const names[] = {"tp_model_deprels", "tp_model_upos_tags",
                                        "tp_model_xpos_tags"};
    if (out != NULL)
        *out = NULL;
    if (n != NULL)
        *n = 0;
    TP__FORK_CHECK_AS(names[which], err);
    TP__READ_CHECK_AS(names[which], model, 0, err);
    char *msg = NULL;
    int rc = tpgo_model_strings((uintptr_t)model, which, (char ***)out, n, &msg);
    return tp__finish(rc, msg, err);
}

int tp_model_deprels(const tp_model *model, const char *const **labels,
                     size_t *n, tp_error **err) {
    return model_strings(0, model, labels, n, err);
}

int tp_model_upos_tags(const tp_model *model, const char *const **tags,
                       size_t *n, tp_error **err) {
    return model_strings(1, model, tags, n, err);
}

int tp_model_xpos_tags(const tp_model *model, const char *const **tags,
                       size_t *n, tp_error **err) {
    return model_strings(2, model, tags, n, err);
}

int tp_parse(const tp_model *model, const char *const *forms, size_t n_words,
             const tp_tags *tags, const tp_options *options,
             tp_result **result, tp_error **err) {
    if (result != NULL)
        *result = NULL;
    TP__FORK_CHECK(err);
    TP__READ_CHECK(model, 0, err);
    char *msg = NULL;
    int rc = tpgo_parse((uintptr_t)model, (char **)forms, n_words,
                        (tp_tags *)tags, (tp_options *)options, result, &msg);
    return tp__finish(rc, msg, err);
}

int tp_parse_batch(const tp_model *model, const char *const *forms,
                   const size_t *offsets, size_t n_sentences,
                   const tp_tags *tags, const tp_options *options,
                   tp_result **result, tp_error **err) {
    if (result != NULL)
        *result = NULL;
    TP__FORK_CHECK(err);
    TP__READ_CHECK(model, 0, err);
    char *msg = NULL;
    int rc = tpgo_parse_batch((uintptr_t)model, (char **)forms,
                              (size_t *)offsets, n_sentences, (tp_tags *)tags,
                              (tp_options *)options, result, &msg);
    return tp__finish(rc, msg, err);
}

int tp_parse_document(const tp_model *model, const char *text, size_t len,
                      const tp_options *options, char **out_text,
                      size_t *out_len, size_t *n_skipped, tp_error **err) {
    if (out_text != NULL)
        *out_text = NULL;
    if (out_len != NULL)
        *out_len = 0;
    if (n_skipped != NULL)
        *n_skipped = 0;
    TP__FORK_CHECK(err);
    TP__READ_CHECK(model, 0, err);
    char *msg = NULL;
    int rc = tpgo_parse_document((uintptr_t)model, (char *)text, len,
                                 (tp_options *)options, out_text, out_len,
                                 n_skipped, &msg);
    return tp__finish(rc, msg, err);
}

int tp_stream_open(const tp_model *model, tp_read_fn read, void *ctx,
                   const tp_options *options, tp_stream **stream,
                   tp_error **err) {
    if (stream != NULL)
        *stream = NULL;
    TP__FORK_CHECK(err);
    TP__READ_CHECK(model, 0, err);
    uintptr_t h = 0;
    char *msg = NULL;
    int rc = tpgo_stream_open((uintptr_t)model, read, ctx,
                              (tp_options *)options, stream ? &h : NULL, &msg);
    if (rc == TP_OK)
        *stream = (tp_stream *)h;
    return tp__finish(rc, msg, err);
}

int tp_stream_next(tp_stream *stream, const char **sentence, size_t *len,
                   tp_error **err) {
    if (sentence != NULL)
        *sentence = NULL;
    if (len != NULL)
        *len = 0;
    TP__FORK_CHECK(err);
    TP__READ_CHECK(0, stream, err);
    char *msg = NULL;
    int rc = tpgo_stream_next((uintptr_t)stream, (char **)sentence, len, &msg);
    if (rc != TP_OK && sentence != NULL)
        *sentence = NULL;
    return tp__finish(rc, msg, err);
}

int tp_stream_stats(const tp_stream *stream, size_t *sentences,
                    size_t *skipped, tp_error **err) {
    TP__FORK_CHECK(err);
    TP__READ_CHECK(0, stream, err);
    char *msg = NULL;
    int rc = tpgo_stream_stats((uintptr_t)stream, sentences, skipped, &msg);
    return tp__finish(rc, msg, err);
}

int tp_stream_free(tp_stream *stream) {
    if (stream == NULL)
        return TP_OK;
    TP__FORK_CHECK(NULL);
    TP__READ_CHECK(0, stream, NULL);
    char *msg = NULL;
    return tp__finish(tpgo_stream_free((uintptr_t)stream, &msg), msg, NULL);
}

/* ---- systems, training, saving ---------------------------------------- */

int tp_systems(char **names, tp_error **err) {
    if (names != NULL)
        *names = NULL;
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_systems(names, &msg);
    return tp__finish(rc, msg, err);
}

int tp_train(const char *options, tp_model **model, tp_error **err) {
    if (model != NULL)
        *model = NULL;
    TP__FORK_CHECK(err);
    uintptr_t h = 0;
    char *msg = NULL;
    int rc = tpgo_train((char *)options, model ? &h : NULL, &msg);
    return tp__model_out(rc, h, model, msg, err);
}

int tp_train_with_progress(const char *options, tp_progress_fn fn,
                           void *user, tp_model **model, tp_error **err) {
    if (model != NULL)
        *model = NULL;
    TP__FORK_CHECK(err);
    uintptr_t h = 0;
    char *msg = NULL;
    int rc = tpgo_train_with_progress((char *)options, fn, user,
                                      model ? &h : NULL, &msg);
    return tp__model_out(rc, h, model, msg, err);
}

int tp_model_save(const tp_model *model, const char *path, tp_error **err) {
    TP__FORK_CHECK(err);
    TP__READ_CHECK(model, 0, err);
    char *msg = NULL;
    int rc = tpgo_model_save((uintptr_t)model, (char *)path, &msg);
    return tp__finish(rc, msg, err);
}

/* ---- the default model ------------------------------------------------ */

/* The strings tp_default_model_path has returned: one copy of each distinct
 * path, kept until the library is unloaded, so that callers never free
 * them and a later call never invalidates an earlier result. */
struct tp__path {
    struct tp__path *next;
    char s[];
};
static struct tp__path *tp__paths;
static pthread_mutex_t tp__paths_mu = PTHREAD_MUTEX_INITIALIZER;

static const char *tp__intern(const char *s) {
    const char *found = NULL;
    pthread_mutex_lock(&tp__paths_mu);
    for (struct tp__path *p = tp__paths; p != NULL && found == NULL; p = p->next)
        if (strcmp(p->s, s) == 0)
            found = p->s;
    if (found == NULL) {
        size_t n = strlen(s) + 1;
        struct tp__path *p = malloc(sizeof *p + n);
        if (p != NULL) {
            memcpy(p->s, s, n);
            p->next = tp__paths;
            tp__paths = p;
            found = p->s;
        }
    }
    pthread_mutex_unlock(&tp__paths_mu);
    return found;
}

const char *tp_default_model_path(void) {
    if (tp__forked()) /* no error object to return: NULL */
        return NULL;
    /* This library's own file, for the lookup relative to it. */
    Dl_info info;
    const char *lib = NULL;
    if (dladdr((void *)&tp_default_model_path, &info) != 0)
        lib = info.dli_fname;
    /* The environment as the host sees it now (the Go runtime keeps the
     * copy it made at load time). */
    char *path = tpgo_default_model_path((char *)lib,
                                         getenv("TRANSPARSE_MODEL"));
    if (path == NULL)
        return NULL;
    const char *interned = tp__intern(path);
    free(path);
    return interned;
}


int tp_render_svg(const char *text, size_t len, char **out_svg, size_t *out_len,
                  tp_error **err) {
    if (out_svg != NULL)
        *out_svg = NULL;
    if (out_len != NULL)
        *out_len = 0;
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_render_svg((char *)text, len, out_svg, out_len, &msg);
    return tp__finish(rc, msg, err);
}

/* ---- the transition systems as an engine ------------------------------ */

int tp_system_new(const char *name, const char *const *deprels,
                  size_t n_deprels, tp_system **system, tp_error **err) {
    if (system != NULL)
        *system = NULL;
    TP__FORK_CHECK(err);
    uintptr_t h = 0;
    char *msg = NULL;
    int rc = tpgo_system_new((char *)name, (char **)deprels, n_deprels,
                             system ? &h : NULL, &msg);
    if (rc == TP_OK)
        *system = (tp_system *)h;
    return tp__finish(rc, msg, err);
}

int tp_system_free(tp_system *system) {
    if (system == NULL)
        return TP_OK;
    TP__FORK_CHECK(NULL);
    char *msg = NULL;
    int rc = tpgo_system_free((uintptr_t)system, &msg);
    return tp__finish(rc, msg, NULL);
}

int tp_system_classes(const tp_system *system, char **names, tp_error **err) {
    if (names != NULL)
        *names = NULL;
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_system_classes((uintptr_t)system, names, &msg);
    return tp__finish(rc, msg, err);
}

int tp_system_max_transitions(const tp_system *system, size_t n_words,
                              size_t *max, tp_error **err) {
    if (max != NULL)
        *max = 0;
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_system_max_transitions((uintptr_t)system, n_words, max,
                                         &msg);
    return tp__finish(rc, msg, err);
}

int tp_system_oracle(const tp_system *system, const int32_t *heads,
                     const int32_t *deprels, size_t n_words, int32_t *classes,
                     size_t capacity, size_t *len, tp_error **err) {
    if (len != NULL)
        *len = 0;
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_system_oracle((uintptr_t)system, (int32_t *)heads,
                                (int32_t *)deprels, n_words, classes,
                                capacity, len, &msg);
    return tp__finish(rc, msg, err);
}

int tp_system_oracle_document(const tp_system *system, const char *text,
                              size_t len, tp_oracle_doc **result,
                              tp_error **err) {
    if (result != NULL)
        *result = NULL;
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_system_oracle_document((uintptr_t)system, (char *)text, len,
                                         result, &msg);
    return tp__finish(rc, msg, err);
}

void tp_oracle_doc_free(tp_oracle_doc *result) { free(result); }

int tp_system_decode(const tp_system *system, const int32_t *heads,
                     const int32_t *deprels, size_t n_words, int32_t *out_heads,
                     int32_t *out_deprels, tp_error **err) {
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_system_decode((uintptr_t)system, (int32_t *)heads,
                                (int32_t *)deprels, n_words, out_heads,
                                out_deprels, &msg);
    return tp__finish(rc, msg, err);
}

int tp_state_new(const tp_system *system, size_t n_words, tp_state **state,
                 tp_error **err) {
    if (state != NULL)
        *state = NULL;
    TP__FORK_CHECK(err);
    uintptr_t h = 0;
    char *msg = NULL;
    int rc = tpgo_state_new((uintptr_t)system, n_words, state ? &h : NULL,
                            &msg);
    if (rc == TP_OK)
        *state = (tp_state *)h;
    return tp__finish(rc, msg, err);
}

int tp_state_copy(const tp_state *state, tp_state **copy, tp_error **err) {
    if (copy != NULL)
        *copy = NULL;
    TP__FORK_CHECK(err);
    uintptr_t h = 0;
    char *msg = NULL;
    int rc = tpgo_state_copy((uintptr_t)state, copy ? &h : NULL, &msg);
    if (rc == TP_OK)
        *copy = (tp_state *)h;
    return tp__finish(rc, msg, err);
}

int tp_state_free(tp_state *state) {
    if (state == NULL)
        return TP_OK;
    TP__FORK_CHECK(NULL);
    char *msg = NULL;
    int rc = tpgo_state_free((uintptr_t)state, &msg);
    return tp__finish(rc, msg, NULL);
}

int tp_state_legal(const tp_state *state, uint8_t *mask, size_t n_classes,
                   tp_error **err) {
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_state_legal((uintptr_t)state, mask, n_classes, &msg);
    return tp__finish(rc, msg, err);
}

int tp_state_apply(tp_state *state, size_t k, tp_error **err) {
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_state_apply((uintptr_t)state, k, &msg);
    return tp__finish(rc, msg, err);
}

int tp_state_apply_deprel(tp_state *state, size_t k, int32_t deprel,
                          tp_error **err) {
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_state_apply_deprel((uintptr_t)state, k, deprel, &msg);
    return tp__finish(rc, msg, err);
}

int tp_state_features(const tp_model *model, int scorer, const tp_state *state,
                      const char *const *forms, const tp_tags *tags,
                      size_t n_words, uint64_t *ids, size_t capacity,
                      size_t *len, tp_error **err) {
    if (len != NULL)
        *len = 0;
    TP__FORK_CHECK(err);
    TP__READ_CHECK(model, 0, err);
    char *msg = NULL;
    int rc = tpgo_state_features((uintptr_t)model, scorer, (uintptr_t)state,
                                 (char **)forms, (tp_tags *)tags, n_words, ids,
                                 capacity, len, &msg);
    return tp__finish(rc, msg, err);
}

int tp_state_scores(const tp_model *model, int scorer, const tp_state *state,
                    const char *const *forms, const tp_tags *tags,
                    size_t n_words, float *scores, size_t n_classes,
                    tp_error **err) {
    TP__FORK_CHECK(err);
    TP__READ_CHECK(model, 0, err);
    char *msg = NULL;
    int rc = tpgo_state_scores((uintptr_t)model, scorer, (uintptr_t)state,
                               (char **)forms, (tp_tags *)tags, n_words, scores,
                               n_classes, &msg);
    return tp__finish(rc, msg, err);
}

int tp_state_is_terminal(const tp_state *state, int *terminal,
                         tp_error **err) {
    if (terminal != NULL)
        *terminal = 0;
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_state_is_terminal((uintptr_t)state, terminal, &msg);
    return tp__finish(rc, msg, err);
}

int tp_state_view(const tp_state *state, int which, int32_t *out,
                  size_t capacity, size_t *len, tp_error **err) {
    if (len != NULL)
        *len = 0;
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_state_view((uintptr_t)state, which, out, capacity, len,
                             &msg);
    return tp__finish(rc, msg, err);
}

int tp_state_cost(const tp_state *state, const int32_t *heads,
                  const int32_t *deprels, size_t n_words, size_t k, int *cost,
                  tp_error **err) {
    if (cost != NULL)
        *cost = 0;
    TP__FORK_CHECK(err);
    char *msg = NULL;
    int rc = tpgo_state_cost((uintptr_t)state, (int32_t *)heads,
                             (int32_t *)deprels, n_words, k, cost, &msg);
    return tp__finish(rc, msg, err);
}
