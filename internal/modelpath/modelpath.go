// Package modelpath finds the default model: the one lookup behind the C
// library's tp_default_model_path and the command line's default -m.
//
// The order is:
//
//  1. the file named by $TRANSPARSE_MODEL, when it is set and not empty
//     (returned whether or not it exists, so that a wrong setting fails
//     loudly instead of falling through to another model);
//  2. DIR/models/en_ewt.tpm, a model shipped beside the program or library
//     (an unpacked archive, a Python package);
//  3. DIR/../share/transparse/models/en_ewt.tpm, the FHS layout of
//     `./build.sh install PREFIX` (DIR is PREFIX/bin or PREFIX/lib);
//  4. DataDir/models/en_ewt.tpm, when DataDir was set at link time
//     (distribution packages whose library directory is not PREFIX/lib,
//     e.g. Debian's /usr/lib/<triplet>);
//  5. DIR/../models/en_ewt.tpm, the repository's own model seen from its
//     build outputs (DIR is the build tree's bin/ or lib/).
//
// DIR is the directory of the running executable (the CLI) or of the
// loaded libtransparse.so (the C library, found with dladdr), with
// symbolic links resolved.
package modelpath

import (
	"os"
	"path/filepath"
)

// Env is the environment variable that names the model to use.
const Env = "TRANSPARSE_MODEL"

// File is the default model's file name.
const File = "en_ewt.tpm"

// DataDir is the compiled-in data directory of a packaged build, e.g.
// /usr/share/transparse; empty for a relocatable build. Set it with
// -ldflags "-X github.com/transparse/transparse/internal/modelpath.DataDir=DIR".
var DataDir = ""

// Candidates returns, in order, the files looked at for the default model
// of a program or library in dir (steps 2-5 of the package's order).
func Candidates(dir string) []string {
	var paths []string
	if dir != "" {
		paths = append(paths,
			filepath.Join(dir, "models", File),
			filepath.Join(dir, "..", "share", "transparse", "models", File))
	}
	if DataDir != "" {
		paths = append(paths, filepath.Join(DataDir, "models", File))
	}
	if dir != "" {
		paths = append(paths, filepath.Join(dir, "..", "models", File))
	}
	return paths
}

// Find returns the default model for a program or library in dir: env when
// it is not empty (the value of $TRANSPARSE_MODEL, passed in because a
// shared library's Go runtime does not see changes its host makes to the
// environment), else the first of Candidates(dir) that is a regular file.
// It returns "" when there is none.
func Find(env, dir string) string {
	if env != "" {
		return env
	}
	for _, p := range Candidates(dir) {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// Dir returns the directory of the file at path with symbolic links
// resolved, or filepath.Dir(path) when they cannot be.
func Dir(path string) string {
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		path = resolved
	}
	return filepath.Dir(path)
}
