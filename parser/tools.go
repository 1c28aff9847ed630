package parser

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/toolgen/toolgen/model"
)

// Directive prefixes.
const (
	directivePrefix = "//toolgen:"
	toolDirective   = "tool"
	paramDirective  = "param"
)

// directiveNames are the directives, in full.
var directiveNames = []string{directivePrefix + toolDirective, directivePrefix + paramDirective, directivePrefix + packageDirective, directivePrefix + unionDirective, directivePrefix + variantDirective}

// nearMiss recognizes a comment that looks like a toolgen directive but is not one,
// such as "// toolgen:tool readonly" (a space after //), "//Toolgen:tool",
// "// toolgen: param x" or "/* toolgen:tool */" (a directive is a // comment), one
// spelled with a Unicode space, an invisible character or a colon look-alike
// ("//\u00a0toolgen:tool", "//toolgen\uff1atool"), or with another separator in a
// comment written as a directive is ("//toolgen-tool"), and returns the directive it
// was probably meant to be. A comment counts only when the
// word after "toolgen:" is a directive's name or one typo away from one, so prose
// such as "// toolgen: see the README" is left alone. A /* */ comment is read up to
// the end of its first line.
func nearMiss(text string) (string, bool) {
	body, ok := strings.CutPrefix(text, "//")
	if !ok {
		if body, ok = strings.CutPrefix(text, "/*"); !ok {
			return "", false
		}
		body = strings.TrimSuffix(body, "*/")
		if i := strings.IndexAny(body, "\r\n"); i >= 0 {
			body = body[:i]
		}
		body = strings.TrimRightFunc(body, unicode.IsSpace)
	}
	// Invisible characters (a zero-width space or joiner, a byte order mark) are
	// dropped, and any Unicode space counts as a space: "//\u00a0toolgen:tool" is a
	// near miss as much as "// toolgen:tool".
	body = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, body)
	spaced := strings.IndexFunc(body, unicode.IsSpace) == 0
	body = strings.TrimLeftFunc(body, unicode.IsSpace)
	const word = "toolgen"
	if len(body) < len(word) || !strings.EqualFold(body[:len(word)], word) {
		return "", false
	}
	body = body[len(word):]
	spaced = spaced || strings.IndexFunc(body, unicode.IsSpace) == 0
	body = strings.TrimLeftFunc(body, unicode.IsSpace)
	sep, size := utf8.DecodeRuneInString(body)
	switch {
	case sep == ':' || strings.ContainsRune(colonLookalikes, sep):
	case strings.ContainsRune("-._;", sep) && !spaced:
		// Another separator, in a comment written as a directive is: prose such as
		// "// toolgen-tool is the binary" is left alone.
	default:
		return "", false
	}
	body = strings.TrimLeftFunc(body[size:], unicode.IsSpace)
	end := strings.IndexFunc(body, unicode.IsSpace)
	if end < 0 {
		end = len(body)
	}
	name, opts := strings.ToLower(body[:end]), body[end:]
	if rest := strings.TrimLeftFunc(opts, unicode.IsSpace); rest != opts {
		opts = " " + rest
	}
	known := []string{toolDirective, paramDirective, packageDirective, unionDirective, variantDirective}
	if !slices.Contains(known, name) {
		// One typo more at most: "toolgen: to do" is prose.
		n := nearest(name, known)
		if n == "" || levenshtein(name, n) > 1 {
			return "", false
		}
		name = n
	}
	fix := directivePrefix + name + opts
	if fix == text {
		return "", false
	}
	return fix, true
}

// colonLookalikes are the characters that look like a colon: a directive written
// with one is a near miss.
const colonLookalikes = "\uff1a\u2236\ua789\ufe55\ufe13\u02d0\u0589\u05c3"

// runtimePath is the import path of the package whose Result a tool may return.
const runtimePath = "github.com/toolgen/toolgen/runtime"

// toolOptions are the options of //toolgen:tool.
var toolOptions = []string{
	"name", "title", "group", "readonly", "destructive", "idempotent", "openworld",
	"strict", "timeout", "sequential", "budget", "task", "taskprelude",
}

// toolSite is one annotated function and where to report its name.
type toolSite struct {
	tool *model.Tool
	// namePos is where the name comes from: the name= option, else the function name.
	namePos model.Pos
}

