// Package doccheck holds tests that check the docs against the code: that
// README.md lists every Go package of the module, and only those, and
// every section of the decisions log that the code and docs name exists. It has
// no code of its own.
package doccheck
