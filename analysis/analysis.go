// Package analysis reports what toolgen generate would say about a package, in an
// editor or in go vet: its Analyzer runs the parser and the generator in memory on
// the package an analysis pass has (no go command, no files written) and reports
// every error and every warning at its position, with a suggested fix where one is
// obvious: the known option, directive or constraint nearest a misspelt one, the
// directive a near miss was meant to be, destructive (what clients assume) for a tool
// that states neither readonly nor destructive, a doc comment placeholder for a tool,
// a struct field or an enum constant without a description (which is never a
// description itself: it is warned about until replaced).
//
// cmd/toolgen-vet runs it alone, for go vet -vettool; golangci-lint takes it as a
// module plugin (see docs/ci.md).
package analysis

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/toolgen/toolgen/generator"
	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/parser"
	"github.com/toolgen/toolgen/runtime/safetext"
)

// Analyzer reports every error and warning of toolgen generate at its position.
//
// Errors are reported as toolgen generate prints them; warnings, which do not stop
// generation, start with "warning: " as there. Type errors are left to the compiler
// (which reports them anyway), except that, as for toolgen generate, the ones that
// regenerating toolgen.gen.go mends (a missing or stale generated file) do not stop
// the analysis. A problem located outside the package's files (a type of another
// package of the module that a tool uses) is reported at the package clause, with
// its own position in front of the message.
//
// Its flag -warnings=false (go vet -vettool=toolgen-vet -warnings=false) reports the
// errors alone, as toolgen generate -warnings=false does: a CI gate for packages whose
// warnings are not all mended yet.
var Analyzer = newAnalyzer()

// newAnalyzer builds the Analyzer and its flags.
func newAnalyzer() *analysis.Analyzer {
	c := &config{warnings: true}
	a := &analysis.Analyzer{
		Name:             "toolgen",
		Doc:              "report what toolgen generate reports: problems with //toolgen: directives, tool tags, tool signatures and types, and the warnings of its linter and dialects",
		URL:              "https://pkg.go.dev/github.com/toolgen/toolgen/analysis",
		Run:              c.run,
		RunDespiteErrors: true, // a missing toolgen.gen.go is a type error that generation mends
	}
	a.Flags.BoolVar(&c.warnings, "warnings", true, "report the warnings; -warnings=false reports errors alone")
	return a
}

// config is what the Analyzer's flags set.
type config struct {
	// warnings is false to report errors alone.
	warnings bool
}

func (c *config) run(pass *analysis.Pass) (any, error) {
	// A test variant of the package (go vet analyzes one) has its _test.go files too,
	// which toolgen generate does not read.
	var files []*ast.File
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.Pos()); tf != nil && !strings.HasSuffix(tf.Name(), "_test.go") {
			files = append(files, f)
		}
	}
	if len(files) == 0 || !mentionsToolgen(files) {
		return nil, nil
	}
	r := newReporter(pass)
	if root := moduleRoot(r.dir); root != "" {
		r.dir = root // positions relative to the module, as toolgen generate prints them at its root
	}
	mp, warnings, errs := parser.Check(parser.Source{
		Fset:       pass.Fset,
		Files:      files,
		Pkg:        pass.Pkg,
		Info:       pass.TypesInfo,
		TypeErrors: pass.TypeErrors,
		Dir:        r.dir,
	})
	typeErrors := map[string]bool{}
	for _, e := range pass.TypeErrors {
		typeErrors[r.key(pass.Fset.Position(e.Pos), e.Msg)] = true
	}
	for _, d := range errs {
		if typeErrors[r.key(r.position(d.Pos), d.Msg)] {
			continue // the compiler's own, which it reports
		}
		r.report(d.Pos, d.Msg, d.Fix)
	}
	if mp != nil {
		_, ws, err := generator.Generate(mp)
		var source generator.SourceErrors
		switch {
		case errors.As(err, &source):
			for _, e := range source {
				r.report(e.Pos, e.Msg, nil)
			}
		case err != nil:
			r.report(model.Pos{}, err.Error(), nil)
		default:
			warnings = ws
		}
	}
	if !c.warnings {
		return nil, nil
	}
	for _, w := range warnings {
		r.report(w.Pos, "warning: "+w.Msg, w.Fix)
	}
	return nil, nil
}

// mentionsToolgen reports whether any comment of files says "toolgen", in any case:
// without one (no directive, no near-miss of one) toolgen has nothing to say.
func mentionsToolgen(files []*ast.File) bool {
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.Contains(strings.ToLower(c.Text), "toolgen") {
					return true
				}
			}
		}
	}
	return false
}

