package linear

import "testing"

func (m *Model) scoresSimple(feats []uint64, scores []float32) {
	s := scores[:m.numClasses]
	clear(s)
	slots, ent := m.slots, m.ent
	mask := len(slots) - 1
	for _, f := range feats {
		k := (f * keyMul) >> m.kshift
		i := int((k * fib) >> m.shift)
		for {
			sl := &slots[i&mask]
			if sl.n == 0 {
				break
			}
			if sl.key == k {
				for _, e := range ent[sl.off : sl.off+sl.n] {
					s[e.cls] += e.w
				}
				break
			}
			i++
		}
	}
}
func BenchmarkCmp(b *testing.B) {
	m, queries := benchModel(1<<20, 100, true)
	s := make([]float32, m.NumClasses())
	for r := 0; r < 3; r++ {
		b.Run("simple", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				m.scoresSimple(queries[i&1023], s)
			}
		})
		b.Run("phased", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				m.Scores(queries[i&1023], s)
			}
		})
	}
}
