/*
 * test_capi.c -- tests of every function of include/transparse.h.
 *
 *   usage: test_capi [MODEL]
 *
 * MODEL defaults to $TRANSPARSE_MODEL, then ../models/en_ewt.tpm relative to
 * the current directory's repository (build.sh passes it explicitly). Tests
 * that need a model are skipped, and say so, when the file does not exist.
 * The last line of output is "N passed, M failed"; the exit status is 0 only
 * if nothing failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <transparse.h>

static int passed, failed, skipped;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (cond) {                                                            \
            passed++;                                                          \
        } else {                                                               \
            failed++;                                                          \
            fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond);   \
        }                                                                      \
    } while (0)

#define CHECKF(cond, ...)                                                      \
    do {                                                                       \
        if (cond) {                                                            \
            passed++;                                                          \
        } else {                                                               \
            failed++;                                                          \
            fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
        }                                                                      \
    } while (0)

static void skip(const char *what, const char *why) {
    skipped++;
    printf("SKIP: %s: %s\n", what, why);
}

/* expect_err checks that a call failed with code want, that the error object
 * says so, and that its message contains every one of the given substrings
 * (up to three; NULL ends the list). It frees err. */
#define EXPECT_ERR(call, err, want, ...)                                       \
    do {                                                                       \
        int rc_ = (call); /* sequenced before err is read */                   \
        expect_err(__FILE__, __LINE__, #call, rc_, (err), (want), __VA_ARGS__, \
                   NULL);                                                      \
    } while (0)

static void expect_err(const char *file, int line, const char *call, int rc,
                       tp_error *err, int want, const char *s1,
                       const char *s2, ...) {
    const char *msg = tp_error_message(err);
    int ok = rc == want && err != NULL && tp_error_code(err) == want;
    if (ok && s1 && !strstr(msg, s1))
        ok = 0;
    if (ok && s2 && !strstr(msg, s2))
        ok = 0;
    if (ok) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "%s:%d: FAIL: %s: got %s (%s) \"%s\", want %s with \"%s\"%s%s\n",
                file, line, call, tp_status_name(rc),
                err ? tp_status_name(tp_error_code(err)) : "no error object",
                msg, tp_status_name(want), s1 ? s1 : "", s2 ? " and " : "",
                s2 ? s2 : "");
    }
    tp_error_free(err);
}

/* A handle that was never given out: argument checks come before the handle
 * is looked up, so argument errors can be tested without a model. */
static tp_model *const bogus = (tp_model *)(uintptr_t)0x7ffe1234;

/* Set by load tests: the loader is a stub ("not implemented") in this tree. */
static int loader_missing(int rc, tp_error *err) {
    return rc == TP_ERR_INTERNAL && strstr(tp_error_message(err), "not implemented");
}

/* ------------------------------------------------------------------ */

static void test_version(void) {
    CHECK(TP_VERSION_MAJOR == 0 && TP_VERSION_MINOR == 1 && TP_VERSION_PATCH == 0);
    CHECK(TP_VERSION_NUMBER == 100);
    CHECK(tp_version_number() == TP_VERSION_NUMBER);
    CHECK(strcmp(tp_version(), TP_VERSION_STRING) == 0);
    CHECK(strcmp(tp_version(), "0.1.0") == 0);
}

static void test_status_and_errors(void) {
    CHECK(strcmp(tp_status_name(TP_OK), "TP_OK") == 0);
    CHECK(strcmp(tp_status_name(TP_ERR_ARGUMENT), "TP_ERR_ARGUMENT") == 0);
    CHECK(strcmp(tp_status_name(TP_ERR_INPUT), "TP_ERR_INPUT") == 0);
    CHECK(strcmp(tp_status_name(TP_ERR_IO), "TP_ERR_IO") == 0);
    CHECK(strcmp(tp_status_name(TP_ERR_MODEL_FORMAT), "TP_ERR_MODEL_FORMAT") == 0);
    CHECK(strcmp(tp_status_name(TP_ERR_MODEL_VERSION), "TP_ERR_MODEL_VERSION") == 0);
    CHECK(strcmp(tp_status_name(TP_ERR_FORK), "TP_ERR_FORK") == 0);
    CHECK(strcmp(tp_status_name(TP_ERR_NOMEM), "TP_ERR_NOMEM") == 0);
    CHECK(strcmp(tp_status_name(TP_ERR_INTERNAL), "TP_ERR_INTERNAL") == 0);
    CHECK(strcmp(tp_status_name(-1), "TP_ERR_UNKNOWN") == 0);
    CHECK(strcmp(tp_status_name(99), "TP_ERR_UNKNOWN") == 0);
    CHECK(TP_OK == 0);

    /* NULL-tolerant accessors and frees. */
    CHECK(tp_error_code(NULL) == TP_OK);
    CHECK(tp_error_message(NULL) != NULL && tp_error_message(NULL)[0] == '\0');
    tp_error_free(NULL);
    tp_string_free(NULL);
    tp_result_free(NULL);
    CHECK(tp_model_free(NULL) == TP_OK);
}

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

