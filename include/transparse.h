/*
 * transparse.h -- the C interface of transparse, a transition-based
 * dependency parser.
 *
 * This header is the ABI contract of libtransparse. Every function is
 * documented where it is declared: its arguments, who owns each pointer it
 * returns and until when, which status codes it can return, and whether it
 * is thread-safe.
 *
 * QUICK START
 *
 *     #include <transparse.h>
 *
 *     tp_model *model = NULL;
 *     tp_error *err = NULL;
 *     if (tp_model_load("en_ewt.tpm", &model, &err) != TP_OK) {
 *         fprintf(stderr, "%s\n", tp_error_message(err));
 *         tp_error_free(err);
 *         return 1;
 *     }
 *     const char *forms[] = {"I", "saw", "her", "."};
 *     tp_result *res = NULL;
 *     if (tp_parse(model, forms, 4, NULL, NULL, &res, &err) == TP_OK) {
 *         for (size_t i = 0; i < res->n_words; i++)
 *             printf("%zu\t%s\t%s\t%d\t%s\n", i + 1, forms[i],
 *                    res->upos[i], (int)res->heads[i], res->deprels[i]);
 *         tp_result_free(res);
 *     } else {
 *         fprintf(stderr, "%s\n", tp_error_message(err));
 *         tp_error_free(err);
 *     }
 *     tp_model_free(model);
 *
 * Build with pkg-config:  cc app.c $(pkg-config --cflags --libs transparse)
 *
 * CONVENTIONS
 *
 *  - Every fallible function returns an int status code (TP_OK on success,
 *    one of the TP_ERR_* codes otherwise) and takes a last argument
 *    `tp_error **err`. On failure, if err is not NULL, *err receives a new
 *    error object carrying the code and a human-readable message; free it
 *    with tp_error_free(). On success *err is set to NULL. Pass err == NULL
 *    if the code is enough. No thread-local or global error state is used.
 *  - Out parameters are written only on success (they are set to NULL on
 *    failure where documented).
 *  - Every object the library allocates has a matching free function:
 *    tp_model -> tp_model_free, tp_result -> tp_result_free,
 *    strings -> tp_string_free, tp_error -> tp_error_free. Never pass them
 *    to free(3) yourself. Freeing a model twice, or using a freed model, is
 *    detected (TP_ERR_ARGUMENT, see tp_model). Freeing a result, string or
 *    error object twice is not detectable and is undefined behaviour, as
 *    with free(3).
 *  - All strings are NUL-terminated UTF-8.
 *  - Error messages start with the name of the function and say what failed
 *    and where: the offending argument ("tp_parse: forms[3] is not valid
 *    UTF-8", "tp_parse: tags->upos[0] is longer than TP_MAX_TOKEN_BYTES
 *    (1024 bytes)"), the file, the byte offset or section of a model file
 *    ("tp_model_load: modelfmt: m.tpm: corrupt at byte 4242 (snappy chunk
 *    checksum mismatch)"), the line of CoNLL-U text ("tp_parse_document:
 *    conllu: text:12: ..."). The status code says what kind of failure it
 *    is; the text is for people and may change between versions.
 *
 * THREAD SAFETY
 *
 *  Every function may be called from any thread. A loaded tp_model is
 *  immutable: any number of threads may call tp_parse / tp_parse_document /
 *  the getters on the same model at the same time, with no locking by the
 *  caller. Results, strings and error objects belong to the caller and are
 *  not shared by the library. Per function:
 *
 *   - tp_model_free waits for the calls in flight on the model (in other
 *     threads) to return, then frees it; a later call gets TP_ERR_ARGUMENT.
 *   - a tp_stream is used by one thread at a time: a call on a stream that
 *     another thread is using is refused (TP_ERR_ARGUMENT).
 *   - a stream's read callback (tp_read_fn) must not call any tp_ function
 *     on that stream or on its model (tp_model_free, tp_parse,
 *     tp_stream_next, the getters, ...): the stream holds them while it
 *     reads. Such a call returns TP_ERR_ARGUMENT at once ("called from
 *     inside the read callback"), without waiting. Other models and other
 *     functions may be used there.
 *
 * LIMITS
 *
 *  A sentence has at most TP_MAX_WORDS (10000) words; each word form and
 *  each tag string (UPOS, XPOS, FEATS, LEMMA) has at most
 *  TP_MAX_TOKEN_BYTES (1024) bytes, not counting the terminating NUL.
 *  Longer input is rejected with TP_ERR_INPUT and a message naming the
 *  argument. The library reads exactly n_words elements of each array it
 *  is given and at most TP_MAX_TOKEN_BYTES + 1 bytes of each string, so
 *  a string without a NUL in its first TP_MAX_TOKEN_BYTES + 1 bytes is
 *  refused, not overrun. Each transition system bounds the number of
 *  transitions per sentence (linear in the number of words for
 *  arc-standard, arc-eager and arc-hybrid, quadratic for systems that may
 *  compare every pair of words), so every call ends, and the limits bound
 *  its time and memory: a sentence of TP_MAX_WORDS words parses in well
 *  under a second with the bundled model. A model file is read as a stream,
 *  whatever it is (a regular file, a pipe such as /dev/stdin, a device):
 *  its first 12 bytes (magic and version) are checked before anything else
 *  is read, no more is read than its header's document length allows, and
 *  memory grows only with the data that has arrived, never with what the
 *  header declares. A corrupt, truncated or endless input gives
 *  TP_ERR_MODEL_FORMAT (never a crash or a hang) and makes the library
 *  allocate at most 64 times the bytes it read plus 1 MiB.
 *
 * GO SHARED LIBRARY CAVEATS (read these)
 *
 *  The library is written in Go and built as a shared object; it carries a
 *  Go runtime, which brings constraints that a plain C library would not:
 *
 *  - One Go runtime per process. Loading two different Go shared libraries
 *    into one process is not supported by Go.
 *  - The library cannot be unloaded: dlclose() does not unload it (and must
 *    not be relied upon to). Load it once and keep it.
 *  - fork(): the Go runtime's threads do not survive fork(). The library
 *    notices that it runs in a child created by fork() without exec (its
 *    process id differs from the one that loaded it) and every function
 *    that needs the runtime returns TP_ERR_FORK at once, without touching
 *    it, so the child gets an error instead of a hang, even if other threads
 *    of the parent were inside the library when it forked. The message
 *    names the function and both process ids. tp_version*, tp_status_name,
 *    tp_error_*, tp_string_free and tp_result_free still work, also on
 *    objects made by the parent before the fork. Models loaded in the
 *    parent cannot be used or freed in the child (tp_model_free returns
 *    TP_ERR_FORK). The parent is not affected. Use the library in a child
 *    only after exec (posix_spawn, fork + exec); Python users of
 *    multiprocessing should use the "spawn" or "forkserver" start method
 *    and load the model in each worker (and not preload transparse in the
 *    forkserver).
 *  - Signals: the Go runtime installs handlers for synchronous signals
 *    (SIGSEGV, SIGBUS, SIGFPE, ...) and runs on its own signal stacks. Any
 *    signal handler the host installs must use SA_ONSTACK (sigaction), or
 *    the process may crash when a signal arrives on a Go thread.
 *  - The runtime starts a few threads when the library is loaded.
 *  - Memory: a Go garbage collector manages the library's memory. A loaded
 *    model is the bulk of it; tp_parse with the greedy parser (the
 *    default for models without a beam) makes no garbage, so a long run of
 *    calls keeps the resident memory flat (scripts/longrun.sh checks this
 *    over 1M words), nor does tp_parse_batch for batches of up to 40,000
 *    words. tp_parse_document (and larger batches) makes
 *    garbage in proportion to their input, which the collector reclaims
 *    once it amounts to a quarter of the loaded models (the
 *    library runs its collector at GOGC=25, also while a call trains,
 *    and less often while calls only load models; setting the GOGC
 *    environment variable before the library is loaded overrides both), so a
 *    long-running host's resident memory stays near the size of its
 *    loaded models.
 */
#ifndef TRANSPARSE_H
#define TRANSPARSE_H

#include <stddef.h> /* size_t, ptrdiff_t */
#include <stdint.h> /* int32_t */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define TP_API __attribute__((visibility("default")))
#else
#define TP_API
#endif

/* ======================================================================
 * Version
 * ====================================================================== */

#define TP_VERSION_MAJOR 0
#define TP_VERSION_MINOR 3
#define TP_VERSION_PATCH 0

/* MAJOR*10000 + MINOR*100 + PATCH, e.g. 0.1.0 -> 100 (zstd convention). */
#define TP_VERSION_NUMBER \
    (TP_VERSION_MAJOR * 10000 + TP_VERSION_MINOR * 100 + TP_VERSION_PATCH)

#define TP_STRINGIFY_(x) #x
#define TP_STRINGIFY(x) TP_STRINGIFY_(x)
/* "MAJOR.MINOR.PATCH", e.g. "0.1.0". */
#define TP_VERSION_STRING \
    TP_STRINGIFY(TP_VERSION_MAJOR) "." TP_STRINGIFY(TP_VERSION_MINOR) "." \
    TP_STRINGIFY(TP_VERSION_PATCH)

/*
 * tp_version returns the version of the loaded library as "MAJOR.MINOR.PATCH".
 * The string is static: never free it. Compare with TP_VERSION_STRING to
 * detect a header/library mismatch. Thread-safe; works after fork().
 */
TP_API const char *tp_version(void);

/*
 * tp_version_number returns the version of the loaded library encoded like
 * TP_VERSION_NUMBER. Thread-safe; works after fork().
 */
TP_API unsigned tp_version_number(void);

/* ======================================================================
 * Limits
 * ====================================================================== */

/* Maximum number of words in one sentence given to tp_parse (and in one
 * sentence of tp_parse_document's text). More gives TP_ERR_INPUT. */
#define TP_MAX_WORDS 10000
/* Maximum length in bytes, without the terminating NUL, of one word form
 * or tag string. Longer gives TP_ERR_INPUT. */
#define TP_MAX_TOKEN_BYTES 1024
/* Maximum number of words in one tp_parse_batch call (all its sentences
 * together; the call holds about 200 bytes per word while it runs). More
 * gives TP_ERR_INPUT: split the batch. */
