/*
 * test_engine.c -- the transition systems as an engine through the C API:
 * every system derives a small non-projective sentence with its static
 * oracle where the tree is in its class (and says why where it is not),
 * replaying the sequence class by class through tp_state_legal and
 * tp_state_apply rebuilds the tree, the bulk oracle of a document gives
 * the same sequences, and the errors are the documented ones.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transparse.h"

static int passed, failed;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (cond) {                                                            \
            passed++;                                                          \
        } else {                                                               \
            failed++;                                                          \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__,   \
                    #cond);                                                    \
        }                                                                      \
    } while (0)

/* expect: rc is want and the message contains part; frees err. */
static void expect(int line, int rc, tp_error *err, int want,
                   const char *part) {
    const char *msg = err ? tp_error_message(err) : "";
    if (rc == want && err != NULL && strstr(msg, part) != NULL) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "%s:%d: got %s \"%s\", want %s containing \"%s\"\n",
                __FILE__, line, tp_status_name(rc), msg, tp_status_name(want),
                part);
    }
    tp_error_free(err);
}

/* EXPECT(want, part, call): call (which uses a tp_error *err in scope) fails
 * with status want and a message containing part. */
#define EXPECT(want, part, ...)                                                \
    do {                                                                       \
        tp_error *err = NULL;                                                  \
        int rc_ = (__VA_ARGS__);                                               \
        expect(__LINE__, rc_, err, want, part);                                \
    } while (0)

static const char *const deprels[] = {"root", "nsubj", "obj", "advmod"};

/* "A hearing is scheduled today" shape: 1 <- 2, 0 -> 2, 2 -> 4, 4 -> 3 and
 * 1 -> 5 crossing 2 -> 4: non-projective. */
static const int32_t heads[] = {2, 0, 4, 2, 1};
static const int32_t labels[] = {1, 0, 3, 2, 3};
enum { N = 5 };

/* drive: replay the oracle's classes through the state; 1 if it rebuilds
 * the tree with every class legal and ends terminal. */
static int drive(const tp_system *sys, const int32_t *seq, size_t len,
                 size_t n_classes) {
    tp_state *st = NULL;
    uint8_t *mask = malloc(n_classes);
    int ok = tp_state_new(sys, N, &st, NULL) == TP_OK && mask != NULL;
    for (size_t i = 0; ok && i < len; i++) {
        int terminal = 1;
        ok = tp_state_is_terminal(st, &terminal, NULL) == TP_OK && !terminal &&
             tp_state_legal(st, mask, n_classes, NULL) == TP_OK &&
             mask[seq[i]] && tp_state_apply(st, (size_t)seq[i], NULL) == TP_OK;
    }
    int32_t h[N], l[N];
    size_t nh = 0, nl = 0;
    int terminal = 0;
    ok = ok && tp_state_is_terminal(st, &terminal, NULL) == TP_OK && terminal &&
         tp_state_view(st, TP_VIEW_HEADS, h, N, &nh, NULL) == TP_OK &&
         tp_state_view(st, TP_VIEW_DEPRELS, l, N, &nl, NULL) == TP_OK &&
         nh == N && nl == N && memcmp(h, heads, sizeof h) == 0 &&
         memcmp(l, labels, sizeof l) == 0;
    free(mask);
    tp_state_free(st);
    return ok;
}

static void test_systems(void) {
    char *names = NULL;
    CHECK(tp_systems(&names, NULL) == TP_OK);
    int derived = 0, outside = 0;
    for (char *name = strtok(names, "\n"); name; name = strtok(NULL, "\n")) {
        tp_system *sys = NULL;
        CHECK(tp_system_new(name, deprels, 4, 0, &sys, NULL) == TP_OK);
        char *classes = NULL;
        CHECK(tp_system_classes(sys, &classes, NULL) == TP_OK);
        size_t n_classes = 0;
        for (const char *p = classes; p && *p; p++)
            n_classes += *p == '\n';
        CHECK(n_classes > 4 && strncmp(classes, "SHIFT\n", 6) == 0);
        tp_string_free(classes);
        size_t max = 0, len = 0;
        CHECK(tp_system_max_transitions(sys, N, &max, NULL) == TP_OK);
        int32_t *seq = malloc(max * sizeof *seq);
        tp_error *err = NULL;
        int rc = tp_system_oracle(sys, heads, labels, N, seq, max, &len, &err);
        if (rc == TP_OK) {
            derived++;
            CHECK(len > N && len <= max);
            CHECK(drive(sys, seq, len, n_classes));
        } else {
            outside++;
            expect(__LINE__, rc, err, TP_ERR_INPUT, "outside the class of");
            err = NULL; /* expect freed it */
        }
        tp_error_free(err);
        free(seq);
        CHECK(tp_system_free(sys) == TP_OK);
        CHECK(tp_system_free(sys) == TP_ERR_ARGUMENT);
    }
    tp_string_free(names);
    /* the projective stack systems, Covington projective and planar reject
     * the crossing; swap, Covington non-projective, 2- and 3-planar and
     * two-registers derive it */
    CHECK(derived >= 5 && outside >= 4 && derived + outside == 12);
}

