// Package segment turns raw text into paragraphs, sentences, tokens and
// syntactic words: the step before tagging and parsing when the input is
// not pre-tokenized. Train learns a Model from a CoNLL-U treebank;
// Model.Segment and Model.Each segment UTF-8 text, Model.EachReader and
// Model.NewScanner a stream of it.
//
// # What it decides
//
// A blank line (two line breaks with only whitespace between them) always
// ends a paragraph and its sentence. Within a paragraph, whitespace always
// separates tokens and is never part of one; between two grapheme
// clusters (github.com/rivo/uniseg) of a run of non-whitespace, a token
// boundary is decided by a classifier, except inside a stretch of letters
// or of digits, which is never split, and a grapheme cluster is never
// split. A URL (http://, https://, ftp://, www.), an e-mail address or a
// file name with a common extension (".pdf", ".htm", ...) is recognized
// by hand and kept as one token without the closing punctuation after
// it; the rest of its run is tokenized as usual. After each token a second
// classifier decides whether the sentence ends there; it sees the token,
// the one before and the two after (their forms, endings, shapes and
// the case of their first letters: a capitalized "Des" or "Ensuite"
// after a word starts a sentence where "des" would not), whether the
// next token's form was written in lower case or capitalized where it
// did not start a sentence of the training data (the orthographic
// evidence of Kiss and Strunk 2006, "Unsupervised multilingual sentence
// boundary detection": a capitalized "Chez" after a heading without a
// period starts a sentence, a name does not), the length of
// the sentence so far, and whether they are inside a quote (after an
// odd number of '"' tokens of the paragraph, the last of them at most 50
// tokens back; features of the quote are added only there). Each token
// is then made a multiword token or not: a form seen as a multiword
// token in training is expanded to its most frequent words (always, or
// when a context classifier says so for a form that was also a plain
// token, like French "des": it sees the neighbouring tokens, their forms
// and last three bytes); an unseen form may split off a learned suffix (the last word of two-word
// multiword tokens whose words spell the token: English "n't", Turkish
// "ki", "ydı"), decided by a third classifier that sees the suffix, the
// end of the stem, the neighbours and whether the form and the stem were
// tokens or words of the training data. A form found only by its lower
// case gets its words in its case ("DON'T" gives "DO", "N'T").
//
// # The model, and why not UDPipe 1's
//
// Each decision is a binary averaged perceptron (Collins 2002, "Discriminative
// training methods for hidden Markov models") over hashed features: the
// clusters around a boundary, their character classes, the run's parts
// before and after it, its shape; the lower-case forms, shapes and edges
// of tokens. UDPipe 1 (Straka and Straková 2017) uses a bidirectional GRU
// over characters with SpaceAfter as training signal, a hand-written URL
// and e-mail recognizer and a dictionary of multiword tokens. The
// perceptrons learn from the same signal (gold tokens, SpaceAfter, the
// "# newpar"/"# newdoc" structure) and reach its accuracy on UD English
// EWT, while training in seconds, segmenting several hundred thousand
// words per second on one thread with no allocation per character, and
// storing in under a megabyte (EWT: 0.7 MB). The sentence, ambiguous-form
// and suffix decisions are each the mean of four such perceptrons, each
// trained on its own order of the examples (Options.Orders): with one,
// the training order alone moved French Sequoia's dev Sentences F1 by
// three points. The token decision is one perceptron: four were within
// dev noise of one (a few tokens per treebank) for four times its
// training time and more weights to store.
// Decisions are local (a run, a token and two tokens of lookahead), so
// the input is processed in one pass with memory bounded by the longest
// sentence. Train tunes on dev:
// the epoch of each decision (fewest dev errors), the thresholds (best
// dev F1 of the decision; for the suffix decision, fewest errors on the
// dev tokens outside the dictionary), the minimum count of a learned
// suffix and whether the sentence decision reads the case statistics
// of forms (SentFeatures 2, or 1 without them: they are sparse in a
// small treebank). Where neighbouring epochs or thresholds make as few dev errors
// as the best, Train takes the middle of their range rather than its
// edge, the choice furthest from one that makes more. Every decision
// learns from the training treebank only.
//
// Letter-letter boundaries are never candidates, so languages written
// without spaces (Chinese, Japanese, Thai) are out of scope.
//
// # Units and output
//
// Offsets are byte offsets into the input: a Token covers text[Start:End].
// Whitespace is whatever unicode.IsSpace accepts (NBSP included); line
// breaks are "\n", "\r\n", "\r", "\v", "\f", U+0085, U+2028 and U+2029,
// which (PARAGRAPH SEPARATOR) also ends a paragraph by itself. A byte
// order mark (U+FEFF) at the start of the input is whitespace too.
// The bytes before the first token, between tokens and after the last one
// are whitespace and belong to no token, so the input is rebuilt byte for
// byte from the offsets. Sentence.CoNLLU gives a sentence as unannotated
// CoNLL-U.
//
// # Limits and errors
//
// Invalid UTF-8 gives an *InvalidUTF8Error naming the byte offset of the
// first bad byte, before any sentence is produced. A sentence longer than
// MaxTokens tokens is cut there (Sentence.Cut); a run of non-whitespace
// longer than MaxRunBytes is cut into pieces of at most that size, so a
// 10 MB run without whitespace gives 2,560 tokens in three sentences.
// Input of only whitespace gives no sentences; control characters and NUL
// are characters like others (they form tokens).
//
// # Storage and concurrency
//
// A Model is a plain struct stored with msgpack (Encode, Decode): sparse
// weight tables, thresholds, the multiword-token dictionary, the suffixes
// a lexicon of hashed forms and the case of forms inside sentences
// (Orth). SentFeatures names the feature set of the sentence decision,
// so that a model stored with an earlier set (without it: set 0)
// segments as it did when it was stored. Decode validates it (Validate): damaged
// input gives an error wrapping ErrCorrupt, never a panic. A Model is
// read-only after Train or Decode and safe for concurrent use; each
// Segment or Each call keeps its own state.
//
// # Measuring
//
// UDText makes a treebank's raw text as UD's conllu_to_text.pl does.
// TestOfficialScores trains on whole treebanks and scores the segmentation
// with UD's official scorer:
//
//	scripts/validate.sh --setup   # installs the scorer once
//	go test -tags experiment -run 'TestOfficialScores/en_ewt/dev' -v ./parser/segment/
//
// (a subtest per treebank and split; all of them without the pattern).
// BenchmarkSegment reports words per second on EWT dev.
package segment
