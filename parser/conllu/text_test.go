package conllu

import (
	"strings"
	"testing"
)

// EscapeSpaces writes UDPipe 1's escapes and \uXXXX for the other
// control characters, other whitespace as itself; UnescapeSpaces undoes
// it and refuses unknown or short escapes.
func TestEscapeSpaces(t *testing.T) {
	for _, c := range [][2]string{
		{" ", `\s`}, {"\t\r\n", `\t\r\n`}, {"|", `\p`}, {`\`, `\\`},
		{"\v\f\u0085", `\u000B\u000C\u0085`}, {"\ufeff\n", `\uFEFF\n`}, {"\u00a0\u2028\u3000", "\u00a0\u2028\u3000"}, {"", ""},
	} {
		if got := EscapeSpaces(c[0]); got != c[1] {
			t.Errorf("EscapeSpaces(%q) = %q, want %q", c[0], got, c[1])
		}
		if back, err := UnescapeSpaces(c[1]); err != nil || back != c[0] {
			t.Errorf("UnescapeSpaces(%q) = %q, %v; want %q", c[1], back, err, c[0])
		}
	}
	for _, bad := range []string{`\`, `\x`, `\u00`, `\uZZZZ`, `a\`} {
		if _, err := UnescapeSpaces(bad); err == nil {
			t.Errorf("UnescapeSpaces(%q): no error", bad)
		}
	}
}

// RebuildText reads the whitespace of multiword-token lines and of words
// outside them, and names the token of a bad escape.
func TestRebuildText(t *testing.T) {
	doc := "# text = I don't.\n" +
		"1\tI\t_\t_\t_\t_\t_\t_\t_\tSpacesBefore=\\n\\s\n" +
		"2-3\tdon't\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n" +
		"2\tdo\t_\t_\t_\t_\t_\t_\t_\tSpacesAfter=\\s\\s\n" +
		"3\tn't\t_\t_\t_\t_\t_\t_\t_\t_\n" +
		"4\t.\t_\t_\t_\t_\t_\t_\t_\tSpacesAfter=\\n\\n\n\n" +
		"1\tNext\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n\n"
	sents, err := ReadAll(strings.NewReader(doc), "doc")
	if err != nil {
		t.Fatal(err)
	}
	got, err := RebuildText(sents)
	if want := "\n I don't.\n\nNext"; err != nil || got != want {
		t.Errorf("RebuildText = %q, %v; want %q", got, err, want)
	}
	sents[1].Words[0].Misc = `SpacesAfter=\q`
	if _, err := RebuildText(sents); err == nil || !strings.Contains(err.Error(), "sentence 1: token 1") {
		t.Errorf("a bad escape: %v", err)
	}
}