static void test_errors(void) {
    tp_system *sys = NULL;
    EXPECT(TP_ERR_ARGUMENT, "unknown transition system",
           tp_system_new("arc-greedy", deprels, 4, 0, &sys, &err));
    CHECK(sys == NULL);
    EXPECT(TP_ERR_ARGUMENT, "no \"root\"",
           tp_system_new("arc-eager", deprels + 1, 3, 0, &sys, &err));
    CHECK(tp_system_new("arc-eager", deprels, 4, 0, &sys, NULL) == TP_OK);
    tp_state *st = NULL;
    CHECK(tp_state_new(sys, N, &st, NULL) == TP_OK);
    EXPECT(TP_ERR_INPUT, "REDUCE) is not legal",
           tp_state_apply(st, 1, &err));
    EXPECT(TP_ERR_ARGUMENT, "out of range",
           tp_state_apply(st, 1000, &err));
    int32_t stack[N + 1];
    size_t len = 0;
    EXPECT(TP_ERR_ARGUMENT, "capacity is 2",
           tp_state_view(st, TP_VIEW_BUFFER, stack, 2, &len, &err));
    CHECK(len == N);
    int cost = -1;
    CHECK(tp_state_cost(st, heads, labels, N, 0, &cost, NULL) == TP_OK &&
          cost == 0);
    int32_t cyclic[] = {2, 1, 0, 3, 4};
    int32_t seq[16];
    EXPECT(TP_ERR_INPUT, "cycle",
           tp_system_oracle(sys, cyclic, labels, N, seq, 16, &len, &err));
    CHECK(tp_state_free(st) == TP_OK);
    CHECK(tp_state_free(st) == TP_ERR_ARGUMENT);
    CHECK(tp_system_free(sys) == TP_OK);
}

/* The document: the crossing tree above, then the projective "She saw
 * it" (with a multiword token line, which is not a word). */
static const char doc[] =
    "# sent_id = 1\n"
    "1\tA\t_\t_\t_\t_\t2\tnsubj\t_\t_\n"
    "2\thearing\t_\t_\t_\t_\t0\troot\t_\t_\n"
    "3\ton\t_\t_\t_\t_\t4\tadvmod\t_\t_\n"
    "4\tis\t_\t_\t_\t_\t2\tobj\t_\t_\n"
    "5\ttoday\t_\t_\t_\t_\t1\tadvmod\t_\t_\n"
    "\n"
    "1-2\tShe's\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "1\tShe\t_\t_\t_\t_\t2\tnsubj\t_\t_\n"
    "2\t's\t_\t_\t_\t_\t0\troot\t_\t_\n"
    "3\tit\t_\t_\t_\t_\t2\tobj\t_\t_\n"
    "\n";

/* tp_system_oracle_document gives, sentence by sentence, what
 * tp_system_oracle gives (or in_class 0 where it fails). */