#define TP_MAX_BATCH_WORDS 1000000
/* Limits of one sentence of the text of tp_parse_document and of a stream,
 * checked as it is read, so that no input makes the reader hold more: at
 * most TP_MAX_WORDS + 1 word lines (one over the limit still reaches the
 * parser, whose TP_ERR_INPUT names the sentence; a line of pre-tokenized
 * text likewise has at most TP_MAX_WORDS + 1 tokens), at most
 * TP_MAX_DOC_COMMENTS comment lines of TP_MAX_DOC_COMMENT_BYTES bytes in
 * all before its first word, at most TP_MAX_DOC_SENTENCE_BYTES bytes of
 * lines in all (comments included, line ends not counted), and no line
 * over 1 MiB. A sentence over one of the first three gives TP_ERR_INPUT;
 * with TP_ON_ERROR_SKIP its comments are written, then the comment
 * "# transparse_dropped = lines A-B ..." naming the input lines not
 * copied, and the parse goes on. A line over 1 MiB ends the input either
 * way. */
#define TP_MAX_DOC_COMMENTS 1000
#define TP_MAX_DOC_COMMENT_BYTES 4194304   /* 4 MiB */
#define TP_MAX_DOC_SENTENCE_BYTES 33554432 /* 32 MiB */
/* Maximum number of words of the sentence tp_render_svg draws. More gives
 * TP_ERR_INPUT. */
#define TP_MAX_SVG_WORDS 1000

/* ======================================================================
 * Status codes and errors
 * ====================================================================== */

/* Status codes returned by every fallible function. Values are stable. */
typedef enum tp_status {
    TP_OK = 0,
    /* A caller error: a NULL pointer where one is required, a freed or
     * invalid model handle (use after free, double free), an argument out
     * of range. The message names the argument, e.g. "tp_parse: forms is
     * NULL", "tp_model_card_json: model handle was freed or is invalid". */
    TP_ERR_ARGUMENT = 1,
    /* The input text or sentence is unacceptable: no words, too many
     * words, an empty form, a token too long, invalid UTF-8, a tab or line
     * break in a form or tag, malformed CoNLL-U. The message names the
     * argument ("tp_parse: forms[3] is empty") or the line of the text. */
    TP_ERR_INPUT = 2,
    /* A file could not be opened or read (missing, permissions, a
     * directory, ...). The message contains the path. */
    TP_ERR_IO = 3,
    /* The data is not a transparse model ("not a transparse model (first
     * bytes ...)"), or it is truncated or corrupt; the message gives the
     * byte offset or the section at fault. */
    TP_ERR_MODEL_FORMAT = 4,
    /* The model was written by a newer transparse than this library; the
     * message names both format versions. */
    TP_ERR_MODEL_VERSION = 5,
    /* Called in a child created by fork() without exec (see the caveats
     * at the top of this header). */
    TP_ERR_FORK = 6,
    /* Memory allocation failed. */
    TP_ERR_NOMEM = 7,
    /* A bug in transparse (an internal panic, recovered). The message says
     * what failed; please report it. */
    TP_ERR_INTERNAL = 8,
    /* The caller's progress callback stopped the work (it returned
     * nonzero; see tp_train_with_progress). */
    TP_ERR_CANCELED = 9
} tp_status;

/*
 * tp_status_name returns the name of a status code ("TP_OK",
 * "TP_ERR_INPUT", ...) or "TP_ERR_UNKNOWN" for a value that is not a
 * status code. The string is static. Thread-safe; works after fork().
 */
TP_API const char *tp_status_name(int code);

/*
 * An error object: a status code and a message. Created by a failing call
 * when the caller passes a non-NULL `tp_error **err`; owned by the caller,
 * freed with tp_error_free. Immutable; may be read from any thread.
 */
typedef struct tp_error tp_error;

/*
 * tp_error_code returns the status code of err (never TP_OK for an error
 * the library created), or TP_OK if err is NULL. Works after fork().
 */
TP_API int tp_error_code(const tp_error *err);

/*
 * tp_error_message returns the message of err, e.g.
 * "tp_model_load: open /x/en.tpm: no such file or directory".
 * The string is owned by err and valid until tp_error_free(err). Returns ""
 * (a static string) if err is NULL. Never returns NULL. Works after fork().
 */
TP_API const char *tp_error_message(const tp_error *err);

/*
 * tp_error_free frees an error object. NULL is ignored. Works after fork().
 */
TP_API void tp_error_free(tp_error *err);

/*
 * tp_string_free frees a string returned by the library (tp_model_card_json,
 * tp_parse_document). NULL is ignored. Works after fork().
 */
TP_API void tp_string_free(char *s);

/* ======================================================================
 * Models
 * ====================================================================== */

/*
 * An opaque, immutable, loaded model. A tp_model pointer is a handle, not
 * necessarily a memory address: never dereference it. Handles are never
 * reused within a process, so a freed handle is detected: any call with it
 * fails with TP_ERR_ARGUMENT "model handle was freed or is invalid".
 */
typedef struct tp_model tp_model;

/*
 * tp_model_load loads a model file.
 *
 *   path   file name (NUL-terminated; bytes passed to the OS as is).
 *          Read during the call only.
 *   model  out: receives the new model on success, NULL on failure. The
 *          caller owns it and frees it with tp_model_free.
 *   err    out, may be NULL: receives an error object on failure.
 *
 * path may also name a pipe or a device; it is read within the bounds of
 * LIMITS above ("/dev/zero" fails at once: not a transparse model).
 *
 * Errors: TP_ERR_ARGUMENT (path or model is NULL), TP_ERR_IO (cannot open
 * or read the file; the message contains the path), TP_ERR_MODEL_FORMAT
 * (not a transparse model; truncated: "truncated: N of M bytes of
 * document (the input ends early)"; or corrupt), TP_ERR_MODEL_VERSION
 * (written by a newer version; the message names both versions),
 * TP_ERR_NOMEM, TP_ERR_FORK, TP_ERR_INTERNAL.
 *
 * Thread-safe. Loading takes time and memory proportional to the model
 * (its classifiers trained for the beam are decoded later, at the first
 * parse that asks for the beam: see tp_options.beam); load once and share
 * the model between threads.
 */
TP_API int tp_model_load(const char *path, tp_model **model, tp_error **err);

/*
 * tp_model_load_from_memory loads a model from the bytes of a model file.
 *
 *   data   the bytes of a model file; size bytes are read. Not retained:
 *          the caller may free or reuse data as soon as the call returns.
 *   size   number of bytes at data.
 *   model  out: as for tp_model_load.
 *   err    out, may be NULL.
 *
 * Errors: TP_ERR_ARGUMENT (data or model is NULL), TP_ERR_MODEL_FORMAT,
 * TP_ERR_MODEL_VERSION, TP_ERR_NOMEM, TP_ERR_FORK, TP_ERR_INTERNAL.
 * Thread-safe.
 */
TP_API int tp_model_load_from_memory(const void *data, size_t size,
                                     tp_model **model, tp_error **err);

/*
 * tp_model_free frees a model and every string it owns: its label and tag
 * tables, which the deprels/upos of every tp_result obtained from it point
 * into (free or stop reading those results first). NULL is ignored
 * (returns TP_OK). The memory goes back to the operating system shortly
 * after the call returns (a collection on a library thread), as does the
 * memory a load used only while it ran.
 *
 * If other threads are inside a call on the same model, tp_model_free
 * waits for those calls to finish; calls that start afterwards fail with
 * TP_ERR_ARGUMENT. The caller must make sure no thread still reads
 * results of this model.
 *
 * Returns TP_OK; TP_ERR_ARGUMENT if the handle was already freed (double
 * free) or is invalid; TP_ERR_FORK in a forked child (nothing is freed: the
 * model belongs to the parent's runtime).
 */
TP_API int tp_model_free(tp_model *model);

/*
 * tp_model_card_json returns the model card (training data, transition
 * system, options, training date, version, scores, notes) as a JSON object,
 * e.g. {"name":"en_ewt","treebank":"...","system":"arc-eager",
 * "options":{...},"trained_at":"2025-...Z","version":"0.1.0",
 * "scores":{"dev/gold/LAS":88.1,...},"notes":"..."}.
 *
 *   model  a loaded model.
 *   json   out: a new NUL-terminated string; free with tp_string_free.
 *          NULL on failure.
 *   err    out, may be NULL.
 *
 * Errors: TP_ERR_ARGUMENT (model or json NULL, model freed), TP_ERR_NOMEM,
 * TP_ERR_FORK, TP_ERR_INTERNAL. Thread-safe.
 */
TP_API int tp_model_card_json(const tp_model *model, char **json,
                              tp_error **err);

/*
 * tp_model_default_beam gives the model's default beam width: the width
 * the parse functions use when options->beam is 0 or options is
 * NULL (see tp_options). A model trained with a beam (`transparse
 * train --beam K`, tp_train's "beam": {"width": K}) has classifiers trained for it and
 * the default width K, recorded in its card (option "default_beam",
 * shown by `transparse inspect`); every other model has 1, the greedy
 * parser.
 *
 *   model  a loaded model.
 *   width  out: the default width, 1 to TP_MAX_BEAM; 0 on failure.
 *   err    out, may be NULL.
 *
 * Errors: TP_ERR_ARGUMENT (model or width NULL, model freed),
 * TP_ERR_FORK, TP_ERR_INTERNAL. Thread-safe.
 */
TP_API int tp_model_default_beam(const tp_model *model, int *width,
                                 tp_error **err);

/*
 * tp_model_deprels gives the dependency relation labels the model can
 * assign, in a fixed order.
 *
 *   model   a loaded model.
 *   labels  out: an array of *n NUL-terminated strings, owned by the model,
 *           valid until tp_model_free(model). Do not modify or free.
 *   n       out: number of labels.
 *   err     out, may be NULL.
 *
 * Errors: TP_ERR_ARGUMENT (a NULL pointer, model freed), TP_ERR_FORK,
 * TP_ERR_INTERNAL. Thread-safe.
 */
TP_API int tp_model_deprels(const tp_model *model, const char *const **labels,
                            size_t *n, tp_error **err);

/*
 * tp_model_upos_tags gives the UPOS tags the model's tagger can assign, in
 * a fixed order. Arguments, ownership and errors as for tp_model_deprels.
 */
TP_API int tp_model_upos_tags(const tp_model *model, const char *const **tags,
                              size_t *n, tp_error **err);

/*
 * tp_model_xpos_tags gives the XPOS tags the model can assign, in a fixed
 * order: its XPOS tagger's, or, for a model trained on a treebank whose
 * XPOS tag set is too large for a tagger, its XPOS table's (see tp_result);
 * n == 0 (and *tags NULL) when the model predicts no XPOS. Arguments,
 * ownership and errors as for tp_model_deprels.
 */
TP_API int tp_model_xpos_tags(const tp_model *model, const char *const **tags,
                              size_t *n, tp_error **err);

/* ======================================================================
 * Parsing
 * ====================================================================== */

