package generator

import (
	"bytes"
	"encoding/json"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/internal/dialectfiles"
	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime"
)

// schemaKeyword is the "$schema" member schema=2020-12 adds, as the compact JSON of
// the runtime.Tool definitions writes it.
const schemaKeyword = `"$schema":"` + model.SchemaURI202012 + `"`

// schemaDialectCase returns the parser golden case of schema=2020-12
// (testdata/parser/schemadialect.txtar).
func schemaDialectCase(t *testing.T) parserCase {
	t.Helper()
	for _, c := range parserCases(t) {
		if c.name == "schemadialect" {
			if len(c.pkgs) != 1 || c.pkgs[0].SchemaDialect != model.SchemaDialect202012 {
				t.Fatalf("schemadialect: the model has no schemaDialect %q", model.SchemaDialect202012)
			}
			return c
		}
	}
	t.Fatal("no schemadialect case")
	return parserCase{}
}

// schemaDialectGoldenDir holds the toolschema/ files of the schema=2020-12 case. It is
// not under schemaGoldenDir, whose input schemas runtime/dialect's tests read back
// keyword for keyword: its parser drops "$schema", as a lowering should.
const schemaDialectGoldenDir = "../testdata/generator/schemadialect"

// TestSchemaDialectGolden compares the toolschema/ files of the schema=2020-12 case
// with testdata/generator/schemadialect (its toolgen.gen.go is in
// testdata/generator/gocode/schemadialect, compared by TestGoldenGoCode), and checks
// that the runtime's adapters, given the definitions the generated code writes, whose
// schemas carry "$schema", send the same dialect files. (The case's tools are all
// strict: runtime/dialect drops "$schema" from the schemas it makes strict, but sends a
// schema it leaves as given, not strict, with its "$schema".)
func TestSchemaDialectGolden(t *testing.T) {
	pkg := schemaDialectCase(t).pkgs[0]
	files, _, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	dir := schemaDialectGoldenDir
	for _, f := range files {
		if f.Path != GoFile {
			compareGolden(t, filepath.Join(dir, filepath.FromSlash(f.Path)), f.Data)
		}
	}
	set, err := buildSchemas(pkg)
	if err != nil {
		t.Fatal(err)
	}
	var tools []runtime.Tool
	for _, ts := range set.tools {
		tools = append(tools, runtime.Tool{
			Name: ts.tool.Name, Description: ts.description(),
			InputSchema: ts.inputJSON, OutputSchema: ts.outputJSON, Strict: ts.tool.Strict,
		})
	}
	dialectfiles.Check(t, runtime.NewToolset(tools, nil), filepath.Join(dir, SchemaDir))
}