// reporter turns the model's positions (relative to the package directory) back
// into the pass's.
type reporter struct {
	pass  *analysis.Pass
	dir   string
	files map[string]*token.File // the package's files by absolute name
	first *ast.File
}

func newReporter(pass *analysis.Pass) *reporter {
	r := &reporter{pass: pass, files: map[string]*token.File{}, first: pass.Files[0]}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.Pos())
		if tf == nil {
			continue
		}
		name := tf.Name()
		if abs, err := filepath.Abs(name); err == nil {
			name = abs
		}
		if r.dir == "" && filepath.Base(name) != generator.GoFile {
			r.dir, r.first = filepath.Dir(name), f
		}
		r.files[name] = tf
	}
	if r.dir == "" { // only the generated file
		if tf := pass.Fset.File(r.first.Pos()); tf != nil {
			r.dir, _ = filepath.Abs(filepath.Dir(tf.Name()))
		}
	}
	return r
}

// key identifies a problem by where and what, to tell the compiler's type errors.
func (r *reporter) key(p token.Position, msg string) string {
	name := p.Filename
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	return fmt.Sprintf("%s:%d:%d: %s", name, p.Line, p.Column, msg)
}

// abs is the absolute name of a model position's file.
func (r *reporter) abs(file string) string {
	name := filepath.FromSlash(file)
	if !filepath.IsAbs(name) {
		name = filepath.Join(r.dir, name)
	}
	return name
}

// position is a model position as a token.Position (absolute file name).
func (r *reporter) position(p model.Pos) token.Position {
	if p.File == "" {
		return token.Position{}
	}
	return token.Position{Filename: r.abs(p.File), Line: p.Line, Column: p.Col}
}

// pos converts a model position in one of the package's files; ok is false for
// positions elsewhere or out of range.
func (r *reporter) pos(p model.Pos) (token.Pos, *token.File, bool) {
	if p.File == "" || p.Line <= 0 {
		return token.NoPos, nil, false
	}
	tf := r.files[r.abs(p.File)]
	if tf == nil || p.Line > tf.LineCount() {
		return token.NoPos, nil, false
	}
	start := tf.LineStart(p.Line)
	off := tf.Offset(start) + max(0, p.Col-1)
	if off > tf.Size() {
		return token.NoPos, nil, false
	}
	return tf.Pos(off), tf, true
}

func (r *reporter) report(p model.Pos, msg string, fix *model.Fix) {
	// go vet and editors print a message on one line: a name or a value from the
	// source with a newline in it must not start another.
	msg = safetext.Line(msg)
	at, tf, ok := r.pos(p)
	if !ok {
		if s := (parser.Diagnostic{Pos: p}).String(); p.File != "" {
			msg = strings.TrimSuffix(s, ": ") + ": " + msg
		}
		r.pass.Report(analysis.Diagnostic{Pos: r.first.Name.Pos(), Message: msg})
		return
	}
	d := analysis.Diagnostic{Pos: at, Message: msg}
	if sf, ok := r.fix(tf, fix); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{sf}
	}
	r.pass.Report(d)
}

// fix converts a model fix, whose edits must all be in tf's file and, where they
// replace text, find it there still: a fix that does not apply is dropped.
func (r *reporter) fix(tf *token.File, fix *model.Fix) (analysis.SuggestedFix, bool) {
	if fix == nil || len(fix.Edits) == 0 {
		return analysis.SuggestedFix{}, false
	}
	var content []byte
	sf := analysis.SuggestedFix{Message: fix.Message}
	for _, e := range fix.Edits {
		at, etf, ok := r.pos(e.Pos)
		if !ok || etf != tf {
			return analysis.SuggestedFix{}, false
		}
		off := tf.Offset(at)
		end := off + len(e.Old)
		if end > tf.Size() {
			return analysis.SuggestedFix{}, false
		}
		if e.Old != "" {
			if content == nil {
				var err error
				if content, err = r.readFile(tf.Name()); err != nil {
					return analysis.SuggestedFix{}, false
				}
			}
			if end > len(content) || !bytes.Equal(content[off:end], []byte(e.Old)) {
				return analysis.SuggestedFix{}, false
			}
		}
		sf.TextEdits = append(sf.TextEdits, analysis.TextEdit{Pos: at, End: tf.Pos(end), NewText: []byte(e.New)})
	}
	return sf, true
}

// moduleRoot is the directory of the go.mod file at or above dir, or "".
func moduleRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

func (r *reporter) readFile(name string) ([]byte, error) {
	if r.pass.ReadFile != nil {
		return r.pass.ReadFile(name)
	}
	return os.ReadFile(name)
}
