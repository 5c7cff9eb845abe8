package modelfmt

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"testing/iotest"
)

// FuzzDecode checks that Decode never panics, hangs or allocates without
// bound, that every error is an *Error of a known kind, that reading the
// same bytes as a stream (as ReadFile reads files, pipes and devices)
// gives the same outcome, and that whatever decodes is a valid Model that
// encodes and decodes back to the same bytes.
//
//	go test -fuzz=FuzzDecode ./modelfmt/
func FuzzDecode(f *testing.F) {
	valid := mustMarshal(f, fullModel())
	f.Add(valid)
	f.Add(mustMarshal(f, &Model{System: "arc-standard"}))
	f.Add(mustMarshal(f, codedModel()))
	f.Add(valid[:len(valid)/2])
	f.Add(valid[:headerSizeV1])
	f.Add([]byte{})
	f.Add([]byte(Magic))
	f.Add([]byte("\x7fELF\x02\x01\x01\x00"))
	newer := bytes.Clone(valid)
	binary.LittleEndian.PutUint32(newer[8:], FormatVersion+1)
	f.Add(newer)
	str := func(s string) []byte { return append([]byte{0xa0 | byte(len(s))}, s...) }
	f.Add(wrap(f, bytes.Join([][]byte{{0x82}, str("system"), str("x"), str("classifiers"), {0xdd, 0xff, 0xff, 0xff, 0xff}}, nil)))
	f.Add(wrap(f, bytes.Join([][]byte{{0x82}, str("system"), str("x"), str("strings"), {0x81}, str("t"), {0x92, 0xa1, 'a', 0xc0}}, nil)))
	f.Add(wrap(f, rawDoc(f, fullModel())[:100]))
	f.Add(declareHuge(valid, len(valid)+2*maxChunkLen))
	for _, bad := range [][2]string{{"\xa3obj", "\xa3o\x00j"}, {"\xa5PUNCT", "\xa5PU\tCT"}, {"en_ewt-arc", "\x1b[2Jt-arc"}} {
		f.Add(wrap(f, bytes.Replace(rawDoc(f, fullModel()), []byte(bad[0]), []byte(bad[1]), 1)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data)
		// One byte at a time: every chunk straddles reads.
		ms, serr := decodeFrom(&readerSource{bufio.NewReaderSize(iotest.OneByteReader(bytes.NewReader(data)), bufSize)}, "")
		if fmt.Sprint(err) != fmt.Sprint(serr) || !reflect.DeepEqual(m, ms) {
			t.Fatalf("Decode and the stream reader differ:\n%v\n%v", err, serr)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNotModel) && !errors.Is(err, ErrNewerVersion) {
				t.Fatalf("error %v has no known kind", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("decoded an invalid model: %v", err)
		}
		checkModelStrings(t, m)
		enc, err := Marshal(m)
		if err != nil {
			t.Fatalf("Marshal of a decoded model: %v", err)
		}
		m2, err := Decode(enc)
		if err != nil {
			t.Fatalf("Decode of a re-encoded model: %v", err)
		}
		enc2, err := Marshal(m2)
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("re-encoding is not stable: %v", err)
		}
	})
}

// FuzzDocument fuzzes the msgpack document behind a valid container, where
// the checksums no longer shield the decoder.
func FuzzDocument(f *testing.F) {
	f.Add(rawDoc(f, fullModel()))
	f.Add(rawDoc(f, &Model{System: "x"}))
	f.Add(rawDoc(f, codedModel()))
	f.Add(bytes.Replace(rawDoc(f, fullModel()), []byte("\xa4root"), []byte("\xa4obj\xff"), 1))
	f.Add([]byte{0x91, 0x91, 0x91, 0xc0})
	f.Add([]byte{0xdf, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, doc []byte) {
		var buf bytes.Buffer
		if err := writeContainer(&buf, doc); err != nil {
			t.Fatal(err)
		}
		m, err := Decode(buf.Bytes())
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v is not ErrCorrupt", err)
			}
			return
		}
		checkModelStrings(t, m)
		if _, err := Marshal(m); err != nil {
			t.Fatalf("Marshal of a decoded model: %v", err)
		}
	})
}