// TestSchemaDialectRoots generates every golden package, hand-built and parsed, with
// and without schema=2020-12: with it, the root of every input and output schema, and
// only the root, starts with "$schema"; the provider dialect files are byte for byte
// the same (the lowering drops "$schema"); and the canonical files and toolgen.gen.go
// are the same but for the "$schema" members.
func TestSchemaDialectRoots(t *testing.T) {
	type pkgCase struct {
		name string
		pkg  func() *model.Package
		// schemasOnly is set for the hand-built packages, some of which have no Go
		// code: only their toolschema/ files are compared.
		schemasOnly bool
	}
	var cases []pkgCase
	for _, tc := range schemaCases() {
		cases = append(cases, pkgCase{"schema/" + tc.name, tc.pkg, true})
	}
	for _, c := range parserCases(t) {
		for i := range c.pkgs {
			cases = append(cases, pkgCase{"parser/" + c.name + "/" + c.pkgs[i].Dir, func() *model.Package {
				var p *model.Package
				data, err := json.Marshal(c.pkgs[i])
				if err == nil {
					err = json.Unmarshal(data, &p)
				}
				if err != nil {
					t.Fatal(err)
				}
				return p
			}, false})
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plain, with := tc.pkg(), tc.pkg()
			plain.SchemaDialect, with.SchemaDialect = "", model.SchemaDialect202012
			generate := func(pkg *model.Package) []File {
				if tc.schemasOnly {
					set, err := buildSchemas(pkg)
					if err != nil {
						t.Fatal(err)
					}
					return set.files()
				}
				files, _, err := Generate(pkg)
				if err != nil {
					t.Fatal(err)
				}
				return files
			}
			plainFiles, withFiles := generate(plain), generate(with)
			if len(plainFiles) != len(withFiles) {
				t.Fatalf("%d files without schema=, %d with it", len(plainFiles), len(withFiles))
			}
			roots := 0 // the input and output schemas of the package's tools
			for _, tool := range with.Tools {
				roots++
				if tool.Output.Structured() {
					roots++
				}
			}
			for i, wf := range withFiles {
				pf := plainFiles[i]
				if wf.Path != pf.Path {
					t.Fatalf("file %s with schema=, %s without", wf.Path, pf.Path)
				}
				switch base := path.Base(wf.Path); {
				case wf.Path == GoFile:
					n := bytes.Count(wf.Data, []byte(schemaKeyword))
					stripped := bytes.ReplaceAll(wf.Data, []byte("{"+schemaKeyword+","), []byte("{"))
					stripped = bytes.ReplaceAll(stripped, []byte("{"+schemaKeyword+"}"), []byte("{}"))
					if n != roots || !bytes.Equal(stripped, pf.Data) {
						t.Errorf("%s: %d roots with $schema for %d schemas, or another difference:\n%s", wf.Path, n, roots, wf.Data)
					}
				case base == "openai.json" || base == "openai-responses.json" || base == "anthropic.json" || base == "gemini.json":
					if !bytes.Equal(wf.Data, pf.Data) {
						t.Errorf("%s changed with schema=2020-12:\n--- with\n%s\n--- without\n%s", wf.Path, wf.Data, pf.Data)
					}
				default: // toolschema/<tool>.json and mcp.json
					want := roots
					if base != "mcp.json" {
						tool := strings.TrimSuffix(base, ".json")
						want = 1
						for _, mt := range with.Tools {
							if mt.Name == tool && mt.Output.Structured() {
								want = 2
							}
						}
					}
					checkSchemaRoots(t, wf.Path, wf.Data, want)
					var kept []string
					for line := range strings.Lines(string(wf.Data)) {
						if strings.TrimSpace(line) != `"$schema": "`+model.SchemaURI202012+`",` {
							kept = append(kept, line)
						}
					}
					if got := strings.Join(kept, ""); got != string(pf.Data) {
						t.Errorf("%s differs from the file without schema= by more than its \"$schema\" lines:\n--- with\n%s\n--- without\n%s", wf.Path, wf.Data, pf.Data)
					}
				}
			}
		})
	}
}

// checkSchemaRoots checks a canonical file (a Tool object, or mcp.json's tools): the
// first key of every inputSchema and outputSchema is "$schema", with the 2020-12 URI,
// and "$schema" appears nowhere else; want is how many roots the file has.
func checkSchemaRoots(t *testing.T, name string, data []byte, want int) {
	t.Helper()
	var doc struct {
		Tools []json.RawMessage `json:"tools"`
	}
	tools := []json.RawMessage{data}
	if path.Base(name) == "mcp.json" {
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tools = doc.Tools
	}
	roots := 0
	for _, raw := range tools {
		var tool map[string]json.RawMessage
		if err := json.Unmarshal(raw, &tool); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, key := range []string{"inputSchema", "outputSchema"} {
			s, ok := tool[key]
			if !ok {
				continue
			}
			roots++
			dec := json.NewDecoder(bytes.NewReader(s))
			open, _ := dec.Token()
			first, _ := dec.Token()
			var uri string
			if err := dec.Decode(&uri); open != json.Delim('{') || first != "$schema" || err != nil || uri != model.SchemaURI202012 {
				t.Errorf("%s: %s does not start with \"$schema\": %q: %s", name, key, model.SchemaURI202012, s)
			}
		}
	}
	if roots != want {
		t.Errorf("%s: %d schemas, want %d", name, roots, want)
	}
	if n := bytes.Count(data, []byte(`"$schema"`)); n != roots {
		t.Errorf("%s: \"$schema\" %d times for %d roots: only the roots name the dialect", name, n, roots)
	}
}

