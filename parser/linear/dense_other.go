//go:build !amd64

package linear

// useAVX2 is false where there is no AVX2 kernel.
var useAVX2 = false

// hasAVX2 reports false: no AVX2 kernel on this architecture.
func hasAVX2() bool { return false }

// addDense adds the dense rows rows[off : off+len(acc)] for every off in
// offs to acc (len(acc) is a multiple of 16).
func addDense(acc []int32, rows []int16, offs []uint32) { addDenseGo(acc, rows, offs) }
