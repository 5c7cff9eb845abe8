// Command capi is the C interface of transparse, built with
//
//	go build -buildmode=c-shared -o lib/libtransparse.so.0 ./capi
//
// (see build.sh). include/transparse.h is the contract; this package only
// translates between C and the parser package: it converts arguments,
// classifies errors into status codes, allocates results in C memory, and
// never decides anything about parsing.
//
// Layout:
//
//	shim.c      the exported tp_* symbols: a fork check in C (before any Go
//	            code runs), then a call into Go; builds tp_error objects.
//	capi.go     the Go entry points tpgo_* called by shim.c (internal).
//	options.go  tp_options translated into the parser's options.
//	parsecalls.go  the only calls into the parser's parse API.
//	stream.go   the stream handles (tp_stream_*).
//	handles.go  the model handle table: C sees integers, never Go pointers.
//	errors.go   status codes and error classification.
//	card.go     the model card as JSON.
//
// Every Go entry point recovers from panics and reports them as
// TP_ERR_INTERNAL. Results handed to C are allocated with malloc and freed
// by the matching tp_*_free function; strings owned by a model are
// allocated once at load and freed by tp_model_free.
package main

func main() {}
