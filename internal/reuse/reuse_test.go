package reuse

import "testing"

// TestFill checks the length and values Fill gives, and that it reuses an
// array large enough and replaces one too small.
func TestFill(t *testing.T) {
	b := make([]int32, 2, 8)
	b[0], b[1] = 5, 6
	got := Fill(b, 6, -1)
	if len(got) != 6 || &got[0] != &b[0] {
		t.Fatalf("Fill(cap 8, 6) = %v: want length 6 in the same array", got)
	}
	for i, v := range got {
		if v != -1 {
			t.Fatalf("element %d = %d, want -1", i, v)
		}
	}
	if big := Fill(got, 20, 0); len(big) != 20 || &big[0] == &got[0] || big[19] != 0 {
		t.Fatalf("Fill(cap 8, 20) = %v: want a new array of 20 zeros", big)
	}
	if s := Fill([]string(nil), 3, "_"); len(s) != 3 || s[2] != "_" {
		t.Fatalf("Fill(nil, 3, _) = %q", s)
	}
}
