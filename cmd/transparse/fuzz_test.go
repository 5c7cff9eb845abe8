package main

import (
	"bytes"
	"io"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// FuzzSniffInput checks parse's detection of the kind of input on
// arbitrary input: the reader it returns yields the input unchanged;
// input whose first line that is neither blank nor a comment is a word
// line (isWordLine) is CoNLL-U, other input raw text; and input that the
// CoNLL-U reader reads without error (at least one sentence) is never
// taken for text.
func FuzzSniffInput(f *testing.F) {
	for _, s := range []string{
		"The cat sat.\n",
		"#MeToo is a hashtag.\n",
		"# sent_id = 1\n1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n\n",
		"1\ta\t_\t_\t_\t_\t0\troot\t_\n\n",
		"1 a _ _ _ _ 0 root _ _\n",
		"\xEF\xBB\xBF\r\n  \n1\tHi\thi\thi\tX\tX\t_\t_\t0\t0\troot\troot\t_\t_\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		input, r, err := sniffInput(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		all, _ := io.ReadAll(r)
		if !bytes.Equal(all, data) {
			t.Fatalf("input changed: %q -> %q", data, all)
		}
		var first []byte
		for _, l := range bytes.Split(bytes.TrimPrefix(data, []byte(bom)), []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 && l[0] != '#' {
				first = l
				break
			}
		}
		if want := map[bool]string{true: inputCoNLLU, false: inputText}[isWordLine(first)]; len(data) < 60000 && input != want {
			t.Fatalf("first line %q: detected %s, want %s", first, input, want)
		}
		if sents, err := conllu.ReadAll(bytes.NewReader(data), "fuzz"); err == nil && len(sents) > 0 && input != inputCoNLLU {
			t.Fatalf("valid CoNLL-U detected as %s", input)
		}
	})
}
