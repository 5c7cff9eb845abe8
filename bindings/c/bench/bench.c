/*
 * bench.c -- throughput of tp_parse on one thread and on all cores, model
 * load time (cold file, warm file, memory), peak RSS (the loads included) and
 * the RSS after parsing.
 *
 *   usage: bench [-m MODEL] [-p PASSES] [-t THREADS] [-b K] [-a] [-g] [-k] CONLLU
 *
 * Loads the model (timed: from the file with its pages dropped from the page
 * cache first, from the file again, and from memory; best of 3 for the warm
 * ones), reads the sentences of CONLLU, then parses them all through tp_parse
 *   1. with the gold UPOS/XPOS/FEATS/LEMMA columns given (parser only), and
 *   2. with the forms only (tagger + parser; skipped with -g),
 * each on one thread and on THREADS threads (default: the online CPUs)
 * sharing one model, each parsing every THREADS-th sentence: after one
 * warm-up pass of each, PASSES (default 3) timed passes of each, one thread
 * and THREADS threads alternating, reporting the best of each in words per
 * second. With -b K > 1 the parses are beam searches of width K
 * (tp_options.beam); with -a they are in the accurate mode
 * (tp_options.accurate: the beam at K, or at the model's trained width, and
 * the greedy parser, revoted). Multiword-token and empty-node lines are skipped (they
 * are not syntactic words). -k prints "key value" lines instead of a table.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <transparse.h>

#include "../tests/treebank.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        perror(path);
        exit(1);
    }
    char *buf = malloc((size_t)st.st_size + 1);
    if (!buf || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
        fprintf(stderr, "bench: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    buf[st.st_size] = '\0';
    *size = (size_t)st.st_size;
    return buf;
}

/* The beam width of -b (1: the greedy parser) and -a (the accurate mode). */
static int beam_width = 1, accurate = 0;

/* parse_part parses sentences first, first+step, ...; 0 or -1 after an error. */
static int parse_part(tp_model *m, ud_sentence *s, size_t ns, int gold, size_t first, size_t step) {
    tp_options o = TP_OPTIONS_INIT;
    o.beam = beam_width;
    o.accurate = accurate;
    for (size_t i = first; i < ns; i += step) {
        tp_tags tags = {s[i].upos, s[i].xpos, s[i].feats, s[i].lemma};
        tp_result *r = NULL;
        tp_error *err = NULL;
        int rc = tp_parse(m, s[i].forms, s[i].n, gold ? &tags : NULL, &o, &r, &err);
        if (rc != TP_OK) {
            fprintf(stderr, "bench: sentence %zu: %s\n", i + 1, tp_error_message(err));
            tp_error_free(err);
            return -1;
        }
        tp_result_free(r);
    }
    return 0;
}

typedef struct {
    tp_model *m;
    ud_sentence *s;
    size_t ns, first, step;
    int gold, rc;
} job;

static void *run_job(void *arg) {
    job *j = arg;
    j->rc = parse_part(j->m, j->s, j->ns, j->gold, j->first, j->step);
    return NULL;
}

/* parse_all parses every sentence on threads threads and returns the
 * seconds taken, or -1 after printing an error. */
static double parse_all(tp_model *m, ud_sentence *s, size_t ns, int gold, int threads) {
    double t0 = now();
    if (threads <= 1)
        return parse_part(m, s, ns, gold, 0, 1) < 0 ? -1 : now() - t0;
    pthread_t tid[256];
    job jobs[256];
    for (int t = 0; t < threads; t++) {
        jobs[t] = (job){m, s, ns, (size_t)t, (size_t)threads, gold, 0};
        if (pthread_create(&tid[t], NULL, run_job, &jobs[t]) != 0) {
            fprintf(stderr, "bench: pthread_create failed\n");
            exit(1);
        }
    }
    int rc = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(tid[t], NULL);
        rc |= jobs[t].rc;
    }
    return rc < 0 ? -1 : now() - t0;
}

/* best_rates measures the best words/s of passes passes on one thread
 * (*one) and on threads threads (*all), after a warm-up of each, the passes
 * alternating (1, N, 1, N, ...) so that a change in the machine's speed
 * during the run touches both figures alike and their ratio stays fair. */
static void best_rates(tp_model *m, ud_sentence *s, size_t ns, size_t nw, int gold, int passes, int threads,
                       double *one, double *all) {
    if (parse_all(m, s, ns, gold, 1) < 0 || parse_all(m, s, ns, gold, threads) < 0) /* warm-up */
        exit(1);
    *one = *all = 0;
    for (int p = 0; p < passes; p++) {
        for (int k = 0; k < 2; k++) {
            double t = parse_all(m, s, ns, gold, k ? threads : 1);
            if (t < 0)
                exit(1);
            double *best = k ? all : one;
            if (nw / t > *best)
                *best = nw / t;
        }
    }
}

/* drop_cache asks the kernel to forget the file's cached pages, so that the
 * next load reads it from the disk (best effort). */
static void drop_cache(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        fdatasync(fd);
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        close(fd);
    }
}

static tp_model *load_or_die(int from_memory, const char *path, const void *data, size_t size, double *ms) {
    tp_model *m = NULL;
    tp_error *err = NULL;
    double t0 = now();
    int rc = from_memory ? tp_model_load_from_memory(data, size, &m, &err) : tp_model_load(path, &m, &err);
    *ms = (now() - t0) * 1e3;
    if (rc != TP_OK) {
        fprintf(stderr, "bench: %s\n", tp_error_message(err));
        exit(1);
    }
    return m;
}

