package gcpolicy

import (
	"os"
	"runtime/debug"
	"testing"
)

// CollectOften sets Percent without GOGC in the environment and leaves the
// collector alone with it.
func TestCollectOften(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)

	t.Setenv("GOGC", "100")
	if CollectOften() || Managed() {
		t.Error("GOGC is set, yet the policy manages the collector")
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GOGC set: percentage %d, want the 100 set before", p)
	}

	os.Unsetenv("GOGC") // t.Setenv restores it after the test
	if !CollectOften() || !Managed() {
		t.Error("GOGC is not set, yet the policy leaves the collector alone")
	}
	if p := debug.SetGCPercent(100); p != Percent {
		t.Errorf("GOGC not set: percentage %d, want %d", p, Percent)
	}
}
