package modelfmt

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"
)

// fullModel returns a small Model in which every field is set.
func fullModel() *Model {
	return &Model{
		Card: Card{
			Name:      "en_ewt-arc-eager",
			Treebank:  "UD_English-EWT (en_ewt-ud-train.conllu)",
			System:    "arc-eager",
			Options:   map[string]string{"epochs": "10", "beam": "1"},
			TrainedAt: "2025-01-02T03:04:05Z",
			Version:   "0.1.0",
			Scores:    map[string]float64{"dev/gold/LAS": 87.25, "test/predicted/UPOS": 95.5, "dev/gold/UAS": 1e-300},
			Notes:     "déjà vu ✓",
		},
		System:        "arc-eager",
		SystemOptions: map[string]string{"root": "end", "labels": "yes"},
		Strings: map[string][]string{
			"deprel": {"nsubj", "obj", "root", ""},
			"upos":   {"NOUN", "VERB", "PUNCT"},
		},
		Params: map[string]int64{"dim": 128, "neg": -5, "max": math.MaxInt64, "min": math.MinInt64, "zero": 0},
		Classifiers: []Classifier{
			{
				Name:      "parser",
				Templates: []string{"s0.form", "b0.upos", "s0.lc1.deprel"},
				Classes:   []string{"SHIFT", "LEFT-ARC:nsubj", "RIGHT-ARC:obj"},
				Layout:    "sparse-rows/v1",
				Params:    map[string]int64{"rows": 3, "cols": 3},
				Blobs: map[string][]byte{
					"weights": Float32Bytes([]float32{0.5, -1.25, 3, float32(math.Inf(1)), 0, -0}),
					"keys":    Uint64Bytes([]uint64{1, 1 << 63, 42}),
					"empty":   {},
				},
			},
			{
				Name:      "tagger",
				Templates: []string{"w0.form"},
				Classes:   []string{"NOUN", "VERB"},
				Layout:    "dense/v1",
				Params:    map[string]int64{"n": 2},
				Blobs:     map[string][]byte{"w": Int8Bytes([]int8{-128, 127, 0})},
			},
		},
	}
}

// checkAllSet fails if any field reachable from v is a zero value, so that
// a field added to the schema but not to fullModel (and thus possibly not
// to the encoder and decoder) is noticed.
func checkAllSet(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer:
		checkAllSet(t, v.Elem(), path)
	case reflect.Struct:
		for i := range v.NumField() {
			checkAllSet(t, v.Field(i), path+"."+v.Type().Field(i).Name)
		}
	case reflect.Slice:
		if v.Len() == 0 {
			t.Errorf("fixture leaves %s empty", path)
		}
		if v.Type().Elem().Kind() == reflect.Struct {
			for i := range v.Len() {
				checkAllSet(t, v.Index(i), path+"[]")
			}
		}
	case reflect.Map, reflect.String:
		if v.Len() == 0 {
			t.Errorf("fixture leaves %s empty", path)
		}
	default:
		if v.IsZero() {
			t.Errorf("fixture leaves %s zero", path)
		}
	}
}

func mustMarshal(t testing.TB, m *Model) []byte {
	t.Helper()
	data, err := Marshal(m)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	return data
}

// wrap puts a raw msgpack document in a valid container of FormatVersion.
func wrap(t testing.TB, doc []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := writeContainer(&buf, doc); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawDoc returns the msgpack document inside a model file.
func rawDoc(t testing.TB, m *Model) []byte {
	t.Helper()
	doc, err := marshalDoc(m)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// checkErr fails unless err is an *Error wrapping one of kinds.
func checkErr(t testing.TB, err error, kinds ...error) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one of %v", kinds)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *Error", err, err)
	}
	for _, k := range kinds {
		if errors.Is(err, k) {
			return e
		}
	}
	t.Fatalf("error %q wraps none of %v", err, kinds)
	return nil
}

// allocDuring returns the bytes of heap allocated while f runs. It reads
// runtime/metrics, which does not stop the world (runtime.ReadMemStats
// does, and made 10,000 measurements slow); small objects are counted when
// a span is handed out, so the figure may be off by a few tens of KB, while
// large allocations, the ones that matter here, are counted exactly.
func allocDuring(f func()) uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	before := s[0].Value.Uint64()
	f()
	metrics.Read(s)
	return s[0].Value.Uint64() - before
}

func TestFixtureSetsEveryField(t *testing.T) {
	checkAllSet(t, reflect.ValueOf(fullModel()), "Model")
}

