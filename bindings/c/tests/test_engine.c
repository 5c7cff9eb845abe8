/*
 * test_engine.c -- the transition systems as an engine through the C API:
 * every system derives a small non-projective sentence with its static
 * oracle where the tree is in its class (and says why where it is not),
 * replaying the sequence class by class through tp_state_legal and
 * tp_state_apply rebuilds the tree, the bulk oracle of a document gives
 * the same sequences, the errors are the documented ones, and a model
 * parses through the engine (tp_state_scores) exactly as tp_parse does:
 * the bundled model and small models of the other systems trained here.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r, strdup */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transparse.h"
#include "treebank.h"

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
        CHECK(tp_system_new(name, deprels, 4, &sys, NULL) == TP_OK);
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
           tp_system_new("arc-greedy", deprels, 4, &sys, &err));
    CHECK(sys == NULL);
    EXPECT(TP_ERR_ARGUMENT, "no \"root\"",
           tp_system_new("arc-eager", deprels + 1, 3, &sys, &err));
    CHECK(tp_system_new("arc-eager", deprels, 4, &sys, NULL) == TP_OK);
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
        CHECK(tp_system_new(name, deprels, 4, &sys, NULL) == TP_OK);
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
    CHECK(tp_system_new("arc-eager", deprels + 0, 3, &sys, NULL) == TP_OK);
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

/* derive: the tree (h, l) sys derives from the gold crossing tree with
 * its static oracle; 1 if every call succeeds. */
static int derive(const tp_system *sys, int32_t h[N], int32_t l[N]) {
    int32_t seq[64];
    size_t len = 0, nh = 0, nl = 0;
    tp_state *st = NULL;
    int ok = tp_system_oracle(sys, heads, labels, N, seq, 64, &len, NULL) == TP_OK &&
             tp_state_new(sys, N, &st, NULL) == TP_OK;
    for (size_t i = 0; ok && i < len; i++)
        ok = tp_state_apply(st, (size_t)seq[i], NULL) == TP_OK;
    ok = ok && tp_state_view(st, TP_VIEW_HEADS, h, N, &nh, NULL) == TP_OK &&
         tp_state_view(st, TP_VIEW_DEPRELS, l, N, &nl, NULL) == TP_OK;
    tp_state_free(st);
    return ok;
}

/* With a pseudo-projective encoding (the name's suffix), arc-eager derives
 * the crossing tree (projectivized: 5 lifted from 1 to 2, advmod|nsubj
 * under head), and tp_system_decode turns the derived tree back into the
 * gold one. */
static void test_pseudo_projective(void) {
    static const char *const names[] = {"arc-eager/head", "arc-eager/path",
                                        "arc-eager/head+path"};
    int32_t h[N], l[N], seq[64];
    size_t len = 0;
    for (size_t e = 0; e < 3; e++) {
        tp_system *sys = NULL;
        CHECK(tp_system_new(names[e], deprels, 4, &sys, NULL) == TP_OK);
        CHECK(derive(sys, h, l));
        CHECK(h[4] == 2 && l[4] >= 4); /* lifted, an encoded deprel */
        CHECK(tp_system_decode(sys, h, l, N, h, l, NULL) == TP_OK);
        CHECK(memcmp(h, heads, sizeof h) == 0 && memcmp(l, labels, sizeof l) == 0);
        tp_system_free(sys);
    }
    /* baseline lifts without marking: the class table is the plain one,
     * and the oracle derives the crossing tree lifted. */
    tp_system *sys = NULL, *plain = NULL;
    char *names_b = NULL, *names_p = NULL;
    CHECK(tp_system_new("arc-eager/baseline", deprels, 4, &sys, NULL) == TP_OK);
    CHECK(tp_system_new("arc-eager", deprels, 4, &plain, NULL) == TP_OK);
    CHECK(tp_system_classes(sys, &names_b, NULL) == TP_OK &&
          tp_system_classes(plain, &names_p, NULL) == TP_OK &&
          strcmp(names_b, names_p) == 0);
    tp_string_free(names_b);
    tp_string_free(names_p);
    CHECK(derive(sys, h, l));
    CHECK(h[4] == 2 && memcmp(l, labels, sizeof l) == 0); /* lifted, unmarked */
    EXPECT(TP_ERR_INPUT, "outside the class of",
           tp_system_oracle(plain, heads, labels, N, seq, 64, &len, &err));
    tp_system_free(sys);
    EXPECT(TP_ERR_ARGUMENT, "no pseudo-projective encoding",
           tp_system_decode(plain, heads, labels, N, h, l, &err));
    tp_system_free(plain);
    /* The name keeps its suffix in messages. */
    CHECK(tp_system_new("arc-standard/path", deprels, 4, &sys, NULL) == TP_OK);
    tp_state *st = NULL;
    CHECK(tp_state_new(sys, N, &st, NULL) == TP_OK);
    int cost = 0;
    EXPECT(TP_ERR_ARGUMENT, "arc-standard/path has no dynamic oracle",
           tp_state_cost(st, heads, labels, N, 0, &cost, &err));
    tp_state_free(st);
    tp_system_free(sys);
    EXPECT(TP_ERR_ARGUMENT, "unknown encoding \"lift\" (known: baseline, head, path, head+path)",
           tp_system_new("arc-eager/lift", deprels, 4, &sys, &err));
    CHECK(sys == NULL);
    EXPECT(TP_ERR_ARGUMENT, "unknown encoding \"\"",
           tp_system_new("arc-eager/", deprels, 4, &sys, &err));
    EXPECT(TP_ERR_ARGUMENT, "unknown encoding \"head/path\"",
           tp_system_new("arc-eager/head/path", deprels, 4, &sys, &err));
    EXPECT(TP_ERR_ARGUMENT, "unknown transition system \"arc-greedy\"",
           tp_system_new("arc-greedy/head", deprels, 4, &sys, &err));
}