// directiveName returns the name of a //toolgen: directive comment ("tool",
// "param", ...) and the offset of its options, or ok == false for other comments.
func directiveName(text string) (name string, rest int, ok bool) {
	if !strings.HasPrefix(text, directivePrefix) {
		return "", 0, false
	}
	i := len(directivePrefix)
	j := i
	for j < len(text) && !isSpace(text[j]) {
		j++
	}
	return text[i:j], j, true
}

// commentPos is the position of byte off of a // comment.
func (b *pkgBuilder) commentPos(c *ast.Comment, off int) model.Pos {
	p := b.l.pos(c.Slash)
	p.Col += off
	return p
}

// scanFile finds the directives of a file and maps the tools they mark.
func (b *pkgBuilder) scanFile(f *ast.File) {
	docs := map[*ast.CommentGroup]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			docs[fd.Doc] = fd
		}
	}
	for _, cg := range f.Comments {
		var tools, params []*ast.Comment
		for _, c := range cg.List {
			name, rest, ok := directiveName(c.Text)
			if !ok {
				if fix, ok := nearMiss(c.Text); ok {
					// An error, not a warning: a tool whose directive is mistyped would
					// otherwise vanish from the generated files, with exit status 0.
					at := b.commentPos(c, 0)
					var edit *model.Fix
					if !strings.ContainsAny(c.Text, "\r\n") { // a one-line comment, replaced whole
						edit = &model.Fix{Message: "replace with " + fix, Edits: []model.Edit{{Pos: at, Old: c.Text, New: fix}}}
					}
					b.errorFix(at, edit, "%q is not a toolgen directive: did you mean %s? (a directive is a // comment written //toolgen:NAME, in lower case, without spaces)", c.Text, fix)
				}
				continue
			}
			switch name {
			case toolDirective:
				tools = append(tools, c)
			case paramDirective:
				params = append(params, c)
			case unionDirective, variantDirective:
				// Read before any tool is mapped: see scanTypeDirectives.
			case packageDirective:
				if cg != f.Doc {
					b.errorf(b.commentPos(c, 0), "%s%s must be in the doc comment of the package clause (the comment right above \"package %s\")", directivePrefix, packageDirective, f.Name.Name)
				}
			case "":
				msg := fmt.Sprintf("malformed directive %q: the directive's name must follow %s with no space", c.Text, directivePrefix)
				if fix, ok := nearMiss(c.Text); ok {
					msg += fmt.Sprintf(" (did you mean %s?)", fix)
				}
				b.errorf(b.commentPos(c, rest), "%s", msg)
			default:
				b.errorf(b.commentPos(c, 0), "%s", unknownMsg("directive", directivePrefix+name, directiveNames))
			}
		}
		if len(tools) == 0 && len(params) == 0 {
			continue
		}
		fd := docs[cg]
		if fd == nil {
			for _, c := range slices.Concat(tools, params) {
				name, _, _ := directiveName(c.Text)
				b.errorf(b.commentPos(c, 0), "%s%s must be in the doc comment of a func declaration", directivePrefix, name)
			}
			continue
		}
		if len(tools) == 0 {
			for _, c := range params {
				b.errorf(b.commentPos(c, 0), "%s%s without %s%s", directivePrefix, paramDirective, directivePrefix, toolDirective)
			}
			continue
		}
		for _, c := range tools[1:] {
			b.errorf(b.commentPos(c, 0), "repeated %s%s directive (first at %s)", directivePrefix, toolDirective, formatPos(b.commentPos(tools[0], 0)))
		}
		b.tool(fd, tools[0], params)
	}
}

// tool maps one annotated function.
func (b *pkgBuilder) tool(fd *ast.FuncDecl, dir *ast.Comment, params []*ast.Comment) {
	obj, ok := b.info.Defs[fd.Name].(*types.Func)
	if !ok {
		return
	}
	t := &model.Tool{
		GoName: fd.Name.Name,
		Strict: true,
		Pos:    b.l.pos(fd.Name.Pos()),
	}
	doc, examples := b.examples(fd.Doc)
	t.Description, t.Placeholder = b.describe(fd.Name.Name, commentText(doc))
	t.Examples = examples
	site := &toolSite{tool: t, namePos: t.Pos}
	b.toolOptions(dir, t, site)
	b.shape(fd, obj, t, params)
	b.tools = append(b.tools, site)
}