static void test_load_errors(void) {
    tp_model *m = (tp_model *)1; /* must be overwritten with NULL */
    tp_error *err = NULL;
    const char *missing = "/nonexistent-dir/no-such-model.tpm";
    int rc = tp_model_load(missing, &m, &err);
    CHECK(m == NULL);
    if (loader_missing(rc, err)) {
        skip("load error classes", "parser.Load is not implemented in this tree yet");
        tp_error_free(err);
        return;
    }
    EXPECT_ERR(rc, err, TP_ERR_IO, "tp_model_load: ", missing);

    /* err == NULL: the code alone. */
    CHECK(tp_model_load(missing, &m, NULL) == TP_ERR_IO);

    char dir[] = "/tmp/tp_test_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(2);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/not-a-model.tpm", dir);
    const char text[] = "hello, I am a text file, not a model\n";
    write_file(path, text, sizeof text - 1);
    rc = tp_model_load(path, &m, &err);
    EXPECT_ERR(rc, err, TP_ERR_MODEL_FORMAT, "tp_model_load: ", "not a transparse model");
    CHECK(m == NULL);

    char empty[512];
    snprintf(empty, sizeof empty, "%s/empty.tpm", dir);
    write_file(empty, "", 0);
    rc = tp_model_load(empty, &m, &err);
    EXPECT_ERR(rc, err, TP_ERR_MODEL_FORMAT, "tp_model_load: ");

    /* A directory cannot be read as a file. */
    rc = tp_model_load(dir, &m, &err);
    EXPECT_ERR(rc, err, TP_ERR_IO, "tp_model_load: ", dir);

    rc = tp_model_load_from_memory(text, sizeof text - 1, &m, &err);
    EXPECT_ERR(rc, err, TP_ERR_MODEL_FORMAT, "tp_model_load_from_memory: ", "not a transparse model");
    rc = tp_model_load_from_memory(text, 0, &m, &err);
    EXPECT_ERR(rc, err, TP_ERR_MODEL_FORMAT, "tp_model_load_from_memory: ");

    unlink(path);
    unlink(empty);
    rmdir(dir);
}

