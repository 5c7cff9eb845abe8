package modelfmt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// paddingChunk is a snappy padding chunk of n body bytes.
func paddingChunk(n int) []byte {
	return append([]byte{0xfe, byte(n), byte(n >> 8), byte(n >> 16)}, make([]byte, n)...)
}

// declareHuge returns a copy of the model file data whose header declares
// a document of MaxDocumentSize bytes, followed by padding chunks up to
// about size bytes: a valid stream that holds far less than declared.
func declareHuge(data []byte, size int) []byte {
	out := bytes.Clone(data)
	binary.LittleEndian.PutUint64(out[SniffLen:], MaxDocumentSize)
	pad := paddingChunk(maxChunkLen)
	for len(out)+len(pad) <= size {
		out = append(out, pad...)
	}
	return out
}

// A device that never ends is refused on its first bytes: nothing more is
// read or allocated.
func TestReadFileDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	var err error
	alloc := allocDuring(func() { _, err = ReadFile("/dev/zero") })
	checkErr(t, err, ErrNotModel)
	if want := "modelfmt: /dev/zero: not a transparse model (first bytes 0000000000000000...)"; err.Error() != want {
		t.Errorf("got  %q\nwant %q", err, want)
	}
	if alloc > 1<<20 {
		t.Errorf("allocated %d bytes", alloc)
	}
}

// fifo makes a FIFO in a temporary directory and starts a goroutine that
// writes write's output to it; the returned function waits for the writer
// and returns how many bytes it wrote.
func fifo(t *testing.T, write func(w io.Writer) (int64, error)) (string, func() int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pipe.tpm")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan int64, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			done <- -1
			return
		}
		n, _ := write(f)
		f.Close()
		done <- n
	}()
	return path, func() int64 { return <-done }
}

// A model read through a pipe loads like the file.
func TestReadFileFIFO(t *testing.T) {
	data := mustMarshal(t, fullModel())
	want, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	path, wait := fifo(t, func(w io.Writer) (int64, error) { return io.Copy(w, bytes.NewReader(data)) })
	got, err := ReadFile(path)
	wait()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the model read from a pipe differs from the one decoded from memory")
	}
}

// An endless pipe is read no further than the header allows: the longest
// stream of the declared document, plus MaxPadding.
func TestReadFileEndlessPipe(t *testing.T) {
	data := mustMarshal(t, fullModel())
	docLen := binary.LittleEndian.Uint64(data[SniffLen:])
	path, wait := fifo(t, func(w io.Writer) (int64, error) {
		n, err := w.Write(data)
		pad := paddingChunk(4096)
		for err == nil {
			var k int
			k, err = w.Write(pad)
			n += k
		}
		return int64(n), err
	})
	_, err := ReadFile(path)
	// Unblock the writer if the reader stopped early.
	if f, oerr := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); oerr == nil {
		f.Close()
	}
	written := wait()
	checkErr(t, err, ErrCorrupt)
	limit := headerSizeV1 + maxStreamLen(int64(docLen)) + MaxPadding
	want := fmt.Sprintf("the stream is longer than the %d bytes a %d-byte document can take, with %d bytes of padding",
		limit-headerSizeV1, docLen, MaxPadding)
	if !strings.Contains(err.Error(), want) {
		t.Errorf("got  %q\nwant it to contain %q", err, want)
	}
	// What was written: what was read, plus at most the read buffer and
	// the pipe's buffer.
	if written > limit+bufSize+1<<20 {
		t.Errorf("the writer got %d bytes into the pipe; the reader may read %d", written, limit)
	}
}

// A header that declares far more document than the stream holds costs
// only what the stream holds.
func TestDeclaredLengthNotReserved(t *testing.T) {
	big := fullModel()
	big.Classifiers[0].Blobs["weights"] = bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	data := mustMarshal(t, big)
	docLen := binary.LittleEndian.Uint64(data[SniffLen:])
	huge := declareHuge(data, 4<<20)
	var err error
	alloc := allocDuring(func() { _, err = Decode(huge) })
	checkErr(t, err, ErrCorrupt)
	want := "modelfmt: truncated: " + strconv.FormatUint(docLen, 10) + " of 2147483647 bytes of document (the input ends early)"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %q", err, want)
	}
	// The header's bound is 64 times the input plus 1 MiB; this stream
	// needs its document, grown as it arrives.
	if limit := 4*docLen + 1<<20; alloc > limit {
		t.Errorf("allocated %d bytes for a %d-byte document (limit %d)", alloc, docLen, limit)
	}
}

// asChildEnv names the file the child process of
// TestDeclaredLengthUnderAddressLimit reads.
const asChildEnv = "MODELFMT_TEST_AS_CHILD"