/* ---- the parser through the engine ------------------------------------ */

/* A model's system as the engine sees it: the system of its card over its
 * deprels, and the class table. */
typedef struct {
    const tp_model *model;
    tp_system *sys;
    const char *const *deprels;
    size_t n_deprels, n_classes, root;
    char **classes; /* class names */
    char system[64];
} engine_model;

static int engine_model_open(engine_model *em, const tp_model *model) {
    memset(em, 0, sizeof *em);
    em->model = model;
    char *card = NULL, *names = NULL, *system = em->system;
    if (tp_model_card_json(model, &card, NULL) != TP_OK)
        return 0;
    const char *p = strstr(card, "\"system\":\"");
    if (p != NULL)
        sscanf(p + 10, "%63[^\"]", system);
    tp_string_free(card);
    if (tp_model_deprels(model, &em->deprels, &em->n_deprels, NULL) != TP_OK ||
        tp_system_new(system, em->deprels, em->n_deprels, &em->sys, NULL) != TP_OK ||
        tp_system_classes(em->sys, &names, NULL) != TP_OK)
        return 0;
    for (const char *q = names; *q; q++)
        em->n_classes += *q == '\n';
    em->classes = malloc(em->n_classes * sizeof *em->classes);
    size_t k = 0;
    char *save = NULL;
    for (char *c = strtok_r(names, "\n", &save); c; c = strtok_r(NULL, "\n", &save))
        em->classes[k++] = strdup(c);
    tp_string_free(names);
    for (size_t i = 0; i < em->n_deprels; i++)
        if (strcmp(em->deprels[i], "root") == 0)
            em->root = i;
    return 1;
}

static void engine_model_close(engine_model *em) {
    for (size_t k = 0; k < em->n_classes; k++)
        free(em->classes[k]);
    free(em->classes);
    tp_system_free(em->sys);
}

/* attach_deprel: the deprel the greedy parser gives the arc of class k in
 * st when the move adds one without a deprel (arc-eager's REDUCE of a
 * headless node, buffer empty; no other system has such a move): the
 * best-scoring deprel of the labeled arc move in its direction, the root
 * rule kept; -1 for every other class. */
static int32_t attach_deprel(const engine_model *em, tp_state *st, size_t k,
                             const float *scores, size_t n) {
    int32_t stack[TP_MAX_WORDS + 1], heads[TP_MAX_WORDS];
    size_t ns = 0, nh = 0;
    if (strcmp(em->system, "arc-eager") != 0 || strcmp(em->classes[k], "REDUCE") != 0 ||
        tp_state_view(st, TP_VIEW_STACK, stack, n + 1, &ns, NULL) != TP_OK ||
        tp_state_view(st, TP_VIEW_HEADS, heads, n, &nh, NULL) != TP_OK ||
        ns < 2 || heads[stack[ns - 1] - 1] != -1)
        return -1;
    int32_t d = stack[ns - 1], h = stack[ns - 2];
    for (size_t i = 0; h == 0 && i < n; i++)
        if (heads[i] == 0)
            h = (int32_t)i + 1; /* the root word */
    const char *move = d < h ? "LEFT-ARC:" : "RIGHT-ARC:";
    size_t base = 0;
    while (base < em->n_classes && strncmp(em->classes[base], move, strlen(move)) != 0)
        base++;
    int32_t best = -1;
    for (size_t l = 0; l < em->n_deprels; l++)
        if ((h == 0) == (l == em->root) &&
            (best < 0 || scores[base + l] > scores[base + (size_t)best]))
            best = (int32_t)l;
    return best;
}

