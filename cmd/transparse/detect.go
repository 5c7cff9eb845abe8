package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
)

// Input kinds of parse (--input).
const (
	inputAuto   = "auto"
	inputCoNLLU = "conllu"
	inputText   = "text"
	inputTokens = "tokens"
)

// maxSniff bounds what auto detection reads ahead of the first line that
// is not a comment: the CoNLL-U reader's limit of the comments of one
// sentence (4 MiB) and a little more. Past it the input is raw text.
const maxSniff = 4<<20 + 64<<10

// bom is the UTF-8 byte order mark, skipped at the start of the input.
const bom = "\xEF\xBB\xBF"

// isCoNLLUName reports whether a file name says CoNLL-U (*.conllu).
func isCoNLLUName(name string) bool {
	return strings.EqualFold(filepath.Ext(name), ".conllu")
}

// sniffInput decides between CoNLL-U and raw text: CoNLL-U when the first
// line that is neither blank nor a comment (a line starting with '#') is a
// CoNLL-U word line (see isWordLine), raw text otherwise, so that text
// starting with "#MeToo" or "# 1 reason" is text. It returns a reader that
// still yields all of r.
func sniffInput(r io.Reader) (string, io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var seen bytes.Buffer
	inComment := false // the line read is the rest of a comment line
	for seen.Len() < maxSniff {
		line, err := br.ReadSlice('\n')
		full := errors.Is(err, bufio.ErrBufferFull)
		if err != nil && err != io.EOF && !full {
			return "", nil, err
		}
		atStart := seen.Len() == 0
		seen.Write(line)
		if !inComment {
			t := line
			if atStart {
				t = bytes.TrimPrefix(t, []byte(bom))
			}
			switch {
			case bytes.HasPrefix(t, []byte("#")):
				inComment = true
			case len(bytes.TrimSpace(t)) > 0:
				kind := inputText
				if isWordLine(t) {
					kind = inputCoNLLU
				}
				return kind, io.MultiReader(&seen, br), nil
			}
		}
		if !full {
			inComment = false // the line ended
		}
		if err == io.EOF {
			break
		}
	}
	return inputText, io.MultiReader(&seen, br), nil
}

// isWordLine reports whether line starts as a CoNLL-U word line does: an
// ID (a word "3", a multiword token "3-4", an empty node "3.1") and a tab.
// Ten columns make a well-formed one; a line of other columns with such an
// ID is malformed CoNLL-U, which the CoNLL-U reader reports as such
// (9 or 11 columns, CoNLL-2009's 14), not text to segment.
func isWordLine(line []byte) bool {
	id, _, ok := bytes.Cut(line, []byte("\t"))
	if !ok {
		return false
	}
	digits := func(b []byte) bool {
		if len(b) == 0 {
			return false
		}
		for _, c := range b {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	if a, b, ok := bytes.Cut(id, []byte("-")); ok {
		return digits(a) && digits(b)
	}
	if a, b, ok := bytes.Cut(id, []byte(".")); ok {
		return digits(a) && digits(b)
	}
	return digits(id)
}