// toolOptions reads the options of a //toolgen:tool line into t.
func (b *pkgBuilder) toolOptions(c *ast.Comment, t *model.Tool, site *toolSite) {
	_, rest, _ := directiveName(c.Text)
	opts, errs := splitOptions(c.Text[rest:], rest)
	for _, e := range errs {
		b.errorf(b.commentPos(c, e.Off), "%s", e.Msg)
	}
	seen := map[string]option{}
	var readonlyAt, destructiveAt *option
	for _, o := range opts {
		at := b.commentPos(c, o.Off)
		if !slices.Contains(toolOptions, o.Key) {
			b.errorf(at, "%s", unknownMsg("option", o.Key, toolOptions))
			continue
		}
		if prev, dup := seen[o.Key]; dup {
			b.errorf(at, "repeated option %q (first at %s)", o.Key, formatPos(b.commentPos(c, prev.Off)))
			continue
		}
		seen[o.Key] = o
		switch o.Key {
		case "name":
			if v, ok := b.needValue(at, o); ok {
				if !toolNameRE.MatchString(v) {
					b.errorf(at, "invalid tool name %q: must match %s", v, toolNameRE)
					continue
				}
				t.Name = v
				site.namePos = at
			}
		case "title":
			if v, ok := b.needValue(at, o); ok {
				t.Title = v
			}
		case "group":
			v, ok := b.needValue(at, o)
			if !ok {
				continue
			}
			for g := range strings.SplitSeq(v, ",") {
				switch {
				case g == "":
					b.errorf(at, "empty group name in group=%s", v)
				case !groupRE.MatchString(g):
					b.errorf(at, "invalid group name %q: must match %s", g, groupRE)
				case slices.Contains(t.Groups, g):
					b.errorf(at, "duplicate group %q", g)
				default:
					t.Groups = append(t.Groups, g)
				}
			}
		case "readonly", "destructive", "idempotent", "openworld":
			v, ok := b.boolOption(at, o)
			if !ok {
				continue
			}
			switch o.Key {
			case "readonly":
				t.Annotations.ReadOnly = &v
				if v {
					readonlyAt = &o
				}
			case "destructive":
				t.Annotations.Destructive = &v
				if v {
					destructiveAt = &o
				}
			case "idempotent":
				t.Annotations.Idempotent = &v
			case "openworld":
				t.Annotations.OpenWorld = &v
			}
		case "strict":
			if v, ok := b.boolOption(at, o); ok {
				t.Strict = v
			}
		case "sequential":
			if v, ok := b.boolOption(at, o); ok {
				t.Sequential = v
			}
		case "taskprelude":
			if v, ok := b.boolOption(at, o); ok {
				t.TaskPrelude = v
			}
		case "budget":
			v, ok := b.needValue(at, o)
			if !ok {
				continue
			}
			n, err := parseSize(v)
			if err != nil {
				b.errorf(at, "invalid budget %q: %v", v, err)
				continue
			}
			t.MaxResultBytes = n
		case "task":
			v, ok := b.needValue(at, o)
			if !ok {
				continue
			}
			switch v {
			case "forbidden":
				t.Task = ""
			case "optional", "required":
				t.Task = v
			default:
				b.errorf(at, "invalid task %q: want forbidden, optional or required", v)
			}
		case "timeout":
			v, ok := b.needValue(at, o)
			if !ok {
				continue
			}
			d, err := time.ParseDuration(v)
			switch {
			case err != nil:
				b.errorf(at, "invalid timeout %q: want a Go duration such as 30s or 2m", v)
			case d <= 0:
				b.errorf(at, "invalid timeout %q: must be positive", v)
			default:
				t.Timeout = d.String()
			}
		}
	}
	if readonlyAt != nil && destructiveAt != nil {
		later := max(readonlyAt.Off, destructiveAt.Off)
		b.errorf(b.commentPos(c, later), "readonly and destructive contradict each other: a read-only tool does not modify anything")
	}
	if t.TaskPrelude && t.Task == "" {
		b.errorf(b.commentPos(c, seen["taskprelude"].Off), "taskprelude needs task=optional or task=required: a prelude is what a task's call runs before the task starts")
	}
	if t.Name == "" && seen["name"].Key == "" {
		t.Name = snakeCase(t.GoName)
		if !toolNameRE.MatchString(t.Name) {
			b.errorf(b.commentPos(c, 0), "tool name %q derived from %s is invalid (must match %s); set name=", t.Name, t.GoName, toolNameRE)
		}
	}
}

