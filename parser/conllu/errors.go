package conllu

import "strconv"

// Error is a problem with CoNLL-U input, or with a Sentence that cannot be
// written or is not a tree. File is the name given to the reader (empty when
// unknown) and Line the 1-based line number of the offending line (0 when
// the problem is not tied to a line, as for CheckTree and Write).
type Error struct {
	File string
	Line int
	Msg  string
	// LimitExceeded is set when the input is refused for going over a
	// limit of a sentence (MaxWords, MaxComments, ...), not for being
	// malformed.
	LimitExceeded bool
}

// Error returns the message in the form "conllu: file:line: msg", leaving out
// the file and the line when they are unknown.
func (e *Error) Error() string {
	s := "conllu: "
	switch {
	case e.File != "" && e.Line > 0:
		s += e.File + ":" + strconv.Itoa(e.Line) + ": "
	case e.File != "":
		s += e.File + ": "
	case e.Line > 0:
		s += "line " + strconv.Itoa(e.Line) + ": "
	}
	return s + e.Msg
}