/* engine_parse parses sentence s through the engine: TP_SCORER_GREEDY's
 * scores, the best legal class, applied (with attach_deprel), within the
 * parser's bound of transitions; then the headless words are attached as
 * the parser does. heads and deprels (n) receive the tree. */
static int engine_parse(const engine_model *em, const ud_sentence *s,
                        int32_t *heads, const char **deprels) {
    size_t n = s->n, max = 0, steps = 0, nh = 0, nl = 0;
    tp_tags tags = {s->upos, s->xpos, s->feats, s->lemma};
    float *scores = malloc(em->n_classes * sizeof *scores);
    uint8_t *mask = malloc(em->n_classes);
    int32_t *labels = malloc(n * sizeof *labels);
    tp_state *st = NULL;
    int ok = tp_state_new(em->sys, n, &st, NULL) == TP_OK &&
             tp_system_max_transitions(em->sys, n, &max, NULL) == TP_OK;
    size_t bound = max < 40 * n + 40 ? max : 40 * n + 40; /* MaxTransitionsPerWord */
    for (int terminal = 0; ok && steps < bound; steps++) {
        ok = tp_state_is_terminal(st, &terminal, NULL) == TP_OK;
        if (!ok || terminal)
            break;
        ok = tp_state_scores(em->model, TP_SCORER_GREEDY, st, s->forms, &tags, n,
                             scores, em->n_classes, NULL) == TP_OK &&
             tp_state_legal(st, mask, em->n_classes, NULL) == TP_OK;
        size_t best = em->n_classes;
        for (size_t k = 0; ok && k < em->n_classes; k++)
            if (mask[k] && (best == em->n_classes || scores[k] > scores[best]))
                best = k;
        if (!ok || best == em->n_classes)
            break; /* no legal class: repaired below */
        ok = tp_state_apply_deprel(st, best, attach_deprel(em, st, best, scores, n),
                                   NULL) == TP_OK;
    }
    ok = ok && tp_state_view(st, TP_VIEW_HEADS, heads, n, &nh, NULL) == TP_OK &&
         tp_state_view(st, TP_VIEW_DEPRELS, labels, n, &nl, NULL) == TP_OK;
    /* The root rule leaves at most one word on node 0: the root word. */
    int32_t root_word = 0;
    for (size_t i = 0; ok && i < n && root_word == 0; i++)
        if (heads[i] == 0)
            root_word = (int32_t)i + 1;
    for (size_t i = 0; ok && i < n; i++) {
        if (heads[i] == -1 && root_word == 0)
            heads[i] = 0, labels[i] = (int32_t)em->root, root_word = (int32_t)i + 1;
        else if (heads[i] == -1)
            heads[i] = root_word, labels[i] = -1;
    }
    for (size_t i = 0; ok && i < n; i++)
        deprels[i] = labels[i] < 0 ? "dep" : em->deprels[labels[i]];
    tp_state_free(st);
    free(scores);
    free(mask);
    free(labels);
    return ok;
}

/* Every sentence of the treebank parsed through the engine with the
 * model's classifier is the tree tp_parse gives with the same gold tags;
 * the features of both scorers are one id per template and depend on
 * the state. */