func TestRoundTrip(t *testing.T) {
	m := fullModel()
	data := mustMarshal(t, m)
	got, err := Decode(data)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Fatalf("round trip differs:\n got %#v\nwant %#v", got, m)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), data) {
		t.Error("Encode and Marshal differ")
	}
	// Deterministic despite Go's random map order.
	for range 20 {
		if again := mustMarshal(t, fullModel()); !bytes.Equal(again, data) {
			t.Fatal("Marshal is not deterministic")
		}
	}
	if v, ok := Sniff(data); !ok || v != FormatVersion {
		t.Errorf("Sniff = %d, %v", v, ok)
	}
}

func TestRoundTripNilAndEmpty(t *testing.T) {
	for _, m := range []*Model{
		{System: "arc-standard"},
		{System: "x", SystemOptions: map[string]string{}, Strings: map[string][]string{"a": {}, "b": nil},
			Params: map[string]int64{}, Classifiers: []Classifier{},
			Card: Card{Options: map[string]string{}, Scores: map[string]float64{}}},
		{System: "x", Classifiers: []Classifier{{Name: "c", Layout: "l", Templates: []string{}, Blobs: map[string][]byte{"nil": nil, "empty": {}}}}},
	} {
		got, err := Decode(mustMarshal(t, m))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("round trip differs:\n got %#v\nwant %#v", got, m)
		}
	}
}

// The document is ordinary msgpack: the msgpack library's own decoder,
// driven by the struct tags, must read what Encode writes exactly as
// Decode does.
func TestDocumentReadableByMsgpackLibrary(t *testing.T) {
	want := fullModel()
	var got Model
	if err := msgpack.Unmarshal(rawDoc(t, want), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&got, want) {
		t.Fatalf("msgpack library reads\n%#v\nwant\n%#v", &got, want)
	}
	// And Decode reads what the library writes with its defaults.
	doc, err := msgpack.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(wrap(t, doc))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("Decode of library output differs")
	}
}

func TestMagicAndSniff(t *testing.T) {
	if len(Magic) != 8 || SniffLen != len(Magic)+4 || headerSizeV1 != 20 {
		t.Fatal("header constants are inconsistent")
	}
	if int(FormatVersion) != len(versionDecoders)-1 {
		t.Fatal("versionDecoders must have an entry for every version up to FormatVersion")
	}
	for v := 1; v <= FormatVersion; v++ {
		if versionDecoders[v] == nil {
			t.Fatalf("no decoder for format version %d", v)
		}
	}
	data := mustMarshal(t, fullModel())
	if _, ok := Sniff(data[:SniffLen-1]); ok {
		t.Error("Sniff accepts a short prefix")
	}
	if v, ok := Sniff(data[:SniffLen]); !ok || v != FormatVersion {
		t.Error("Sniff rejects a valid prefix")
	}
	if _, ok := Sniff([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0d")); ok {
		t.Error("Sniff accepts a PNG")
	}
}

func TestNotModel(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(mustMarshal(t, fullModel()))
	zw.Close()
	random := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	elf := []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00\x3e\x00")
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x00\x01")
	cases := []struct {
		name string
		data []byte
		msg  string
	}{
		{"nil", nil, "modelfmt: not a transparse model (empty input)"},
		{"empty", []byte{}, "modelfmt: not a transparse model (empty input)"},
		{"one byte", []byte{0x89}, "modelfmt: not a transparse model (first bytes 89)"},
		{"random", random, "modelfmt: not a transparse model (first bytes "},
		{"ELF", elf, "modelfmt: not a transparse model (first bytes 7f454c4602010100...; looks like an ELF executable or library)"},
		{"PNG", png, "modelfmt: not a transparse model (first bytes 89504e470d0a1a0a...; looks like a PNG image)"},
		{"gzip", gz.Bytes(), "; looks like gzip data)"},
		{"text", []byte("# transparse model\n"), "(first bytes 23207472616e7370...)"},
		{"bare snappy", []byte("\xff\x06\x00\x00sNaPpY\x01\x05\x00\x00"), "looks like a bare snappy stream"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.data)
			e := checkErr(t, err, ErrNotModel)
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("message %q does not contain %q", err, c.msg)
			}
			if e.Offset != 0 || e.Section != "header" {
				t.Errorf("Offset %d Section %q", e.Offset, e.Section)
			}
		})
	}
}