/*
 * Optional per-word annotations given to tp_parse. Each member is either
 * NULL (the column is absent for every word) or an array of (at least)
 * n_words strings, of which exactly n_words are read: the length of every
 * array is the n_words argument of tp_parse, which cannot check it. An
 * element that is NULL, "" or "_" means absent for that word. Strings are
 * read during the call only; each obeys the limits of a form (at most
 * TP_MAX_TOKEN_BYTES bytes of UTF-8, no tab or line break); errors name
 * the element, e.g. "tp_parse: tags->xpos[2] contains a tab or line
 * break".
 *
 * Given values are kept as given. The model predicts what is absent,
 * each column with the component it has for it (see tp_result):
 *  - UPOS, XPOS and LEMMA word by word: a word without UPOS gets the
 *    UPOS tagger's tag, one without XPOS the XPOS tagger's (a model
 *    trained on a treebank with XPOS) or, from a model with an XPOS
 *    table instead, the table's, once FEATS are predicted (see
 *    tp_result); with both taggers, a word given
 *    neither tag gets a UPOS/XPOS pair seen in training (of those, the
 *    one the two taggers score highest); a word without LEMMA gets the
 *    lemmatizer's lemma, from its form and its given or predicted tags;
 *  - FEATS for the whole sentence, and only when no word of it is given
 *    FEATS: in a sentence with FEATS on some word, "_" (or NULL, "") on
 *    another means that word has no features. Where its card's option
 *    feats_tags says "kept", a word's FEATS are chosen among those seen
 *    in training with its (given or predicted) UPOS and XPOS, where
 *    training saw that pair. A model whose FEATS tagger
 *    learnt to (its card's option feats_syntax says "kept") chooses the
 *    predicted FEATS again once the sentence is parsed, among the same
 *    candidates, from the word's place in the tree (its deprel, its
 *    head, its dependents: a passive participle's aux:pass, a pronoun's
 *    subject or object relation), so that they agree with the returned
 *    tree; one with an agreement table (feats_agreement says "kept")
 *    then gives a predicted verb the Person and Number its subject in
 *    the returned tree calls for ("I cried": Person=1|Number=Sing).
 *
 * Which classifier parses the sentence:
 *  - a model with a lemmatizer or a FEATS tagger: its gold-tag classifier
 *    when UPOS is given for every word (the absent columns predicted
 *    first); otherwise its plain-token classifier, which reads the given
 *    and predicted tags and FEATS and, where it reads lemmas, the ones
 *    the model predicts (for every word, given lemmas included, as it
 *    was trained);
 *  - a model with neither: its gold-tag classifier when UPOS is given for
 *    every word and XPOS, FEATS or LEMMA for at least one; otherwise the
 *    plain-token classifier, on the given and predicted tags.
 * A model without a tagger (tp_model_upos_tags gives n == 0) parses only
 * sentences given with UPOS for every word and XPOS, FEATS or LEMMA for
 * at least one, and refuses others with TP_ERR_INPUT ("tp_parse: invalid
 * input: this model has no tagger and parses only sentences given with
 * UPOS and XPOS, LEMMA or FEATS").
 */
typedef struct tp_tags {
    const char *const *upos;  /* universal POS tags, e.g. "NOUN" */
    const char *const *xpos;  /* language-specific POS tags, e.g. "NN" */
    const char *const *feats; /* "Number=Sing|Person=3" */
    const char *const *lemma; /* lemmas */
} tp_tags;

/*
 * The result of tp_parse: one dependency tree. Allocated by the library as
 * a single block and freed with tp_result_free. Read-only for the caller.
 * Future versions may append members (never remove or reorder them).
 *
 * Word i (0-based) of the input is word i+1 of the tree:
 *   heads[i]    the 1-based index of its head word, or 0 for the root.
 *               Exactly one word has head 0 and there are no cycles.
 *   deprels[i]  its dependency relation label, e.g. "nsubj", "root".
 *   upos[i]     its UPOS tag: the one given in tags->upos, or the tag
 *               predicted by the model.
 *   xpos[i]     its XPOS tag: the one given in tags->xpos, else the tag
 *               predicted by the model's XPOS tagger when it has one, or
 *               by its XPOS table (a model trained on a treebank whose
 *               XPOS tag set is too large for a tagger: the XPOS seen in
 *               training with the word's form and its given or predicted
 *               UPOS and FEATS), else "_".
 *   lemma[i]    its LEMMA: the one given in tags->lemma, else the lemma
 *               predicted by the model when it has a lemmatizer, else "_".
 *   feats[i]    its FEATS, "Name=Value" pairs joined by "|" in the order
 *               of CoNLL-U (e.g. "Number=Sing|Person=3"), or "_" for none:
 *               the string given in tags->feats (as given, not
 *               re-ordered), else the one predicted by the model when it
 *               has a FEATS tagger and no word of the sentence was
 *               given FEATS, else "_".
 * A caller's given columns are always kept as given, word by word; a
 * column the caller did not give for a word is predicted when the model
 * has the component for it (FEATS: see tp_tags), and is "_" otherwise. lemma and feats were
 * appended after xpos (the members before them are where they always
 * were); every element of every array is a non-NULL NUL-terminated UTF-8
 * string.
 * The arrays belong to the result (valid until tp_result_free). The strings
 * they point to belong to the model (labels and tags of its tables, shared
 * by all results) or to the result (a tag outside the model's tables, and
 * every lemma and FEATS string): treat every one as valid until
 * tp_result_free(result) or tp_model_free(model), whichever comes first.
 */
typedef struct tp_result {
    size_t n_words;
    const int32_t *heads;
    const char *const *deprels;
    const char *const *upos;
    const char *const *xpos;
    const char *const *lemma;
    const char *const *feats;
    /* Appended after feats (see tp_parse and tp_parse_batch): NULL and
     * 0 unless tp_options asks for them. */
    const double *confidence;
    size_t n_trees;
    const int32_t *tree_heads;
    const char *const *tree_deprels;
    const double *tree_scores;
} tp_result;

/* Largest beam width of tp_options.beam. */
#define TP_MAX_BEAM 64

/* The kind of input of tp_parse_document and tp_stream_open
 * (tp_options.input). Values are stable; more kinds may be added. */
#define TP_INPUT_CONLLU 0 /* CoNLL-U */
#define TP_INPUT_TOKENS 1 /* pre-tokenized text: see tp_parse_document */
#define TP_INPUT_TEXT 2   /* raw text, segmented by the model: see tp_parse_document */

/* The offsets each token of raw text gets (tp_options.ranges): none, or
 * TokenRange=START:END in MISC, in bytes or in Unicode code points. */
#define TP_RANGES_NONE 0
#define TP_RANGES_BYTES 1
#define TP_RANGES_CODEPOINTS 2

/* What tp_parse_document and tp_stream_open do with a sentence they
 * cannot parse (tp_options.on_error). */
#define TP_ON_ERROR_STOP 0 /* end with the error */
#define TP_ON_ERROR_SKIP 1 /* copy the sentence through unparsed, go on */

