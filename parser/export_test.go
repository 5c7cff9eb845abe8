package parser

import "github.com/transparse/transparse/parser/internal/core"

// Core returns the implementation of m: the tests of package parser_test
// check its parts.
func Core(m *Model) *core.Model { return m.c }