func TestNewerVersion(t *testing.T) {
	data := mustMarshal(t, fullModel())
	binary.LittleEndian.PutUint32(data[8:], 3)
	for _, d := range [][]byte{data, data[:SniffLen]} {
		_, err := Decode(d)
		checkErr(t, err, ErrNewerVersion)
		if errors.Is(err, ErrCorrupt) || errors.Is(err, ErrNotModel) {
			t.Error("newer version also claims to be corrupt or not a model")
		}
		const want = "modelfmt: made by a newer transparse (format version 3; this library reads versions up to 2)"
		if err.Error() != want {
			t.Errorf("got  %q\nwant %q", err, want)
		}
	}
	path := filepath.Join(t.TempDir(), "model.tpm")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	if want := "modelfmt: " + path + ": made by a newer transparse (format version 3; this library reads versions up to 2)"; err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	binary.LittleEndian.PutUint32(data[8:], math.MaxUint32)
	_, err = Decode(data)
	checkErr(t, err, ErrNewerVersion)
	binary.LittleEndian.PutUint32(data[8:], 0)
	_, err = Decode(data)
	checkErr(t, err, ErrCorrupt)
	if want := "modelfmt: corrupt at byte 8 (format version 0 does not exist)"; err.Error() != want {
		t.Errorf("got  %q\nwant %q", err, want)
	}
}

func TestTruncation(t *testing.T) {
	data := mustMarshal(t, fullModel())
	docLen := binary.LittleEndian.Uint64(data[SniffLen:])
	// Every cut that leaves the start of the magic is called truncated,
	// and a cut in the stream says how much of the document arrived.
	for n := range len(data) {
		_, err := Decode(data[:n])
		checkErr(t, err, ErrCorrupt, ErrNotModel)
		if n >= 4 && !strings.HasPrefix(err.Error(), "modelfmt: truncated: ") {
			t.Errorf("cut after %d bytes: %q", n, err)
		}
		if want := " of " + itoa(docLen) + " bytes of document (the input ends early)"; n >= headerSizeV1 && !strings.HasSuffix(err.Error(), want) {
			t.Errorf("cut after %d bytes: got %q, want suffix %q", n, err, want)
		}
	}
	// A stream cut at a chunk boundary of a model that spans several
	// chunks.
	// Random bytes: neither snappy nor Huffman coding shrinks them.
	big := fullModel()
	big.Classifiers[0].Blobs["weights"] = make([]byte, 200000)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range big.Classifiers[0].Blobs["weights"] {
		big.Classifiers[0].Blobs["weights"][i] = byte(rng.Uint32())
	}
	data = mustMarshal(t, big)
	docLen = binary.LittleEndian.Uint64(data[SniffLen:])
	// Find the end of the second data chunk.
	pos := headerSizeV1 + 10
	for range 2 {
		pos += 4 + int(data[pos+1]) | int(data[pos+2])<<8 | int(data[pos+3])<<16
	}
	_, err := Decode(data[:pos])
	checkErr(t, err, ErrCorrupt)
	want := "modelfmt: truncated: 131072 of " + itoa(docLen) + " bytes of document (the input ends early)"
	if err.Error() != want {
		t.Errorf("got  %q\nwant %q", err, want)
	}
	// Cut inside the third chunk: same message.
	_, err = Decode(data[:pos+100])
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %q", err, want)
	}
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }

func TestStreamErrors(t *testing.T) {
	data := mustMarshal(t, fullModel())
	const chunk = headerSizeV1 + 10 // first data chunk, after the stream identifier

	bad := bytes.Clone(data)
	bad[chunk+4] ^= 0x01 // its checksum
	_, err := Decode(bad)
	checkErr(t, err, ErrCorrupt)
	if want := "modelfmt: corrupt at byte 30 (snappy chunk checksum mismatch)"; err.Error() != want {
		t.Errorf("got  %q\nwant %q", err, want)
	}
	var e *Error
	errors.As(err, &e)
	if e.Offset != 30 || e.Section != "stream" {
		t.Errorf("Offset %d Section %q", e.Offset, e.Section)
	}

	bad = bytes.Clone(data)
	bad[chunk] = 0x05 // reserved unskippable chunk type
	_, err = Decode(bad)
	checkErr(t, err, ErrCorrupt)
	if want := "modelfmt: corrupt at byte 30 (snappy chunk of reserved type 0x05)"; err.Error() != want {
		t.Errorf("got  %q\nwant %q", err, want)
	}

	bad = bytes.Clone(data)
	bad[headerSizeV1+5] = 'X' // stream identifier
	_, err = Decode(bad)
	checkErr(t, err, ErrCorrupt)
	if want := "modelfmt: corrupt at byte 20 (bad snappy stream identifier)"; err.Error() != want {
		t.Errorf("got  %q\nwant %q", err, want)
	}

	// A chunk cut short after the whole document.
	_, err = Decode(append(bytes.Clone(data), 0x01, 0x20, 0x00, 0x00, 0xaa))
	checkErr(t, err, ErrCorrupt)
	if want := "modelfmt: corrupt at byte " + strconv.Itoa(len(data)) + " (input ends inside a snappy chunk, after 1 of its 32 bytes)"; err.Error() != want {
		t.Errorf("got  %q\nwant %q", err, want)
	}
	_, err = Decode(append(bytes.Clone(data), 0x01, 0x20))
	if want := "(input ends inside a snappy chunk header, after 2 of its 4 bytes)"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got  %v\nwant suffix %q", err, want)
	}
	// Padding chunks after the document are part of a valid stream.
	if _, err := Decode(append(bytes.Clone(data), 0xfe, 0x02, 0x00, 0x00, 0, 0)); err != nil {
		t.Errorf("padding: %v", err)
	}

	// Trailing garbage after the stream.
	_, err = Decode(append(bytes.Clone(data), "garbage"...))
	checkErr(t, err, ErrCorrupt)

	// A second stream with more data: the document is longer than declared.
	var extra bytes.Buffer
	writeContainer(&extra, []byte("more"))
	_, err = Decode(append(bytes.Clone(data), extra.Bytes()[headerSizeV1:]...))
	checkErr(t, err, ErrCorrupt)
	if !strings.Contains(err.Error(), "holds more than the") {
		t.Errorf("got %q", err)
	}
	// The error points at the extra stream's first data chunk: after the
	// original stream and the second stream's identifier chunk (10 bytes).
	var me *Error
	if want := int64(len(data) + 10); !errors.As(err, &me) || me.Offset != want ||
		!strings.Contains(err.Error(), fmt.Sprintf("corrupt at byte %d", want)) {
		t.Errorf("got %q (offset %d), want offset %d", err, me.Offset, want)
	}
}

