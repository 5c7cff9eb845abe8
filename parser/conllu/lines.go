package conllu

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"
)

// MaxLineLength is the longest line, in bytes without its line terminator,
// that Reader and TokenReader accept.
const MaxLineLength = 1 << 20

// lineReader splits its input into lines and counts them.
type lineReader struct {
	br   *bufio.Reader
	name string
	long []byte // accumulates a line longer than br's buffer
	n    int    // 1-based number of the last line returned
}

func newLineReader(r io.Reader, name string) lineReader {
	return lineReader{br: bufio.NewReaderSize(r, 64<<10), name: name}
}

// next returns the next line without its terminator ("\n" or "\r\n"; a lone
// "\r" before the end of input is dropped too) and, on the first line, without
// a UTF-8 byte order mark. The line is only valid until the next call. At the
// end of the input next returns io.EOF. A line longer than MaxLineLength gives
// an *Error and a read error is returned wrapped; both are final.
func (lr *lineReader) next() ([]byte, error) {
	lr.long = lr.long[:0]
	for {
		b, err := lr.br.ReadSlice('\n')
		var line []byte
		switch err {
		case nil:
			line = b
			if len(lr.long) > 0 {
				lr.long = append(lr.long, b...)
				line = lr.long
			}
			line = line[:len(line)-1]
		case bufio.ErrBufferFull:
			lr.long = append(lr.long, b...)
			if len(lr.long) > MaxLineLength+1 { // +1: room for a '\r'
				return nil, lr.tooLong()
			}
			continue
		case io.EOF:
			if len(lr.long)+len(b) == 0 {
				return nil, io.EOF
			}
			line = b
			if len(lr.long) > 0 {
				lr.long = append(lr.long, b...)
				line = lr.long
			}
		default:
			return nil, fmt.Errorf("conllu: %s: reading line %d: %w", lr.name, lr.n+1, err)
		}
		lr.n++
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if lr.n == 1 && len(line) >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF {
			line = line[3:]
		}
		if len(line) > MaxLineLength {
			lr.n--
			return nil, lr.tooLong()
		}
		return line, nil
	}
}

func (lr *lineReader) tooLong() error {
	lr.n++
	return lr.errorf("line is longer than %d bytes", MaxLineLength)
}

// errorf returns an *Error for the last line read.
func (lr *lineReader) errorf(format string, args ...any) *Error {
	return &Error{File: lr.name, Line: lr.n, Msg: fmt.Sprintf(format, args...)}
}

// checkText returns an *Error for the current line if line is not valid
// UTF-8 or contains a NUL byte (which a C string would end at).
func (lr *lineReader) checkText(line []byte) error {
	if utf8.Valid(line) {
		if i := bytes.IndexByte(line, 0); i >= 0 {
			return lr.errorf("line contains a NUL byte at byte %d", i+1)
		}
		return nil
	}
	off := 0
	for off < len(line) {
		r, size := utf8.DecodeRune(line[off:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	return lr.errorf("invalid UTF-8 at byte %d", off+1)
}
