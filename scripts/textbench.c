/*
 * textbench.c -- raw text through the C API: the throughput of
 * tp_parse_document on one thread from raw text (TP_INPUT_TEXT) against the
 * same document pre-tokenized (TP_INPUT_TOKENS), and the peak memory of a
 * stream of raw text (tp_stream, TP_INPUT_TEXT).
 *
 *   textbench -m MODEL [-p PASSES] [-o OUT] TEXT TOKENS
 *   textbench -m MODEL -s TEXT
 *
 * Speed (first form): TEXT is raw UTF-8 text (scripts/ud_text.py), TOKENS
 * the same sentences pre-tokenized (one sentence a line, words separated by
 * spaces). After one untimed pass of each, PASSES (default 3) timed passes
 * of each, raw text, its segmentation alone (tp_options.tokenize_only) and
 * pre-tokenized alternating (every other round in the reverse order, so
 * that each kind follows the others alike), one thread (tp_options.threads
 * = 1); the best pass of each in words per second, the words being the
 * syntactic words of that call's CoNLL-U output (lines whose ID is an
 * integer). -o writes the
 * CoNLL-U of the last raw-text pass to OUT. Prints "key value" lines:
 *   text_words_per_s, text_words, text_sentences     raw text -> CoNLL-U
 *   tokenize_words_per_s                             segmentation only
 *   tokens_words_per_s, tokens_words                 pre-tokenized -> CoNLL-U
 *
 * Memory (-s): streams TEXT once through tp_stream_open/tp_stream_next
 * with TP_INPUT_TEXT (the file read 64 KiB at a time by the callback) and
 * prints
 *   base_mb     the peak RSS (VmHWM) once the first sentence is returned
 *               (model loaded, stream warm)
 *   peak_mb     the peak RSS at the end of the stream
 *   growth_mb   peak_mb - base_mb (MB: 10^6 bytes)
 *   bytes, sentences, words, seconds
 *
 * Exit status: 0; 1 on an error; 3 when raw text cannot be parsed here (a
 * library built without TP_INPUT_TEXT, or a model refusing it, e.g. one
 * without a segmenter), with the reason on standard error.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <transparse.h>

#define SKIP 3

/* Without TP_INPUT_TEXT in the header only main (the message) is built. */
#ifdef TP_INPUT_TEXT
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, tp_error *err) {
    fprintf(stderr, "textbench: %s: %s\n", what, err ? tp_error_message(err) : "failed");
    exit(1);
}

/* status_kib returns a line of /proc/self/status in KiB (VmHWM, VmRSS). */
static long status_kib(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':') {
            v = strtol(line + n + 1, NULL, 10);
            break;
        }
    if (f)
        fclose(f);
    return v;
}

/* count_words counts the syntactic words (integer IDs) and the sentences
 * (blank lines) of CoNLL-U text. */
static void count_words(const char *s, size_t len, size_t *words, size_t *sentences) {
    const char *end = s + len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl)
            nl = end;
        const char *p = s;
        while (p < nl && *p >= '0' && *p <= '9')
            p++;
        if (p == s && p == nl)
            (*sentences)++;
        else if (p > s && p < nl && *p == '\t')
            (*words)++;
        s = nl + 1;
    }
}

