// Package parser is the transparse Go library: load a model, tag and parse
// sentences or whole documents, save and calibrate models. Training lives
// in parser/train.
//
// A Model holds a transition system (parser/transition), two linear
// classifiers over feature templates (parser/feature, parser/linear) — one
// for sentences whose morphology is given ("gold" tags: UPOS with XPOS,
// LEMMA or FEATS), one for plain tokens with predicted tags — and the
// taggers (parser/tagger, parser/morph) that predict the absent columns.
// Parsing is greedy by default: at every configuration the best-scoring
// legal transition is applied (Nivre 2008 §3); Options asks for beam
// search, confidences and k-best trees.
//
// The API is three parse methods: Model.Parse (one sentence, in place),
// Model.ParseDocument (a CoNLL-U, pre-tokenized or raw-text document,
// reader to writer, optionally on several goroutines) and Model.NewStream
// (the same document parse, one sentence per call). docs/design.md
// follows a sentence through the packages.
//
// # Raw text
//
// With DocOptions.Input InputText, the model's segmenter (parser/segment;
// Model.HasSegmenter) splits UTF-8 text into paragraphs, sentences,
// tokens and syntactic words, reading it as a stream, and each sentence
// is parsed from its plain tokens. Every byte of the input is kept in
// the output, so that conllu.RebuildText gives the input back. Each
// sentence has these comments, in this order:
//
//   - "# newdoc": the first sentence of the input;
//   - "# newpar": the first sentence of each paragraph (after a blank
//     line, and the first of the input);
//   - "# sent_id = N", from DocOptions.First+1 on;
//   - "# text = ...": the sentence's tokens, each run of whitespace
//     between two of them written as one space;
//   - CutComment ("# transparse_cut = ...") when the segmenter ended the
//     sentence at its limit of segment.MaxTokens tokens;
//   - ReplacedComment ("# transparse_replaced = ...") with SkipOnError
//     when the sentence held invalid UTF-8 (below).
//
// A multiword token ("don't") is a multiword-token line over its words
// ("do", "n't"). The MISC of each token (of the multiword-token line for
// a multiword token; its words have "_") holds, in this order:
//
//   - SpaceAfter=No when no whitespace follows the token (also after the
//     last token of an input that ends without whitespace);
//   - SpacesBefore=... on the first token of the input when whitespace
//     precedes it;
//   - SpacesAfter=... when the whitespace after the token, up to the next
//     token (across sentences and paragraphs) or the end of the input, is
//     anything but one space;
//   - TokenRange=START:END with DocOptions.Ranges: the token's offsets in
//     the whole input, END exclusive, in bytes or code points.
//
// The values of SpacesBefore and SpacesAfter are escaped as UDPipe 1
// escapes them (conllu.EscapeSpaces): "\s" a space, "\t", "\r", "\n",
// "\p" for "|", "\\" for "\", "\u000B" for a control character
// (Unicode category Cc) without a letter escape, "\uFEFF" for a byte
// order mark starting the input; other whitespace (NBSP, U+2028, ...) is
// written as itself. A run of whitespace longer than
// MaxSpacesBytes is recorded shortened; TokenRange still counts every
// byte. With DocOptions.TokenizeOnly the sentences are written without
// tagging or parsing: every column but ID, FORM and MISC is "_".
//
// Invalid UTF-8 ends the input with an error wrapping ErrInput and
// segment.InvalidUTF8Error that names the byte offset; it is found a
// window (about 1 MiB) ahead of the segmentation, so the sentences of
// that window are not written. With SkipOnError each byte that does not
// start a valid UTF-8 sequence is read as U+FFFD instead (one code
// point, so code-point TokenRange values index the input decoded that
// way; byte TokenRange values stay offsets of the input), the sentence
// is parsed, and its ReplacedComment lists the bytes replaced with their
// offsets, from which the input is rebuilt byte for byte;
// DocStats.Replaced counts them. A NUL byte in a token ends it with an
// error wrapping ErrInput that names its byte offset, after the sentences
// before it (a CoNLL-U reader and a C string cannot hold it). Other
// control characters are characters of tokens. Input of whitespace only
// gives no sentence. A run of non-whitespace is cut into tokens of at
// most segment.MaxRunBytes, which are longer than MaxTokenBytes: the
// parser refuses the sentence (ErrInput; SkipOnError copies it through),
// TokenizeOnly writes it.
package parser

import (
	"fmt"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/internal/core"
)

// Limits enforced by Parse.
const (
	MaxWords      = 10000 // words per sentence
	MaxTokenBytes = 1024  // bytes per word form, tag, lemma or FEATS value
)

