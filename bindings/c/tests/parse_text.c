/*
 * parse_text.c -- parses the raw text of standard input with the model
 * given as the only argument (tp_parse_document, TP_INPUT_TEXT, token
 * offsets in bytes) and writes the CoNLL-U to standard output, as
 * `transparse parse --input text --ranges bytes` does
 * (bindings/python/tests/test_text.py compiles and runs it to compare the
 * C API, the command line and Python byte for byte).
 *
 * Exits 0, or prints the status name and the error message and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>

#include "transparse.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: parse_text MODEL < TEXT\n");
        return 2;
    }
    size_t len = 0, cap = 1 << 16;
    char *text = malloc(cap);
    for (size_t n; text && (n = fread(text + len, 1, cap - len, stdin)) > 0;) {
        len += n;
        if (len == cap)
            text = realloc(text, cap *= 2);
    }
    if (!text || ferror(stdin)) {
        fprintf(stderr, "parse_text: cannot read standard input\n");
        return 1;
    }
    tp_model *m = NULL;
    tp_error *err = NULL;
    tp_options o = TP_OPTIONS_INIT;
    o.input = TP_INPUT_TEXT;
    o.ranges = TP_RANGES_BYTES;
    char *out = NULL;
    size_t out_len = 0;
    int rc = tp_model_load(argv[1], &m, &err);
    if (rc == TP_OK)
        rc = tp_parse_document(m, text, len, &o, &out, &out_len, NULL, &err);
    free(text);
    if (rc != TP_OK) {
        printf("%s %s\n", tp_status_name(rc), tp_error_message(err));
        tp_error_free(err);
        tp_model_free(m);
        return 1;
    }
    fwrite(out, 1, out_len, stdout);
    tp_string_free(out);
    return tp_model_free(m) == TP_OK ? 0 : 1;
}