static void test_document(void) {
    static const int32_t heads2[] = {2, 0, 2}, labels2[] = {1, 0, 2};
    char *names = NULL;
    CHECK(tp_systems(&names, NULL) == TP_OK);
    for (char *name = strtok(names, "\n"); name; name = strtok(NULL, "\n")) {
        tp_system *sys = NULL;
        CHECK(tp_system_new(name, deprels, 4, 0, &sys, NULL) == TP_OK);
        tp_oracle_doc *r = NULL;
        CHECK(tp_system_oracle_document(sys, doc, sizeof doc - 1, &r, NULL) ==
              TP_OK);
        CHECK(r != NULL && r->n_sentences == 2 && r->n_words[0] == N &&
              r->n_words[1] == 3 && r->offsets[0] == 0);
        for (size_t i = 0; r != NULL && i < 2; i++) {
            int32_t seq[64];
            size_t len = 0;
            int rc = tp_system_oracle(sys, i ? heads2 : heads,
                                      i ? labels2 : labels, i ? 3 : N, seq, 64,
                                      &len, NULL);
            size_t got = r->offsets[i + 1] - r->offsets[i];
            CHECK(r->in_class[i] == (rc == TP_OK));
            CHECK(got == (rc == TP_OK ? len : 0));
            CHECK(got == 0 || memcmp(seq, r->classes + r->offsets[i],
                                     len * sizeof *seq) == 0);
        }
        tp_oracle_doc_free(r);
        tp_system_free(sys);
    }
    tp_string_free(names);
    tp_system *sys = NULL;
    CHECK(tp_system_new("arc-eager", deprels + 0, 3, 0, &sys, NULL) == TP_OK);
    tp_oracle_doc *r = NULL;
    EXPECT(TP_ERR_INPUT, "text:1: sentence 1: word 3 has deprel \"advmod\"",
           tp_system_oracle_document(sys, doc, sizeof doc - 1, &r, &err));
    CHECK(r == NULL);
    EXPECT(TP_ERR_INPUT, "text:1",
           tp_system_oracle_document(sys, "1\tA\n", 4, &r, &err));
    CHECK(tp_system_oracle_document(sys, "", 0, &r, NULL) == TP_OK &&
          r->n_sentences == 0 && r->offsets[0] == 0);
    tp_oracle_doc_free(r);
    tp_system_free(sys);
}

/* With a pseudo-projective encoding, arc-eager derives the crossing tree
 * (projectivized: 5 lifted from 1 to 2, advmod|nsubj under HEAD), and
 * tp_system_decode turns the derived tree back into the gold one. */
static void test_pseudo_projective(void) {
    static const unsigned encs[] = {
        TP_SYSTEM_PSEUDOPROJ_HEAD, TP_SYSTEM_PSEUDOPROJ_PATH,
        TP_SYSTEM_PSEUDOPROJ_HEAD_PATH};
    for (size_t e = 0; e < 3; e++) {
        tp_system *sys = NULL;
        CHECK(tp_system_new("arc-eager", deprels, 4, encs[e], &sys, NULL) ==
              TP_OK);
        int32_t seq[64], h[N], l[N];
        size_t len = 0, nh = 0, nl = 0;
        CHECK(tp_system_oracle(sys, heads, labels, N, seq, 64, &len, NULL) ==
              TP_OK);
        tp_state *st = NULL;
        CHECK(tp_state_new(sys, N, &st, NULL) == TP_OK);
        for (size_t i = 0; i < len; i++)
            CHECK(tp_state_apply(st, (size_t)seq[i], NULL) == TP_OK);
        CHECK(tp_state_view(st, TP_VIEW_HEADS, h, N, &nh, NULL) == TP_OK);
        CHECK(tp_state_view(st, TP_VIEW_DEPRELS, l, N, &nl, NULL) == TP_OK);
        CHECK(h[4] == 2 && l[4] >= 4); /* lifted, an encoded deprel */
        CHECK(tp_system_decode(sys, h, l, N, h, l, NULL) == TP_OK);
        CHECK(memcmp(h, heads, sizeof h) == 0 && memcmp(l, labels, sizeof l) == 0);
        tp_state_free(st);
        tp_system_free(sys);
    }
    tp_system *sys = NULL;
    CHECK(tp_system_new("arc-eager", deprels, 4, 0, &sys, NULL) == TP_OK);
    int32_t h[N], l[N];
    EXPECT(TP_ERR_ARGUMENT, "no pseudo-projective encoding",
           tp_system_decode(sys, heads, labels, N, h, l, &err));
    tp_system_free(sys);
    EXPECT(TP_ERR_ARGUMENT, "unknown flags",
           tp_system_new("arc-eager", deprels, 4, 8, &sys, &err));
    EXPECT(TP_ERR_ARGUMENT, "unknown pseudo-projective encoding",
           tp_system_new("arc-eager", deprels, 4, 5, &sys, &err));
}

int main(void) {
    test_systems();
    test_errors();
    test_document();
    test_pseudo_projective();
    printf("test_engine: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