static void test_engine_parses_as_tp_parse(const tp_model *model, const treebank *tb) {
    engine_model em;
    CHECK(engine_model_open(&em, model));
    size_t sentences = 0, words = 0, differ = 0;
    int32_t heads[TP_MAX_WORDS];
    const char *deprels[TP_MAX_WORDS];
    for (size_t k = 0; k < tb->n; k++) {
        const ud_sentence *s = &tb->s[k];
        tp_tags tags = {s->upos, s->xpos, s->feats, s->lemma};
        tp_result *r = NULL;
        tp_error *perr = NULL;
        if (tp_parse(model, s->forms, s->n, &tags, NULL, &r, &perr) != TP_OK ||
            !engine_parse(&em, s, heads, deprels)) {
            if (differ == 0)
                fprintf(stderr, "sentence %zu: %s\n", k, perr ? tp_error_message(perr) : "engine_parse failed");
            tp_error_free(perr);
            differ++;
            tp_result_free(r);
            continue;
        }
        int same = 1;
        for (size_t i = 0; i < s->n; i++)
            same = same && heads[i] == r->heads[i] && strcmp(deprels[i], r->deprels[i]) == 0;
        if (!same && differ == 0)
            fprintf(stderr, "sentence %zu differs from tp_parse\n", k);
        differ += !same;
        sentences++;
        words += s->n;
        tp_result_free(r);
    }
    printf("engine: %zu sentences (%zu words) parsed through tp_state_scores, "
           "%zu differ from tp_parse\n", sentences, words, differ);
    CHECK(sentences == tb->n && differ == 0);

    const ud_sentence *s = &tb->s[0];
    tp_tags tags = {s->upos, s->xpos, s->feats, s->lemma};
    tp_state *st = NULL;
    uint64_t a[512], b[512];
    size_t na = 0, nb = 0;
    CHECK(tp_state_new(em.sys, s->n, &st, NULL) == TP_OK);
    CHECK(tp_state_features(model, TP_SCORER_GOLD, st, s->forms, &tags, s->n, a, 512, &na, NULL) == TP_OK);
    CHECK(tp_state_apply(st, 0, NULL) == TP_OK); /* SHIFT */
    CHECK(tp_state_features(model, TP_SCORER_GOLD, st, s->forms, &tags, s->n, b, 512, &nb, NULL) == TP_OK);
    CHECK(na > 10 && na == nb && memcmp(a, b, na * sizeof *a) != 0);
    tp_error *ferr = NULL;
    int rc = tp_state_features(model, TP_SCORER_GOLD_FAST, st, s->forms, &tags, s->n, b, 512, &nb, &ferr);
    if (rc == TP_OK)
        CHECK(nb > 0 && nb < na);
    else /* a model without a fast classifier */
        expect(__LINE__, rc, ferr, TP_ERR_ARGUMENT, "no fast classifier");
    EXPECT(TP_ERR_ARGUMENT, "capacity is 2",
           tp_state_features(model, TP_SCORER_GOLD, st, s->forms, &tags, s->n, a, 2, &na, &err));
    EXPECT(TP_ERR_ARGUMENT, "unknown scorer",
           tp_state_features(model, 7, st, s->forms, &tags, s->n, a, 512, &na, &err));
    EXPECT(TP_ERR_ARGUMENT, "the state has",
           tp_state_features(model, TP_SCORER_GOLD, st, s->forms, &tags, s->n - 1, a, 512, &na, &err));
    tp_state_free(st);
    tp_system *other = NULL;
    const char *other_name = strcmp(em.system, "arc-hybrid") ? "arc-hybrid" : "arc-standard";
    CHECK(tp_system_new(other_name, em.deprels, em.n_deprels, &other, NULL) == TP_OK);
    CHECK(tp_state_new(other, s->n, &st, NULL) == TP_OK);
    EXPECT(TP_ERR_ARGUMENT, "not of the model's system",
           tp_state_features(model, TP_SCORER_GOLD, st, s->forms, &tags, s->n, a, 512, &na, &err));
    tp_state_free(st);
    tp_system_free(other);
    engine_model_close(&em);
}

/* The models of the other systems: small ones trained on the committed
 * slice (gold tags only, two epochs). */
static void test_trained_systems(const char *train, const char *dev, const treebank *tb) {
    char *names = NULL;
    CHECK(tp_systems(&names, NULL) == TP_OK);
    for (char *name = strtok(names, "\n"); name; name = strtok(NULL, "\n")) {
        if (strcmp(name, "arc-eager") == 0)
            continue; /* the bundled model */
        char opts[2048];
        snprintf(opts, sizeof opts,
                 "{\"train\":\"%s\",\"dev\":\"%s\",\"system\":\"%s\",\"gold_only\":true,"
                 "\"gold\":{\"epochs\":2}}", train, dev, name);
        tp_model *m = NULL;
        tp_error *err = NULL;
        if (tp_train(opts, &m, &err) != TP_OK) {
            failed++;
            fprintf(stderr, "tp_train %s: %s\n", name, tp_error_message(err));
            tp_error_free(err);
            continue;
        }
        printf("%s ", name);
        test_engine_parses_as_tp_parse(m, tb);
        tp_model_free(m);
    }
    tp_string_free(names);
}

int main(int argc, char **argv) {
    test_systems();
    test_errors();
    test_document();
    test_pseudo_projective();
    /* argv: the bundled model, a treebank to parse through the engine, and
     * a training and a development set for the small models of the other
     * systems. */
    if (argc > 2) {
        tp_model *model = NULL;
        treebank tb;
        CHECK(tp_model_load(argv[1], &model, NULL) == TP_OK);
        CHECK(read_treebank(argv[2], &tb));
        if (model != NULL && tb.n > 0)
            test_engine_parses_as_tp_parse(model, &tb);
        if (argc > 4 && tb.n > 0)
            test_trained_systems(argv[3], argv[4], &tb);
        free_treebank(&tb);
        tp_model_free(model);
    }
    printf("test_engine: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
