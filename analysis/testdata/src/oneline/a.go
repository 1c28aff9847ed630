// Package oneline has a tag value with a newline, which a message quotes: go vet prints
// each diagnostic on one line, so the newline is written as \n.
package oneline

import "time"

// In is what Do takes.
type In struct {
	// At is when.
	At time.Time "json:\"at\" tool:\"layout=2006-01-02,format=date\\n::error::x\"" // want `format on a time.Time is date-time \(the default\) or date, not "date\\n::error::x"` `layout and format=date\\n::error::x contradict each other`
}

// Do does.
//
//toolgen:tool readonly
func Do(in In) error { return nil }