func TestHeaderLengthChecks(t *testing.T) {
	data := mustMarshal(t, fullModel())
	streamLen := len(data) - headerSizeV1
	docLen := binary.LittleEndian.Uint64(data[SniffLen:])
	set := func(n uint64) []byte {
		d := bytes.Clone(data)
		binary.LittleEndian.PutUint64(d[SniffLen:], n)
		return d
	}
	for _, c := range []struct {
		n    uint64
		want string
	}{
		{math.MaxUint64, "modelfmt: corrupt at byte 12 (header says the document is 18446744073709551615 bytes; the limit is 2147483647)"},
		{MaxDocumentSize + 1, "the limit is 2147483647"},
		// More than the stream can hold: the stream is read, and is
		// short.
		{uint64(22*streamLen + 1), "modelfmt: truncated: " + itoa(docLen) + " of " + itoa(uint64(22*streamLen+1)) + " bytes of document (the input ends early)"},
		{MaxDocumentSize, "modelfmt: truncated: " + itoa(docLen) + " of 2147483647 bytes of document"},
		{10, "corrupt at byte 30 (the stream holds more than the 10 bytes of document the header declares: this chunk goes beyond them)"},
		{0, "holds more than the 0 bytes"},
	} {
		_, err := Decode(set(c.n))
		checkErr(t, err, ErrCorrupt)
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("length %d: got %q, want it to contain %q", c.n, err, c.want)
		}
	}
}

// Snappy cannot expand by more than 64/3: the densest input the encoder
// meets (zeros) stays under the bound the reader enforces.
func TestExpansionBound(t *testing.T) {
	m := fullModel()
	m.Classifiers[0].Blobs["weights"] = make([]byte, 4<<20)
	data := mustMarshal(t, m)
	ratio := float64(binary.LittleEndian.Uint64(data[SniffLen:])) / float64(len(data)-headerSizeV1)
	t.Logf("zeros: %d-byte file, expansion %.2f (bound %d)", len(data), ratio, maxExpansion)
	if ratio >= maxExpansion || ratio < 15 {
		t.Errorf("expansion %.2f", ratio)
	}
	if _, err := Decode(data); err != nil {
		t.Fatal(err)
	}
}