// needValue returns the value of an option that must have one.
func (b *pkgBuilder) needValue(at model.Pos, o option) (string, bool) {
	if !o.HasValue || o.Value == "" {
		b.errorf(at, "option %q needs a value (%s=...)", o.Key, o.Key)
		return "", false
	}
	return o.Value, true
}

// boolOption reads an option that is true when bare and may be =true or =false.
func (b *pkgBuilder) boolOption(at model.Pos, o option) (bool, bool) {
	if !o.HasValue {
		return true, true
	}
	switch o.Value {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	b.errorf(at, "option %q must be bare, %s=true or %s=false (got %q)", o.Key, o.Key, o.Key, o.Value)
	return false, false
}

// checkDuplicateNames reports tools of the package that share a name, each at the
// second and later ones.
func (b *pkgBuilder) checkDuplicateNames() {
	sites := slices.Clone(b.tools)
	slices.SortFunc(sites, func(x, y *toolSite) int { return comparePos(x.namePos, y.namePos) })
	first := map[string]*toolSite{}
	for _, s := range sites {
		if s.tool.Name == "" {
			continue
		}
		if f, dup := first[s.tool.Name]; dup {
			b.errorf(s.namePos, "duplicate tool name %q (first used by %s at %s)", s.tool.Name, f.tool.GoName, formatPos(f.namePos))
			continue
		}
		first[s.tool.Name] = s
	}
}

// paramLine is a parsed //toolgen:param line.
type paramLine struct {
	c     *ast.Comment
	name  string
	pos   model.Pos
	desc  string
	items []kv
}

// parseParamLine reads a //toolgen:param line; ok is false when it has no name.
func (b *pkgBuilder) parseParamLine(c *ast.Comment) (paramLine, bool) {
	_, rest, _ := directiveName(c.Text)
	opts, errs := splitOptions(c.Text[rest:], rest)
	for _, e := range errs {
		b.errorf(b.commentPos(c, e.Off), "%s", e.Msg)
	}
	pl := paramLine{c: c, pos: b.commentPos(c, 0)}
	if len(opts) == 0 || opts[0].HasValue {
		b.errorf(pl.pos, "%s%s needs a parameter name first (%s%s NAME [desc=\"...\"] [constraints])", directivePrefix, paramDirective, directivePrefix, paramDirective)
		return pl, false
	}
	pl.name = opts[0].Key
	pl.pos = b.commentPos(c, opts[0].Off)
	sawDesc := false
	for _, o := range opts[1:] {
		at := b.commentPos(c, o.Off)
		if o.Key == "desc" {
			if sawDesc {
				b.errorf(at, "repeated key %q", o.Key)
				continue
			}
			sawDesc = true
			if v, ok := b.needValue(at, o); ok {
				pl.desc = v
			}
			continue
		}
		pl.items = append(pl.items, kv{Key: o.Key, Value: o.Value, HasValue: o.HasValue, Pos: at})
	}
	return pl, true
}

// shape maps a tool function's receiver, parameters and results.
func (b *pkgBuilder) shape(fd *ast.FuncDecl, obj *types.Func, t *model.Tool, paramDirs []*ast.Comment) {
	sig := obj.Signature()
	namePos := b.l.pos(fd.Name.Pos())
	if sig.TypeParams().Len() > 0 {
		b.errorf(namePos, "generic function %s cannot be a tool", obj.Name())
		return
	}
	if recv := sig.Recv(); recv != nil {
		rt := types.Unalias(recv.Type())
		if p, ok := rt.(*types.Pointer); ok {
			t.ReceiverPointer = true
			rt = types.Unalias(p.Elem())
		}
		if n, ok := rt.(*types.Named); ok {
			t.Receiver = n.Obj().Name()
			if sig.RecvTypeParams().Len() > 0 || n.TypeParams().Len() > 0 {
				b.errorf(namePos, "method %s of generic type %s cannot be a tool", obj.Name(), n.Obj().Name())
				return
			}
		}
	}

	// Parameters.
	ps := sig.Params()
	var rest []*types.Var
	for i := range ps.Len() {
		v := ps.At(i)
		if isContext(v.Type()) {
			if i == 0 {
				t.Context = true
				continue
			}
			b.errorf(b.l.pos(v.Pos()), "context.Context must be the first parameter")
			continue
		}
		rest = append(rest, v)
	}
	if sig.Variadic() {
		v := ps.At(ps.Len() - 1)
		b.errorf(b.l.pos(v.Pos()), "variadic parameter %s is not supported", paramName(v))
		rest = rest[:max(0, len(rest)-1)]
	}
	switch {
	case len(rest) == 0:
		t.Input = model.Input{Kind: model.InputNone}
		for _, c := range paramDirs {
			b.errorf(b.commentPos(c, 0), "%s%s on %s, which takes no arguments", directivePrefix, paramDirective, obj.Name())
		}
	case len(rest) == 1 && b.isStructParam(rest[0].Type()):
		t.Input = model.Input{Kind: model.InputStruct}
		for _, c := range paramDirs {
			b.errorf(b.commentPos(c, 0), "%s%s on %s, whose input is a struct: use field comments and tool tags instead", directivePrefix, paramDirective, obj.Name())
		}
		mt, err := b.mapType(rest[0].Type(), modeInput, nil)
		if err != nil {
			b.errorf(b.l.pos(rest[0].Pos()), "parameter %s: %v", paramName(rest[0]), err)
		}
		if named := mt; named != nil && (named.Kind == model.Named || named.Kind == model.Pointer && named.Elem != nil && named.Elem.Kind == model.Named) {
			t.Input.Type = mt
		} else if err == nil {
			// The generated code declares a variable of the parameter's type, and an
			// unnamed struct type cannot be spelled again exactly (tags, embedding).
			b.errorf(b.l.pos(rest[0].Pos()), "parameter %s: an unnamed struct type cannot be a tool's argument struct; declare a named type for it", paramName(rest[0]))
		}
	default:
		t.Input = model.Input{Kind: model.InputParams}
		b.params(obj, t, rest, paramDirs)
	}

	// Results.
	b.results(obj, sig.Results(), t)
}

// resultShapes names the result shapes of a tool, for messages.
const resultShapes = "results: R, error, (R, error) or (R, []runtime.Content, error)"

// results maps a tool's results: error, R, (R, error) or (R, []runtime.Content, error).
func (b *pkgBuilder) results(obj *types.Func, rs *types.Tuple, t *model.Tool) {
	isErr := func(i int) bool { return types.Identical(rs.At(i).Type(), errorType) }
	at := func(i int) model.Pos { return b.l.pos(rs.At(i).Pos()) }
	t.Output = model.Output{Kind: model.OutputNone}
	switch rs.Len() {
	case 0:
	case 1:
		if isErr(0) {
			t.Output.Error = true
		} else {
			b.output(rs.At(0), t)
		}
	case 2:
		switch {
		case isContentSlice(rs.At(1).Type()):
			b.errorf(at(1), "a tool that adds content blocks returns an error last: (R, []runtime.Content, error)")
		case !isErr(1):
			b.errorf(at(1), "the second result of a tool must be error (%s)", resultShapes)
		case isErr(0):
			b.errorf(at(0), "a tool returns at most one error (%s)", resultShapes)
		default:
			t.Output.Error = true
			b.output(rs.At(0), t)
		}
	case 3:
		first := types.Unalias(rs.At(0).Type())
		switch {
		case !isErr(2):
			b.errorf(at(2), "the third result of a tool must be error (%s)", resultShapes)
		case isContentSlice(first) && !isContentSlice(rs.At(1).Type()):
			b.errorf(at(0), "the content blocks come second, after the value: (R, []runtime.Content, error)")
		case !isContentSlice(rs.At(1).Type()):
			b.errorf(at(1), "the second of three results must be []runtime.Content, the blocks added to the result (%s); got %s", resultShapes, typeString(b, rs.At(1).Type()))
		case isErr(0):
			b.errorf(at(0), "a tool returns at most one error (%s)", resultShapes)
		case types.Identical(first, types.Typ[types.String]):
			b.errorf(at(0), "the first of three results is the structured value, not text: for text with content blocks, return (*runtime.Result, error) with the blocks in its Content")
		case isNamed(first, runtimePath, "Result") || isResultPointer(first):
			b.errorf(at(0), "a runtime.Result holds its content blocks already: append them to its Content and return (*runtime.Result, error)")
		default:
			t.Output.Error = true
			b.output(rs.At(0), t)
			if t.Output.Kind == model.OutputValue {
				t.Output.Kind = model.OutputValueContent
			}
		}
	default:
		b.errorf(at(3), "a tool has at most three results (%s); %s has %d", resultShapes, obj.Name(), rs.Len())
	}
}

// isContentSlice reports whether t is []runtime.Content (an alias of it included).
func isContentSlice(t types.Type) bool {
	s, ok := types.Unalias(t).(*types.Slice)
	return ok && isNamed(s.Elem(), runtimePath, "Content")
}

// isResultPointer reports whether t is *runtime.Result.
func isResultPointer(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && isNamed(p.Elem(), runtimePath, "Result")
}

// typeString writes t as the package's source would: its own types unqualified, other
// packages' by package name.
func typeString(b *pkgBuilder, t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == b.pkg.Types {
			return ""
		}
		return p.Name()
	})
}