/*
 * tp_options are the options of every parse function: tp_parse,
 * tp_parse_batch, tp_parse_document and tp_stream_open. A NULL options
 * pointer means the defaults, the values of TP_OPTIONS_INIT: the model's
 * default beam width (tp_model_default_beam; 1, the greedy parser, for
 * every model without classifiers trained for the beam), nothing more
 * than the tree, CoNLL-U input, stop at the first error, tags used as
 * given, one thread; raw text split into sentences by the model, without
 * token offsets, tagged and parsed. Initialise with TP_OPTIONS_INIT, then set what you
 * need:
 *
 *     tp_options o = TP_OPTIONS_INIT;
 *     o.beam = 8;
 *     o.confidence = 1;
 *
 * Members a function does not use are ignored (the sentence members by
 * the document functions, the document members by tp_parse and
 * tp_parse_batch), except space_after, which the document functions
 * refuse (TP_ERR_ARGUMENT).
 *
 *   size         sizeof(tp_options) as the caller compiled it (bytes):
 *                versions append members, and a library reads only the
 *                members that size covers; bytes past the members it
 *                knows must be 0. The smallest size accepted is that of
 *                the struct of version 0.2.0, which ends before
 *                presegmented (offsetof(tp_options, presegmented)): a
 *                caller compiled against 0.2.0 keeps working, its options
 *                read with presegmented, ranges, tokenize_only and
 *                accurate 0. The size of the struct without accurate
 *                (offsetof(tp_options, accurate) rounded up to the
 *                struct's alignment) is accepted too, with accurate 0.
 *                Another size below sizeof(tp_options), less than the
 *                0.2.0 size (the message gives it) or more than 4096 is
 *                TP_ERR_ARGUMENT.
 *
 * Sentence members (all functions):
 *   beam         the beam width K, 0 to TP_MAX_BEAM. 0: the model's
 *                default width. 1: the greedy parser; K > 1: beam
 *                search, keeping the K best configurations at every step
 *                (docs/beam-search.md), about K times slower, with the
 *                classifiers the model has trained for the beam
 *                (`transparse train --beam K`; the model card's option
 *                "beam"; the bundled model has them). A model without
 *                them refuses K > 1 (TP_ERR_ARGUMENT, "... the model has
 *                no classifiers trained for the beam ..."): over greedily
 *                trained classifiers a wider beam parses worse. A
 *                loaded model decodes those classifiers at its first
 *                call with K > 1 or accurate, so that greedy parsing
 *                never spends the time and memory they take; a damaged
 *                one fails that call and every later one asking for the
 *                beam with TP_ERR_MODEL_FORMAT naming it, while greedy
 *                parsing goes on. The
 *                annotation is completed and the classifier chosen as
 *                described at tp_tags.
 *   kbest        0 to the beam width (beam, or the default width when
 *                beam is 0): the number of trees asked for in tp_result
 *                (n_trees; the distinct trees of the final beam, best
 *                first, so at most K). In CoNLL-U output, with kbest
 *                above 1, each sentence parsed is followed by its other
 *                trees as sentences of their own: the same lines with
 *                that tree's HEAD and DEPREL, without the Confidence
 *                attribute, the comments followed by "# kbest_rank = N"
 *                (2, 3, ...) and "# kbest_score = SCORE", and the
 *                sent_id, if any, suffixed with "-kbestN".
 *   confidence   nonzero: a confidence per word (tp_result.confidence;
 *                in CoNLL-U output "Confidence=0.931", three decimals, in
 *                MISC after the word's other attributes, replacing a
 *                Confidence attribute of the input).
 *   temperature  scales the scores into the raw confidences' weights
 *                (score units of the classifier); 0: the library's
 *                default, with calibrated confidences; not negative.
 *   accurate     nonzero: the accurate mode. The sentence, tagged once, is
 *                parsed twice, by the beam (width beam if it is above 1,
 *                else the width the model's beam classifiers were trained
 *                at, "beam.width" in `transparse inspect`) and by the
 *                greedy parser, and the tree is their revote (Sagae &
 *                Lavie 2006, "Parser combination by reparsing"): each
 *                parser's arc weighs 0.5 plus the parser's confidence in
 *                it, the weights of an arc both propose add up, and the
 *                tree is the maximum spanning tree of these arcs with one
 *                word attached to the root (Chu-Liu-Edmonds); each word's
 *                deprel is that of the heavier voter of its arc. It costs
 *                about the beam's time plus a greedy parse, both with
 *                confidences (on EWT, 1.7 times the beam's time), and
 *                parses more accurately than either (docs/beam-search.md,
 *                "The accurate mode").
 *                With confidence, a word's confidence is the beam's if
 *                the voted head and deprel are the beam's, else the
 *                greedy parser's if they are its, else 0. kbest must be
 *                0. A model without classifiers trained for the beam
 *                refuses it (TP_ERR_ARGUMENT, "... accurate mode: the
 *                model has no classifiers trained for the beam ...").
 *                Appended in 0.3.0 (see size).
 *   space_after  NULL, or the spacing of the words in the text they were
 *                tokenized from, for tp_parse and tp_parse_batch only: an
 *                array of one byte per word (tp_parse: n_words bytes;
 *                tp_parse_batch: aligned with forms, offsets[n_sentences]
 *                bytes), read during the call only; 0 for a word the
 *                next one follows without whitespace ("well" and "-" in
 *                "well-known", "Dogs" in "Dogs."), nonzero for a word
 *                followed by whitespace (for the last word of a sentence:
 *                by whitespace or nothing). 0 is what MISC SpaceAfter=No
 *                says in CoNLL-U, where the document functions read it:
 *                a sentence gets the tags and tree the same sentence gets
 *                as CoNLL-U with SpaceAfter=No on those words. A model
 *                whose XPOS tagger reads spacing (the bundled one does)
 *                tags a hyphen joining two words HYPH and a spaced one as
 *                other punctuation. NULL: the spacing is unknown.
 *
 * Document members (tp_parse_document, tp_stream_open):
 *   input        TP_INPUT_CONLLU, TP_INPUT_TOKENS or TP_INPUT_TEXT (see
 *                tp_parse_document).
 *   on_error     TP_ON_ERROR_STOP or TP_ON_ERROR_SKIP. With SKIP, a
 *                sentence the parser rejects (e.g. more than TP_MAX_WORDS
 *                words) is written as it was given, unparsed, and the
 *                lines of a malformed sentence (or of a malformed line of
 *                pre-tokenized text) are copied as they were read; either
 *                way with a first added comment "# transparse_error =
 *                MESSAGE", where MESSAGE names the line. Errors that end
 *                the input (a line longer than 1 MiB, a failing read
 *                callback) stop either way. In raw text (TP_INPUT_TEXT),
 *                SKIP replaces each byte that does not start a valid
 *                UTF-8 sequence by U+FFFD (which counts as one code point
 *                in TokenRange; byte ranges stay offsets of the input)
 *                and parses on; each sentence that held such bytes gets
 *                a comment "# transparse_replaced = invalid UTF-8
 *                replaced by U+FFFD: 0xff at byte offset 7, ..." listing
 *                the bytes replaced and their offsets in the input (the
 *                first 64, then "and N more"), so that the input can be
 *                rebuilt from the output byte for byte. STOP ends there
 *                with the error naming the byte offset.
 *   no_tags      nonzero: blank LEMMA, UPOS, XPOS and FEATS of CoNLL-U
 *                input (words and empty nodes) before parsing, so that
 *                the model predicts them.
 *   threads      tp_parse_document: the number of threads parsing, 0 or
 *                more (0 or 1: the calling thread); the output is the
 *                same for any number. Ignored by tp_stream_open.
 *
 * Document members of raw text (TP_INPUT_TEXT only; nonzero with another
 * input is TP_ERR_ARGUMENT), appended in 0.3.0:
 *   presegmented nonzero: every line break ends a sentence (one sentence
 *                a line; a blank line still ends a paragraph); the
 *                tokens and multiword tokens are still the segmenter's.
 *                0: the segmenter decides where sentences end.
 *   ranges       TP_RANGES_NONE, TP_RANGES_BYTES or TP_RANGES_CODEPOINTS:
 *                with BYTES or CODEPOINTS each token gets
 *                "TokenRange=START:END" in MISC (a multiword token on its
 *                range line, its words none): the offsets of the token in
 *                the whole input, START inclusive, END exclusive, counted
 *                in bytes or in Unicode code points (as a Python str is
 *                indexed).
 *   tokenize_only nonzero: segment only, no tagging or parsing: every
 *                column but ID, FORM and MISC is "_" (HEAD and DEPREL
 *                included); the sentence members are checked but not
 *                used.
 *
 * A confidence is a number in [0, 1] per word for its head and deprel
 * together. With the default temperature and a model that has confidence
 * calibrators (models trained by this version have them; `transparse
 * calibrate` adds or refits them) it is the estimated probability that
 * both are right, fitted on the development treebank from the raw
 * confidence, the deprel and, for predicted tags, how sure the taggers
 * were of the tags of the word and of its head (docs/beam-search.md).
 * Otherwise it is the raw confidence, which ranks the arcs of one deprel:
 * the share of the final beam (each configuration weighted by exp of its
 * score difference to the best over the temperature; 1 for the greedy
 * parser) that agrees with the best tree on the word's arc, times the
 * probability of the transition that built the arc among the legal ones
 * (the classifier's exp-normalised scores); 0 for an arc made by a
 * fallback (a word left headless and attached to the root). Either way
 * higher-confidence arcs are more often right.
 *
 * Bad options are TP_ERR_ARGUMENT, with the member named ("tp_parse:
 * invalid parse options: beam width 65: want 1 to 64 (0: the model's
 * default, 1)", "tp_parse_document: options->input is 7: want
 * TP_INPUT_CONLLU, TP_INPUT_TOKENS or TP_INPUT_TEXT").
 */
typedef struct tp_options {
    size_t size;
    /* sentence members */
    int beam;
    int kbest;
    int confidence;
    double temperature;
    const unsigned char *space_after;
    /* document members */
    int input;
    int on_error;
    int no_tags;
    int threads;
    /* document members of raw text, appended in 0.3.0 */
    int presegmented;
    int ranges;
    int tokenize_only;
    /* sentence member, appended in 0.3.0 */
    int accurate;
} tp_options;

#define TP_OPTIONS_INIT                                                      \
    {sizeof(tp_options), 0, 0, 0, 0.0, NULL, TP_INPUT_CONLLU,                \
     TP_ON_ERROR_STOP, 0, 0, 0, TP_RANGES_NONE, 0, 0}

/*
 * tp_parse parses one tokenized sentence.
 *
 *   model    a loaded model.
 *   forms    array of n_words word forms: NUL-terminated UTF-8, non-empty,
 *            at most TP_MAX_TOKEN_BYTES bytes, no tab or line break. Exactly
 *            n_words elements are read, during the call only.
 *   n_words  number of words, 1 to TP_MAX_WORDS.
 *   tags     optional annotations (see tp_tags), or NULL for none: the
 *            model then predicts the columns (see tp_result).
 *   options  in, may be NULL (the defaults; see tp_options). Read during
 *            the call only.
 *   result   out: a new result on success (free with tp_result_free), NULL
 *            on failure. Besides the tree and the columns, it has:
 *              confidence    n_words doubles: confidence[i] for word i;
 *                            NULL unless options->confidence.
 *              n_trees       the number of trees, at most options->kbest
 *                            (fewer when the final beam holds fewer
 *                            distinct trees); 0 unless options->kbest > 0.
 *              tree_heads    n_trees * n_words heads: tree t's head of
 *                            word i is tree_heads[t * n_words + i]
 *                            (1-based, 0 for the root); NULL when n_trees
 *                            is 0. Tree 0 is the best tree, the one in
 *                            heads and deprels.
 *              tree_deprels  n_trees * n_words deprels, laid out as
 *                            tree_heads.
 *              tree_scores   n_trees scores: the sum of the scores of the
 *                            tree's transitions (in the beam, of its best
 *                            derivation), best first; comparable between
 *                            the trees of one sentence only.
 *   err      out, may be NULL.
 *
 * Errors (arguments are checked in order; the first bad one is reported):
 *   TP_ERR_ARGUMENT  model, forms or result is NULL; forms[i] is NULL
 *                    ("tp_parse: forms[1] is NULL"); the model handle was
 *                    freed or is invalid; bad options (see tp_options).
 *   TP_ERR_INPUT     n_words is 0 or more than TP_MAX_WORDS ("tp_parse:
 *                    n_words is 10001, more than TP_MAX_WORDS (10000)");
 *                    a form or tag that is longer than TP_MAX_TOKEN_BYTES,
 *                    not valid UTF-8 or contains a tab or line break, or
 *                    an empty form (the message names the argument:
 *                    "tp_parse: forms[3] is not valid UTF-8", "tp_parse:
 *                    forms[0] is empty", "tp_parse: tags->lemma[2] is
 *                    longer than TP_MAX_TOKEN_BYTES (1024 bytes)"); a
 *                    sentence without tags given to a model without a
 *                    tagger (see tp_tags).
 *   TP_ERR_NOMEM, TP_ERR_FORK, TP_ERR_INTERNAL.
 *
 * Thread-safe: any number of threads may parse with the same model at once.
 * Deterministic: the same input and options give the same result.
 */
TP_API int tp_parse(const tp_model *model, const char *const *forms,
                    size_t n_words, const tp_tags *tags,
                    const tp_options *options, tp_result **result,
                    tp_error **err);

