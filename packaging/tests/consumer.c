/*
 * consumer.c -- an application of an installed libtransparse, built with
 * pkg-config by the install and Debian package tests: it loads the default
 * model (tp_default_model_path), parses one sentence and prints the model
 * path and one line per word: index, form, UPOS, head, deprel.
 */
#include <stdio.h>

#include <transparse.h>

int main(void) {
    const char *path = tp_default_model_path();
    if (path == NULL) {
        fprintf(stderr, "consumer: no default model\n");
        return 1;
    }
    printf("model %s\n", path);
    tp_model *model = NULL;
    tp_error *err = NULL;
    if (tp_model_load(path, &model, &err) != TP_OK) {
        fprintf(stderr, "consumer: %s\n", tp_error_message(err));
        tp_error_free(err);
        return 1;
    }
    const char *forms[] = {"I", "saw", "her", "."};
    tp_result *res = NULL;
    if (tp_parse(model, forms, 4, NULL, NULL, &res, &err) != TP_OK) {
        fprintf(stderr, "consumer: %s\n", tp_error_message(err));
        tp_error_free(err);
        tp_model_free(model);
        return 1;
    }
    for (size_t i = 0; i < res->n_words; i++)
        printf("%zu\t%s\t%s\t%d\t%s\n", i + 1, forms[i], res->upos[i],
               (int)res->heads[i], res->deprels[i]);
    tp_result_free(res);
    tp_model_free(model);
    return 0;
}
