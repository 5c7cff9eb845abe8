/*
 * longrun.c -- parse a treebank many times through the C API and watch the
 * resident memory of the process: long runs must not leak.
 *
 *   usage: longrun [-p PASSES] [-g] [-c] [-t THREADS] MODEL CONLLU
 *
 *   -p PASSES   passes over the treebank (default 40)
 *   -g          give the gold UPOS/XPOS/FEATS/LEMMA (default: plain tokens,
 *               the model's taggers predict the tags)
 *   -c          also parse the whole file with tp_parse_document in each pass
 *   -t THREADS  split each pass over this many threads (default 1)
 *
 * Each pass parses every sentence of CONLLU with tp_parse (and frees every
 * result). After each pass it prints the pass number, the words parsed so
 * far and the resident set size (VmRSS of /proc/self/status); at the end
 *
 *   RSS after pass 1: X KiB; after pass N: Y KiB; growth Z %
 *
 * The exit status is 0 if every parse succeeded and the growth is below
 * 5 %, 1 otherwise (2 for a usage or I/O error). scripts/longrun.sh builds
 * and runs it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <transparse.h>

#include "treebank.h"

static treebank tb; /* the sentences, and the file for tp_parse_document */

typedef struct {
    const tp_model *m;
    int gold;
    size_t from, to;
    size_t errors;
} job;

static void *run(void *p) {
    job *j = p;
    for (size_t i = j->from; i < j->to; i++) {
        ud_sentence *s = &tb.s[i];
        tp_tags tags = {s->upos, s->xpos, s->feats, s->lemma};
        tp_result *r = NULL;
        tp_error *err = NULL;
        if (tp_parse(j->m, s->forms, s->n, j->gold ? &tags : NULL, NULL, &r, &err) != TP_OK) {
            if (j->errors++ == 0)
                fprintf(stderr, "sentence %zu: %s\n", i, tp_error_message(err));
            tp_error_free(err);
        }
        tp_result_free(r);
    }
    return NULL;
}

int main(int argc, char **argv) {
    int passes = 40, gold = 0, conllu = 0, threads = 1, opt;
    while ((opt = getopt(argc, argv, "p:gct:")) != -1) {
        switch (opt) {
        case 'p': passes = atoi(optarg); break;
        case 'g': gold = 1; break;
        case 'c': conllu = 1; break;
        case 't': threads = atoi(optarg); break;
        default: goto usage;
        }
    }
    if (argc - optind != 2 || passes < 1 || threads < 1) {
    usage:
        fprintf(stderr, "usage: longrun [-p PASSES] [-g] [-c] [-t THREADS] MODEL CONLLU\n");
        return 2;
    }
    if (!read_treebank(argv[optind + 1], &tb)) {
        fprintf(stderr, "longrun: cannot read sentences from %s\n", argv[optind + 1]);
        return 2;
    }
    tp_model *m = NULL;
    tp_error *err = NULL;
    if (tp_model_load(argv[optind], &m, &err) != TP_OK) {
        fprintf(stderr, "longrun: %s\n", tp_error_message(err));
        return 2;
    }
    printf("C API: %d passes over %zu sentences (%zu words), %s, %d thread%s%s; RSS after loading: %ld KiB\n", passes,
           tb.n, tb.words, gold ? "gold tags" : "plain tokens", threads, threads == 1 ? "" : "s",
           conllu ? ", plus tp_parse_document of the file" : "", rss_kib());
    long first = 0, last = 0;
    size_t errors = 0, words = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t *th = calloc((size_t)threads, sizeof *th);
    job *jobs = calloc((size_t)threads, sizeof *jobs);
    for (int pass = 1; pass <= passes; pass++) {
        for (int k = 0; k < threads; k++) {
            jobs[k] = (job){m, gold, tb.n * (size_t)k / (size_t)threads, tb.n * (size_t)(k + 1) / (size_t)threads, 0};
            pthread_create(&th[k], NULL, run, &jobs[k]);
        }
        for (int k = 0; k < threads; k++) {
            pthread_join(th[k], NULL);
            errors += jobs[k].errors;
        }
        words += tb.words;
        if (conllu) {
            char *out = NULL;
            if (tp_parse_document(m, tb.text, tb.text_len, NULL, &out, NULL, NULL, &err) != TP_OK) {
                fprintf(stderr, "tp_parse_document: %s\n", tp_error_message(err));
                tp_error_free(err);
                errors++;
            }
            tp_string_free(out);
            words += tb.words;
        }
        last = rss_kib();
        if (pass == 1)
            first = last;
        printf("pass %2d: %8zu words, RSS %ld KiB\n", pass, words, last);
        fflush(stdout);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    double growth = 100.0 * (double)(last - first) / (double)first;
    printf("C API: %zu words in %.1f s (%.0f words/s), %zu errors\n", words, secs, (double)words / secs, errors);
    printf("RSS after pass 1: %ld KiB; after pass %d: %ld KiB; growth %.2f %%\n", first, passes, last, growth);
    tp_model_free(m);
    free(th);
    free(jobs);
    return errors == 0 && growth < 5.0 ? 0 : 1;
}