/*
 * tp_parse_batch parses many tokenized sentences in one call: the checks
 * and the crossing into the library are paid once per batch, and a Python
 * caller releases the GIL once for the whole batch. The sentences are
 * parsed one after the other on the calling thread (call it from several
 * threads, each with its own batch, to use several cores). Each sentence
 * gets the tree, confidences and trees tp_parse gives it with the same
 * options.
 *
 *   model        a loaded model.
 *   forms        the word forms of all sentences, one after the other:
 *                offsets[n_sentences] forms, each as in tp_parse.
 *   offsets      n_sentences + 1 indices into forms: sentence k is
 *                forms[offsets[k]] .. forms[offsets[k+1] - 1];
 *                offsets[0] is 0 and each sentence has 1 to TP_MAX_WORDS
 *                words.
 *   n_sentences  number of sentences, at least 1.
 *   tags         optional annotations (see tp_tags) whose arrays are
 *                aligned with forms (offsets[n_sentences] elements each),
 *                or NULL. Each sentence chooses its classifier on its own
 *                tags, as in tp_parse.
 *   options      in, may be NULL (see tp_options).
 *   result       out: one result for the whole batch (free with
 *                tp_result_free), NULL on failure. Its arrays are aligned
 *                with forms (n_words = offsets[n_sentences]); heads are
 *                1-based within each sentence (0 for its root), so word i
 *                (1-based) of sentence k is at index offsets[k] + i - 1
 *                and its head at offsets[k] + heads[...] - 1. With
 *                sentence k's word i at index offsets[k] + i (0-based i):
 *                  confidence    n_words doubles aligned with forms; NULL
 *                                unless options->confidence.
 *                  n_trees       the most trees any sentence has, at most
 *                                options->kbest; 0 unless kbest > 0.
 *                  tree_heads    n_trees * n_words heads: tree t of
 *                                sentence k has the head of its word i at
 *                                tree_heads[t * n_words + offsets[k] + i]
 *                                (1-based within the sentence, 0 for its
 *                                root). Tree 0 of each sentence is its
 *                                best tree, the one in heads and deprels.
 *                  tree_deprels  n_trees * n_words deprels, laid out as
 *                                tree_heads.
 *                  tree_scores   n_trees * n_sentences scores: tree t of
 *                                sentence k has its score at
 *                                tree_scores[t * n_sentences + k].
 *                A sentence whose final beam holds fewer distinct trees
 *                than n_trees has, for each missing tree t, the score
 *                -INFINITY, heads -1 and deprels "_": its trees are those
 *                t with tree_scores[t * n_sentences + k] > -INFINITY. For
 *                one sentence this is the layout of tp_parse.
 *   err          out, may be NULL.
 *
 * Errors: those of tp_parse, naming the element by its index in the flat
 * arrays and its place in the batch ("tp_parse_batch: forms[17] is not
 * valid UTF-8 (sentence 3, word 2)"; sentences count from 0, words from 1,
 * as in the results), and TP_ERR_ARGUMENT when offsets is NULL;
 * TP_ERR_INPUT when n_sentences is 0, offsets[0] is not 0, a sentence is
 * empty or longer than TP_MAX_WORDS ("tp_parse_batch: sentence 3 has 0
 * words"), the batch has more than TP_MAX_BATCH_WORDS words, or a
 * sentence is refused (the message names it: "tp_parse_batch: sentence
 * 3: ..."). Every word of the batch is checked before any is parsed; on
 * failure no result is returned.
 *
 * Thread-safe and deterministic, as tp_parse.
 */
TP_API int tp_parse_batch(const tp_model *model, const char *const *forms,
                          const size_t *offsets, size_t n_sentences,
                          const tp_tags *tags, const tp_options *options,
                          tp_result **result, tp_error **err);

/*
 * tp_result_free frees a result. NULL is ignored. Works after fork(). A
 * second free of the same result is undefined behaviour (not detectable).
 */
TP_API void tp_result_free(tp_result *result);

/*
 * tp_parse_document parses every sentence of a document and returns it as
 * CoNLL-U. The input is options->input:
 *
 *  - TP_INPUT_CONLLU (the default): CoNLL-U. The document comes back
 *    with HEAD and DEPREL filled in, UPOS, XPOS, LEMMA and FEATS as
 *    tp_parse gives them (given columns kept, absent ones predicted or
 *    "_", see tp_result). MISC SpaceAfter=No tells a model whose XPOS
 *    tagger reads spacing (the bundled one does) which punctuation is
 *    joined to its neighbours ("well-known": HYPH).
 *  - TP_INPUT_TOKENS: pre-tokenized text, one sentence per line, tokens
 *    separated by spaces or tabs, blank lines ignored, parsed from plain
 *    tokens (the model predicts UPOS, XPOS, LEMMA and FEATS as far as it
 *    has the components); each sentence gets "# sent_id = N" (1, 2, ...)
 *    and "# text" comments.
 *  - TP_INPUT_TEXT: raw UTF-8 text (a byte order mark starting it is
 *    whitespace before the first token), split into paragraphs (a blank
 *    line or U+2029 PARAGRAPH SEPARATOR ends one), sentences, tokens and multiword tokens by the model's
 *    segmenter (`transparse train` and tp_train learn one unless told
 *    not to: "segment": {"skip": true}), then tagged and parsed from
 *    plain tokens. The text is read as it streams: memory
 *    does not grow with its size, whatever it holds (a 10 MB run without
 *    whitespace included). Per sentence, the comments are "# newdoc" (the
 *    first sentence of the text only), "# newpar" (the first sentence of
 *    each paragraph), "# sent_id = N" (1, 2, ...) and "# text = ..." (the
 *    sentence's text, each run of whitespace between its tokens written
 *    as one space); a sentence cut at the segmenter's limit of 1000
 *    tokens also gets "# transparse_cut = ..." saying so. MISC keeps the
 *    spacing, so that the text can be rebuilt from the output byte for
 *    byte (except a run of more than 64 KiB of whitespace, recorded
 *    shortened): "SpaceAfter=No" where no whitespace follows a token,
 *    "SpacesAfter=..." where the whitespace after it (up to the next
 *    token, across sentences and paragraphs; after the last token, up to
 *    the end of the text) is anything but one space, "SpacesBefore=..."
 *    on the first token when whitespace precedes it, escaped as UDPipe
 *    does ("\s" space, "\t", "\r", "\n", "\p" for '|', "\\", "\uXXXX"
 *    for another control or format character, such as U+FEFF); then
 *    "TokenRange=START:END" when options->ranges asks for it. With
 *    options->presegmented each line is one sentence; with
 *    options->tokenize_only nothing is tagged or parsed (see tp_options).
 *
 * In every output, DEPS is "_" on each word parsed (no enhanced graph is
 * predicted) and a parsed sentence has no empty nodes (they are nodes of
 * the enhanced graph only; with them but without DEPS the file would not
 * be valid CoNLL-U); MISC, comments and multiword tokens are copied from
 * the input. A sentence copied through unparsed (TP_ON_ERROR_SKIP) keeps
 * its empty nodes. Each sentence obeys the limits of tp_parse, and the
 * reader's limits of one sentence (TP_MAX_DOC_SENTENCE_BYTES and its
 * neighbours: at most TP_MAX_WORDS + 1 word lines, TP_MAX_DOC_COMMENTS
 * comment lines, TP_MAX_DOC_COMMENT_BYTES bytes of comments,
 * TP_MAX_DOC_SENTENCE_BYTES bytes; with TP_ON_ERROR_SKIP a sentence over
 * them is written as its comments and a "# transparse_dropped = ..."
 * comment naming the lines left out).
 *
 *   model      a loaded model.
 *   text       the document, len bytes of UTF-8 (need not be
 *              NUL-terminated; exactly len bytes are read, during the call
 *              only).
 *   len        its length in bytes.
 *   options    in, may be NULL (see tp_options; space_after must be NULL).
 *   out_text   out: a new NUL-terminated string holding the parsed
 *              CoNLL-U; free with tp_string_free. NULL on failure.
 *   out_len    out, may be NULL: the length of *out_text in bytes,
 *              without the terminating NUL.
 *   n_skipped  out, may be NULL: the number of sentences copied through
 *              unparsed (TP_ON_ERROR_SKIP); 0 otherwise.
 *   err        out, may be NULL.
 *
 * Errors: TP_ERR_ARGUMENT (model, text or out_text is NULL; model freed;
 * bad options; TP_INPUT_TEXT given to a model without a segmenter, the
 * message saying how to get one; presegmented, ranges or tokenize_only
 * with another input), TP_ERR_INPUT (malformed input: the message gives
 * the line, e.g. "tp_parse_document: conllu: text:12: invalid UTF-8 at
 * byte 7"; a NUL byte in the text is malformed: "conllu: text:3: line
 * contains a NUL byte at byte 5"; raw text gives the byte offset in the
 * whole text instead, "tp_parse_document: invalid input: text: segment:
 * invalid UTF-8 at byte offset 5" (with TP_ON_ERROR_STOP; SKIP replaces
 * invalid UTF-8, see tp_options), "... a NUL byte at byte offset 4",
 * which ends there whatever on_error says, after the sentences before it
 * with TP_ON_ERROR_SKIP; messages quote at most 40 bytes of a value; a
 * sentence the parser rejects: the message names the sentence by its
 * sent_id or first word, e.g. "tp_parse_document: text: sentence
 * weblog-12: invalid input: sentence has 10001 words, the limit is
 * 10000", or for pre-tokenized text its line, "text:4: sentence 3:
 * invalid input: ..."; pre-tokenized text given to a gold-tags-only
 * model), TP_ERR_NOMEM, TP_ERR_FORK, TP_ERR_INTERNAL. With
 * TP_ON_ERROR_STOP the first error ends the call and nothing is returned
 * for the sentences before it; with TP_ON_ERROR_SKIP, TP_ERR_INPUT only
 * for an error that ends the input.
 *
 * Thread-safe.
 */
TP_API int tp_parse_document(const tp_model *model, const char *text,
                             size_t len, const tp_options *options,
                             char **out_text, size_t *out_len,
                             size_t *n_skipped, tp_error **err);

/* ======================================================================
 * Streaming
 * ====================================================================== */

/*
 * tp_read_fn is the input of a stream: it copies at most cap bytes of the
 * document into buf and returns how many (1..cap), 0 at the end of the
 * document, or -1 on failure (the stream then fails with TP_ERR_IO). ctx
 * is the pointer given to tp_stream_open. It is called only from within
 * tp_stream_next, on the thread that called it. It must not call tp_
 * functions on its stream or the stream's model: they return
 * TP_ERR_ARGUMENT (see THREAD SAFETY).
 */
typedef ptrdiff_t (*tp_read_fn)(void *ctx, char *buf, size_t cap);

/*
 * tp_stream parses a document one sentence at a time: its memory does not
 * grow with the document (one sentence, a 64 KiB read buffer and the
 * sentence returned), so a corpus of any size streams through in constant
 * memory. An opaque handle; like a model handle, a freed or made-up
 * stream is detected (TP_ERR_ARGUMENT).
 *
 * Thread-safety: a stream belongs to one thread at a time. Calls on the
 * same stream from two threads at once are refused (TP_ERR_ARGUMENT), not
 * undefined. Different streams, on the same model or not, may be used by
 * different threads at once. Each sentence obeys the limits of
 * TP_MAX_DOC_SENTENCE_BYTES and its neighbours, as in tp_parse_document.
 *
 * Example: parse stdin to stdout sentence by sentence.
 *
 *     static ptrdiff_t rd(void *ctx, char *buf, size_t cap) {
 *         size_t n = fread(buf, 1, cap, (FILE *)ctx);
 *         return (n == 0 && ferror((FILE *)ctx)) ? -1 : (ptrdiff_t)n;
 *     }
 *     ...
 *     tp_stream *st = NULL;
 *     if (tp_stream_open(model, rd, stdin, NULL, &st, &err) != TP_OK) ...
 *     const char *sent; size_t n;
 *     while (tp_stream_next(st, &sent, &n, &err) == TP_OK && sent != NULL)
 *         fwrite(sent, 1, n, stdout);
 *     tp_stream_free(st);
 */
