package main

import (
	"bytes"
	"io"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// FuzzSniffFormat checks parse's format detection on arbitrary input: the
// reader it returns yields the input unchanged; input whose first non-blank
// line starts with '#' or contains a tab is CoNLL-U; and input that the
// CoNLL-U reader reads without error (at least one sentence) is never
// taken for tokens.
func FuzzSniffFormat(f *testing.F) {
	for _, s := range []string{
		"The cat sat .\n",
		"# sent_id = 1\n1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n\n",
		"1\ta\t_\t_\t_\t_\t0\troot\t_\n\n",
		"1 a _ _ _ _ 0 root _ _\n",
		"\xEF\xBB\xBF\r\n  \n1\tHi\thi\thi\tX\tX\t_\t_\t0\t0\troot\troot\t_\t_\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		format, r, err := sniffFormat(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		all, _ := io.ReadAll(r)
		if !bytes.Equal(all, data) {
			t.Fatalf("input changed: %q -> %q", data, all)
		}
		var first []byte
		for _, l := range bytes.Split(bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")), []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				first = l
				break
			}
		}
		looks := bytes.HasPrefix(bytes.TrimLeft(first, " \t"), []byte("#")) || bytes.IndexByte(first, '\t') >= 0
		if looks && len(first) < 4000 && format != formatCoNLLU {
			t.Fatalf("first line %q looks like CoNLL-U, detected %s", first, format)
		}
		if sents, err := conllu.ReadAll(bytes.NewReader(data), "fuzz"); err == nil && len(sents) > 0 && format != formatCoNLLU {
			t.Fatalf("valid CoNLL-U detected as %s", format)
		}
	})
}
