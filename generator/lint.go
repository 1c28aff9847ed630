package generator

import (
	"fmt"
	"path"
	"strings"

	"github.com/toolgen/toolgen/model"
)

// Lint returns warnings about what a package's tools leave unsaid, sorted by position.
// A model chooses and calls tools from their descriptions, and an MCP client decides
// what to ask the user about from their hints, so each gap costs something:
//
//   - a tool that states neither readonly nor destructive: clients apply MCP's default
//     and treat it as destructive (warned at the tool);
//   - a tool without a description (warned at the tool);
//   - a property of a tool's input, at any depth, without a description: a struct
//     field without a doc or line comment (nor a documented named type), or a
//     parameter whose //toolgen:param line has no desc= (warned once at the field or
//     parameter, however many tools share its type);
//   - a typed constant of an enum type without a doc comment (warned at the constant);
//   - a doc comment that still holds a placeholder that toolgen-vet -fix wrote
//     (model.PlaceholderMark), which the parser left out of the description (warned
//     where its absence would be, without a fix).
//
// Lint says nothing about declarations outside the loaded modules (their positions are
// absolute paths): only their authors can document them.
//
// Generate returns these warnings along with the dialects' own.
func Lint(pkg *model.Package) []Warning {
	l := &linter{pkg: pkg, fields: map[any]bool{}, types: map[string]bool{}}
	for _, t := range pkg.Tools {
		l.tool(t)
	}
	for _, nt := range pkg.Types {
		l.enum(nt)
	}
	return SortWarnings(l.out)
}

type linter struct {
	pkg *model.Package
	out []Warning
	// fields holds the fields already checked, by position (or by pointer when the
	// model has no positions), so a field of a shared type is warned about once.
	fields map[any]bool
	// types holds the IDs of the named types already walked.
	types map[string]bool
}

func (l *linter) warn(pos model.Pos, format string, args ...any) {
	l.warnFix(pos, nil, format, args...)
}

// warnFix records a warning with a fix that resolves it (nil for none).
func (l *linter) warnFix(pos model.Pos, fix *model.Fix, format string, args ...any) {
	if external(pos) {
		return
	}
	l.out = append(l.out, Warning{Pos: pos, Msg: fmt.Sprintf(format, args...), Fix: fix})
}

// toolDirective is how the line that marks a tool begins.
const toolDirective = "//toolgen:tool"

// addDestructive is the fix that writes destructive right after t's //toolgen:tool,
// or nil when the model does not say where that line is. It states what clients
// assume of a tool without hints, so it changes nothing they do: toolgen-vet -fix
// applies every fix unread, and a readonly it wrote would have a destructive tool
// approved without asking. The author narrows it to readonly or destructive=false.
func addDestructive(t *model.Tool) *model.Fix {
	if t.Directive.File == "" || t.Directive.Line == 0 {
		return nil
	}
	at := t.Directive
	at.Col += len(toolDirective)
	return &model.Fix{
		Message: "add destructive to //toolgen:tool (what clients assume without hints)",
		Edits:   []model.Edit{{Pos: at, New: " destructive"}},
	}
}

// describePlaceholder is the fix that writes a doc comment placeholder above t's
// //toolgen:tool line, for the author to finish; nil when the model does not say
// where that line is.
func describePlaceholder(t *model.Tool) *model.Fix {
	if t.Directive.File == "" || t.Directive.Line == 0 {
		return nil
	}
	indent := strings.Repeat("\t", max(0, t.Directive.Col-1)) // doc comments of funcs are at column 1, but in case
	return &model.Fix{
		Message: "add a doc comment placeholder",
		Edits: []model.Edit{{
			Pos: t.Directive,
			New: "// " + t.GoName + " " + model.PlaceholderMark + "it does and when to use it.\n" + indent + "//\n" + indent,
		}},
	}
}

// external reports a position outside the loaded modules, which the parser reports
// as an absolute path (for example, in the module cache).
func external(pos model.Pos) bool {
	f := pos.File
	return path.IsAbs(f) || len(f) >= 3 && f[1] == ':' && f[2] == '/' // C:/...
}

