/*
 * parse.c -- parse pre-tokenized text with libtransparse and print CoNLL-U.
 *
 * Input: one sentence per line, tokens separated by spaces or tabs (blank
 * lines are skipped), from FILE or standard input. Output: CoNLL-U with ID,
 * FORM, the LEMMA, UPOS, XPOS and FEATS the model predicts ("_" for a
 * column it has no component for), HEAD and DEPREL filled in.
 *
 * With -c the input is CoNLL-U instead, parsed with tp_parse_document (the
 * tags it carries are used) and written back with HEAD and DEPREL filled in.
 *
 * -b K parses with a beam of width K (without -b: the model's default
 * width, tp_model_default_beam), -C adds each word's confidence to
 * MISC ("Confidence=0.931"), -k N follows each sentence with its other
 * trees of the N best (tp_options; the same output as
 * `transparse parse --beam K --confidence --kbest N`).
 *
 *   usage: parse [-m MODEL] [-c] [-b K] [-k N] [-C] [FILE]
 *
 * The model is -m MODEL, else the library's default model
 * (tp_default_model_path: $TRANSPARSE_MODEL, else the installed or the
 * build tree's en_ewt.tpm).
 *
 * Build: cc parse.c $(pkg-config --cflags --libs transparse) -o parse
 */
#define _GNU_SOURCE /* getline */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <transparse.h>

/* parse_conllu reads all of in, parses it as CoNLL-U and prints the result. */
static int parse_conllu(tp_model *model, FILE *in, const tp_options *o) {
    size_t len = 0, cap = 1 << 16;
    char *text = malloc(cap);
    size_t got;
    while (text && (got = fread(text + len, 1, cap - len, in)) > 0) {
        len += got;
        if (len == cap) {
            char *grown = realloc(text, cap *= 2);
            if (!grown)
                free(text);
            text = grown;
        }
    }
    if (!text) {
        fprintf(stderr, "parse: out of memory\n");
        return 1;
    }
    char *out = NULL;
    size_t out_len = 0;
    tp_error *err = NULL;
    int status = 0;
    if (tp_parse_document(model, text, len, o, &out, &out_len, NULL, &err) != TP_OK) {
        fprintf(stderr, "parse: %s\n", tp_error_message(err));
        tp_error_free(err);
        status = 1;
    } else {
        fwrite(out, 1, out_len, stdout);
        tp_string_free(out);
    }
    free(text);
    if (in != stdin)
        fclose(in);
    tp_model_free(model);
    return status;
}

/* print_tree prints the n words of a sentence with the tree heads/deprels
 * and the MISC column: the confidences when conf is not NULL, else "_". */
static void print_tree(const char *const *forms, const tp_result *res, const int32_t *heads,
                       const char *const *deprels, const double *conf) {
    for (size_t i = 0; i < res->n_words; i++) {
        printf("%zu\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t_\t", i + 1, forms[i], res->lemma[i], res->upos[i],
               res->xpos[i], res->feats[i], (int)heads[i], deprels[i]);
        if (conf)
            printf("Confidence=%.3f\n", conf[i]);
        else
            printf("_\n");
    }
    printf("\n");
}

int main(int argc, char **argv) {
    const char *model_arg = NULL;
    int conllu = 0;
    tp_options po = TP_OPTIONS_INIT;
    int opt;
    while ((opt = getopt(argc, argv, "m:cb:k:Ch")) != -1) {
        switch (opt) {
        case 'm': model_arg = optarg; break;
        case 'c': conllu = 1; break;
        case 'b': po.beam = atoi(optarg); break;
        case 'k': po.kbest = atoi(optarg); break;
        case 'C': po.confidence = 1; break;
        default:
            fprintf(stderr, "usage: %s [-m MODEL] [-c] [-b K] [-k N] [-C] [FILE]\n", argv[0]);
            return opt == 'h' ? 0 : 2;
        }
    }
    FILE *in = stdin;
    if (optind < argc && strcmp(argv[optind], "-") != 0) {
        in = fopen(argv[optind], "r");
        if (!in) {
            perror(argv[optind]);
            return 1;
        }
    }

    const char *path = model_arg ? model_arg : tp_default_model_path();
    if (path == NULL) {
        fprintf(stderr, "parse: no model given (-m MODEL) and no default model "
                        "found; set TRANSPARSE_MODEL or install the model\n");
        return 1;
    }
    tp_model *model = NULL;
    tp_error *err = NULL;
    if (tp_model_load(path, &model, &err) != TP_OK) {
        fprintf(stderr, "parse: %s\n", tp_error_message(err));
        tp_error_free(err);
        return 1;
    }

    if (conllu)
        return parse_conllu(model, in, &po);

    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    const char **forms = NULL;
    size_t forms_cap = 0;
    long lineno = 0, sent = 0;
    int status = 0;
    while ((len = getline(&line, &cap, in)) != -1) {
        lineno++;
        size_t n = 0;
        for (char *tok = strtok(line, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
            if (n == forms_cap) {
                forms_cap = forms_cap ? 2 * forms_cap : 64;
                const char **grown = realloc(forms, forms_cap * sizeof *forms);
                if (!grown) {
                    fprintf(stderr, "parse: out of memory\n");
                    return 1;
                }
                forms = grown;
            }
            forms[n++] = tok;
        }
        if (n == 0)
            continue;
        tp_result *res = NULL;
        if (tp_parse(model, forms, n, NULL, &po, &res, &err) != TP_OK) {
            fprintf(stderr, "parse: line %ld: %s\n", lineno, tp_error_message(err));
            tp_error_free(err);
            status = 1;
            continue;
        }
        sent++;
        /* The best tree, then the other trees of the k best (rank 2, ...). */
        for (size_t t = 0; t == 0 || t < res->n_trees; t++) {
            if (t == 0)
                printf("# sent_id = %ld\n# text =", sent);
            else
                printf("# sent_id = %ld-kbest%zu\n# text =", sent, t + 1);
            for (size_t i = 0; i < n; i++)
                printf(" %s", forms[i]);
            printf("\n");
            if (t == 0) {
                print_tree(forms, res, res->heads, res->deprels, res->confidence);
            } else {
                printf("# kbest_rank = %zu\n# kbest_score = %.4f\n", t + 1, res->tree_scores[t]);
                print_tree(forms, res, res->tree_heads + t * n, res->tree_deprels + t * n, NULL);
            }
        }
        tp_result_free(res);
    }
    free(line);
    free(forms);
    if (in != stdin)
        fclose(in);
    tp_model_free(model);
    return status;
}