typedef struct tp_stream tp_stream;

/*
 * tp_stream_open starts a stream over the document that read returns, to
 * be parsed as tp_parse_document parses it. Nothing is read yet.
 *
 *   model    a loaded model. It must stay loaded while the stream is used:
 *            tp_stream_next on a stream whose model was freed returns
 *            TP_ERR_ARGUMENT.
 *   read     the input callback (see tp_read_fn); ctx is passed to it.
 *   options  in, may be NULL (see tp_options; threads is ignored,
 *            space_after must be NULL). Read during the call only.
 *   stream   out: the new stream; free with tp_stream_free. NULL on
 *            failure.
 *   err      out, may be NULL.
 *
 * Errors: TP_ERR_ARGUMENT (model, read or stream is NULL; model freed;
 * bad options), TP_ERR_NOMEM, TP_ERR_FORK. Thread-safe.
 */
TP_API int tp_stream_open(const tp_model *model, tp_read_fn read, void *ctx,
                          const tp_options *options, tp_stream **stream,
                          tp_error **err);

/*
 * tp_stream_next reads, parses and returns the next sentence of the
 * document as CoNLL-U: its comment and token lines and the blank line
 * that ends it (or, with TP_ON_ERROR_SKIP, a sentence copied through).
 * Concatenated, the sentences are what tp_parse_document returns.
 *
 *   stream    an open stream.
 *   sentence  out: a NUL-terminated string owned by the stream, valid
 *             until the next call on the stream or tp_stream_free (do not
 *             free it); NULL at the end of the document, and on failure.
 *   len       out, may be NULL: its length in bytes, without the NUL; 0
 *             at the end.
 *   err       out, may be NULL.
 *
 * At the end of the document it returns TP_OK with *sentence NULL.
 * Errors: TP_ERR_ARGUMENT (stream or sentence is NULL; stream freed or in
 * use by another thread; its model freed; called from the read callback
 * of this stream or of a stream on the same model), TP_ERR_INPUT (as
 * tp_parse_document: malformed input, a sentence the parser rejects; the
 * message names the line, "text:12: ..."), TP_ERR_IO (read returned -1 or
 * more than cap), TP_ERR_NOMEM, TP_ERR_FORK, TP_ERR_INTERNAL. Input and
 * I/O errors are final: every later call returns the same error.
 */
TP_API int tp_stream_next(tp_stream *stream, const char **sentence,
                          size_t *len, tp_error **err);

/*
 * tp_stream_stats returns what tp_stream_next has returned so far: the
 * number of sentences and, of them, the number copied through unparsed
 * (TP_ON_ERROR_SKIP). Either out pointer may be NULL.
 *
 * Errors: TP_ERR_ARGUMENT (stream NULL or freed, or in use by another
 * thread), TP_ERR_FORK.
 */
TP_API int tp_stream_stats(const tp_stream *stream, size_t *sentences,
                           size_t *skipped, tp_error **err);

/*
 * tp_stream_free frees a stream and the sentence it returned last. NULL is
 * ignored. Returns TP_OK, TP_ERR_ARGUMENT (freed twice, or in use by
 * another thread) or TP_ERR_FORK. The model is not freed.
 */
TP_API int tp_stream_free(tp_stream *stream);

/* ======================================================================
 * Transition systems, training, saving
 * ====================================================================== */

/*
 * tp_systems lists the transition systems the library implements (and
 * tp_train accepts), one name per line, each followed by '\n', sorted:
 * "2-planar\n3-planar\narc-eager\n...". Their papers, oracles and bounds:
 * docs/systems.md.
 *
 *   names  out: a malloc'd NUL-terminated string; free with
 *          tp_string_free. NULL on failure.
 *   err    out, may be NULL.
 *
 * Errors: TP_ERR_ARGUMENT (names is NULL), TP_ERR_NOMEM, TP_ERR_FORK.
 * Thread-safe.
 */
TP_API int tp_systems(char **names, tp_error **err);

/*
 * tp_train trains a model on a CoNLL-U treebank, as `transparse train`
 * does, and returns it as a new model handle.
 *
 *   options  in: a JSON object (UTF-8, NUL-terminated) of training
 *            options: the same names, defaults and checks as the options
 *            file of `transparse train --options` and the keyword
 *            arguments of Python's transparse.train (the Go train.Options
 *            and its JSON names). Required: "train" and "dev" (paths of
 *            CoNLL-U files: the training set and the development set that
 *            selects the best epochs). Optional: "system" (a name of
 *            tp_systems; default "arc-eager"), "test" (scored once for the
 *            model card), "output" (also save the model file there; absent
 *            or "": not saved), "name" (default: the output's base name
 *            without extension), "clusters" (path of a file of word
 *            clusters, read by the taggers and by parser templates over
 *            them, Brown clustering's "paths" format, one
 *            "path<TAB>word[<TAB>count]" a line; stored in the model; a
 *            malformed file fails with its line number; absent: none),
 *            "max_sentences", "seed" (default 1), "pseudo_projective"
 *            ("baseline", "head", "path", "head+path"), "gold_only" (true:
 *            no taggers; the model then parses only sentences given with
 *            tags), "weight_bits" (bits of every classifier's stored
 *            weights, 2..16; default 12), "jackknife_folds" (default 4;
 *            not 1; more folds than training sentences are reduced to one
 *            per sentence), and these groups, each an object:
 *            "gold" and "plain", the gold-tag and the plain-token parser:
 *            "epochs" (default 15), "runs" (classifiers trained with
 *            different seeds and averaged into one; default 1 for
 *            "gold", 2 for "plain"), "explore" (a probability, at most 1;
 *            default 0.9), "min_feature_updates" (default 5),
 *            "drop_weights_below" (default 1.5 for "gold", 0.5 for
 *            "plain"), "templates" (an array of feature templates, e.g.
 *            ["s0.w", "s0.p+n0.p", "n0l.d"]; syntax in docs/features.md;
 *            null or absent: the system's), "fast_templates" (an array: a
 *            fast classifier put in front of the parser, which decides
 *            the states it is sure of, by a margin tuned on "dev"; absent:
 *            none), "fast_max_loss" (the dev LAS the fast classifier may
 *            cost; default 0.1);
 *            "taggers": "epochs", "runs" (perceptrons trained with
 *            different sentence orders and averaged into each tagger;
 *            default 3), "drop_weights_below" (default 0: keep all);
 *            "morph": "skip" (true: no lemmatizer and FEATS tagger; the
 *            model leaves LEMMA and FEATS as given),
 *            "lemma_rank_without_shape" (true: the lemmatizer ranks its
 *            candidates without the features of their place and of their
 *            lemma's ending);
 *            "segment": "skip" (true: no segmenter, so the model reads
 *            CoNLL-U and pre-tokenized text only; by default one is
 *            trained on the training treebank's text for TP_INPUT_TEXT);
 *            "beam": "width" (2 to TP_MAX_BEAM: also train classifiers
 *            for beam search of that width for the gold-tag and the
 *            plain-token parser, which the parse functions use at beam
 *            widths above 1, and make that width the model's default
 *            (tp_model_default_beam); default 0: none), "epochs"
 *            (default 10), "runs" (beam classifiers trained side by side
 *            on different orders of the training sentences and averaged
 *            into one, on up to as many threads as CPUs; default 2) and
 *            "default_width" (the model's default width instead, 1 to
 *            TP_MAX_BEAM, only with "width": a beam classifier often
 *            parses best on dev at a larger width than it was trained
 *            at; default 0: "width"). A number option at 0 takes its
 *            default. The model card records the options by these names,
 *            a group's as "group.name" (e.g. "gold.epochs").
 *            Unknown keys are an error.
 *   model    out: the new model; free with tp_model_free. NULL on failure.
 *   err      out, may be NULL.
 *
 * Everything is checked before training starts: the options, the output
 * path, and the three treebanks (read in full; each must have at least one
 * sentence with every HEAD and DEPREL). Training sentences of more than
 * 400 words are skipped (noted in the card's "skipped_long").
 *
 * Errors: TP_ERR_ARGUMENT (options or model is NULL; options not a JSON
 * object, an unknown key, a value of the wrong type, a required key
 * missing, or an option no training accepts: an unknown system (the
 * message lists the known ones) or pseudo-projective encoding, a negative
 * count, jackknife_folds 1, explore above 1, weight_bits out of range, an
 * empty template array, an invalid template (the message names it, e.g.
 * "gold.templates[3]"), an output path that is a directory or not
 * writable; the message is the one `transparse train` prints, e.g.
 * "tp_train: train: jackknife_folds: 1: want 0 (the default, 4) or at
 * least 2 ..."),
 * TP_ERR_IO (a treebank or the output cannot be read or written: the
 * message has the path), TP_ERR_INPUT (malformed CoNLL-U: the message has
 * the file and line; a treebank with nothing to learn or score),
 * TP_ERR_NOMEM, TP_ERR_FORK, TP_ERR_INTERNAL. Blocks for the whole
 * training (minutes on a full treebank; it uses every core). The same
 * options give the same model; with the environment variable
 * SOURCE_DATE_EPOCH set, the same file byte for byte (the card's
 * "trained_at" is that time and no training time is recorded).
 * Thread-safe.
 */
TP_API int tp_train(const char *options, tp_model **model, tp_error **err);

/*
 * tp_progress is one report of training progress, passed to a
 * tp_progress_fn. A phase is one thing being trained: "tagger UPOS",
 * "tagger XPOS", "jackknife", "parser (gold tags)", "parser (plain
 * tokens)", or a fast classifier ("parser (gold tags, fast)", ...), and
 * last, with a "beam" width, "parser (gold tags, beam)" and "parser
 * (plain tokens, beam)". The gold-tag
 * and plain-token parsers train at the same time, so their reports
 * interleave.
 */