func TestDocumentErrors(t *testing.T) {
	mp := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	str := func(s string) []byte { return append([]byte{0xa0 | byte(len(s))}, s...) }
	cls := func(body ...[]byte) []byte {
		return mp(append([][]byte{{0x82}, str("system"), str("x"), str("classifiers")}, body...)...)
	}
	cases := []struct {
		name string
		doc  []byte
		want string
	}{
		{"empty", nil, "modelfmt: corrupt document at byte 0 (empty document)"},
		{"trailing", mp([]byte{0x81}, str("system"), str("x"), []byte{0xc0}), "corrupt document at byte 10 (1 bytes of trailing data after the document)"},
		{"not a map", []byte{0x92, 1, 2}, "corrupt document at byte 0 (expected a map, found an array)"},
		{"nil", []byte{0xc0}, "document is nil"},
		{"0xc1", mp([]byte{0x81}, str("system"), []byte{0xc1}), "corrupt document at byte 8 (invalid msgpack byte 0xc1)"},
		{"system empty", []byte{0x80}, "modelfmt: corrupt document (system: missing or empty)"},
		{"system type", mp([]byte{0x81}, str("system"), []byte{0xc3}), "corrupt document at byte 8 (system: expected a string, found a bool)"},
		{"param type", mp([]byte{0x82}, str("system"), str("x"), str("params"), []byte{0x81}, str("k"), str("v")),
			`corrupt document at byte 20 (params["k"]: expected an integer, found a string)`},
		{"param overflow", mp([]byte{0x82}, str("system"), str("x"), str("params"), []byte{0x81}, str("k"), []byte{0xcf, 0x80, 0, 0, 0, 0, 0, 0, 0}),
			`params["k"]: integer 9223372036854775808 is out of range`},
		{"classifier no name", cls([]byte{0x91, 0x80}), "corrupt document at byte 23 (classifiers[0].name: missing or empty)"},
		{"classifier no layout", cls([]byte{0x91, 0x81}, str("name"), str("p")), "classifiers[0].layout: missing or empty"},
		{"duplicate", cls([]byte{0x92}, []byte{0x82}, str("name"), str("p"), str("layout"), str("l"), []byte{0x82}, str("name"), str("p"), str("layout"), str("l")),
			`modelfmt: corrupt document (classifiers[1].name: "p" is also the name of classifiers[0])`},
		{"blob type", cls([]byte{0x91, 0x83}, str("name"), str("p"), str("layout"), str("l"), str("blobs"), []byte{0x81}, str("w"), []byte{0x01}),
			`classifiers[0].blobs["w"]: expected a binary value, found an integer`},
		{"templates type", cls([]byte{0x91, 0x81}, str("templates"), []byte{0x81, 0xa0, 0xa0}), `classifiers[0].templates: expected an array, found a map`},
		{"score type", mp([]byte{0x82}, str("system"), str("x"), str("card"), []byte{0x81}, str("scores"), []byte{0x81}, str("LAS"), str("high")),
			`card.scores["LAS"]: expected a number, found a string`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(wrap(t, c.doc))
			checkErr(t, err, ErrCorrupt)
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("got  %q\nwant it to contain %q", err, c.want)
			}
		})
	}
	// Rule violations are ErrInvalid as well as ErrCorrupt.
	_, err := Decode(wrap(t, []byte{0x80}))
	e := checkErr(t, err, ErrInvalid)
	if e.Section != "system" || e.Offset != -1 {
		t.Errorf("Section %q Offset %d", e.Section, e.Offset)
	}
	// Unknown fields (from a newer writer of the same format version) are
	// skipped, however they nest.
	doc := mp([]byte{0x83}, str("future"), []byte{0x92, 0x81, 0xa0, 0x93, 1, 2, 0xd4, 1, 2, 0xc7, 2, 9, 1, 2},
		str("system"), str("x"), str("card"), []byte{0x81}, str("later"), []byte{0xcb, 0, 0, 0, 0, 0, 0, 0, 0})
	m, err := Decode(wrap(t, doc))
	if err != nil || m.System != "x" {
		t.Fatalf("unknown fields: %v", err)
	}
}

