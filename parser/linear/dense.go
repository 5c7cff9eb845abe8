package linear

// addDenseGo adds the dense rows rows[off : off+len(acc)] for every off in
// offs to acc.
func addDenseGo(acc []int32, rows []int16, offs []uint32) {
	for _, off := range offs {
		row := rows[off : int(off)+len(acc)]
		for c, w := range row {
			acc[c] += int32(w)
		}
	}
}

// scaleSumsGo is scaleSums, one sum at a time.
func scaleSumsGo(dst []float32, src []int32, scale float32) {
	for c, v := range src[:len(dst)] {
		dst[c] = float32(v) * scale
	}
}
