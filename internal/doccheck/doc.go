// Package doccheck holds tests that check the docs against the code: that
// README.md lists every Go package of the module, and only those. It has
// no code of its own.
package doccheck
