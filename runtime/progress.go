package runtime

import "github.com/toolgen/toolgen/runtime/progress"

// WithProgress returns the same tools telling o about the progress their calls report
// (progress.Report). Without a progress observer, and without one in the call's
// context (progress.NewContext), reports cost next to nothing.
func (ts *Toolset) WithProgress(o progress.Observer) *Toolset {
	return ts.with(func(c *config) { c.progress = o })
}