static void test_null_arguments(void) {
    tp_model *m = NULL;
    tp_error *err = NULL;
    tp_result *res = NULL;
    char *s = NULL;
    size_t n = 0, len = 0;
    const char *const *names = NULL;
    const char *forms[] = {"I", "saw", "her"};

    EXPECT_ERR(tp_model_load(NULL, &m, &err), err, TP_ERR_ARGUMENT, "tp_model_load: path is NULL");
    EXPECT_ERR(tp_model_load("x.tpm", NULL, &err), err, TP_ERR_ARGUMENT, "tp_model_load: model is NULL");
    EXPECT_ERR(tp_model_load_from_memory(NULL, 10, &m, &err), err, TP_ERR_ARGUMENT,
               "tp_model_load_from_memory: data is NULL");
    EXPECT_ERR(tp_model_load_from_memory("abc", 3, NULL, &err), err, TP_ERR_ARGUMENT,
               "tp_model_load_from_memory: model is NULL");

    EXPECT_ERR(tp_model_card_json(NULL, &s, &err), err, TP_ERR_ARGUMENT, "tp_model_card_json: model is NULL");
    EXPECT_ERR(tp_model_card_json(bogus, NULL, &err), err, TP_ERR_ARGUMENT, "tp_model_card_json: json is NULL");

    EXPECT_ERR(tp_model_deprels(NULL, &names, &n, &err), err, TP_ERR_ARGUMENT, "tp_model_deprels: model is NULL");
    EXPECT_ERR(tp_model_deprels(bogus, NULL, &n, &err), err, TP_ERR_ARGUMENT, "tp_model_deprels: labels is NULL");
    EXPECT_ERR(tp_model_deprels(bogus, &names, NULL, &err), err, TP_ERR_ARGUMENT, "tp_model_deprels: n is NULL");
    EXPECT_ERR(tp_model_upos_tags(NULL, &names, &n, &err), err, TP_ERR_ARGUMENT, "tp_model_upos_tags: model is NULL");
    EXPECT_ERR(tp_model_upos_tags(bogus, NULL, &n, &err), err, TP_ERR_ARGUMENT, "tp_model_upos_tags: tags is NULL");
    EXPECT_ERR(tp_model_upos_tags(bogus, &names, NULL, &err), err, TP_ERR_ARGUMENT, "tp_model_upos_tags: n is NULL");

    EXPECT_ERR(tp_parse(NULL, forms, 3, NULL, &res, &err), err, TP_ERR_ARGUMENT, "tp_parse: model is NULL");
    EXPECT_ERR(tp_parse(bogus, NULL, 3, NULL, &res, &err), err, TP_ERR_ARGUMENT, "tp_parse: forms is NULL");
    EXPECT_ERR(tp_parse(bogus, forms, 3, NULL, NULL, &err), err, TP_ERR_ARGUMENT, "tp_parse: result is NULL");
    const char *holey[] = {"I", NULL, "her"};
    EXPECT_ERR(tp_parse(bogus, holey, 3, NULL, &res, &err), err, TP_ERR_ARGUMENT, "tp_parse: forms[1] is NULL");
    CHECK(res == NULL);

    EXPECT_ERR(tp_parse_conllu(NULL, "x", 1, &s, &len, &err), err, TP_ERR_ARGUMENT, "tp_parse_conllu: model is NULL");
    EXPECT_ERR(tp_parse_conllu(bogus, NULL, 1, &s, &len, &err), err, TP_ERR_ARGUMENT, "tp_parse_conllu: text is NULL");
    EXPECT_ERR(tp_parse_conllu(bogus, "x", 1, NULL, &len, &err), err, TP_ERR_ARGUMENT, "tp_parse_conllu: out_text is NULL");
    CHECK(s == NULL);
}

static void test_bad_input(void) {
    tp_error *err = NULL;
    tp_result *res = (tp_result *)1; /* must be overwritten with NULL */
    const char *forms[] = {"I", "saw", "\xff\xfe", "."};

    EXPECT_ERR(tp_parse(bogus, forms, 0, NULL, &res, &err), err, TP_ERR_INPUT, "tp_parse: n_words is 0");
    CHECK(res == NULL);
    EXPECT_ERR(tp_parse(bogus, forms, TP_MAX_WORDS + 1, NULL, &res, &err), err, TP_ERR_INPUT,
               "tp_parse: n_words is 10001", "TP_MAX_WORDS");
    EXPECT_ERR(tp_parse(bogus, forms, 4, NULL, &res, &err), err, TP_ERR_INPUT,
               "tp_parse: forms[2] is not valid UTF-8");
    const char *overlong[] = {"\xc0\xaf"}; /* overlong encoding of '/' */
    EXPECT_ERR(tp_parse(bogus, overlong, 1, NULL, &res, &err), err, TP_ERR_INPUT,
               "tp_parse: forms[0] is not valid UTF-8");

    char *big = malloc(TP_MAX_TOKEN_BYTES + 2);
    memset(big, 'a', TP_MAX_TOKEN_BYTES + 1);
    big[TP_MAX_TOKEN_BYTES + 1] = '\0';
    const char *long_forms[] = {"ok", big};
    EXPECT_ERR(tp_parse(bogus, long_forms, 2, NULL, &res, &err), err, TP_ERR_INPUT,
               "tp_parse: forms[1] is longer than TP_MAX_TOKEN_BYTES");
    free(big);

    const char *good[] = {"I", "saw", "her"};
    const char *bad_upos[] = {"PRON", "\x80", "PRON"};
    tp_tags tags = {0};
    tags.upos = bad_upos;
    EXPECT_ERR(tp_parse(bogus, good, 3, &tags, &res, &err), err, TP_ERR_INPUT,
               "tp_parse: tags->upos[1] is not valid UTF-8");
    tags.upos = NULL;
    tags.lemma = bad_upos;
    EXPECT_ERR(tp_parse(bogus, good, 3, &tags, &res, &err), err, TP_ERR_INPUT,
               "tp_parse: tags->lemma[1] is not valid UTF-8");

    /* Good arguments, unknown handle. */
    EXPECT_ERR(tp_parse(bogus, good, 3, NULL, &res, &err), err, TP_ERR_ARGUMENT,
               "tp_parse: model handle was freed or is invalid");
    char *out = NULL;
    EXPECT_ERR(tp_parse_conllu(bogus, "", 0, &out, NULL, &err), err, TP_ERR_ARGUMENT,
               "tp_parse_conllu: model handle was freed or is invalid");
    char *js = NULL;
    EXPECT_ERR(tp_model_card_json(bogus, &js, &err), err, TP_ERR_ARGUMENT, "model handle was freed or is invalid");
    CHECK(tp_model_free(bogus) == TP_ERR_ARGUMENT);
    /* err == NULL is fine on failure too. */
    CHECK(tp_parse(bogus, good, 0, NULL, &res, NULL) == TP_ERR_INPUT);
}

