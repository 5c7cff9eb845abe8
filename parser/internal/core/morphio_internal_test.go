package core

import "testing"

// Every field of morph.Data is of a type the model file stores (morphio.go):
// a field of another type would be lost on saving.
func TestMorphDataFieldsStored(t *testing.T) {
	if all, stored := morphStoredFields(); all != stored {
		t.Fatalf("morph.Data has %d fields, the model file stores %d: store the others in addMorph and morphData", all, stored)
	}
}