// hostile documents declare lengths they do not have. Each must fail
// quickly, with memory proportional to its real size.
func TestHostileDocuments(t *testing.T) {
	mp := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	str := func(s string) []byte { return append([]byte{0xa0 | byte(len(s))}, s...) }
	ff := []byte{0xff, 0xff, 0xff, 0xff}
	deep := append(bytes.Repeat([]byte{0x91}, 1_000_000), 0xc0)
	manyMaps := mp([]byte{0x82}, str("system"), str("x"), str("classifiers"), []byte{0xdd, 0x00, 0x10, 0x00, 0x00}, bytes.Repeat([]byte{0x80}, 1<<20))
	dupKeys := mp([]byte{0x82}, str("system"), str("x"), str("system_options"), []byte{0xdf, 0x00, 0x08, 0x00, 0x00}, bytes.Repeat([]byte{0xa0, 0xa0}, 1<<19), []byte{0xc3})
	tooMany := mp([]byte{0xdd}, binary.BigEndian.AppendUint32(nil, MaxObjects), bytes.Repeat([]byte{0xc0}, MaxObjects))
	cases := []struct {
		name string
		doc  []byte
		want string
	}{
		{"array32", mp([]byte{0xdd}, ff), "array of 4294967295 elements cannot fit in the 0 bytes left"},
		{"map32", mp([]byte{0xdf}, ff), "map of 4294967295 entries cannot fit"},
		{"classifiers", mp([]byte{0x81}, str("classifiers"), []byte{0xdd}, ff), "array of 4294967295 elements"},
		{"strings", mp([]byte{0x81}, str("strings"), []byte{0xdf}, ff), "map of 4294967295 entries"},
		{"table", mp([]byte{0x81}, str("strings"), []byte{0x81}, str("t"), []byte{0xdd}, ff), "array of 4294967295 elements"},
		{"str32", mp([]byte{0x81}, str("system"), []byte{0xdb}, ff), "string of 4294967295 bytes, but only 0 bytes are left"},
		{"bin32", mp([]byte{0x81}, str("blobs"), []byte{0xc6}, ff, []byte{1, 2, 3}), "binary value of 4294967295 bytes, but only 3 bytes are left"},
		{"ext32", mp([]byte{0xc9}, ff, []byte{1}), "extension value of 4294967296 bytes"},
		{"nested arrays", deep, "nested more than 64 deep"},
		{"sum of declared lengths", mp([]byte{0x92, 0xdc, 0x00, 0x10, 0xdc, 0x00, 0x10}, bytes.Repeat([]byte{0xc0}, 20)), "cannot fit"},
		{"too many objects", tooMany, "more than 16777216 objects"},
		{"1M empty classifiers", manyMaps, "classifiers[0].name: missing or empty"},
		{"500k duplicate keys", dupKeys, "1 bytes of trailing data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := wrap(t, c.doc)
			var err error
			start := time.Now()
			alloc := allocDuring(func() { _, err = Decode(data) })
			checkErr(t, err, ErrCorrupt)
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("got  %q\nwant it to contain %q", err, c.want)
			}
			// The decompressed document plus fixed buffers, and a little;
			// twice the document, as so compressible a stream makes the
			// document buffer double as the data arrives (see grow).
			if limit := 2*uint64(len(c.doc)) + 1<<20; alloc > limit {
				t.Errorf("allocated %d bytes for a %d-byte document", alloc, len(c.doc))
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	// A valid document of many duplicate keys decodes in little memory.
	dupOK := mp([]byte{0x82}, str("system"), str("x"), str("system_options"), []byte{0xdf, 0x00, 0x08, 0x00, 0x00}, bytes.Repeat([]byte{0xa1, 'k', 0xa0}, 1<<19))
	data := wrap(t, dupOK)
	var m *Model
	var err error
	alloc := allocDuring(func() { m, err = Decode(data) })
	if err != nil || len(m.SystemOptions) != 1 {
		t.Fatalf("%v", err)
	}
	if alloc > 2*uint64(len(dupOK))+1<<20 {
		t.Errorf("allocated %d bytes", alloc)
	}
}

type mutation func(rng *rand.Rand, b []byte) []byte

var mutations = []mutation{
	func(rng *rand.Rand, b []byte) []byte { b[rng.IntN(len(b))] ^= 1 << rng.IntN(8); return b },
	func(rng *rand.Rand, b []byte) []byte { b[rng.IntN(len(b))] = byte(rng.Uint32()); return b },
	func(rng *rand.Rand, b []byte) []byte {
		for range 2 + rng.IntN(7) {
			b[rng.IntN(len(b))] = byte(rng.Uint32())
		}
		return b
	},
	func(rng *rand.Rand, b []byte) []byte { // a run of random bytes
		i := rng.IntN(len(b))
		for j := i; j < min(len(b), i+1+rng.IntN(8)); j++ {
			b[j] = byte(rng.Uint32())
		}
		return b
	},
	func(rng *rand.Rand, b []byte) []byte { // an interesting value
		vals := []byte{0x00, 0xff, 0x7f, 0x80, 0xc0, 0xc1, 0xdb, 0xdd, 0xdf, 0xc6}
		b[rng.IntN(len(b))] = vals[rng.IntN(len(vals))]
		return b
	},
	func(rng *rand.Rand, b []byte) []byte { // flip, then cut
		b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
		return b[:rng.IntN(len(b)+1)]
	},
}

// checkMutant decodes data and checks the outcome: an *Error of a known
// kind, or a Model that is valid and survives a round trip; never a panic,
// a hang or more memory than maxAlloc.
func checkMutant(t *testing.T, data []byte, maxAlloc uint64) (ok bool) {
	t.Helper()
	var m *Model
	var err error
	start := time.Now()
	alloc := allocDuring(func() { m, err = Decode(data) })
	// Generous: decoding takes well under a millisecond, but test
	// machines can be busy; this catches hangs, not slowness.
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("Decode took %v", d)
	}
	if alloc > maxAlloc {
		t.Fatalf("Decode allocated %d bytes of a %d-byte input (limit %d)", alloc, len(data), maxAlloc)
	}
	if err != nil {
		checkErr(t, err, ErrCorrupt, ErrNotModel, ErrNewerVersion)
		return false
	}
	if err := m.Validate(); err != nil {
		t.Fatalf("Decode returned an invalid model: %v", err)
	}
	if _, err := Decode(mustMarshal(t, m)); err != nil {
		t.Fatalf("re-encoded model does not decode: %v", err)
	}
	return true
}

func TestFileMutations(t *testing.T) {
	data := mustMarshal(t, fullModel())
	rng := rand.New(rand.NewPCG(3, 4))
	// The bound the header promises: 64 times the bytes read plus 1 MiB.
	// The reader's first document buffer alone is 256 KiB, and what a
	// decode allocates varies from run to run (pooled scratch), so a
	// tighter bound fails now and then without a fault of the reader.
	maxAlloc := uint64(64*len(data)) + 1<<20
	valid := 0
	for i := range 10000 {
		mut := mutations[i%len(mutations)](rng, bytes.Clone(data))
		if checkMutant(t, mut, maxAlloc) {
			valid++
		}
	}
	t.Logf("%d-byte file: %d of 10000 mutants decoded", len(data), valid)
}

func TestDocumentMutations(t *testing.T) {
	doc := rawDoc(t, fullModel())
	rng := rand.New(rand.NewPCG(5, 6))
	valid := 0
	for i := range 10000 {
		mut := mutations[i%len(mutations)](rng, bytes.Clone(doc))
		if len(mut) == 0 {
			continue
		}
		data := wrap(t, mut)
		if checkMutant(t, data, uint64(64*len(mut))+1<<20) {
			valid++
		}
	}
	t.Logf("%d-byte document: %d of 10000 mutants decoded", len(doc), valid)
}

func TestDecodeAllocations(t *testing.T) {
	data := mustMarshal(t, fullModel())
	allocs := testing.AllocsPerRun(100, func() { Decode(data) })
	t.Logf("Decode of a %d-byte model: %.0f allocations", len(data), allocs)
	if allocs > 100 {
		t.Errorf("%.0f allocations", allocs)
	}
}

func TestEncodeInvalid(t *testing.T) {
	cases := []struct {
		edit    func(m *Model)
		section string
		want    string
	}{
		{func(m *Model) { m.System = "" }, "system", "modelfmt: invalid model (system: missing or empty)"},
		{func(m *Model) { m.Classifiers[1].Name = "" }, "classifiers[1].name", "invalid model (classifiers[1].name: missing or empty)"},
		{func(m *Model) { m.Classifiers[0].Layout = "" }, "classifiers[0].layout", "invalid model (classifiers[0].layout: missing or empty)"},
		{func(m *Model) { m.Classifiers[1].Name = "parser" }, "classifiers[1].name", `invalid model (classifiers[1].name: "parser" is also the name of classifiers[0])`},
	}
	for _, c := range cases {
		m := fullModel()
		c.edit(m)
		_, err := Marshal(m)
		e := checkErr(t, err, ErrInvalid)
		if errors.Is(err, ErrCorrupt) {
			t.Error("an invalid model to encode is not a corrupt file")
		}
		if e.Section != c.section || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %q (section %q), want %q (section %q)", err, e.Section, c.want, c.section)
		}
		if err := Encode(&bytes.Buffer{}, m); !errors.Is(err, ErrInvalid) {
			t.Errorf("Encode: %v", err)
		}
	}
	_, err := Marshal(nil)
	checkErr(t, err, ErrInvalid)
	// Too deep or too many objects cannot be expressed with this schema's
	// depth, but too many objects can.
	m := fullModel()
	m.Classifiers[0].Templates = make([]string, MaxObjects) // labels would repeat: templates may
	_, err = Marshal(m)
	e := checkErr(t, err, ErrInvalid)
	if !strings.Contains(err.Error(), "more than 16777216 objects") || e.Section != "document" {
		t.Errorf("got %q", err)
	}
}

func TestWriteFileReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.tpm")
	m := fullModel()
	if err := WriteFile(path, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Fatal("ReadFile differs")
	}
	data, _ := os.ReadFile(path)
	if !bytes.Equal(data, mustMarshal(t, m)) {
		t.Error("file differs from Marshal")
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode())
	}
	// Overwrite keeps permissions and leaves no temporary files.
	os.Chmod(path, 0o600)
	m.Card.Notes = "second"
	if err := WriteFile(path, m); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(path); err != nil || got.Card.Notes != "second" {
		t.Fatalf("%v", err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after overwrite", fi.Mode())
	}
	// A failed write leaves the old file and no temporary file.
	m.System = ""
	if err := WriteFile(path, m); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), path) {
		t.Errorf("WriteFile of invalid model: %v", err)
	}
	if got, err := ReadFile(path); err != nil || got.Card.Notes != "second" {
		t.Fatalf("old file damaged: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries", len(entries))
	}
	// Errors name the file.
	missing := filepath.Join(dir, "missing.tpm")
	_, err = ReadFile(missing)
	if !errors.Is(err, fs.ErrNotExist) || err.Error() != "modelfmt: "+missing+": open: no such file or directory" {
		t.Errorf("missing file: %v", err)
	}
	if err := WriteFile(filepath.Join(dir, "no", "such", "dir.tpm"), fullModel()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("WriteFile to a missing directory: %v", err)
	}
	short := filepath.Join(dir, "short.tpm")
	os.WriteFile(short, data[:len(data)-3], 0o644)
	_, err = ReadFile(short)
	e := checkErr(t, err, ErrCorrupt)
	if e.Path != short || !strings.HasPrefix(err.Error(), "modelfmt: "+short+": ") {
		t.Errorf("got %q", err)
	}
	for n := 0; n < len(data); n += 7 {
		os.WriteFile(short, data[:n], 0o644)
		_, err := ReadFile(short)
		checkErr(t, err, ErrCorrupt, ErrNotModel)
	}
	// Not a regular file.
	if _, err := os.Stat("/dev/null"); err == nil {
		_, err := ReadFile("/dev/null")
		checkErr(t, err, ErrNotModel)
	}
	_, err = ReadFile(dir)
	if err == nil {
		t.Error("ReadFile of a directory succeeded")
	}
}