/* In a child created by fork() every call that needs the Go runtime fails
 * with TP_ERR_FORK; the pure-C functions still work. */
static void test_fork(const char *model_path) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        failed++;
        return;
    }
    if (pid == 0) {
        int bad = 0;
        tp_model *m = NULL;
        tp_error *err = NULL;
        const char *forms[] = {"x"};
        tp_result *res = NULL;
        char *s = NULL;
        if (tp_model_load(model_path, &m, &err) != TP_ERR_FORK) bad |= 1;
        if (tp_error_code(err) != TP_ERR_FORK || !strstr(tp_error_message(err), "tp_model_load: ") ||
            !strstr(tp_error_message(err), "fork"))
            bad |= 2;
        tp_error_free(err);
        if (tp_parse(bogus, forms, 1, NULL, &res, &err) != TP_ERR_FORK) bad |= 4;
        tp_error_free(err);
        if (tp_parse_conllu(bogus, "", 0, &s, NULL, NULL) != TP_ERR_FORK) bad |= 8;
        if (tp_model_free(bogus) != TP_ERR_FORK) bad |= 16;
        if (strcmp(tp_version(), TP_VERSION_STRING) != 0) bad |= 32;
        _exit(bad);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECKF(WIFEXITED(status) && WEXITSTATUS(status) == 0,
           "child status %d (bit mask of failed checks)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* ------------------------------------------------------------------ */
/* Tests with a model. */

static int is_tree(const tp_result *r, char *why, size_t cap) {
    size_t n = r->n_words, roots = 0;
    for (size_t i = 0; i < n; i++) {
        if (r->heads[i] < 0 || (size_t)r->heads[i] > n) {
            snprintf(why, cap, "heads[%zu] = %d out of range", i, (int)r->heads[i]);
            return 0;
        }
        if (r->heads[i] == 0)
            roots++;
        if ((size_t)r->heads[i] == i + 1) {
            snprintf(why, cap, "word %zu is its own head", i + 1);
            return 0;
        }
    }
    if (roots != 1) {
        snprintf(why, cap, "%zu roots", roots);
        return 0;
    }
    for (size_t i = 0; i < n; i++) { /* follow heads: must reach 0 in <= n steps */
        size_t steps = 0;
        for (int32_t h = r->heads[i]; h != 0; h = r->heads[h - 1])
            if (++steps > n) {
                snprintf(why, cap, "cycle through word %zu", i + 1);
                return 0;
            }
    }
    return 1;
}

static int contains(const char *const *names, size_t n, const char *s) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return 1;
    return 0;
}

static const char *sentences[] = {
    "I saw her .",
    "The quick brown fox jumps over the lazy dog .",
    "What if Google Morphed Into GoogleOS ?",
    "He said that the company , which was founded in 1998 , would open a new office in Paris next year .",
    "Yes",
    "Please call me at 555-1234 or e-mail me at john@example.com !",
    "The Senate passed the bill , but the House has not voted on it yet .",
    "Thanks !",
    "In the beginning God created the heaven and the earth .",
    "They were n't sure whether to go , so they stayed home and watched TV .",
    "My phone 's battery died after two hours ; I need a new one .",
    "Is this the real life ? Is this just fantasy ?",
};
#define N_SENTENCES (sizeof sentences / sizeof sentences[0])

typedef struct {
    size_t n;
    char *buf;
    const char *forms[64];
} tokens;

static void tokenize(const char *s, tokens *t) {
    t->buf = strdup(s);
    t->n = 0;
    char *save = NULL; /* strtok_r: tokenize runs in many threads at once */
    for (char *tok = strtok_r(t->buf, " ", &save); tok && t->n < 64; tok = strtok_r(NULL, " ", &save))
        t->forms[t->n++] = tok;
}

/* A parse flattened into one string ("head/deprel/upos ..."), so that parses
 * are compared with strcmp. */
static char *flatten(const tp_result *r) {
    size_t cap = 64 * r->n_words + 1, len = 0;
    char *s = malloc(cap);
    s[0] = '\0';
    for (size_t i = 0; i < r->n_words; i++)
        len += snprintf(s + len, cap - len, "%d/%s/%s ", (int)r->heads[i], r->deprels[i], r->upos[i]);
    return s;
}

static char *parse_flat(tp_model *m, const char *sentence, int *rc_out) {
    tokens t;
    tokenize(sentence, &t);
    tp_result *r = NULL;
    int rc = tp_parse(m, t.forms, t.n, NULL, &r, NULL);
    if (rc_out)
        *rc_out = rc;
    char *flat = rc == TP_OK ? flatten(r) : NULL;
    tp_result_free(r);
    free(t.buf);
    return flat;
}

typedef struct {
    tp_model *model;
    char **expected;
    int mismatches;
    int errors;
} thread_arg;

static void *parse_thread(void *p) {
    thread_arg *a = p;
    for (int round = 0; round < 20; round++)
        for (size_t i = 0; i < N_SENTENCES; i++) {
            int rc;
            char *flat = parse_flat(a->model, sentences[i], &rc);
            if (rc != TP_OK)
                a->errors++;
            else if (strcmp(flat, a->expected[i]) != 0)
                a->mismatches++;
            free(flat);
        }
    return NULL;
}

/* Threads that parse until the model is freed under them. */
typedef struct {
    tp_model *model;
    int parsed;
    int last_rc;
    int bad; /* an error other than "freed" */
} racer;

static void *race_thread(void *p) {
    racer *a = p;
    const char *forms[] = {"The", "model", "is", "freed", "under", "me", "."};
    for (;;) {
        tp_result *r = NULL;
        tp_error *err = NULL;
        int rc = tp_parse(a->model, forms, 7, NULL, &r, &err);
        a->last_rc = rc;
        if (rc != TP_OK) {
            if (rc != TP_ERR_ARGUMENT || !strstr(tp_error_message(err), "freed"))
                a->bad++;
            tp_error_free(err);
            return NULL;
        }
        tp_result_free(r);
        a->parsed++;
    }
}

/* tp_model_free while other threads parse: it waits for calls in flight;
 * later calls fail with TP_ERR_ARGUMENT. Nothing crashes. */
static void test_free_while_parsing(const char *path) {
    tp_model *m = NULL;
    if (tp_model_load(path, &m, NULL) != TP_OK) {
        failed++;
        fprintf(stderr, "%s:%d: FAIL: load %s\n", __FILE__, __LINE__, path);
        return;
    }
    enum { N = 8 };
    pthread_t th[N];
    racer args[N];
    for (int i = 0; i < N; i++) {
        args[i] = (racer){m, 0, TP_OK, 0};
        pthread_create(&th[i], NULL, race_thread, &args[i]);
    }
    usleep(50 * 1000);
    CHECK(tp_model_free(m) == TP_OK);
    int bad = 0, parsed = 0, ended = 0;
    for (int i = 0; i < N; i++) {
        pthread_join(th[i], NULL);
        bad += args[i].bad;
        parsed += args[i].parsed;
        ended += args[i].last_rc == TP_ERR_ARGUMENT;
    }
    CHECKF(bad == 0 && ended == N && parsed > 0, "bad %d, ended %d of %d, parsed %d", bad, ended, N, parsed);
}

static void test_with_model(const char *path) {
    tp_model *m = NULL;
    tp_error *err = (tp_error *)1; /* must be set to NULL on success */
    int rc = tp_model_load(path, &m, &err);
    CHECKF(rc == TP_OK, "tp_model_load(%s): %s", path, tp_error_message(rc == TP_OK ? NULL : err));
    if (rc != TP_OK) {
        tp_error_free(err);
        return;
    }
    CHECK(err == NULL);
    CHECK(m != NULL);

    /* Card. */
    char *js = NULL;
    rc = tp_model_card_json(m, &js, &err);
    CHECK(rc == TP_OK && js != NULL);
    if (js) {
        CHECKF(js[0] == '{' && js[strlen(js) - 1] == '}' && strstr(js, "\"name\":") &&
                   strstr(js, "\"scores\":") && strstr(js, "\"system\":"),
               "card: %s", js);
        tp_string_free(js);
    }

    /* Label and tag sets. */
    const char *const *deprels = NULL, *const *upos = NULL;
    size_t n_deprels = 0, n_upos = 0;
    CHECK(tp_model_deprels(m, &deprels, &n_deprels, &err) == TP_OK);
    CHECK(n_deprels > 0 && deprels != NULL);
    CHECK(contains(deprels, n_deprels, "root"));
    CHECK(tp_model_upos_tags(m, &upos, &n_upos, &err) == TP_OK);
    CHECK(n_upos > 0 && upos != NULL);
    CHECK(contains(upos, n_upos, "NOUN"));

    /* One sentence: a tree, labels from the model's sets. */
    tokens t;
    tokenize(sentences[1], &t);
    tp_result *r = NULL;
    rc = tp_parse(m, t.forms, t.n, NULL, &r, &err);
    CHECKF(rc == TP_OK, "%s", tp_error_message(rc == TP_OK ? NULL : err));
    if (rc == TP_OK) {
        char why[128] = "";
        CHECK(r->n_words == t.n);
        CHECKF(is_tree(r, why, sizeof why), "%s", why);
        int labels_ok = 1, root_label = 1;
        for (size_t i = 0; i < r->n_words; i++) {
            if (!r->deprels[i] || !contains(deprels, n_deprels, r->deprels[i]) || !r->upos[i] ||
                !contains(upos, n_upos, r->upos[i]))
                labels_ok = 0;
            if (r->heads[i] == 0 && strcmp(r->deprels[i], "root") != 0)
                root_label = 0;
        }
        CHECK(labels_ok);
        CHECK(root_label);
        /* Strings owned by the model are shared, not copied. */
        CHECK(contains(deprels, n_deprels, r->deprels[0]));
        tp_result_free(r);
    } else {
        tp_error_free(err);
    }

    /* Given UPOS tags are used and reported as given. */
    {
        const char *forms[] = {"Dogs", "bark", "."};
        const char *given[] = {"NOUN", NULL, "PUNCT"};
        const char *xpos[] = {"NNS", "VBP", "."};
        const char *lemma[] = {"dog", "bark", "."};
        tp_tags tags = {given, xpos, NULL, lemma};
        rc = tp_parse(m, forms, 3, &tags, &r, &err);
        CHECKF(rc == TP_OK, "%s", tp_error_message(rc == TP_OK ? NULL : err));
        if (rc == TP_OK) {
            char why[128] = "";
            CHECK(strcmp(r->upos[0], "NOUN") == 0 && strcmp(r->upos[2], "PUNCT") == 0);
            CHECK(r->upos[1] != NULL && contains(upos, n_upos, r->upos[1]));
            CHECKF(is_tree(r, why, sizeof why), "%s", why);
            tp_result_free(r);
        } else {
            tp_error_free(err);
        }
        /* A tag the tagger does not know: accepted and echoed (copied into
         * the result), or refused as input. */
        const char *odd[] = {"FOO", NULL, NULL};
        tp_tags odd_tags = {odd, NULL, NULL, NULL};
        rc = tp_parse(m, forms, 3, &odd_tags, &r, &err);
        CHECKF(rc == TP_OK || rc == TP_ERR_INPUT, "%s", tp_error_message(rc == TP_OK ? NULL : err));
        if (rc == TP_OK) {
            CHECK(strcmp(r->upos[0], "FOO") == 0);
            tp_result_free(r);
        } else {
            tp_error_free(err);
        }
    }

    /* One word; the longest token; the most words. */
    {
        const char *one[] = {"Hello"};
        rc = tp_parse(m, one, 1, NULL, &r, NULL);
        CHECK(rc == TP_OK && r->n_words == 1 && r->heads[0] == 0);
        tp_result_free(r);

        char *big = malloc(TP_MAX_TOKEN_BYTES + 1);
        memset(big, 'a', TP_MAX_TOKEN_BYTES);
        big[TP_MAX_TOKEN_BYTES] = '\0';
        const char *forms[] = {"A", big, "."};
        rc = tp_parse(m, forms, 3, NULL, &r, &err);
        CHECKF(rc == TP_OK, "token of TP_MAX_TOKEN_BYTES: %s", tp_error_message(rc == TP_OK ? NULL : err));
        if (rc == TP_OK)
            tp_result_free(r);
        else
            tp_error_free(err);
        free(big);

        const char **many = malloc(TP_MAX_WORDS * sizeof *many);
        for (size_t i = 0; i < TP_MAX_WORDS; i++)
            many[i] = (i % 10 == 9) ? "." : (i % 2 ? "dogs" : "bark");
        rc = tp_parse(m, many, TP_MAX_WORDS, NULL, &r, &err);
        CHECKF(rc == TP_OK, "TP_MAX_WORDS words: %s", tp_error_message(rc == TP_OK ? NULL : err));
        if (rc == TP_OK) {
            char why[128] = "";
            CHECK(r->n_words == TP_MAX_WORDS);
            CHECKF(is_tree(r, why, sizeof why), "%s", why);
            tp_result_free(r);
        } else {
            tp_error_free(err);
        }
        free(many);
    }

    /* Determinism and the same model loaded from memory. */
    char *expected[N_SENTENCES];
    int all_trees = 1;
    for (size_t i = 0; i < N_SENTENCES; i++) {
        expected[i] = parse_flat(m, sentences[i], &rc);
        CHECKF(rc == TP_OK, "sentence %zu: %s", i, tp_status_name(rc));
        if (!expected[i])
            expected[i] = strdup("(error)");
        char *again = parse_flat(m, sentences[i], NULL);
        CHECK(again && strcmp(again, expected[i]) == 0);
        free(again);
    }
    (void)all_trees;
    {
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL);
        if (f) {
            fseek(f, 0, SEEK_END);
            long size = ftell(f);
            fseek(f, 0, SEEK_SET);
            char *data = malloc(size > 0 ? size : 1);
            CHECK(fread(data, 1, size, f) == (size_t)size);
            fclose(f);
            tp_model *m2 = NULL;
            rc = tp_model_load_from_memory(data, size, &m2, &err);
            memset(data, 0, size); /* not retained: the model must not care */
            free(data);
            CHECKF(rc == TP_OK, "%s", tp_error_message(rc == TP_OK ? NULL : err));
            if (rc == TP_OK) {
                CHECK(m2 != m);
                int same = 1;
                for (size_t i = 0; i < N_SENTENCES; i++) {
                    char *flat = parse_flat(m2, sentences[i], NULL);
                    if (!flat || strcmp(flat, expected[i]) != 0)
                        same = 0;
                    free(flat);
                }
                CHECK(same);
                CHECK(tp_model_free(m2) == TP_OK);
            } else {
                tp_error_free(err);
            }
        }
    }

    /* 16 threads, one model: the same parses as one thread. */
    {
        enum { N_THREADS = 16 };
        pthread_t th[N_THREADS];
        thread_arg args[N_THREADS];
        for (int i = 0; i < N_THREADS; i++) {
            args[i] = (thread_arg){m, expected, 0, 0};
            CHECK(pthread_create(&th[i], NULL, parse_thread, &args[i]) == 0);
        }
        int mismatches = 0, errors = 0;
        for (int i = 0; i < N_THREADS; i++) {
            pthread_join(th[i], NULL);
            mismatches += args[i].mismatches;
            errors += args[i].errors;
        }
        CHECKF(errors == 0 && mismatches == 0, "%d errors, %d mismatches", errors, mismatches);
    }
    for (size_t i = 0; i < N_SENTENCES; i++)
        free(expected[i]);

    /* CoNLL-U in, CoNLL-U out. */
    {
        const char doc[] =
            "# sent_id = a\n"
            "# text = I saw her.\n"
            "1\tI\tI\tPRON\tPRP\t_\t_\t_\t_\t_\n"
            "2\tsaw\tsee\tVERB\tVBD\t_\t_\t_\t_\t_\n"
            "3\ther\tshe\tPRON\tPRP\t_\t_\t_\t_\tSpaceAfter=No\n"
            "4\t.\t.\tPUNCT\t.\t_\t_\t_\t_\t_\n"
            "\n"
            "# sent_id = b\n"
            "1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n"
            "1\tdo\t_\t_\t_\t_\t_\t_\t_\t_\n"
            "2\tn't\t_\t_\t_\t_\t_\t_\t_\t_\n"
            "3\tgo\t_\t_\t_\t_\t_\t_\t_\t_\n"
            "\n";
        char *out = NULL;
        size_t out_len = 0;
        rc = tp_parse_conllu(m, doc, sizeof doc - 1, &out, &out_len, &err);
        CHECKF(rc == TP_OK, "%s", tp_error_message(rc == TP_OK ? NULL : err));
        if (rc == TP_OK) {
            CHECK(out != NULL && strlen(out) == out_len);
            CHECK(strstr(out, "# sent_id = a\n") && strstr(out, "# sent_id = b\n"));
            CHECK(strstr(out, "1-2\tdon't\t") != NULL);
            /* every word line has a numeric HEAD and a DEPREL */
            int words = 0, filled = 0;
            char *copy = strdup(out), *save = NULL;
            for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                if (line[0] == '#' || strchr(line, '\t') == NULL)
                    continue;
                char *cols[10] = {0};
                int nc = 0;
                for (char *c = line; nc < 10; nc++) {
                    cols[nc] = c;
                    char *tab = strchr(c, '\t');
                    if (!tab) { nc++; break; }
                    *tab = '\0';
                    c = tab + 1;
                }
                if (nc < 10 || strchr(cols[0], '-') || strchr(cols[0], '.'))
                    continue;
                words++;
                if (cols[6][0] >= '0' && cols[6][0] <= '9' && strcmp(cols[7], "_") != 0 &&
                    strcmp(cols[3], "_") != 0)
                    filled++;
            }
            free(copy);
            CHECKF(words == 7 && filled == 7, "%d words, %d filled:\n%s", words, filled, out);
            tp_string_free(out);
        } else {
            tp_error_free(err);
        }
        const char bad[] = "1\tonly\tthree\n\n";
        rc = tp_parse_conllu(m, bad, sizeof bad - 1, &out, &out_len, &err);
        EXPECT_ERR(rc, err, TP_ERR_INPUT, "tp_parse_conllu: ");
        CHECK(out == NULL && out_len == 0);
        rc = tp_parse_conllu(m, "", 0, &out, NULL, &err);
        CHECKF(rc == TP_OK && out && out[0] == '\0', "empty document: %s", tp_status_name(rc));
        if (rc == TP_OK)
            tp_string_free(out);
        else
            tp_error_free(err);
    }

    /* Invalid UTF-8 with a real model. */
    {
        const char *forms[] = {"ok", "\xe2\x82"};
        EXPECT_ERR(tp_parse(m, forms, 2, NULL, &r, &err), err, TP_ERR_INPUT, "tp_parse: forms[1] is not valid UTF-8");
    }

    /* Use after free and double free are detected. */
    CHECK(tp_model_free(m) == TP_OK);
    {
        const char *forms[] = {"I", "saw", "her"};
        EXPECT_ERR(tp_parse(m, forms, 3, NULL, &r, &err), err, TP_ERR_ARGUMENT,
                   "tp_parse: model handle was freed or is invalid");
        CHECK(r == NULL);
        EXPECT_ERR(tp_model_card_json(m, &js, &err), err, TP_ERR_ARGUMENT, "freed");
        EXPECT_ERR(tp_model_deprels(m, &deprels, &n_deprels, &err), err, TP_ERR_ARGUMENT, "freed");
        char *out = NULL;
        EXPECT_ERR(tp_parse_conllu(m, "", 0, &out, NULL, &err), err, TP_ERR_ARGUMENT, "freed");
        CHECK(tp_model_free(m) == TP_ERR_ARGUMENT);
    }
}

int main(int argc, char **argv) {
    const char *model = argc > 1 ? argv[1] : getenv("TRANSPARSE_MODEL");
    if (!model || !*model)
        model = "models/en_ewt.tpm";

    test_version();
    test_status_and_errors();
    test_null_arguments();
    test_bad_input();
    test_load_errors();
    test_fork(model);
    if (access(model, R_OK) == 0) {
        test_with_model(model);
        test_free_while_parsing(model);
    } else
        skip("tests with a model", "no model file (pass a path or set TRANSPARSE_MODEL)");

    if (skipped)
        printf("%d skipped (model: %s)\n", skipped, model);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
