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

// TestOfficialScores is the measurement harness, an experiment: for each
// shared treebank it trains on its train file (dev tunes), segments the
// raw text (UDText) of its dev and of its test file, writes the result as
// CoNLL-U and scores it against the gold file with UD's official scorer
// (udeval, installed by scripts/validate.sh --setup). A subtest names the
// treebank and the split:
//
//	go test -tags experiment -run 'TestOfficialScores/en_ewt/dev' -v ./parser/segment/
//
// Report test figures once, for a model chosen on dev.
func TestOfficialScores(t *testing.T) {
	testenv.Experiment(t)
	scorer := testenv.UDTool(t, "udeval")
	for _, name := range []string{"en_ewt", "tr_imst", "hu_szeged", "fr_sequoia"} {
		t.Run(name, func(t *testing.T) {
			m := trainTreebank(t, name)
			for _, split := range []string{"dev", "test"} {
				t.Run(split, func(t *testing.T) { scoreSplit(t, scorer, m, name, split) })
			}
		})
	}
}

// trainTreebank trains a segmenter on the treebank's train file, tuned on
// its dev file.
func trainTreebank(t *testing.T, name string) *Model {
	start := time.Now()
	m, err := Train(readUD(t, name, "train"), readUD(t, name, "dev"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	enc, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("trained in %v; model %d bytes (%d dictionary entries, %d suffixes, sentence features %d); thresholds: token %.3g, sentence %.3g, ambiguous form %.3g, suffix %.3g", time.Since(start).Round(time.Millisecond), len(enc), len(m.MWT), len(m.Suffixes), m.SentFeatures, m.TokThreshold, m.SentThreshold, m.AmbThreshold, m.SufThreshold)
	return m
}

// readUD reads a split of a shared treebank.
func readUD(t *testing.T, name, split string) []*conllu.Sentence {
	sents, err := conllu.ReadFile(testenv.UDFile(t, name+"-ud-"+split+".conllu"))
	if err != nil {
		t.Fatal(err)
	}
	return sents
}

// scoreSplit segments the raw text of a split with m and scores it with
// the official scorer.
func scoreSplit(t *testing.T, scorer string, m *Model, name, split string) {
	out := t.TempDir()
	start := time.Now()
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
	if err := os.WriteFile(predPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
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
