package conllu

import (
	"strconv"
	"unicode/utf8"
)

// QuoteLimit is the most bytes of a value that Quote shows.
const QuoteLimit = 40

// Quote returns v quoted as by strconv.Quote, cut to its first QuoteLimit
// bytes (at a character boundary) followed by "…" when it is longer, so
// that an error message about a long value stays short.
func Quote(v string) string {
	if len(v) <= QuoteLimit {
		return strconv.Quote(v)
	}
	cut := QuoteLimit
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return strconv.Quote(v[:cut]) + "…"
}