typedef struct tp_progress {
    /* The phase's name (UTF-8, NUL-terminated); valid only during the
     * call. */
    const char *phase;
    /* The 1-based epoch of a parser phase and the number of epochs; 0 and
     * 0 for the tagger and jackknife phases, whose done/total span all
     * their epochs. */
    int epoch, epochs;
    /* done of total units: words (tagger), folds (jackknife), training
     * sentences of this epoch, all runs counted (parser). */
    int64_t done, total;
    /* Nonzero at the end of a parser epoch: dev_uas and dev_las are that
     * epoch's development scores (percent, CoNLL 2018), best is nonzero
     * when the epoch is the best so far. Otherwise all three are 0. */
    int epoch_end;
    double dev_uas, dev_las;
    int best;
} tp_progress;

/*
 * tp_progress_fn receives training progress. Return 0 to go on, nonzero
 * to stop the training: the training function then returns
 * TP_ERR_CANCELED soon (within a few hundred sentences, or after the
 * taggers being trained finish).
 *
 * It is called on a thread of the library's (not the caller's), one call
 * at a time (never concurrently), at most about ten times a second per
 * phase besides the first and last report of each phase and epoch. It
 * must return quickly, must not call any tp_ function, and must not unwind
 * (longjmp, a C++ exception) through the library.
 */
typedef int (*tp_progress_fn)(const tp_progress *progress, void *user);

/*
 * tp_train_with_progress is tp_train that reports progress to fn (NULL:
 * no reports, as tp_train), passing user through unchanged. Arguments,
 * errors, ownership and thread-safety as for tp_train, and
 * TP_ERR_CANCELED when fn returned nonzero (no model is returned and
 * nothing is saved).
 */
TP_API int tp_train_with_progress(const char *options, tp_progress_fn fn,
                                  void *user, tp_model **model,
                                  tp_error **err);

/*
 * tp_model_save writes model to a model file at path (atomically: a
 * temporary file in the same directory, then renamed).
 *
 * path must be a regular file, a new path, or a symbolic link to one of
 * these: a link is written through (the file at the end of its links is
 * replaced atomically; the link stays). A directory, device, FIFO or socket
 * at path is refused with TP_ERR_IO before anything is written ("...:
 * is a character device, not a regular file; ..."), and left as it is.
 *
 *   model  in: a loaded or trained model.
 *   path   in: NUL-terminated file name.
 *   err    out, may be NULL.
 *
 * Errors: TP_ERR_ARGUMENT (model or path is NULL; model freed), TP_ERR_IO
 * (the file cannot be written: the message has the path), TP_ERR_NOMEM,
 * TP_ERR_FORK, TP_ERR_INTERNAL. Thread-safe.
 */
TP_API int tp_model_save(const tp_model *model, const char *path,
                         tp_error **err);

/*
 * tp_default_model_path returns the file of the default model (the bundled
 * UD English EWT model, en_ewt.tpm), for callers that were given no model.
 * The order, first match wins:
 *
 *   1. $TRANSPARSE_MODEL, when set and not empty (returned whether or not
 *      the file exists, so that a wrong setting fails at load time);
 *   2. DIR/models/en_ewt.tpm, DIR being the directory of the loaded
 *      libtransparse.so (symbolic links resolved): a model shipped beside
 *      the library;
 *   3. DIR/../share/transparse/models/en_ewt.tpm: an installation by
 *      `./build.sh install PREFIX` (DIR is PREFIX/lib);
 *   4. the models/en_ewt.tpm of a data directory compiled into the library
 *      (distribution packages, e.g. /usr/share/transparse);
 *   5. DIR/../models/en_ewt.tpm: the repository's model, seen from its
 *      build tree's lib/.
 *
 * Steps 2-5 return only regular files that exist. The command line tool
 * follows the same order from the directory of its executable.
 *
 * Returns: a NUL-terminated path owned by the library, valid until the
 * library is unloaded (do not free it), or NULL when there is no default
 * model, in a child process created by fork() (see TP_ERR_FORK), or when
 * out of memory. Reads the environment at each call. Thread-safe.
 */
TP_API const char *tp_default_model_path(void);

/* ======================================================================
 * Pictures of trees
 * ====================================================================== */

/*
 * tp_render_svg draws the dependency tree of one CoNLL-U sentence as a
 * standalone SVG document (UTF-8, no XML declaration, so that it can also
 * be inlined in HTML): the words left to right with their UPOS under them,
 * and above them one arc per dependency from the head to the dependent,
 * labelled with its DEPREL; the root gets a vertical arrow labelled with
 * its DEPREL. Drawn from the HEAD, DEPREL and UPOS columns as given (a
 * HEAD of "_" draws no arc); no model is involved. `transparse render`
 * draws the same pictures.
 *
 *   text     the CoNLL-U text of exactly one sentence, len bytes (need not
 *            be NUL-terminated; read during the call only).
 *   len      its length in bytes.
 *   out_svg  out: a new NUL-terminated string holding the SVG document;
 *            free with tp_string_free. NULL on failure.
 *   out_len  out, may be NULL: the length of *out_svg in bytes, without
 *            the terminating NUL.
 *   err      out, may be NULL.
 *
 * Errors: TP_ERR_ARGUMENT (text or out_svg is NULL), TP_ERR_INPUT
 * (malformed CoNLL-U: the message gives the line, e.g. "tp_render_svg:
 * conllu: text:3: ..."; no sentence; more than one sentence; more than
 * TP_MAX_SVG_WORDS words), TP_ERR_NOMEM, TP_ERR_FORK, TP_ERR_INTERNAL. Thread-safe.
 */
TP_API int tp_render_svg(const char *text, size_t len, char **out_svg,
                         size_t *out_len, tp_error **err);

/* ======================================================================
 * The transition systems as an engine
 *
 * Every transition system of the parser (tp_system_new lists the names;
 * docs/engine.md) with its exact static oracle and, where the system has
 * one, its dynamic oracle, for callers that bring their own scorer. A
 * system's moves and deprels form a table of classes: each unlabeled move
 * is one class, each labeled move one class per deprel, in the system's
 * move order (tp_system_classes). Nodes are numbered as in CoNLL-U: 0 is
 * the artificial root, words are 1..n. A tree is given as two arrays of n
 * int32_t: heads[i] is the head of word i+1 (0..n), deprels[i] the index
 * of its deprel in the system's deprel list.
 *
 * tp_system and tp_state are opaque handles; a freed or made-up handle
 * gives TP_ERR_ARGUMENT, never undefined behaviour. A system is read-only
 * and may be shared by threads; a state takes a lock in every call (so
 * calls on one state from several threads are serialized, not unsafe).
 * A state stays usable after its system is freed.
 * ==================================================================== */

typedef struct tp_system tp_system;
typedef struct tp_state tp_state;

/*
 * tp_system_new makes the system called name over the caller's deprels.
 *
 *   name       "SYSTEM" or "SYSTEM/ENCODING". SYSTEM is a system name:
 *              "arc-standard", "arc-eager", "arc-hybrid",
 *              "covington-nonprojective", "covington-projective",
 *              "swap-eager", "swap-lazy", "planar", "2-planar",
 *              "3-planar", "two-registers", "two-registers-literal"
 *              (tp_systems lists them; the message of an unknown name
 *              too). ENCODING adds a pseudo-projective encoding (Nivre &
 *              Nilsson 2005; docs/engine.md), one of the values of
 *              `transparse train --pseudo-projective`: "baseline" (lift,
 *              labels unchanged), "head" (l|h on a lifted arc), "path"
 *              (l| lifted, p% on the path) or "head+path" (both), e.g.
 *              "arc-eager/head+path". With an encoding, the system's
 *              deprels are the n_deprels given (indices 0..n_deprels-1;
 *              none may hold '|' or '%') and then the encoded labels the
 *              encoding can give (for each deprel l but root, in order:
 *              head l|h for each h but root; path l|, l%, l|%; head+path
 *              l|h and l|h% for each h, then l%; baseline none): the class
 *              table covers them all. The gold trees of tp_system_oracle,
 *              tp_system_oracle_document and tp_state_cost are then given
 *              over the n_deprels deprels, and one outside the system's
 *              class is projectivized first, the lifts encoded in its
 *              labels, as the parser's trainer does; tp_system_decode
 *              undoes the encoding on a derived tree. Messages that name
 *              the system give the whole name, suffix included.
 *   deprels    n_deprels NUL-terminated strings, copied, no two equal;
 *              one must be "root": arcs from node 0 take exactly that
 *              deprel, and no other arc takes it (the parser's root rule).
 *   system     out: the new system; free with tp_system_free.
 *
 * Errors: TP_ERR_ARGUMENT (NULL argument, unknown system name, unknown
 * encoding (the message lists the valid ones), no "root", a deprel twice,
 * a deprel with '|' or '%' with an encoding), TP_ERR_FORK,
 * TP_ERR_INTERNAL. Thread-safe.
 */
TP_API int tp_system_new(const char *name, const char *const *deprels,
                         size_t n_deprels, tp_system **system,
                         tp_error **err);

/* tp_system_free frees a system. NULL is ignored. Errors: TP_ERR_ARGUMENT
 * (freed or invalid handle), TP_ERR_FORK. Thread-safe. */
TP_API int tp_system_free(tp_system *system);

/*
 * tp_system_classes gives the class table: *names is a new string with
 * one line per class, in class order, each ending in '\n': the move
 * ("SHIFT", "LEFT-ARC", ...) and for labeled moves ":" and the deprel
 * ("LEFT-ARC:nsubj"). Free with tp_string_free. Errors: TP_ERR_ARGUMENT,
 * TP_ERR_NOMEM, TP_ERR_FORK. Thread-safe.
 */
TP_API int tp_system_classes(const tp_system *system, char **names,
                             tp_error **err);

/* tp_system_max_transitions stores in *max the bound on the length of any
 * derivation of n_words words (2n for the stack systems, n(n+3)/2 for
 * Covington, ...): a capacity for tp_system_oracle. Errors:
 * TP_ERR_ARGUMENT, TP_ERR_INPUT (more than TP_MAX_WORDS), TP_ERR_FORK.
 * Thread-safe. */
TP_API int tp_system_max_transitions(const tp_system *system, size_t n_words,
                                     size_t *max, tp_error **err);

/*
 * tp_system_oracle runs the static oracle on a gold tree of n_words words
 * and stores the class sequence that derives it in classes[0..*len).
 *
 *   heads, deprels  the tree (see above), read during the call only.
 *   classes         out: capacity int32_t (tp_system_max_transitions is
 *                   always enough).
 *   len             out: the length of the derivation (also set when
 *                   capacity is too small).
 *
 * Errors: TP_ERR_INPUT (not a tree: a head out of range, a cycle, a
 * deprel index out of range; or a tree outside the system's class, e.g.
 * a non-projective tree for arc-eager: the message names the system and
 * the first arc outside the class, the arcs taken in word order of their
 * dependents: "... is 6 -> 12 (obl)"), TP_ERR_ARGUMENT (NULL,
 * capacity too small), TP_ERR_FORK. Thread-safe.
 */
