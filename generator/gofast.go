package generator

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"strings"

	"github.com/dave/jennifer/jen"
)

// renderFile renders f as jen.File.Render does, jennifer's text then go/format.Source,
// except for the top-level arrays named in tables (the decoding tables of a big package,
// megabytes of one-line elements), which skip go/printer: each is cut out of the
// unformatted text, the rest is formatted, and the array is printed back in its place
// by printArray, in the form go/printer gives it. An array printArray cannot print,
// or cannot find, sends the whole file through go/format.Source, so the bytes are the
// same either way (TestFastFormat proves it on the goldens and on a synthetic package).
func renderFile(f *jen.File, tables []string) ([]byte, error) {
	if len(tables) == 0 {
		var buf bytes.Buffer
		if err := f.Render(&buf); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	f.NoFormat = true
	var raw bytes.Buffer
	err := f.Render(&raw)
	f.NoFormat = false
	if err != nil {
		return nil, err
	}
	if out, ok := fastFormat(raw.Bytes(), tables); ok {
		return out, nil
	}
	out, err := format.Source(raw.Bytes())
	if err != nil {
		return nil, fmt.Errorf("error %s while formatting source:\n%s", err, raw.Bytes())
	}
	return out, nil
}

// fastFormat formats src, jennifer's unformatted text, printing the top-level arrays
// named in tables itself; ok is false when one of them is not as printArray expects.
func fastFormat(src []byte, tables []string) (out []byte, ok bool) {
	rest := src
	printed := make([][]byte, len(tables))
	for i, name := range tables {
		// The declaration starts a line ("var NAME = "), which no string literal
		// holds (jennifer quotes a newline) nor a line comment; its elements are
		// one a line, so the first "\n}\n" after it ends it, unless it has none.
		head := []byte("\nvar " + name + " = ")
		start := bytes.Index(rest, head)
		if start < 0 || bytes.Count(rest, head) != 1 {
			return nil, false
		}
		start++
		// An empty array is on its header's line: "{}". The file may end
		// without a newline.
		end := len(rest)
		if n := bytes.IndexByte(rest[start:], '\n'); n >= 0 {
			end = start + n + 1
		}
		if !bytes.HasSuffix(bytes.TrimSuffix(rest[:end], []byte("\n")), []byte("{}")) {
			n := bytes.Index(rest[start:], []byte("\n}"))
			if n < 0 {
				return nil, false
			}
			end = start + n + len("\n}")
			if end < len(rest) {
				if rest[end] != '\n' {
					return nil, false
				}
				end++
			}
		}
		text, err := printArray(bytes.TrimSuffix(rest[start+len(head)-1:end], []byte("\n")), name)
		if err != nil {
			return nil, false
		}
		printed[i] = text
		var b bytes.Buffer
		b.Grow(len(rest) - (end - start) + 64)
		b.Write(rest[:start])
		b.WriteString(placeholder(name))
		b.Write(rest[end:])
		rest = b.Bytes()
	}
	formatted, err := format.Source(rest)
	if err != nil {
		return nil, false
	}
	for i, name := range tables {
		ph := []byte("\n" + placeholder(name))
		at := bytes.Index(formatted, ph)
		if at < 0 || bytes.Count(formatted, ph) != 1 {
			return nil, false
		}
		at++
		var b bytes.Buffer
		b.Grow(len(formatted) + len(printed[i]))
		b.Write(formatted[:at])
		b.Write(printed[i])
		b.Write(formatted[at+len(ph)-1:])
		formatted = b.Bytes()
	}
	return formatted, true
}

// placeholder is the declaration that stands for the array name while the rest of
// the file is formatted.
func placeholder(name string) string { return "var " + name + " = 0\n" }

// errCannotPrint says that printArray met what it does not print as go/printer does.
var errCannotPrint = errors.New("not a table printArray prints")

// printArray prints the declaration "var name = X" of a top-level array, given the
// unformatted text of X, a composite literal whose elements are each on one line of
// their own, as go/printer prints it: the elements one a line, indented by a tab, each
// followed by a comma. It returns errCannotPrint for what it does not know how to
// print: comments, elements on several lines, and expressions other than those the
// tables hold (literals, names, selectors, calls, composite literals, index
// expressions, unary and binary expressions, array, map and pointer types).
func printArray(x []byte, name string) ([]byte, error) {
	fset := token.NewFileSet()
	src := make([]byte, 0, len(x)+16)
	src = append(append(src, "package p\nvar _ = "...), x...)
	file, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil || len(file.Comments) > 0 || len(file.Decls) != 1 {
		return nil, errCannotPrint
	}
	gen, ok := file.Decls[0].(*ast.GenDecl)
	if !ok || len(gen.Specs) != 1 {
		return nil, errCannotPrint
	}
	spec := gen.Specs[0].(*ast.ValueSpec)
	if len(spec.Values) != 1 {
		return nil, errCannotPrint
	}
	lit, ok := spec.Values[0].(*ast.CompositeLit)
	if !ok || lit.Type == nil {
		return nil, errCannotPrint
	}
	p := &miniPrinter{}
	p.WriteString("var " + name + " = ")
	p.expr1(lit.Type, token.HighestPrec, 1)
	if len(lit.Elts) == 0 {
		p.WriteString("{}\n")
		return p.result()
	}
	p.WriteString("{\n")
	line := fset.Position(lit.Lbrace).Line
	for _, e := range lit.Elts {
		// One element a line, each on a line of its own, as jennifer writes them.
		l := fset.Position(e.Pos()).Line
		if l != line+1 || fset.Position(e.End()).Line != l {
			return nil, errCannotPrint
		}
		if _, ok := e.(*ast.KeyValueExpr); ok {
			// Keyed elements, one a line, have their values aligned by gofmt.
			return nil, errCannotPrint
		}
		line = l
		p.WriteByte('\t')
		p.expr0(e, 1)
		p.WriteString(",\n")
	}
	if fset.Position(lit.Rbrace).Line != line+1 {
		return nil, errCannotPrint
	}
	p.WriteString("}\n")
	return p.result()
}

// miniPrinter prints one-line expressions as go/printer does (go/printer/nodes.go's
// expr1, binaryExpr and exprList, without the line breaks), for the node types the
// tables hold; it records errCannotPrint on any other.
type miniPrinter struct {
	bytes.Buffer
	err error
}

func (p *miniPrinter) result() ([]byte, error) {
	if p.err != nil {
		return nil, p.err
	}
	return p.Bytes(), nil
}

func (p *miniPrinter) expr(x ast.Expr) { p.expr1(x, token.LowestPrec, 1) }

func (p *miniPrinter) expr0(x ast.Expr, depth int) { p.expr1(x, token.LowestPrec, depth) }

// list prints the expressions of a one-line list, separated by ", ".
func (p *miniPrinter) list(list []ast.Expr, depth int) {
	for i, x := range list {
		if i > 0 {
			p.WriteString(", ")
		}
		p.expr0(x, depth)
	}
}

func (p *miniPrinter) expr1(expr ast.Expr, prec1, depth int) {
	if p.err != nil {
		return
	}
	switch x := expr.(type) {
	case *ast.Ident:
		p.WriteString(x.Name)
	case *ast.BasicLit:
		p.WriteString(normalizedNumber(x))
	case *ast.BinaryExpr:
		p.binaryExpr(x, prec1, cutoff(x, depth), depth)
	case *ast.KeyValueExpr:
		p.expr(x.Key)
		p.WriteString(": ")
		p.expr(x.Value)
	case *ast.StarExpr:
		if token.UnaryPrec < prec1 {
			p.WriteString("(*")
			p.expr(x.X)
			p.WriteByte(')')
		} else {
			p.WriteByte('*')
			p.expr(x.X)
		}
	case *ast.UnaryExpr:
		if token.UnaryPrec < prec1 {
			p.WriteByte('(')
			p.expr(x)
			p.WriteByte(')')
		} else {
			switch x.X.(type) {
			case *ast.UnaryExpr, *ast.StarExpr: // go/printer may put a blank between
				p.err = errCannotPrint
				return
			}
			if x.Op == token.RANGE || x.Op == token.ARROW {
				p.err = errCannotPrint
				return
			}
			p.WriteString(x.Op.String())
			p.expr1(x.X, token.UnaryPrec, depth)
		}
	case *ast.ParenExpr:
		if _, ok := x.X.(*ast.ParenExpr); ok {
			p.expr0(x.X, depth)
		} else {
			p.WriteByte('(')
			p.expr0(x.X, reduceDepth(depth))
			p.WriteByte(')')
		}
	case *ast.SelectorExpr:
		p.expr1(x.X, token.HighestPrec, depth)
		p.WriteByte('.')
		p.WriteString(x.Sel.Name)
	case *ast.IndexExpr:
		p.expr1(x.X, token.HighestPrec, 1)
		p.WriteByte('[')
		p.expr0(x.Index, depth+1)
		p.WriteByte(']')
	case *ast.IndexListExpr:
		p.expr1(x.X, token.HighestPrec, 1)
		p.WriteByte('[')
		p.list(x.Indices, depth+1)
		p.WriteByte(']')
	case *ast.CallExpr:
		if x.Ellipsis.IsValid() {
			p.err = errCannotPrint
			return
		}
		if len(x.Args) > 1 {
			depth++
		}
		switch x.Fun.(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.ArrayType, *ast.ParenExpr:
		default:
			p.err = errCannotPrint
			return
		}
		p.expr1(x.Fun, token.HighestPrec, depth)
		p.WriteByte('(')
		p.list(x.Args, depth)
		p.WriteByte(')')
	case *ast.CompositeLit:
		if x.Type != nil {
			p.expr1(x.Type, token.HighestPrec, depth)
		}
		p.WriteByte('{')
		p.list(x.Elts, 1)
		p.WriteByte('}')
	case *ast.Ellipsis:
		p.WriteString("...")
		if x.Elt != nil {
			p.expr(x.Elt)
		}
	case *ast.ArrayType:
		p.WriteByte('[')
		if x.Len != nil {
			p.expr(x.Len)
		}
		p.WriteByte(']')
		p.expr(x.Elt)
	case *ast.MapType:
		p.WriteString("map[")
		p.expr(x.Key)
		p.WriteByte(']')
		p.expr(x.Value)
	default:
		p.err = errCannotPrint
	}
}

// binaryExpr is go/printer's, on one line.
func (p *miniPrinter) binaryExpr(x *ast.BinaryExpr, prec1, cutoff, depth int) {
	prec := x.Op.Precedence()
	if prec < prec1 {
		p.WriteByte('(')
		p.expr0(x, reduceDepth(depth))
		p.WriteByte(')')
		return
	}
	printBlank := prec < cutoff
	p.expr1(x.X, prec, depth+diffPrec(x.X, prec))
	if printBlank {
		p.WriteByte(' ')
	}
	p.WriteString(x.Op.String())
	if printBlank {
		p.WriteByte(' ')
	}
	p.expr1(x.Y, prec+1, depth+1)
}

// walkBinary, cutoff, diffPrec, reduceDepth and normalizedNumber are go/printer's
// (go/printer/nodes.go), which decide the blanks around binary operators and the
// spelling of number literals.
func walkBinary(e *ast.BinaryExpr) (has4, has5 bool, maxProblem int) {
	switch e.Op.Precedence() {
	case 4:
		has4 = true
	case 5:
		has5 = true
	}
	switch l := e.X.(type) {
	case *ast.BinaryExpr:
		if l.Op.Precedence() < e.Op.Precedence() {
			// parens will be inserted.
			// pretend this is an *ast.ParenExpr and do nothing.
			break
		}
		h4, h5, mp := walkBinary(l)
		has4 = has4 || h4
		has5 = has5 || h5
		maxProblem = max(maxProblem, mp)
	}
	switch r := e.Y.(type) {
	case *ast.BinaryExpr:
		if r.Op.Precedence() <= e.Op.Precedence() {
			// parens will be inserted.
			// pretend this is an *ast.ParenExpr and do nothing.
			break
		}
		h4, h5, mp := walkBinary(r)
		has4 = has4 || h4
		has5 = has5 || h5
		maxProblem = max(maxProblem, mp)
	case *ast.StarExpr:
		if e.Op == token.QUO { // `*/`
			maxProblem = 5
		}
	case *ast.UnaryExpr:
		switch e.Op.String() + r.Op.String() {
		case "/*", "&&", "&^":
			maxProblem = 5
		case "++", "--":
			maxProblem = max(maxProblem, 4)
		}
	}
	return
}

func cutoff(e *ast.BinaryExpr, depth int) int {
	has4, has5, maxProblem := walkBinary(e)
	if maxProblem > 0 {
		return maxProblem + 1
	}
	if has4 && has5 {
		if depth == 1 {
			return 5
		}
		return 4
	}
	if depth == 1 {
		return 6
	}
	return 4
}

func diffPrec(expr ast.Expr, prec int) int {
	x, ok := expr.(*ast.BinaryExpr)
	if !ok || prec != x.Op.Precedence() {
		return 1
	}
	return 0
}

func reduceDepth(depth int) int {
	depth--
	if depth < 1 {
		depth = 1
	}
	return depth
}

func normalizedNumber(lit *ast.BasicLit) string {
	x := lit.Value
	if lit.Kind != token.INT && lit.Kind != token.FLOAT && lit.Kind != token.IMAG || len(x) < 2 {
		return x
	}
	switch x[:2] {
	default:
		// 0-prefix octal, decimal int, or float (possibly with 'i' suffix)
		if i := strings.LastIndexByte(x, 'E'); i >= 0 {
			x = x[:i] + "e" + x[i+1:]
			break
		}
		// remove leading 0's from integer (but not floating-point) imaginary literals
		if x[len(x)-1] == 'i' && !strings.ContainsAny(x, ".e") {
			x = strings.TrimLeft(x, "0_")
			if x == "i" {
				x = "0i"
			}
		}
	case "0X":
		x = "0x" + x[2:]
		// possibly a hexadecimal float
		if i := strings.LastIndexByte(x, 'P'); i >= 0 {
			x = x[:i] + "p" + x[i+1:]
		}
	case "0x":
		// possibly a hexadecimal float
		i := strings.LastIndexByte(x, 'P')
		if i == -1 {
			return x // nothing to do
		}
		x = x[:i] + "p" + x[i+1:]
	case "0O":
		x = "0o" + x[2:]
	case "0o":
		return x // nothing to do
	case "0B":
		x = "0b" + x[2:]
	case "0b":
		return x // nothing to do
	}
	return x
}
