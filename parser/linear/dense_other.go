//go:build !amd64

package linear

// useAVX2 is false where there is no AVX2 kernel.
var useAVX2 = false

// hasAVX2 reports false: no AVX2 kernel on this architecture.
func hasAVX2() bool { return false }

// addDense adds the dense rows rows[off : off+len(acc)] for every off in
// offs to acc (len(acc) is a multiple of 16).
func addDense(acc []int32, rows []int16, offs []uint32) { addDenseGo(acc, rows, offs) }

// touchLines loads the first word of each line lines[i], i in idx (the
// loads do not depend on each other, so their misses overlap) and returns
// their sum, which the caller keeps so that the loads stay.
func touchLines(lines []line, idx []uint32) uint32 {
	var sink uint32
	for _, i := range idx {
		sink += lines[i].v[0]
	}
	return sink
}

// touchRows loads the first element of each row rows[off:], off in offs,
// and returns their sum (see touchLines).
func touchRows[T int16 | uint32](rows []T, offs []uint32, n int) uint32 {
	var sink uint32
	for _, off := range offs {
		sink += uint32(rows[off])
	}
	return sink
}

// scaleSums sets dst[i] = float32(src[i]) * scale for i < len(dst)
// (len(src) >= len(dst)).
func scaleSums(dst []float32, src []int32, scale float32) { scaleSumsGo(dst, src, scale) }