TP_API int tp_system_oracle(const tp_system *system, const int32_t *heads,
                            const int32_t *deprels, size_t n_words,
                            int32_t *classes, size_t capacity, size_t *len,
                            tp_error **err);

/*
 * The static oracle of every sentence of a document (tp_system_oracle_document),
 * as flat arrays. Allocated by the library as one block, freed with
 * tp_oracle_doc_free; read-only for the caller.
 *
 *   n_sentences  the number of sentences of the document.
 *   n_words      n_sentences word counts (multiword tokens and empty
 *                nodes are not words).
 *   in_class     n_sentences flags: 1 if the sentence's tree is in the
 *                system's class, 0 if not (its sequence is then empty).
 *   offsets      n_sentences + 1 offsets into classes: the sequence of
 *                sentence i is classes[offsets[i] .. offsets[i+1]).
 *   classes      offsets[n_sentences] class indices, the sequences one
 *                after the other, each what tp_system_oracle gives.
 */
typedef struct tp_oracle_doc {
    size_t n_sentences;
    const size_t *n_words;
    const uint8_t *in_class;
    const size_t *offsets;
    const int32_t *classes;
} tp_oracle_doc;

/*
 * tp_system_oracle_document reads a CoNLL-U document (text, len bytes of
 * UTF-8, read during the call only; need not be NUL-terminated) and runs
 * the static oracle on the gold tree (HEAD, DEPREL) of every sentence in
 * one call. A tree outside the system's class is no error: its in_class
 * is 0. *result is the new result (NULL on failure); free it with
 * tp_oracle_doc_free.
 *
 * Errors: TP_ERR_INPUT (malformed CoNLL-U, as for tp_parse_document; a
 * sentence of more than TP_MAX_WORDS words, without HEAD, or with a
 * DEPREL that is not one of the system's: the message gives the line and
 * the sentence number, e.g. "text:40: sentence 3: word 2 has deprel
 * \"nsubj:outer\", not one of the system's"), TP_ERR_ARGUMENT (NULL),
 * TP_ERR_NOMEM, TP_ERR_FORK, TP_ERR_INTERNAL. Thread-safe.
 */
TP_API int tp_system_oracle_document(const tp_system *system, const char *text,
                                     size_t len, tp_oracle_doc **result,
                                     tp_error **err);

/* tp_oracle_doc_free frees a result of tp_system_oracle_document. NULL is
 * ignored. Thread-safe. */
TP_API void tp_oracle_doc_free(tp_oracle_doc *result);

/*
 * tp_system_decode undoes the pseudo-projective encoding of the system on a
 * tree of n_words words over all its deprels (e.g. a terminal state's
 * TP_VIEW_HEADS and TP_VIEW_DEPRELS): the lifted arcs are moved back
 * (Nivre & Nilsson 2005 §3) and every deprel is stripped of its marks.
 * out_heads and out_deprels (n_words int32_t each, may be the input
 * arrays) receive the tree, its deprels as indices into the first
 * n_deprels deprels of tp_system_new. Errors: TP_ERR_ARGUMENT (NULL, a
 * system without an encoding), TP_ERR_INPUT (not a tree), TP_ERR_FORK.
 * Thread-safe.
 */
TP_API int tp_system_decode(const tp_system *system, const int32_t *heads,
                            const int32_t *deprels, size_t n_words,
                            int32_t *out_heads, int32_t *out_deprels,
                            tp_error **err);

/* tp_state_new makes the initial configuration of system for n_words
 * words (0 to TP_MAX_WORDS); free with tp_state_free. Errors:
 * TP_ERR_ARGUMENT, TP_ERR_INPUT, TP_ERR_FORK. Thread-safe. */
TP_API int tp_state_new(const tp_system *system, size_t n_words,
                        tp_state **state, tp_error **err);

/* tp_state_copy makes an independent copy of state (for search); free it
 * with tp_state_free. Errors: TP_ERR_ARGUMENT, TP_ERR_FORK. */
TP_API int tp_state_copy(const tp_state *state, tp_state **copy,
                         tp_error **err);

/* tp_state_free frees a state. NULL is ignored. Errors: TP_ERR_ARGUMENT
 * (freed or invalid handle), TP_ERR_FORK. */
TP_API int tp_state_free(tp_state *state);

/*
 * tp_state_legal writes mask[k] = 1 if class k is legal in state, else 0.
 * n_classes must be the system's number of classes (the lines of
 * tp_system_classes). A terminal state has no legal class in some systems
 * and some in others: test tp_state_is_terminal first. Errors:
 * TP_ERR_ARGUMENT, TP_ERR_FORK.
 */
TP_API int tp_state_legal(const tp_state *state, uint8_t *mask,
                          size_t n_classes, tp_error **err);

/* tp_state_apply applies class k. Errors: TP_ERR_ARGUMENT (k out of
 * range), TP_ERR_INPUT (k not legal in state, or state terminal: the
 * message names the class; the state is unchanged), TP_ERR_FORK. */
TP_API int tp_state_apply(tp_state *state, size_t k, tp_error **err);

/* tp_state_is_terminal sets *terminal to 1 if state is terminal, else 0.
 * Errors: TP_ERR_ARGUMENT, TP_ERR_FORK. */
TP_API int tp_state_is_terminal(const tp_state *state, int *terminal,
                                tp_error **err);

/* The parts of a configuration tp_state_view reads. */
enum tp_view {
    /* the stack, bottom first (the top last); Covington: λ1 */
    TP_VIEW_STACK = 0,
    /* the buffer, front first */
    TP_VIEW_BUFFER = 1,
    /* n_words heads so far: out[i] is the head of word i+1, -1 if none */
    TP_VIEW_HEADS = 2,
    /* n_words deprel indices so far, -1 if none */
    TP_VIEW_DEPRELS = 3
};

/* tp_state_view copies the part `which` (enum tp_view) of state to
 * out[0..*len) as node numbers or deprel indices. Errors: TP_ERR_ARGUMENT
 * (NULL, unknown which, capacity too small: *len still gives the length),
 * TP_ERR_FORK. */
TP_API int tp_state_view(const tp_state *state, int which, int32_t *out,
                         size_t capacity, size_t *len, tp_error **err);

/*
 * tp_state_cost is the dynamic oracle: *cost is the number of arcs of the
 * gold tree (heads, deprels over n_words words, as for tp_system_oracle)
 * that class k makes unreachable from state, a right head with a wrong
 * deprel counting as lost (Goldberg & Nivre 2012, 2013; Gómez-Rodríguez &
 * Fernández-González 2015). For arc-eager, arc-hybrid and
 * covington-nonprojective. Errors: TP_ERR_ARGUMENT (another system, NULL,
 * k out of range, n_words not the state's), TP_ERR_INPUT (not a tree; k
 * not legal in state), TP_ERR_FORK.
 */
TP_API int tp_state_cost(const tp_state *state, const int32_t *heads,
                         const int32_t *deprels, size_t n_words, size_t k,
                         int *cost, tp_error **err);

/* tp_state_apply_deprel is tp_state_apply for a class whose move adds an
 * arc without a deprel of its own: arc-eager's REDUCE of a headless node
 * once the buffer is empty attaches it to the node below (see
 * docs/transition-systems.md), and tp_state_apply leaves that arc's
 * deprel -1; here it takes deprel (an index; arcs from node 0 only
 * "root", others any but "root"). deprel -1 is tp_state_apply. The
 * greedy parser gives such an arc the best-scoring deprel of the labeled
 * arc move in its direction (RIGHT-ARC if the head is left of the word).
 * Errors: TP_ERR_ARGUMENT (k or deprel out of range, deprel >= 0 for a
 * class that adds no such arc), TP_ERR_INPUT (k not legal, terminal
 * state, the root rule broken; the state is unchanged), TP_ERR_FORK. */
TP_API int tp_state_apply_deprel(tp_state *state, size_t k, int32_t deprel,
                                 tp_error **err);

/* The classifiers of a model that tp_state_features and tp_state_scores
 * read (values are stable): */
#define TP_SCORER_GOLD 0      /* the parser of sentences with gold tags */
#define TP_SCORER_GOLD_FAST 1 /* its fast classifier (the models with one) */
#define TP_SCORER_GREEDY 2    /* tp_state_scores only: see there */

/*
 * tp_state_features stores in ids[0..*len) the hashed feature ids (one
 * per template of the classifier, in template order; 64-bit hashes of the
 * template and the values it reads, before the classifier's own hashing
 * into its weight table) that model's scorer (TP_SCORER_GOLD or
 * TP_SCORER_GOLD_FAST) extracts in state for the sentence of n_words
 * words, forms and tags as for tp_parse. The columns are read as given:
 * nothing is tagged, so give UPOS, XPOS, LEMMA and FEATS as the gold-tag
 * parser reads them (a column left out reads as "_"). state must be a
 * configuration of the model's system over the model's deprels, in
 * order (tp_system_new with the system of the model's card, no encoding
 * suffix, and tp_model_deprels) for n_words words.
 *
 * Errors: TP_ERR_ARGUMENT (NULL, unknown scorer, no fast classifier, a
 * state of another system or length, capacity too small: *len still
 * gives the number), TP_ERR_INPUT (bad words, as for tp_parse),
 * TP_ERR_FORK. Thread-safe (the state is locked during the call).
 */
TP_API int tp_state_features(const tp_model *model, int scorer,
                             const tp_state *state, const char *const *forms,
                             const tp_tags *tags, size_t n_words,
                             uint64_t *ids, size_t capacity, size_t *len,
                             tp_error **err);

/*
 * tp_state_scores stores in scores[0..n_classes) the scores model's
 * scorer gives every class in state (arguments as for tp_state_features;
 * n_classes must be the system's number of classes). TP_SCORER_GREEDY
 * gives the scores the greedy parser (tp_parse with gold tags) decides
 * on: those of the fast classifier when its best legal class beats every
 * other legal one by the model's margin, else those of TP_SCORER_GOLD.
 * The parser's next move is the legal class with the highest score (the
 * first in class order among equal ones), an arc without a deprel of its
 * own taking the deprel tp_state_apply_deprel describes; at the end it
 * attaches the words still headless to the root word (deprel "dep"), or
 * to node 0 with "root" if there is none. Errors: as tp_state_features.
 * Thread-safe.
 */
TP_API int tp_state_scores(const tp_model *model, int scorer,
                           const tp_state *state, const char *const *forms,
                           const tp_tags *tags, size_t n_words, float *scores,
                           size_t n_classes, tp_error **err);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TRANSPARSE_H */