// params maps the parameters of an ordinary function and its //toolgen:param lines.
func (b *pkgBuilder) params(obj *types.Func, t *model.Tool, vars []*types.Var, dirs []*ast.Comment) {
	lines := map[string]paramLine{}
	var names []string
	for _, v := range vars {
		if v.Name() != "" && v.Name() != "_" {
			names = append(names, v.Name())
		}
	}
	for _, c := range dirs {
		pl, ok := b.parseParamLine(c)
		if !ok {
			continue
		}
		if prev, dup := lines[pl.name]; dup {
			b.errorf(pl.pos, "repeated %s%s for %s (first at %s)", directivePrefix, paramDirective, pl.name, formatPos(prev.pos))
			continue
		}
		if !slices.Contains(names, pl.name) {
			msg := fmt.Sprintf("%s%s %s names no parameter of %s", directivePrefix, paramDirective, pl.name, obj.Name())
			if n := nearest(pl.name, names); n != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", n)
			} else if len(names) > 0 {
				msg += fmt.Sprintf(" (parameters: %s)", strings.Join(names, ", "))
			}
			b.errorf(pl.pos, "%s", msg)
			continue
		}
		lines[pl.name] = pl
	}
	for _, v := range vars {
		at := b.l.pos(v.Pos())
		if v.Name() == "" || v.Name() == "_" {
			b.errorf(at, "parameter %s of %s needs a name: it is the property name the model sees", paramName(v), obj.Name())
			continue
		}
		mt, err := b.mapType(v.Type(), modeInput, nil)
		if err != nil {
			b.errorf(at, "parameter %s: %v", v.Name(), err)
			continue
		}
		f := &model.Field{
			Name:   v.Name(),
			GoPath: []string{v.Name()},
			Type:   mt,
			Pos:    at,
		}
		pl := lines[v.Name()]
		f.Description = pl.desc
		if f.Description == "" {
			f.Description = b.typeDoc(mt)
		}
		t.Input.Params = append(t.Input.Params, f)
		b.jobs = append(b.jobs, &fieldJob{field: f, items: pl.items, pointer: isPointer(v.Type()), site: at})
	}
}

