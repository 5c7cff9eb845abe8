package segment

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// TestOfficialScores is the measurement harness: for each treebank named
// in $TRANSPARSE_SEGMENT_EVAL (comma-separated, e.g. "en_ewt,tr_imst"),
// it trains on its train file (dev tunes), segments the raw text (UDText)
// of the split in $TRANSPARSE_SEGMENT_SPLIT ("dev", the default, or
// "test"), writes the result as CoNLL-U and scores it against the gold
// file with UD's official scorer (udeval, installed by
// scripts/validate.sh --setup). With $TRANSPARSE_SEGMENT_OUT set, the
// model (<name>.seg), the text and the output are written there.
//
//	TRANSPARSE_SEGMENT_EVAL=en_ewt go test -run TestOfficialScores -v ./parser/segment/
func TestOfficialScores(t *testing.T) {
	names := os.Getenv("TRANSPARSE_SEGMENT_EVAL")
	if names == "" {
		t.Skip("set TRANSPARSE_SEGMENT_EVAL=en_ewt,... to train and score on whole treebanks")
	}
	split := os.Getenv("TRANSPARSE_SEGMENT_SPLIT")
	if split == "" {
		split = "dev"
	}
	scorer := testenv.UDTool(t, "udeval")
	out := os.Getenv("TRANSPARSE_SEGMENT_OUT")
	if out == "" {
		out = t.TempDir()
	}
	for _, name := range strings.Split(names, ",") {
		t.Run(name, func(t *testing.T) { scoreTreebank(t, scorer, name, split, out) })
	}
}

func scoreTreebank(t *testing.T, scorer, name, split, out string) {
	read := func(s string) []*conllu.Sentence {
		sents, err := conllu.ReadFile(testenv.UDFile(t, name+"-ud-"+s+".conllu"))
		if err != nil {
			t.Fatal(err)
		}
		return sents
	}
	start := time.Now()
	m, err := Train(read("train"), read("dev"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	enc, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("trained in %v; model %d bytes (%d dictionary entries, %d suffixes)", time.Since(start).Round(time.Millisecond), len(enc), len(m.MWT), len(m.Suffixes))
	goldPath := testenv.UDFile(t, name+"-ud-"+split+".conllu")
	gold, err := conllu.ReadFile(goldPath)
	if err != nil {
		t.Fatal(err)
	}
	text := []byte(UDText(gold))
	start = time.Now()
	sents, err := m.Segment(text)
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(start)
	pred := scorable(text, sents)
	words := 0
	for _, s := range pred {
		words += len(s.Words)
	}
	t.Logf("segmented %d bytes into %d sentences, %d words in %v (%.0f words/s)", len(text), len(sents), words, el, float64(words)/el.Seconds())
	predPath := filepath.Join(out, name+"-"+split+".seg.conllu")
	var buf bytes.Buffer
	if err := conllu.WriteAll(&buf, pred); err != nil {
		t.Fatal(err)
	}
	for path, data := range map[string][]byte{predPath: buf.Bytes(), filepath.Join(out, name+".seg"): enc, filepath.Join(out, name+"-"+split+".txt"): text} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := exec.Command(scorer, "-v", goldPath, predPath).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", scorer, err, res)
	}
	sc := bufio.NewScanner(bytes.NewReader(res))
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "Metric") || strings.HasPrefix(l, "Tokens") || strings.HasPrefix(l, "Sentences") || strings.HasPrefix(l, "Words") {
			t.Logf("%s %s: %s", name, split, l)
		}
	}
}

// scorable returns the sentences as CoNLL-U the scorer accepts: HEAD 0
// for the first word, 1 for the others.
func scorable(text []byte, sents []Sentence) []*conllu.Sentence {
	out := make([]*conllu.Sentence, len(sents))
	for i := range sents {
		s := sents[i].CoNLLU(text)
		for j := range s.Words {
			s.Words[j].Head = min(j, 1)
			s.Words[j].Deprel = "dep"
		}
		s.Words[0].Deprel = "root"
		out[i] = s
	}
	return out
}
