package generator

import (
	"encoding/json"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgen/toolgen/model"
)

// stringsPackage is a package whose one tool carries s wherever the generator writes
// a string from the source: the tool's title and description, and a property's
// description, title, enum value, default, const and pattern (s quoted as a regular
// expression), and a property named s.
func stringsPackage(s string) *model.Package {
	js := jsonString(s)
	enum := []string{js}
	if s != "z" {
		enum = append(enum, `"z"`)
	}
	field := func(name, goName string, opts ...func(*model.Field)) *model.Field {
		f := fld(name, tString(), opts...)
		f.GoPath = []string{goName}
		return f
	}
	fields := []*model.Field{
		field("a", "A", optional, desc(s), cons(func(c *model.Constraints) {
			c.Enum, c.Default, c.Title = enum, js, s
		})),
		field("b", "B", desc(s), cons(func(c *model.Constraints) { c.Const = js })),
		field("c", "C", desc(s), cons(func(c *model.Constraints) { c.Pattern = regexp.QuoteMeta(s) })),
	}
	if s != "" && s != "a" && s != "b" && s != "c" {
		fields = append(fields, field(s, "D", desc(s)))
	}
	return &model.Package{
		Path: "example.com/x", Name: "x", Dir: ".",
		Tools: []*model.Tool{{
			Name: "t", GoName: "T", Title: s, Description: s, Strict: true,
			Annotations: model.Annotations{ReadOnly: bp(true)},
			Input:       model.Input{Kind: model.InputStruct, Type: tNamed("Args")},
			Output:      model.Output{Kind: model.OutputText},
		}},
		Types: []*model.NamedType{{ID: "Args", Name: "Args", PkgPath: "example.com/x", Doc: s, Underlying: tStruct(fields...)}},
	}
}

// jsonString is s as JSON text, as the parser writes enum, const and default values.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// FuzzGeneratedStrings checks that any string in a tool's source strings (see
// stringsPackage) generates Go that parses and holds the exact string, in the string
// literals of toolgen.gen.go and in the schema the code embeds (descriptions trimmed
// of surrounding white space, as always); a string that is not
// valid UTF-8, which neither JSON nor a model's call can hold, is an error.
func FuzzGeneratedStrings(f *testing.F) {
	for _, s := range []string{"kelvin", "a\ufeffb", "a`b", "a\rb", "a\x00b", "a\xffb", "\u2028\u2029", `\/`, `"`, "\\", "\n//", "*/", "\x7f", "\U0001F600", "line\n::error::x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		files, _, err := Generate(stringsPackage(s))
		if !utf8.ValidString(s) {
			if err == nil {
				t.Fatalf("Generate with %q, not valid UTF-8: no error", s)
			}
			return
		}
		if err != nil {
			t.Fatalf("Generate with %q: %v", s, err)
		}
		i := slices.IndexFunc(files, func(f File) bool { return f.Path == GoFile })
		file, err := goparser.ParseFile(token.NewFileSet(), GoFile, files[i].Data, goparser.ParseComments)
		if err != nil {
			t.Fatalf("generated code for %q does not parse: %v\n%s", s, err, files[i].Data)
		}
		// The string literals, unquoted.
		var lits []string
		ast.Inspect(file, func(n ast.Node) bool {
			if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING {
				v, err := strconv.Unquote(b.Value)
				if err != nil {
					t.Fatalf("literal %s for %q: %v", b.Value, s, err)
				}
				lits = append(lits, v)
			}
			return true
		})
		if !slices.Contains(lits, s) {
			t.Errorf("no literal holds %q exactly; literals: %q", s, lits)
		}
		// The input schema the code embeds (the literal that starts it).
		var schema struct {
			Properties map[string]struct {
				Description string   `json:"description"`
				Title       string   `json:"title"`
				Enum        []string `json:"enum"`
				Default     *string  `json:"default"`
				Const       *string  `json:"const"`
				Pattern     string   `json:"pattern"`
			} `json:"properties"`
		}
		found := false
		for _, l := range lits {
			if json.Unmarshal([]byte(l), &schema) == nil && schema.Properties != nil {
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("no input schema among the literals for %q", s)
		}
		a, b, c := schema.Properties["a"], schema.Properties["b"], schema.Properties["c"]
		switch {
		case a.Description != strings.TrimSpace(s) || a.Title != s || len(a.Enum) == 0 || a.Enum[0] != s || a.Default == nil || *a.Default != s:
			t.Errorf("property a for %q: %q %q %q %v", s, a.Description, a.Title, a.Enum, a.Default)
		case b.Const == nil || *b.Const != s:
			t.Errorf("property b for %q: %+v", s, b)
		case c.Pattern != regexp.QuoteMeta(s):
			t.Errorf("property c for %q: %+v", s, c)
		}
		if _, ok := schema.Properties[s]; !ok && s != "" {
			t.Errorf("no property named %q: %v", s, schema.Properties)
		}
	})
}

// TestJSONEscapesInValues checks enum and const values written with the JSON escapes
// that Go's string literals do not have (\/ and a surrogate pair), as a model built by
// hand may hold them: the generated code must still parse.
func TestJSONEscapesInValues(t *testing.T) {
	pkg := stringsPackage("x")
	a := pkg.Types[0].Underlying.Fields[0]
	a.Constraints.Enum = []string{`"\/"`, `"\ud83d\ude00"`}
	a.Constraints.Default = `"\/"`
	pkg.Types[0].Underlying.Fields[1].Constraints.Const = `"\ud83d\ude00"`
	files, _, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(files, func(f File) bool { return f.Path == GoFile })
	if _, err := goparser.ParseFile(token.NewFileSet(), GoFile, files[i].Data, 0); err != nil {
		t.Fatalf("generated code does not parse: %v", err)
	}
}
