package segment

import (
	"errors"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// TestEncodeDecodeSegmentsAlike checks that a trained model keeps its
// sentence feature set and its decisions through Encode and Decode, on
// the EWT dev slice as UDText lays it out and as one line (every
// sentence boundary decided by the model): the small model, whose set
// dev chose, and one trained without dev, which has the latest set and
// its case statistics.
func TestEncodeDecodeSegmentsAlike(t *testing.T) {
	train, _ := ewtSlices(t)
	noDev, err := Train(train, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if noDev.SentFeatures != sentFeatureSet || len(noDev.Orth) == 0 {
		t.Fatalf("trained without dev: SentFeatures %d, %d case entries; want %d and some", noDev.SentFeatures, len(noDev.Orth), sentFeatureSet)
	}
	gold, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-slice.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	raw := UDText(gold)
	for _, m := range []*Model{smallModel(t), noDev} {
		b, err := m.Encode()
		if err != nil {
			t.Fatal(err)
		}
		d, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if d.SentFeatures != m.SentFeatures || len(d.Orth) != len(m.Orth) || m.SentFeatures < 1 {
			t.Fatalf("SentFeatures %d trained, %d decoded; %d and %d case entries", m.SentFeatures, d.SentFeatures, len(m.Orth), len(d.Orth))
		}
		for _, text := range [][]byte{[]byte(raw), []byte(strings.Join(strings.Fields(raw), " "))} {
			want, _ := m.Segment(text)
			got, err := d.Segment(text)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("the decoded model (set %d) segments differently (%v)", m.SentFeatures, err)
			}
		}
	}
}

// TestDecodeCorrupt decodes damaged encodings: each gives an error
// wrapping ErrCorrupt or a model that passes Validate and segments
// without panicking.
func TestDecodeCorrupt(t *testing.T) {
	b, err := smallModel(t).Encode()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 300; i++ {
		c := append([]byte(nil), b...)
		switch i % 3 {
		case 0:
			c = c[:rng.Intn(len(c))]
		default:
			for k := 0; k < 1+rng.Intn(4); k++ {
				c[rng.Intn(len(c))] ^= byte(1 + rng.Intn(255))
			}
		}
		m, err := Decode(c)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			continue
		}
		if _, err := m.Segment([]byte("It works, doesn't it? Yes.")); err != nil {
			t.Fatal(err)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	for name, spoil := range map[string]func(m *Model){
		"index out of range":  func(m *Model) { m.Tok.Index[len(m.Tok.Index)-1] = 1 << m.Tok.Bits },
		"index out of order":  func(m *Model) { m.Sent.Index[0], m.Sent.Index[1] = m.Sent.Index[1], m.Sent.Index[0] },
		"lengths differ":      func(m *Model) { m.Tok.Value = m.Tok.Value[1:] },
		"too many bits":       func(m *Model) { m.Amb.Bits = 40 },
		"NaN weight":          func(m *Model) { m.Sent.Value[0] = float32(math.NaN()) },
		"NaN threshold":       func(m *Model) { m.SentThreshold = float32(math.NaN()) },
		"one-word MWT":        func(m *Model) { m.MWT[0].Words = m.MWT[0].Words[:1] },
		"count over total":    func(m *Model) { m.MWT[0].Count = m.MWT[0].Total + 1 },
		"empty suffix":        func(m *Model) { m.Suffixes = append(m.Suffixes, "") },
		"unknown feature set": func(m *Model) { m.SentFeatures = sentFeatureSet + 1 },
	} {
		b, _ := smallModel(t).Encode()
		m, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		spoil(m)
		if err := m.Validate(); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Validate gives %v, want ErrCorrupt", name, err)
		}
	}
}

// TestUDText checks the layout of conllu_to_text.pl, trailing spaces
// before line breaks included.
func TestUDText(t *testing.T) {
	sents, err := conllu.ReadAll(strings.NewReader(
		"# newdoc id = d1\n# text = Hi there.\n1\tHi\t_\t_\t_\t_\t_\t_\t_\t_\n2\tthere\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n3\t.\t_\t_\t_\t_\t_\t_\t_\t_\n\n"+
			"# text = I'm here\n1-2\tI'm\t_\t_\t_\t_\t_\t_\t_\t_\n1\tI\t_\t_\t_\t_\t_\t_\t_\t_\n2\t'm\t_\t_\t_\t_\t_\t_\t_\t_\n3\there\t_\t_\t_\t_\t_\t_\t_\t_\n\n"+
			"# newpar\n# text = Bye\n1\tBye\t_\t_\t_\t_\t_\t_\t_\t_\n\n"), "t")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := UDText(sents), "Hi there. I'm here\n\nBye\n"; got != want {
		t.Errorf("UDText = %q, want %q", got, want)
	}
	long := strings.Repeat("word ", 40)
	var b strings.Builder
	wrapped := wrapLines(&b, []rune(long), 80)
	if got := b.String(); got != strings.Repeat("word ", 16)[:79]+"\n"+strings.Repeat("word ", 16)[:79]+"\n" || string(wrapped) != strings.Repeat("word ", 8) {
		t.Errorf("wrapped %q, rest %q", got, string(wrapped))
	}
}

// TestQuoteState checks what the sentence decision knows of quotes: a
// '"' opens a quote that the next '"' closes, and a quote left open for
// maxQuote tokens is forgotten.
func TestQuoteState(t *testing.T) {
	var q quoteState
	open := func(quote bool) byte { return q.at(&tok{quote: quote}) }
	if open(false) != 0 || open(true) != 0 {
		t.Fatal("open before the first '\"'")
	}
	if open(false) != 1 || open(true) != 1 || open(false) != 0 {
		t.Fatal("want inside between the two '\"' only")
	}
	open(true)
	for i := 0; i < maxQuote; i++ {
		if open(false) != 1 {
			t.Fatalf("quote closed after %d tokens", i)
		}
	}
	if open(false) != 0 || open(true) != 0 {
		t.Fatalf("quote still open after %d tokens without '\"'", maxQuote)
	}
}
