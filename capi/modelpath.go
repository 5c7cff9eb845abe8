package main

/*
#include "internal.h"
*/
import "C"

import "github.com/transparse/transparse/internal/modelpath"

// tpgo_default_model_path returns, malloc'd, the default model for a library
// loaded from the file lib (may be NULL) with $TRANSPARSE_MODEL equal to env
// (may be NULL), or NULL when there is none (or no memory). The lookup is
// internal/modelpath's.
//
//export tpgo_default_model_path
func tpgo_default_model_path(lib, env *C.char) (path *C.char) {
	defer func() {
		if recover() != nil { // nothing panics across the C boundary
			path = nil
		}
	}()
	dir, e := "", ""
	if lib != nil && *lib != 0 {
		dir = modelpath.Dir(C.GoString(lib))
	}
	if env != nil {
		e = C.GoString(env)
	}
	p := modelpath.Find(e, dir)
	if p == "" {
		return nil
	}
	return cString(p)
}
