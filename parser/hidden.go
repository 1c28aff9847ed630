package parser

import (
	"fmt"

	"github.com/toolgen/toolgen/model"
)

// bidiControl returns the first Unicode bidirectional control in s (an embedding,
// override or isolate, which reorders the text around it: the "Trojan Source"
// characters of CVE-2021-42574), described as "U+202E (RIGHT-TO-LEFT OVERRIDE)".
func bidiControl(s string) (string, bool) {
	for _, r := range s {
		if name := bidiName(r); name != "" {
			return fmt.Sprintf("U+%04X (%s)", r, name), true
		}
	}
	return "", false
}

// bidiName returns the Unicode name of a bidirectional control, or "" for any other
// rune.
func bidiName(r rune) string {
	switch r {
	case '\u202a':
		return "LEFT-TO-RIGHT EMBEDDING"
	case '\u202b':
		return "RIGHT-TO-LEFT EMBEDDING"
	case '\u202c':
		return "POP DIRECTIONAL FORMATTING"
	case '\u202d':
		return "LEFT-TO-RIGHT OVERRIDE"
	case '\u202e':
		return "RIGHT-TO-LEFT OVERRIDE"
	case '\u2066':
		return "LEFT-TO-RIGHT ISOLATE"
	case '\u2067':
		return "RIGHT-TO-LEFT ISOLATE"
	case '\u2068':
		return "FIRST STRONG ISOLATE"
	case '\u2069':
		return "POP DIRECTIONAL ISOLATE"
	}
	return ""
}

// checkHiddenText warns of every description the model reads (a tool's title and
// description, a property's, a type's, an enum value's) that holds a bidirectional
// control: what a reviewer sees of it in the source and in the committed schemas is
// reordered, and is not what the model reads. The warning stands at the declaration
// the text comes from.
func (b *pkgBuilder) checkHiddenText(mp *model.Package) {
	warn := func(pos model.Pos, what, text string) {
		if c, ok := bidiControl(text); ok {
			b.warnf(pos, "the %s holds %s, a bidirectional control: a reviewer reads the text reordered, not as the model reads it; remove it", what, c)
		}
	}
	seen := map[*model.Type]bool{}
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		for _, f := range t.Fields {
			warn(f.Pos, fmt.Sprintf("description of property %q", f.Name), f.Description)
			walk(f.Type)
		}
		for _, v := range t.Variants {
			walk(v.Type)
		}
		walk(t.Elem)
		walk(t.Key)
	}
	for _, t := range mp.Tools {
		warn(t.Pos, fmt.Sprintf("title of tool %s", t.Name), t.Title)
		warn(t.Pos, fmt.Sprintf("description of tool %s", t.Name), t.Description)
		for _, f := range t.Input.Params {
			warn(f.Pos, fmt.Sprintf("description of property %q of tool %s", f.Name, t.Name), f.Description)
			walk(f.Type)
		}
		walk(t.Input.Type)
		walk(t.Output.Type)
	}
	for _, nt := range mp.Types {
		for _, e := range nt.Enum {
			warn(e.Pos, fmt.Sprintf("comment of enum value %s", e.GoName), e.Doc)
		}
		walk(nt.Underlying)
	}
}