// output maps a tool's non-error result.
func (b *pkgBuilder) output(v *types.Var, t *model.Tool) {
	typ := types.Unalias(v.Type())
	if types.Identical(typ, types.Typ[types.String]) {
		t.Output.Kind = model.OutputText
		return
	}
	if isResultPointer(typ) {
		t.Output.Kind = model.OutputResult
		t.Output.ResultPointer = true
		return
	}
	if isNamed(typ, runtimePath, "Result") {
		t.Output.Kind = model.OutputResult
		return
	}
	if isContentSlice(typ) || isNamed(typ, runtimePath, "Content") {
		b.errorf(b.l.pos(v.Pos()), "result: %s is not a value to send as JSON: for content blocks alone, return (*runtime.Result, error); for a value with content blocks, (R, []runtime.Content, error)", typeString(b, typ))
		return
	}
	t.Output.Kind = model.OutputValue
	mt, err := b.mapType(typ, modeOutput, nil)
	if err != nil {
		b.errorf(b.l.pos(v.Pos()), "result: %v", err)
		return
	}
	t.Output.Type = mt
}

// paramName names a parameter in messages.
func paramName(v *types.Var) string {
	if v.Name() == "" {
		return fmt.Sprintf("of type %s", v.Type())
	}
	return v.Name()
}

// errorType is the predeclared error type.
var errorType = types.Universe.Lookup("error").Type()

// isContext reports whether t is context.Context.
func isContext(t types.Type) bool { return isNamed(t, "context", "Context") }

// isNamed reports whether t is the defined type path.name.
func isNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	o := n.Obj()
	return o.Pkg() != nil && o.Pkg().Path() == path && o.Name() == name
}

// isPointer reports whether t is a pointer type.
func isPointer(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok
}