// A 100 MB file whose header declares 2 GiB is refused by a process that
// may map only 256 MB more than it has when it starts reading. (The limit
// is relative: the Go runtime reserves more than 256 MB of address space
// for its heap metadata at start-up, so that no absolute limit of 256 MB
// lets a Go program, or a Python one that loads the library, start at
// all.)
func TestDeclaredLengthUnderAddressLimit(t *testing.T) {
	if path := os.Getenv(asChildEnv); path != "" {
		vm := vmSize(t)
		lim := syscall.Rlimit{Cur: vm + 256<<20, Max: vm + 256<<20}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
			t.Fatal(err)
		}
		_, err := ReadFile(path)
		fmt.Printf("RESULT %v\n", err)
		return
	}
	if testing.Short() {
		t.Skip("writes a 100 MB file")
	}
	big := fullModel()
	big.Classifiers[0].Blobs["weights"] = bytes.Repeat([]byte("0123456789abcdef"), 1<<16)
	path := filepath.Join(t.TempDir(), "huge.tpm")
	if err := os.WriteFile(path, declareHuge(mustMarshal(t, big), 100e6), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDeclaredLengthUnderAddressLimit$", "-test.v")
	cmd.Env = append(os.Environ(), asChildEnv+"="+path, "GOGC=100")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "RESULT modelfmt: "+path+": truncated: ") {
		t.Errorf("child output:\n%s", out)
	}
}

// vmSize returns the address space the process has mapped (VmSize).
func vmSize(t *testing.T) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmSize:" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	t.Skip("no VmSize in /proc/self/status")
	return 0
}

// WriteFile writes through a symbolic link: the file it points to is
// replaced and the link stays.
func TestWriteFileSymlink(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "store")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(sub, "real.tpm")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.tpm")
	if err := os.Symlink("store/real.tpm", link); err != nil {
		t.Fatal(err)
	}
	chain := filepath.Join(dir, "chain.tpm")
	if err := os.Symlink("link.tpm", chain); err != nil {
		t.Fatal(err)
	}
	m := fullModel()
	if got, err := ResolveSavePath(chain); err != nil || got != target {
		t.Errorf("ResolveSavePath = %q, %v; want %q", got, err, target)
	}
	if err := WriteFile(chain, m); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, chain} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link", l)
		}
	}
	fi, err := os.Stat(target)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("target: %v, mode %v (want the old 0600)", err, fi.Mode())
	}
	if got, err := ReadFile(link); err != nil || got.System != m.System {
		t.Errorf("read back through the link: %v", err)
	}
	// A dangling link: the file it names is created.
	dangling := filepath.Join(dir, "dangling.tpm")
	if err := os.Symlink("store/new.tpm", dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dangling, m); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(filepath.Join(sub, "new.tpm")); err != nil {
		t.Error(err)
	}
	// A loop.
	loop := filepath.Join(dir, "loop.tpm")
	if err := os.Symlink("loop.tpm", loop); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(loop, m); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("loop: got %v", err)
	}
}

// WriteFile refuses what is not a regular file and leaves it as it was.
func TestWriteFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	m := fullModel()
	check := func(path, what string, kind os.FileMode) {
		t.Helper()
		err := WriteFile(path, m)
		var e *Error
		if !errors.As(err, &e) || e.Path != path {
			t.Fatalf("%s: got %v, want an *Error naming the path", path, err)
		}
		if !strings.Contains(err.Error(), what+", not a regular file") {
			t.Errorf("got %q, want it to say %q", err, what)
		}
		if errors.Is(err, ErrCorrupt) || errors.Is(err, ErrInvalid) {
			t.Errorf("%q claims a model error", err)
		}
		fi, serr := os.Stat(path)
		if serr != nil || fi.Mode().Type() != kind {
			t.Errorf("%s changed: %v %v", path, serr, fi.Mode())
		}
		if tmps, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(tmps) > 0 {
			t.Errorf("temporary files left: %v", tmps)
		}
	}
	fifoPath := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifoPath, 0o600); err != nil {
		t.Fatal(err)
	}
	check(fifoPath, "is a FIFO", os.ModeNamedPipe)
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	check(sub, "is a directory", os.ModeDir)
	link := filepath.Join(dir, "to-fifo")
	if err := os.Symlink("fifo", link); err != nil {
		t.Fatal(err)
	}
	check(link, "links to "+fifoPath+", which is a FIFO", os.ModeNamedPipe)
	// A device: a fresh node made here (never a system one, which this
	// test must not risk), so only as root.
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Logf("no device case: mknod: %v", err)
		return
	}
	check(dev, "is a character device", os.ModeDevice|os.ModeCharDevice)
}
