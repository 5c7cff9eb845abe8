package conllu

import (
	"bytes"
	"fmt"
)

// Limits of one sentence that Reader and TokenReader read. With
// MaxLineLength they bound the memory a sentence can take, whatever the
// input: a reader stops at a limit as it reads, without reading the rest
// of the sentence into memory.
const (
	// MaxWords is the parser's limit of words per sentence (parser.MaxWords,
	// TP_MAX_WORDS). The readers read one word more than MaxWords, so that
	// a sentence just over the limit still reaches the parser, whose error
	// names the sentence; they refuse a sentence with a word after that
	// (an *Error with LimitExceeded set).
	MaxWords = 10000
	// MaxEmptyNodes is the most empty nodes (IDs like 8.1) a sentence has.
	MaxEmptyNodes = MaxWords
	// MaxComments is the most comment lines before a sentence's first
	// token line, and MaxCommentBytes their total length in bytes.
	MaxComments     = 1000
	MaxCommentBytes = 4 << 20
	// MaxSentenceBytes is the total length in bytes of a sentence's lines,
	// comments included (line terminators not counted).
	MaxSentenceBytes = 32 << 20
)

// DroppedComment starts the comment line that SkipRest returns, after
// the sentence's comments, in place of the token lines of a sentence over
// a limit: it says which lines of the input were not copied.
const DroppedComment = "# transparse_dropped = "

// sentenceSize accumulates what the limits count of the sentence being
// read.
type sentenceSize struct {
	bytes, commentBytes int
}

// lineKind is the kind of a non-blank line of CoNLL-U: '#' a comment,
// 'm' a multiword token, 'e' an empty node, 'w' a word (or a malformed
// line).
func lineKind(line []byte) byte {
	id, _, _ := bytes.Cut(line, []byte{'\t'})
	switch {
	case line[0] == '#':
		return '#'
	case bytes.IndexByte(id, '-') >= 0:
		return 'm'
	case bytes.IndexByte(id, '.') >= 0:
		return 'e'
	}
	return 'w'
}

// checkLimits returns an *Error when adding the non-blank line to s would
// take it over a limit.
func (r *Reader) checkLimits(s *Sentence, line []byte) error {
	kind := lineKind(line)
	r.size.bytes += len(line)
	var msg string
	switch {
	case r.size.bytes > MaxSentenceBytes:
		msg = fmt.Sprintf("sentence is longer than %d bytes (the limit of a sentence)", MaxSentenceBytes)
	case kind == '#' && len(s.Comments) >= MaxComments:
		msg = fmt.Sprintf("sentence has more than %d comment lines (the limit)", MaxComments)
	case kind == '#' && r.size.commentBytes+len(line) > MaxCommentBytes:
		msg = fmt.Sprintf("sentence has more than %d bytes of comments (the limit)", MaxCommentBytes)
	case kind == 'w' && len(s.Words) > MaxWords:
		msg = fmt.Sprintf("sentence has more than %d words (the limit is %d)", MaxWords+1, MaxWords)
	case kind == 'e' && len(s.Empty) >= MaxEmptyNodes:
		msg = fmt.Sprintf("sentence has more than %d empty nodes (the limit)", MaxEmptyNodes)
	}
	if kind == '#' {
		r.size.commentBytes += len(line)
	}
	if msg == "" {
		return nil
	}
	r.over = true
	e := r.lr.errorf("%s", msg)
	e.LimitExceeded = true
	return e
}

// dropped returns what SkipRest returns for a sentence over a limit, from
// r.raw, the lines kept up to the limit: the sentence's comments, then a
// comment naming the lines not copied (the sentence's first to last line
// lastLine, comments excluded).
func (r *Reader) dropped(lastLine int) []byte {
	var out []byte
	rest := r.raw
	first := r.first
	for len(rest) > 0 && rest[0] == '#' {
		i := bytes.IndexByte(rest, '\n')
		out = append(out, rest[:i+1]...)
		rest = rest[i+1:]
		first++
	}
	return fmt.Appendf(out, "%slines %d-%d of %s (%d token lines) not copied: the sentence is over a limit of the reader\n",
		DroppedComment, first, lastLine, r.lr.name, lastLine-first+1)
}