func TestErrorFormat(t *testing.T) {
	e := &Error{Offset: -1}
	if e.Error() != "modelfmt: <nil>" {
		t.Error(e.Error())
	}
	e = newError("m.tpm", 5, "stream", kindCorrupt, "corrupt at byte %d (x)", 5)
	if e.Error() != "modelfmt: m.tpm: corrupt at byte 5 (x)" || !errors.Is(e, ErrCorrupt) || errors.Is(e, ErrNotModel) {
		t.Error(e.Error())
	}
}

// Readers accept every msgpack encoding of a value, not only the one the
// writer chooses.
func TestLenientDocument(t *testing.T) {
	mp := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	str := func(s string) []byte { return append([]byte{0xa0 | byte(len(s))}, s...) }
	doc := mp([]byte{0xde, 0x00, 0x05},
		[]byte{0xd9, 6}, []byte("system"), []byte{0xc4, 1, 'x'}, // str8 key, bin value
		str("card"), []byte{0x81}, str("scores"), []byte{0x86},
		str("f32"), []byte{0xca, 0x3f, 0xc0, 0, 0}, // 1.5
		str("int"), []byte{0x07},
		str("neg"), []byte{0xd0, 0xfe}, // -2
		str("u64"), []byte{0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		str("nil"), []byte{0xc0},
		str("f64"), []byte{0xcb, 0x40, 0x59, 0, 0, 0, 0, 0, 0}, // 100
		str("params"), []byte{0x86},
		str("u8"), []byte{0xcc, 200}, str("u16"), []byte{0xcd, 1, 0}, str("u32"), []byte{0xce, 0, 1, 0, 0},
		str("i16"), []byte{0xd1, 0xff, 0x00}, str("i32"), []byte{0xd2, 0x80, 0, 0, 0}, str("i64"), []byte{0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		str("strings"), []byte{0x81}, str("t"), []byte{0xdc, 0x00, 0x02}, []byte{0xda, 0, 1, 'a'}, []byte{0xdb, 0, 0, 0, 1, 'b'},
		str("classifiers"), []byte{0xdd, 0, 0, 0, 1}, []byte{0xdf, 0, 0, 0, 3},
		str("name"), str("c"), str("layout"), str("l"), str("blobs"), []byte{0x82}, str("s"), str("ab"), str("b"), []byte{0xc5, 0, 2, 1, 2},
	)
	m, err := Decode(wrap(t, doc))
	if err != nil {
		t.Fatal(err)
	}
	want := &Model{
		System:      "x",
		Card:        Card{Scores: map[string]float64{"f32": 1.5, "int": 7, "neg": -2, "u64": math.MaxUint64, "nil": 0, "f64": 100}},
		Params:      map[string]int64{"u8": 200, "u16": 256, "u32": 65536, "i16": -256, "i32": math.MinInt32, "i64": -1},
		Strings:     map[string][]string{"t": {"a", "b"}},
		Classifiers: []Classifier{{Name: "c", Layout: "l", Blobs: map[string][]byte{"s": []byte("ab"), "b": {1, 2}}}},
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got  %#v\nwant %#v", m, want)
	}
}

type failWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n < len(p) {
		return 0, errDiskFull
	}
	w.n -= len(p)
	return len(p), nil
}

func TestEncodeWriteError(t *testing.T) {
	for _, n := range []int{0, 25, 100} {
		err := Encode(&failWriter{n: n}, fullModel())
		var e *Error
		if !errors.Is(err, errDiskFull) || !errors.As(err, &e) || err.Error() != "modelfmt: write: disk full" {
			t.Errorf("after %d bytes: %v", n, err)
		}
	}
}