static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    size_t cap = 1 << 20, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap)
            buf = realloc(buf, cap *= 2);
    if (!buf || ferror(f)) {
        fprintf(stderr, "textbench: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = n;
    return buf;
}

/* One timed tp_parse_document; the output is kept in *out (freed first). */
static int parse_doc(tp_model *m, const char *text, size_t len, int input, int tokenize_only,
                     char **out, size_t *out_len, double *seconds, tp_error **err) {
    tp_options o = TP_OPTIONS_INIT;
    o.input = input;
    o.tokenize_only = tokenize_only;
    o.threads = 1;
    tp_string_free(*out);
    *out = NULL;
    double t = now();
    int rc = tp_parse_document(m, text, len, &o, out, out_len, NULL, err);
    *seconds = now() - t;
    return rc;
}

/* The three kinds of pass of the speed form. */
enum { RAW, TOKENIZE, TOKENS, KINDS };

static int speed(tp_model *m, int passes, const char *out_path, const char *text_path, const char *tokens_path) {
    static const char *names[KINDS] = {"text", "tokenize", "tokens"};
    size_t len[KINDS];
    const char *in[KINDS];
    in[RAW] = in[TOKENIZE] = read_file(text_path, &len[RAW]);
    len[TOKENIZE] = len[RAW];
    in[TOKENS] = read_file(tokens_path, &len[TOKENS]);
    char *out[KINDS] = {NULL, NULL, NULL};
    size_t out_len[KINDS], words[KINDS] = {0}, sentences[KINDS] = {0};
    double best[KINDS] = {0};
    for (int p = 0; p <= passes; p++)
        for (int i = 0; i < KINDS; i++) {
            int k = p % 2 ? KINDS - 1 - i : i; /* every other pass in reverse */
            tp_error *err = NULL;
            double s;
            int rc = parse_doc(m, in[k], len[k], k == TOKENS ? TP_INPUT_TOKENS : TP_INPUT_TEXT, k == TOKENIZE,
                               &out[k], &out_len[k], &s, &err);
            if (rc == TP_ERR_ARGUMENT && k != TOKENS) {
                fprintf(stderr, "textbench: raw text refused: %s\n", tp_error_message(err));
                return SKIP;
            }
            if (rc != TP_OK)
                die(names[k], err);
            if (p > 0 && (best[k] == 0 || s < best[k]))
                best[k] = s;
        }
    for (int k = 0; k < KINDS; k++) {
        count_words(out[k], out_len[k], &words[k], &sentences[k]);
        printf("%s_words_per_s %.0f\n", names[k], words[k] / best[k]);
    }
    printf("text_words %zu\ntext_sentences %zu\ntokens_words %zu\n", words[RAW], sentences[RAW], words[TOKENS]);
    if (out_path) {
        FILE *f = fopen(out_path, "wb");
        if (!f || fwrite(out[RAW], 1, out_len[RAW], f) != out_len[RAW] || fclose(f) != 0) {
            perror(out_path);
            return 1;
        }
    }
    for (int k = 0; k < KINDS; k++)
        tp_string_free(out[k]);
    return 0;
}

static ptrdiff_t read_fn(void *ctx, char *buf, size_t cap) {
    size_t n = fread(buf, 1, cap, (FILE *)ctx);
    return (n == 0 && ferror((FILE *)ctx)) ? -1 : (ptrdiff_t)n;
}

static int memory(tp_model *m, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    tp_options o = TP_OPTIONS_INIT;
    o.input = TP_INPUT_TEXT;
    tp_stream *st = NULL;
    tp_error *err = NULL;
    if (tp_stream_open(m, read_fn, f, &o, &st, &err) != TP_OK) {
        fprintf(stderr, "textbench: raw text refused: %s\n", tp_error_message(err));
        return SKIP;
    }
    double t = now();
    long base = -1;
    size_t words = 0, sentences = 0;
    const char *sent;
    size_t n;
    for (;;) {
        if (tp_stream_next(st, &sent, &n, &err) != TP_OK)
            die("tp_stream_next", err);
        if (!sent)
            break;
        count_words(sent, n, &words, &sentences);
        if (base < 0)
            base = status_kib("VmHWM");
    }
    double seconds = now() - t;
    long peak = status_kib("VmHWM");
    long bytes = ftell(f);
    tp_stream_free(st);
    fclose(f);
    printf("base_mb %.1f\npeak_mb %.1f\ngrowth_mb %.1f\n", base * 1024 / 1e6, peak * 1024 / 1e6,
           (peak - base) * 1024 / 1e6);
    printf("bytes %ld\nsentences %zu\nwords %zu\nseconds %.1f\n", bytes, sentences, words, seconds);
    return 0;
}
#endif

int main(int argc, char **argv) {
    const char *model_path = NULL, *out_path = NULL;
    int passes = 3, stream = 0, c;
    while ((c = getopt(argc, argv, "m:p:o:s")) != -1) {
        switch (c) {
        case 'm': model_path = optarg; break;
        case 'p': passes = atoi(optarg); break;
        case 'o': out_path = optarg; break;
        case 's': stream = 1; break;
        default: goto usage;
        }
    }
    if (!model_path || passes < 1 || argc - optind != (stream ? 1 : 2))
        goto usage;
#ifndef TP_INPUT_TEXT
    (void)out_path;
    fprintf(stderr, "textbench: libtransparse %s has no raw-text input (TP_INPUT_TEXT)\n", tp_version());
    return SKIP;
#else
    tp_model *m = NULL;
    tp_error *err = NULL;
    if (tp_model_load(model_path, &m, &err) != TP_OK)
        die("tp_model_load", err);
    int rc = stream ? memory(m, argv[optind]) : speed(m, passes, out_path, argv[optind], argv[optind + 1]);
    tp_model_free(m);
    return rc;
#endif
usage:
    fprintf(stderr, "usage: textbench -m MODEL [-p PASSES] [-o OUT] TEXT TOKENS\n"
                    "       textbench -m MODEL -s TEXT\n");
    return 2;
}
