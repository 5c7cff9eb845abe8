package morph

import (
	"testing"

	"github.com/golang/snappy"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

func readUD(t testing.TB, name string) []*conllu.Sentence {
	t.Helper()
	s, err := conllu.ReadFile(testenv.UDFile(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// encodedSize returns the msgpack size of d and its size compressed with
// snappy, in bytes.
func encodedSize(t testing.TB, d *Data) (int, int) {
	t.Helper()
	b, err := msgpack.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return len(b), len(snappy.Encode(nil, b))
}

// TestUDDev trains on each full training set and scores its development
// set from gold UPOS and XPOS (CoNLL 2018 Lemmas and UFeats). The floors
// are the figures UDPipe 1 published for the test sets from its own
// predicted tags: a lemmatizer or FEATS tagger given gold tags that falls
// below them has lost its way.
func TestUDDev(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on full treebanks")
	}
	for _, tb := range []struct {
		name           string
		lemmas, ufeats float64
	}{
		{"en_ewt", 96.8, 95.4},
		{"tr_imst", 91.4, 89.8},
		{"hu_szeged", 88.7, 88.2},
	} {
		t.Run(tb.name, func(t *testing.T) {
			train := readUD(t, tb.name+"-ud-train.conllu")
			dev := readUD(t, tb.name+"-ud-dev.conllu")
			l, f := trainBoth(t, train)
			s := evaluate(l, f, dev)
			lm, lz := encodedSize(t, l.Data())
			fm, fz := encodedSize(t, f.Data())
			t.Logf("%s dev: %v; %v (%d bytes, %d with snappy); %v (%d bytes, %d with snappy)", tb.name, s, l, lm, lz, f, fm, fz)
			if s.lemmas < tb.lemmas || s.ufeats < tb.ufeats {
				t.Errorf("Lemmas %.2f, UFeats %.2f: below %.1f, %.1f", s.lemmas, s.ufeats, tb.lemmas, tb.ufeats)
			}
		})
	}
}
