/* treebank.h -- the words of a CoNLL-U treebank and the resident memory,
 * for the C tests (test_capi.c), the long-run driver (longrun.c) and the
 * benchmark (../bench/bench.c). Header-only: every function is static inline.
 *
 * read_treebank keeps the file as read (text, NUL-terminated, for
 * tp_parse_document) and the words of every sentence as pointers into a split
 * copy: word lines only (multiword tokens and empty nodes are skipped),
 * columns as in the file ("_" included: the library takes it as absent). */
#ifndef TRANSPARSE_TESTS_TREEBANK_H
#define TRANSPARSE_TESTS_TREEBANK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t n;
    const char **forms, **lemma, **upos, **xpos, **feats;
    unsigned char *space_after; /* 0 where MISC has SpaceAfter=No, else 1 */
} ud_sentence;

typedef struct {
    char *text;      /* the file */
    size_t text_len; /* its length */
    char *buf;       /* the split copy the words point into */
    ud_sentence *s;
    size_t n;     /* sentences */
    size_t words; /* words in all */
} treebank;

/* has_space_after_no tells whether the MISC column misc has the item
 * SpaceAfter=No. */
static inline int has_space_after_no(const char *misc) {
    for (const char *p = misc; (p = strstr(p, "SpaceAfter=No")) != NULL; p++)
        if ((p == misc || p[-1] == '|') && (p[13] == '\0' || p[13] == '|'))
            return 1;
    return 0;
}

/* read_treebank returns 1 with the sentences of the file at path in tb, 0
 * if it cannot be read or has no sentence (tb is then still freeable). */
static inline int read_treebank(const char *path, treebank *tb) {
    memset(tb, 0, sizeof *tb);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    tb->text = malloc((size_t)size + 1);
    tb->buf = malloc((size_t)size + 1);
    if (!tb->text || !tb->buf || fread(tb->text, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        return 0;
    }
    fclose(f);
    tb->text[size] = '\0';
    tb->text_len = (size_t)size;
    memcpy(tb->buf, tb->text, (size_t)size + 1);
    size_t cap = 0;
    ud_sentence cur = {0};
    size_t cur_cap = 0;
    char *save = NULL;
    for (char *line = strtok_r(tb->buf, "\n", &save);; line = strtok_r(NULL, "\n", &save)) {
        /* strtok_r skips blank lines: a sentence ends at a line whose ID is
         * 1 (a new sentence) or at the end. */
        int end = line == NULL;
        char *cols[10] = {0};
        if (!end && line[0] != '#') {
            int nc = 0;
            for (char *c = line; nc < 10;) {
                cols[nc++] = c;
                char *tab = strchr(c, '\t');
                if (!tab)
                    break;
                *tab = '\0';
                c = tab + 1;
            }
            if (nc < 10 || strpbrk(cols[0], "-."))
                continue;
            char *cr = strchr(cols[9], '\r');
            if (cr)
                *cr = '\0';
            if (strcmp(cols[0], "1") == 0 && cur.n > 0)
                end = 2;
        } else if (!end) {
            continue;
        }
        if (end) {
            if (cur.n > 0) {
                if (tb->n == cap) {
                    cap = cap ? 2 * cap : 1024;
                    tb->s = realloc(tb->s, cap * sizeof *tb->s);
                }
                tb->s[tb->n++] = cur;
                tb->words += cur.n;
                memset(&cur, 0, sizeof cur);
                cur_cap = 0;
            }
            if (end == 1)
                break;
        }
        if (cur.n == cur_cap) {
            cur_cap = cur_cap ? 2 * cur_cap : 32;
            cur.forms = realloc(cur.forms, cur_cap * sizeof *cur.forms);
            cur.lemma = realloc(cur.lemma, cur_cap * sizeof *cur.lemma);
            cur.upos = realloc(cur.upos, cur_cap * sizeof *cur.upos);
            cur.xpos = realloc(cur.xpos, cur_cap * sizeof *cur.xpos);
            cur.feats = realloc(cur.feats, cur_cap * sizeof *cur.feats);
            cur.space_after = realloc(cur.space_after, cur_cap);
        }
        cur.forms[cur.n] = cols[1];
        cur.lemma[cur.n] = cols[2];
        cur.upos[cur.n] = cols[3];
        cur.xpos[cur.n] = cols[4];
        cur.feats[cur.n] = cols[5];
        cur.space_after[cur.n] = !has_space_after_no(cols[9]);
        cur.n++;
    }
    return tb->n > 0;
}

static inline void free_treebank(treebank *tb) {
    for (size_t i = 0; i < tb->n; i++) {
        free(tb->s[i].forms);
        free(tb->s[i].lemma);
        free(tb->s[i].upos);
        free(tb->s[i].xpos);
        free(tb->s[i].feats);
        free(tb->s[i].space_after);
    }
    free(tb->s);
    free(tb->buf);
    free(tb->text);
    memset(tb, 0, sizeof *tb);
}

/* rss_kib returns the resident set size of the process (VmRSS), -1 if
 * /proc/self/status cannot tell. */
static inline long rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

#endif
