package modelfmt

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// benchModel returns a model whose parser weights are a 20 MB blob of
// float32 values; sparse sets most of them to zero, as a pruned averaged
// perceptron has.
func benchModel(sparse bool) *Model {
	rng := rand.New(rand.NewPCG(7, 8))
	w := make([]float32, 5<<20) // 20 MiB
	for i := range w {
		if !sparse || rng.IntN(10) == 0 {
			w[i] = float32(rng.NormFloat64() * 0.1)
		}
	}
	m := fullModel()
	m.Classifiers[0].Blobs["weights"] = Float32Bytes(w)
	return m
}

func benchmarkDecode(b *testing.B, sparse bool) {
	data := mustMarshal(b, benchModel(sparse))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m, err := Decode(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Float32s(m.Classifiers[0].Blobs["weights"]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data))/(1<<20), "file-MiB")
	docLen := binary.LittleEndian.Uint64(data[SniffLen:])
	b.ReportMetric(float64(docLen)*float64(b.N)/1e6/b.Elapsed().Seconds(), "doc-MB/s")
}

// BenchmarkDecode decodes a model with a 20 MiB weights blob and converts
// the blob to []float32. MB/s is of file bytes, doc-MB/s of decompressed
// document bytes.
func BenchmarkDecode(b *testing.B) {
	b.Run("dense", func(b *testing.B) { benchmarkDecode(b, false) })
	b.Run("sparse", func(b *testing.B) { benchmarkDecode(b, true) })
}

func BenchmarkEncode(b *testing.B) {
	m := benchModel(false)
	data := mustMarshal(b, m)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFloat32s(b *testing.B) {
	blob := Float32Bytes(make([]float32, 5<<20))
	b.SetBytes(int64(len(blob)))
	b.ReportAllocs()
	for b.Loop() {
		Float32s(blob)
	}
}