int main(int argc, char **argv) {
    const char *model_path = getenv("TRANSPARSE_MODEL");
    int passes = 3, opt, gold_only = 0, keys = 0;
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    while ((opt = getopt(argc, argv, "m:p:t:b:agk")) != -1) {
        if (opt == 'm')
            model_path = optarg;
        else if (opt == 'p')
            passes = atoi(optarg) > 0 ? atoi(optarg) : 1;
        else if (opt == 't')
            threads = atol(optarg);
        else if (opt == 'b')
            beam_width = atoi(optarg) > 1 ? atoi(optarg) : 1;
        else if (opt == 'a')
            accurate = 1;
        else if (opt == 'g')
            gold_only = 1;
        else if (opt == 'k')
            keys = 1;
        else {
            fprintf(stderr, "usage: %s [-m MODEL] [-p PASSES] [-t THREADS] [-b K] [-a] [-g] [-k] CONLLU\n", argv[0]);
            return 2;
        }
    }
    if (threads < 1 || threads > 256)
        threads = 1;
    if (optind >= argc) {
        fprintf(stderr, "usage: %s [-m MODEL] [-p PASSES] [-t THREADS] [-b K] [-a] [-g] [-k] CONLLU\n", argv[0]);
        return 2;
    }
    if (!model_path || !*model_path)
        model_path = "models/en_ewt.tpm";
    const char *data_path = argv[optind];

    treebank tb;
    if (!read_treebank(data_path, &tb)) {
        fprintf(stderr, "bench: no sentences in %s\n", data_path);
        return 1;
    }

    /* Load times: a cold load first, then best of 3 warm loads each. */
    double ms, load_cold_ms;
    drop_cache(model_path);
    tp_model_free(load_or_die(0, model_path, NULL, 0, &load_cold_ms));
    size_t model_size;
    char *model_bytes = read_file(model_path, &model_size);
    double load_file_ms = 1e30, load_mem_ms = 1e30;
    for (int i = 0; i < 3; i++) {
        tp_model *m = load_or_die(0, model_path, NULL, 0, &ms);
        if (ms < load_file_ms)
            load_file_ms = ms;
        tp_model_free(m);
        m = load_or_die(1, NULL, model_bytes, model_size, &ms);
        if (ms < load_mem_ms)
            load_mem_ms = ms;
        tp_model_free(m);
    }
    free(model_bytes);

    tp_model *model = load_or_die(0, model_path, NULL, 0, &ms);
    double gold, gold_n, tagged = 0, tagged_n = 0;
    best_rates(model, tb.s, tb.n, tb.words, 1, passes, (int)threads, &gold, &gold_n);
    if (!gold_only)
        best_rates(model, tb.s, tb.n, tb.words, 0, passes, (int)threads, &tagged, &tagged_n);

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long rss_end = rss_kib(); /* after all parsing, one model loaded */
    if (keys) {
        printf("model_mb %.2f\nload_cold_ms %.1f\nload_file_ms %.1f\nload_memory_ms %.1f\n", model_size / 1e6,
               load_cold_ms, load_file_ms, load_mem_ms);
        printf("threads %ld\ngold_1 %.0f\ngold_n %.0f\n", threads, gold, gold_n);
        if (!gold_only)
            printf("tagged_1 %.0f\ntagged_n %.0f\n", tagged, tagged_n);
        printf("peak_rss_mb %.1f\nrss_end_mb %.1f\n", ru.ru_maxrss / 1024.0, rss_end / 1024.0);
        tp_model_free(model);
        return 0;
    }

    printf("transparse %s C API benchmark: best of %d passes after a warm-up\n", tp_version(), passes);
    printf("model: %s (%.1f MB)\n", model_path, model_size / 1e6);
    printf("data:  %s (%zu sentences, %zu words)\n\n", data_path, tb.n, tb.words);
    printf("| %-40s | %14s |\n", "measure", "value");
    printf("|%.42s|%.16s|\n", "------------------------------------------", "----------------");
    printf("| %-40s | %11.1f ms |\n", "model load from file, cold", load_cold_ms);
    printf("| %-40s | %11.1f ms |\n", "model load from file", load_file_ms);
    printf("| %-40s | %11.1f ms |\n", "model load from memory", load_mem_ms);
    printf("| %-40s | %10.0f w/s |\n", "tp_parse, gold UPOS/XPOS/FEATS/LEMMA", gold);
    if (!gold_only)
        printf("| %-40s | %10.0f w/s |\n", "tp_parse, forms only (tagger + parser)", tagged);
    char label[64];
    snprintf(label, sizeof label, "tp_parse, gold tags, %ld threads", threads);
    printf("| %-40s | %10.0f w/s |\n", label, gold_n);
    if (!gold_only) {
        snprintf(label, sizeof label, "tp_parse, forms only, %ld threads", threads);
        printf("| %-40s | %10.0f w/s |\n", label, tagged_n);
    }
    printf("| %-40s | %11.1f MB |\n", "peak RSS (ru_maxrss, loads included)", ru.ru_maxrss / 1024.0);
    printf("| %-40s | %11.1f MB |\n", "RSS after parsing (VmRSS)", rss_end / 1024.0);

    tp_model_free(model);
    return 0;
}