func (l *linter) tool(t *model.Tool) {
	a := t.Annotations
	switch {
	case a.Destructive != nil || a.ReadOnly != nil && *a.ReadOnly:
	case a.ReadOnly == nil:
		l.warnFix(t.Pos, addDestructive(t), "tool %s: neither readonly nor destructive: clients will treat it as destructive; add readonly if it changes nothing, or destructive=false if it only adds or updates", t.Name)
	default: // readonly=false alone
		l.warn(t.Pos, "tool %s: readonly=false without destructive: clients will treat it as destructive; add destructive=false if it only adds or updates, or destructive to say so", t.Name)
	}
	switch {
	case t.Placeholder:
		l.warn(t.Pos, "tool %s: the doc comment of %s holds a placeholder (%q), which toolgen leaves out of the description: replace it with what the tool does and when to use it", t.Name, t.GoName, model.PlaceholderMark+"...")
	case strings.TrimSpace(t.Description) == "":
		l.warnFix(t.Pos, describePlaceholder(t), "tool %s: no description: write a doc comment on %s saying what it does and when to use it", t.Name, t.GoName)
	}
	switch t.Input.Kind {
	case model.InputStruct:
		l.walk(t.Input.Type)
	case model.InputParams:
		for _, p := range t.Input.Params {
			if l.first(p) && strings.TrimSpace(p.Description) == "" {
				l.warn(p.Pos, "tool %s: parameter %q has no description: add desc=\"...\" to a //toolgen:param %s line", t.Name, p.Name, goName(p))
			}
			l.walk(p.Type)
		}
	}
}

// first reports whether f is seen for the first time.
func (l *linter) first(f *model.Field) bool {
	var key any = f
	if f.Pos.File != "" {
		key = f.Pos
	}
	if l.fields[key] {
		return false
	}
	l.fields[key] = true
	return true
}

// walk checks the properties of the objects in t, at every depth.
func (l *linter) walk(t *model.Type) {
	for t != nil {
		switch t.Kind {
		case model.Pointer, model.Slice, model.Array, model.Map:
			t = t.Elem
			continue
		case model.Struct:
			for _, f := range t.Fields {
				switch {
				case !l.first(f):
				case f.Placeholder:
					l.warn(f.Pos, "property %q: the comment of field %s holds a placeholder (%q), which toolgen leaves out of the description: replace it with what the property holds", f.Name, goName(f), model.PlaceholderMark+"...")
				case strings.TrimSpace(f.Description) == "":
					l.warnFix(f.Pos, docAbove(f.Pos, goName(f), "it holds"), "property %q has no description: write a doc comment on field %s", f.Name, goName(f))
				}
				l.walk(f.Type)
			}
		case model.Union:
			for _, v := range t.Variants {
				l.walk(v.Type)
			}
		case model.Named:
			if l.types[t.Ref] {
				return
			}
			l.types[t.Ref] = true
			if nt := l.pkg.Type(t.Ref); nt != nil {
				l.walk(nt.Underlying)
			}
		}
		return
	}
}

// enum checks that each constant of an enum type says what it means: the constants'
// doc comments are the only explanation of the values a model gets.
func (l *linter) enum(nt *model.NamedType) {
	for _, ev := range nt.Enum {
		switch {
		case ev.Placeholder:
			l.warn(ev.Pos, "enum value %s of type %s (constant %s): its comment holds a placeholder (%q), which toolgen leaves out of the description: replace it with what the value means", ev.Value, nt.Name, ev.GoName, model.PlaceholderMark+"...")
		case strings.TrimSpace(ev.Doc) == "":
			l.warnFix(ev.Pos, docAbove(ev.Pos, ev.GoName, "the value means"), "enum value %s of type %s (constant %s) has no doc comment: write one saying what the value means", ev.Value, nt.Name, ev.GoName)
		}
	}
}

// docAbove is the fix that writes a doc comment placeholder above the declaration
// of name at pos (a struct field, a constant in a block), for a line that is
// indented with tabs and starts with name; the edit does not apply to another one
// (a field of a one-line struct, a lone const declaration).
func docAbove(pos model.Pos, name, todo string) *model.Fix {
	if pos.File == "" || pos.Line == 0 || pos.Col <= 1 || name == "" {
		return nil
	}
	indent := strings.Repeat("\t", pos.Col-1)
	return &model.Fix{
		Message: "add a doc comment placeholder",
		Edits: []model.Edit{{
			Pos: model.Pos{File: pos.File, Line: pos.Line, Col: 1},
			Old: indent + name,
			New: indent + "// " + name + " " + model.PlaceholderMark + todo + ".\n" + indent + name,
		}},
	}
}

// goName is a field's Go name, or a parameter's.
func goName(f *model.Field) string {
	if len(f.GoPath) == 0 {
		return f.Name
	}
	return f.GoPath[len(f.GoPath)-1]
}
