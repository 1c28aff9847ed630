package parser

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"io"
	"strings"

	"github.com/toolgen/toolgen/model"
)

// examplesHeading starts the doc comment paragraph that lists a tool's input examples.
const examplesHeading = "Examples:"

// examples finds the "Examples:" paragraph of a tool's doc comment (docs/DESIGN.md,
// "Input examples"): a line that is "Examples:" alone, starting a paragraph, then one
// JSON object per indented line, blank lines between them allowed (gofmt puts one
// after the heading), up to the first line that is not indented. It returns the doc
// comment without that paragraph, for the description, and the examples, each at the
// position of its JSON; a line that is not one JSON object is an error there. Only
// line comments are read: a /* */ comment is description whatever it says.
func (b *pkgBuilder) examples(doc *ast.CommentGroup) (*ast.CommentGroup, []model.Example) {
	if doc == nil {
		return nil, nil
	}
	var kept []*ast.Comment
	var out []model.Example
	list := doc.List
	blankBefore := true // the comment's first line starts a paragraph
	for i := 0; i < len(list); i++ {
		c := list[i]
		text, ok := lineText(c)
		if !ok || strings.TrimSpace(text) != examplesHeading || !blankBefore || isIndented(text) {
			kept = append(kept, c)
			if ok {
				blankBefore = strings.TrimSpace(text) == ""
			}
			continue
		}
		heading := c
		n := 0
		for i+1 < len(list) {
			next, ok := lineText(list[i+1])
			if !ok || strings.TrimSpace(next) != "" && !isIndented(next) {
				break
			}
			i++
			if strings.TrimSpace(next) == "" {
				continue
			}
			n++
			if ex, ok := b.example(list[i], out); ok {
				out = append(out, ex)
			}
		}
		if n == 0 {
			b.errorf(b.commentPos(heading, strings.Index(heading.Text, examplesHeading)),
				"%s starts a paragraph of input examples, one JSON object per indented line after it, and none follows", examplesHeading)
		}
		blankBefore = true
	}
	if len(kept) == len(list) {
		return doc, out
	}
	return &ast.CommentGroup{List: kept}, out
}

// lineText returns the text of a // comment without the marker and the one space
// after it, as ast.CommentGroup.Text reads it; false for a /* */ comment.
func lineText(c *ast.Comment) (string, bool) {
	text, ok := strings.CutPrefix(c.Text, "//")
	if !ok {
		return "", false
	}
	return strings.TrimPrefix(text, " "), true
}

// isIndented reports whether a doc comment line is indented: a code block's line.
func isIndented(text string) bool {
	return strings.HasPrefix(text, " ") || strings.HasPrefix(text, "\t")
}

// example reads the example on the indented comment line c, reporting what is wrong
// with it at its position; seen are the examples before it.
func (b *pkgBuilder) example(c *ast.Comment, seen []model.Example) (model.Example, bool) {
	start := 2 + len(c.Text[2:]) - len(strings.TrimLeft(c.Text[2:], " \t"))
	src := strings.TrimRight(c.Text[start:], " \t\r")
	at := b.commentPos(c, start)
	if !strings.HasPrefix(src, "{") {
		b.errorf(at, "input example is not a JSON object: an example is the arguments of a call, such as {\"city\": \"Paris\"}")
		return model.Example{}, false
	}
	dec := json.NewDecoder(strings.NewReader(src))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) && se.Offset > 0 {
			at = b.commentPos(c, start+int(se.Offset)-1)
		}
		if errors.Is(err, io.EOF) || strings.Contains(err.Error(), "unexpected EOF") {
			err = errors.New("the JSON ends before the object does (one example a line)")
		}
		b.errorf(at, "input example is not JSON: %v", err)
		return model.Example{}, false
	}
	if _, ok := v.(map[string]any); !ok {
		b.errorf(at, "input example is not a JSON object: an example is the arguments of a call, such as {\"city\": \"Paris\"}")
		return model.Example{}, false
	}
	if rest := src[dec.InputOffset():]; strings.TrimSpace(rest) != "" {
		b.errorf(b.commentPos(c, start+int(dec.InputOffset())+len(rest)-len(strings.TrimLeft(rest, " \t"))),
			"input example is followed by %q: write one JSON object a line", strings.TrimSpace(rest))
		return model.Example{}, false
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(src)); err != nil {
		b.errorf(at, "input example is not JSON: %v", err)
		return model.Example{}, false
	}
	ex := model.Example{JSON: buf.String(), Pos: at}
	for _, s := range seen {
		if s.JSON == ex.JSON {
			b.errorf(at, "repeated input example (first at %s)", formatPos(s.Pos))
			return model.Example{}, false
		}
	}
	return ex, true
}