// The constants of this package are those parser/internal/core enforces:
// a difference does not compile.
const (
	_ = uint(MaxWords-core.MaxWords) + uint(core.MaxWords-MaxWords)
	_ = uint(MaxTokenBytes-core.MaxTokenBytes) + uint(core.MaxTokenBytes-MaxTokenBytes)
	_ = uint(MaxBeam-core.MaxBeam) + uint(core.MaxBeam-MaxBeam)
	_ = uint(DefaultTemperature-core.DefaultTemperature) + uint(core.DefaultTemperature-DefaultTemperature)
)

// ErrInput is wrapped by every error caused by the caller's sentence or
// document (empty, too long, invalid UTF-8, malformed CoNLL-U, ...). Test
// with errors.Is.
var ErrInput = core.ErrInput

// Model is a loaded parser model. It is immutable after loading (except
// for Calibrate) and safe for concurrent use by any number of goroutines.
type Model struct {
	c *core.Model
}

// Load reads a model file from path, which may also be a pipe or a device:
// it is read as a stream within the bounds of modelfmt.ReadFile. Errors
// wrap the modelfmt sentinels (modelfmt.ErrNotModel, ErrNewerVersion,
// ErrCorrupt) or the os error.
func Load(path string) (*Model, error) {
	doc, err := modelfmt.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := FromDocument(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// LoadBytes reads a model from the bytes of a model file. data is not
// retained.
func LoadBytes(data []byte) (*Model, error) {
	doc, err := modelfmt.Decode(data)
	if err != nil {
		return nil, err
	}
	return FromDocument(doc)
}

// FromDocument builds a model from a decoded model file (parser/train
// hands back the model it trained this way, so that it behaves exactly as
// the file it saves). doc is not retained. Inconsistent content gives an
// error wrapping modelfmt.ErrCorrupt.
func FromDocument(doc *modelfmt.Model) (*Model, error) {
	c, err := core.FromDocument(doc)
	if err != nil {
		return nil, err
	}
	return &Model{c: c}, nil
}

// Save writes the model file to path (atomically: a temporary file renamed;
// see modelfmt.WriteFile). A symbolic link is written through; a
// directory, device, FIFO or socket at path is refused, untouched.
func (m *Model) Save(path string) error { return modelfmt.WriteFile(path, m.c.Document()) }

// MarshalBinary returns the bytes of the model file.
func (m *Model) MarshalBinary() ([]byte, error) { return modelfmt.Marshal(m.c.Document()) }

// Card returns the model card: name, treebank, scores, training options.
func (m *Model) Card() modelfmt.Card { return m.c.Card() }

// System returns the transition system's name ("arc-eager", ...).
func (m *Model) System() string { return m.c.System() }

// Deprels returns the dependency labels the model can assign, in a fixed
// order (read-only).
func (m *Model) Deprels() []string { return m.c.Deprels() }

// UPOSTags returns the UPOS tags the model's tagger can assign, in a fixed
// order (read-only), or nil when it has no tagger.
func (m *Model) UPOSTags() []string { return m.c.UPOSTags() }

// XPOSTags returns the XPOS tags the model's XPOS tagger (or XPOS table)
// can assign, in a fixed order (read-only), or nil when it has neither.
func (m *Model) XPOSTags() []string { return m.c.XPOSTags() }

// DefaultBeam is the model's default beam width: the width Parse and
// ParseDocument use when Options.Beam is 0. It is 1, the greedy parser,
// for a model without classifiers trained for beam search; for one with
// them, the width training chose (the card's option "default_beam", or
// else "beam").
func (m *Model) DefaultBeam() int { return m.c.DefaultBeam() }

// HasBeam reports whether the model has classifiers trained for beam
// search (`transparse train --beam K`). Only such a model parses at a
// width above 1: for another, Parse, ParseDocument and Calibrate refuse
// one with an error wrapping ErrOptions, since a beam over the greedy
// classifiers parses worse than the greedy parser.
func (m *Model) HasBeam() bool { return m.c.HasBeam() }

// Calibrate fits the model's confidence calibrators (parser/calib) on the
// development sentences dev, which must carry gold heads and deprels (a
// sentence that eval.Check refuses is an error): the gold-tag parser on
// dev with its annotation, the plain-token parser on dev stripped to its
// forms, each greedily and, when k > 1, with a beam of width k (an error
// wrapping ErrOptions for a model without beam classifiers, HasBeam). A
// sentence the parser refuses is left out. Save writes the calibrators with the
// model. Calibrate changes m: it must not run while m parses.
func (m *Model) Calibrate(dev []*conllu.Sentence, k int) error { return m.c.Calibrate(dev, k) }

// HasMorphology reports whether the caller gave morphology for words: UPOS
// on every word and XPOS, LEMMA or FEATS on at least one (a model without
// taggers parses only such sentences).
func HasMorphology(words []conllu.Word) bool { return core.HasMorphology(words) }
