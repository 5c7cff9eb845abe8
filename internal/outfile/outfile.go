// Package outfile writes the output files of the transparse commands so
// that no command destroys its own input or a file it was not asked to
// write: an output that is the same file as an input (the same device and
// inode, after following symbolic links; hard links included) is refused
// before any work, and an output is written to a temporary file in its
// directory and renamed over the target, so that a failed or interrupted
// write leaves the old file whole.
package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Guard remembers the files a command reads. The zero value guards
// nothing. A Guard is not safe for concurrent use.
type Guard struct {
	inputs []input
}

type input struct {
	name string
	fi   fs.FileInfo
}

// Add records inputs by name. "" and "-" (standard input) are ignored, and
// so is a name that does not exist (reading it fails later, with its own
// error); symbolic links are followed.
func (g *Guard) Add(names ...string) {
	for _, name := range names {
		if name == "" || name == "-" {
			continue
		}
		if fi, err := os.Stat(name); err == nil {
			g.inputs = append(g.inputs, input{name, fi})
		}
	}
}

// AddFile records an open input (such as standard input, when it is a
// file) under the given name.
func (g *Guard) AddFile(name string, f *os.File) {
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		g.inputs = append(g.inputs, input{name, fi})
	}
}

// Check returns an error when the output path names an input (following
// symbolic links): writing it would destroy the input. "" and "-"
// (standard output) pass.
func (g *Guard) Check(output string) error {
	return g.check(output, os.Stat)
}

// CheckEntry is Check for an output written with Replace: a symbolic link
// is not followed (Replace replaces the link itself).
func (g *Guard) CheckEntry(output string) error {
	return g.check(output, os.Lstat)
}

func (g *Guard) check(output string, stat func(string) (fs.FileInfo, error)) error {
	if output == "" || output == "-" {
		return nil
	}
	fi, err := stat(output)
	if err != nil {
		return nil // a new file, or one whose write fails with its own error
	}
	for _, in := range g.inputs {
		if os.SameFile(fi, in.fi) {
			if in.name == output {
				return fmt.Errorf("output %s is also an input: refusing to write over it", output)
			}
			return fmt.Errorf("output %s is the same file as the input %s: refusing to write over it", output, in.name)
		}
	}
	return nil
}

// maxLinks is the longest chain of symbolic links Write follows (the
// Linux limit).
const maxLinks = 40

// resolve follows the symbolic links of path to the file a write
// replaces: one that is not a symbolic link, or a new path.
func resolve(path string) (string, error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		target, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	return "", &fs.PathError{Op: "open", Path: path, Err: syscall.ELOOP}
}

// Write writes path with write, following symbolic links to the file they
// name. A regular or new file is written to a temporary file in its
// directory, then renamed over it (keeping the old file's permissions):
// on an error the old file is left as it was and the temporary file
// removed. A file that is neither (a device, a FIFO such as /dev/stdout)
// is written in place. The writer write gets is buffered.
func Write(path string, write func(w io.Writer) error) error {
	// Stat follows links the way open does, /proc's links to pipes
	// included (/dev/stdout); resolve is only for regular files.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		return writeInPlace(path, write)
	}
	target, err := resolve(path)
	if err != nil {
		return err
	}
	return Replace(target, write)
}

// Replace writes path as Write does, but replaces path itself when it is
// a symbolic link: for files of a directory the command names itself,
// where a link may point anywhere. The new file is synced before the
// rename, and the directory after it. An error of the file system is an
// *fs.PathError whose Op names the step ("create temporary file", "write",
// "chmod", "sync", "close", "rename") and whose Path is path; write's own
// error is returned as it is.
func Replace(path string, write func(w io.Writer) error) (err error) {
	perm := fs.FileMode(0o644)
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	}
	fail := func(op string, err error) error {
		var pe *fs.PathError
		var le *os.LinkError
		switch {
		case errors.As(err, &pe):
			err = pe.Err
		case errors.As(err, &le):
			err = le.Err
		}
		return &fs.PathError{Op: op, Path: path, Err: err}
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fail("create temporary file", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	for _, step := range []struct {
		op string
		do func() error
	}{{"write", bw.Flush}, {"chmod", func() error { return f.Chmod(perm) }}, {"sync", f.Sync},
		{"close", f.Close}, {"rename", func() error { return os.Rename(tmp, path) }}} {
		if err := step.do(); err != nil {
			return fail(step.op, err)
		}
	}
	// Make the rename itself durable; not every system can sync a
	// directory, so failure here is not an error.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

func writeInPlace(path string, write func(w io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = write(bw)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// CheckWritable returns an error when Write(path, ...) cannot create its
// file: path (after its links) is a directory, or its directory does not
// exist or is not writable. It creates and removes a file to find out.
func CheckWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		return nil
	}
	target, err := resolve(path)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(target), ".transparse-check-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
