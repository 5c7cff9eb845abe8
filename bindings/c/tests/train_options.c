/*
 * train_options.c -- trains a model through tp_train_with_progress with
 * the JSON options given as the only argument, as `transparse train` and
 * Python's transparse.train do with theirs (bindings/python/tests/
 * test_train.py compiles and runs it to compare the three).
 *
 * Prints "ok REPORTS" (the number of progress reports) and exits 0, or
 * prints the status name and the error message and exits 1.
 */
#include <stdio.h>

#include "transparse.h"

static int count(const tp_progress *p, void *user) {
    (void)p;
    ++*(long *)user;
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: train_options JSON\n");
        return 2;
    }
    long reports = 0;
    tp_model *m = NULL;
    tp_error *err = NULL;
    int rc = tp_train_with_progress(argv[1], count, &reports, &m, &err);
    if (rc != TP_OK) {
        printf("%s %s\n", tp_status_name(rc), tp_error_message(err));
        tp_error_free(err);
        return 1;
    }
    printf("ok %ld\n", reports);
    return tp_model_free(m) == TP_OK ? 0 : 1;
}
