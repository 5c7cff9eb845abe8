/*
 * bench_engine.c -- the cost of one transition of the engine through the C
 * API: the static oracle's sequences of every sentence of a CoNLL-U file
 * (tp_system_oracle_document, one call) replayed from the initial state,
 * each transition one tp_state_legal and one tp_state_apply (the state's
 * tp_state_new and tp_state_free amortized), on one thread, in CPU time of
 * that thread (a busy machine slows it less than the clock). The Python
 * figure of the same replay is scripts/bench_engine.py's.
 *
 *   usage: bench_engine [-s SYSTEM] [-p PASSES] [-k] CONLLU
 *
 * Prints the best of PASSES timed passes (after a warm-up) in ns per
 * transition; -k: "key value" lines (engine_c_ns, transitions).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <transparse.h>

#include "../tests/treebank.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* deprels_of: the distinct DEPREL values of the file (and "root"). */
static size_t deprels_of(const char *text, char ***out) {
    size_t n = 0, cap = 64;
    char **d = malloc(cap * sizeof *d);
    d[n++] = strdup("root");
    for (const char *line = text; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : line + strlen(line)) {
        if (*line < '0' || *line > '9')
            continue;
        const char *c = line;
        for (int col = 0; col < 7 && c; col++)
            c = strchr(c, '\t') ? strchr(c, '\t') + 1 : NULL;
        if (!c)
            continue;
        size_t len = strcspn(c, "\t\n");
        int seen = 0;
        for (size_t i = 0; i < n && !seen; i++)
            seen = strlen(d[i]) == len && strncmp(d[i], c, len) == 0;
        if (!seen && !(len == 1 && *c == '_')) {
            if (n == cap)
                d = realloc(d, (cap *= 2) * sizeof *d);
            d[n++] = strndup(c, len);
        }
    }
    *out = d;
    return n;
}

/* replay: every derivation of r once; 1 if every call succeeded. */
static int replay(const tp_system *sys, const tp_oracle_doc *r, uint8_t *mask, size_t n_classes) {
    for (size_t i = 0; i < r->n_sentences; i++) {
        if (!r->in_class[i])
            continue;
        tp_state *st = NULL;
        if (tp_state_new(sys, r->n_words[i], &st, NULL) != TP_OK)
            return 0;
        for (size_t j = r->offsets[i]; j < r->offsets[i + 1]; j++)
            if (tp_state_legal(st, mask, n_classes, NULL) != TP_OK ||
                tp_state_apply(st, (size_t)r->classes[j], NULL) != TP_OK)
                return 0;
        tp_state_free(st);
    }
    return 1;
}

int main(int argc, char **argv) {
    const char *system = "arc-eager";
    int passes = 3, keys = 0, opt;
    while ((opt = getopt(argc, argv, "s:p:k")) != -1) {
        if (opt == 's')
            system = optarg;
        else if (opt == 'p')
            passes = atoi(optarg);
        else if (opt == 'k')
            keys = 1;
        else
            return 2;
    }
    treebank tb;
    if (optind >= argc || !read_treebank(argv[optind], &tb)) {
        fprintf(stderr, "usage: bench_engine [-s SYSTEM] [-p PASSES] [-k] CONLLU\n");
        return 2;
    }
    char **deprels = NULL;
    size_t n_deprels = deprels_of(tb.text, &deprels), n_classes = 0;
    tp_system *sys = NULL;
    tp_oracle_doc *r = NULL;
    char *names = NULL;
    tp_error *err = NULL;
    if (tp_system_new(system, (const char *const *)deprels, n_deprels, &sys, &err) != TP_OK ||
        tp_system_classes(sys, &names, &err) != TP_OK ||
        tp_system_oracle_document(sys, tb.text, tb.text_len, &r, &err) != TP_OK) {
        fprintf(stderr, "bench_engine: %s\n", tp_error_message(err));
        return 1;
    }
    for (const char *p = names; *p; p++)
        n_classes += *p == '\n';
    uint8_t *mask = malloc(n_classes);
    size_t transitions = r->offsets[r->n_sentences];
    double best = 1e30;
    for (int pass = 0; pass <= passes; pass++) { /* pass 0: the warm-up */
        double t0 = now();
        if (!replay(sys, r, mask, n_classes)) {
            fprintf(stderr, "bench_engine: a replay failed\n");
            return 1;
        }
        double t = now() - t0;
        if (pass > 0 && t < best)
            best = t;
    }
    double ns = best * 1e9 / (double)transitions;
    if (keys)
        printf("engine_c_ns %.1f\ntransitions %zu\n", ns, transitions);
    else
        printf("%s: %zu transitions, %.1f ns per transition (legal + apply), best of %d\n",
               system, transitions, ns, passes);
    return 0;
}