// TestSchemaDialectOracle reads the input and output schemas of the schema=2020-12
// case's toolschema/<tool>.json with santhosh-tekuri/jsonschema: each is a valid
// instance of the draft 2020-12 meta-schema, and compiles as 2020-12 because of its
// "$schema", the compiler's default being draft 4.
func TestSchemaDialectOracle(t *testing.T) {
	pkg := schemaDialectCase(t).pkgs[0]
	files, _, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := jsonschema.NewCompiler().Compile(model.SchemaURI202012)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tool := range pkg.Tools {
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(fileData(t, files, SchemaDir+"/"+tool.Name+".json"), &doc); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"inputSchema", "outputSchema"} {
			raw, ok := doc[key]
			if !ok {
				continue
			}
			name := tool.Name + "." + key
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := meta.Validate(v); err != nil {
				t.Errorf("%s is not a valid JSON Schema 2020-12 document: %v", name, err)
			}
			c := jsonschema.NewCompiler()
			c.DefaultDraft(jsonschema.Draft4)
			url := "https://toolgen.test/" + name + ".json"
			if err := c.AddResource(url, v); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sch, err := c.Compile(url)
			if err != nil {
				t.Fatalf("%s does not compile: %v\n%s", name, err, raw)
			}
			if sch.DraftVersion != 2020 {
				t.Errorf("%s compiles as draft %d, want 2020: its $schema is not read", name, sch.DraftVersion)
			}
			checked++
		}
	}
	if checked < 2*len(pkg.Tools)-1 {
		t.Errorf("checked %d schemas of %d tools", checked, len(pkg.Tools))
	}
	// An instance, to see the compiled schema at work.
	in, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"name":"lamp","min":{"amount":100,"currency":"eur"}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	var find map[string]json.RawMessage
	if err := json.Unmarshal(fileData(t, files, SchemaDir+"/find.json"), &find); err != nil {
		t.Fatal(err)
	}
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(find["inputSchema"]))
	if err := c.AddResource("https://toolgen.test/find.json", v); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("https://toolgen.test/find.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(in); err == nil || !strings.Contains(err.Error(), "currency") {
		t.Errorf("find's input schema accepts a lower-case currency (err %v)", err)
	}
}

// TestSchemaDialectUnknown checks that a model with a dialect the generator does not
// know is an error, not schemas silently without "$schema".
func TestSchemaDialectUnknown(t *testing.T) {
	pkg := weatherPackage()
	pkg.SchemaDialect = "2019-09"
	if _, _, err := Generate(pkg); err == nil || !strings.Contains(err.Error(), `unknown schema dialect "2019-09"`) {
		t.Errorf("Generate with SchemaDialect 2019-09: %v", err)
	}
}

// TestEncodeRoot covers the roots encodeRoot is given: an object, the empty object,
// and what is not an object.
func TestEncodeRoot(t *testing.T) {
	for _, tc := range []struct {
		s    *schema
		want string
	}{
		{&schema{Type: typeList{"object"}}, `{` + schemaKeyword + `,"type":"object"}`},
		{&schema{}, `{` + schemaKeyword + `}`},
		{&schema{Ref: "#/$defs/A", Defs: schemaMap{{Name: "A", Schema: &schema{Type: typeList{"string"}}}}}, `{` + schemaKeyword + `,"$ref":"#/$defs/A","$defs":{"A":{"type":"string"}}}`},
	} {
		got, err := encodeRoot(tc.s, model.SchemaURI202012)
		if err != nil || string(got) != tc.want {
			t.Errorf("encodeRoot = %s, %v; want %s", got, err, tc.want)
		}
		plain, err := encodeRoot(tc.s, "")
		if want := tc.s.Keywords(); err != nil || string(plain) != want {
			t.Errorf("encodeRoot without a URI = %s, %v; want %s", plain, err, want)
		}
	}
	if got, err := encodeRoot(&schema{Boolean: new(true)}, model.SchemaURI202012); err == nil {
		t.Errorf("encodeRoot(true) = %s, want an error", got)
	}
}
