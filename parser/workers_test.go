package parser_test

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/transparse/transparse/parser"
)

// Any number of workers is safe: the count is capped at MaxWorkers, and a
// goroutine is started only for a batch of sentences, so one sentence
// waiting on a pipe starts one worker, however many were asked for.
func TestWorkersBounded(t *testing.T) {
	m := tiny(t)[0].model
	const text = "# sent_id = a\n1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n2\tcat\tcat\tNOUN\tNN\t_\t0\troot\t_\t_\n\n"
	var want bytes.Buffer
	if _, err := m.ParseDocument(strings.NewReader(text), &want, parser.DocOptions{Name: "text"}); err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	pr, pw := io.Pipe()
	var got bytes.Buffer
	done := make(chan error, 1)
	go func() {
		_, err := m.ParseDocument(pr, &got, parser.DocOptions{Name: "text", Workers: 1 << 40})
		done <- err
	}()
	if _, err := io.WriteString(pw, text+text); err != nil {
		t.Fatal(err)
	}
	// The reader now waits for more input with one batch read.
	var extra int
	for range 50 {
		extra = runtime.NumGoroutine() - before
		time.Sleep(2 * time.Millisecond)
	}
	// The call, its reader and one worker (the pipe has no goroutine).
	if extra > 3 {
		t.Errorf("%d goroutines for one batch of sentences", extra)
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String()+want.String() {
		t.Errorf("output differs from one worker's:\n%s", got.String())
	}
	if n := parser.MaxWorkers(); n != 4*runtime.GOMAXPROCS(0) {
		t.Errorf("MaxWorkers() = %d", n)
	}
}
