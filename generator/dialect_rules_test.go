package generator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// This file encodes each provider's documented schema rules (reference/providers.md
// sections 1-5, and the SDKs) as checks over the JSON toolgen writes, independently of
// how the generator lowers schemas, and runs them over every golden case and every
// toolschema/ directory in the repository.

// dialectFiles are the provider files under toolschema/.
var dialectFiles = []string{"openai.json", "openai-responses.json", "anthropic.json", "gemini.json"}

// TestDialectRulesGolden checks the dialect files of the schema golden cases and of
// every parser golden case, generated afresh.
func TestDialectRulesGolden(t *testing.T) {
	for _, tc := range schemaCases() {
		set, err := buildSchemas(tc.pkg())
		if err != nil {
			t.Fatal(err)
		}
		checkDialectDir(t, "schema/"+tc.name, filesByName(set.files()), refusedNames(set.warnings))
	}
	for _, c := range parserCases(t) {
		for _, pkg := range c.pkgs {
			files, warnings, err := Generate(pkg)
			if err != nil {
				t.Fatalf("Generate(%s): %v", pkg.Path, err)
			}
			checkDialectDir(t, "parser/"+c.name+"/"+pkg.Dir, filesByName(files), refusedNames(warnings))
		}
	}
}

// TestDialectRulesRepo checks every toolschema/ directory in the repository: the
// examples, internal/conformance and the golden directories.
func TestDialectRulesRepo(t *testing.T) {
	root := ".."
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() && d.Name() == SchemaDir {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, dir := range dirs {
		files := map[string][]byte{}
		for _, name := range append([]string{"mcp.json"}, dialectFiles...) {
			if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				files[name] = data
			}
		}
		if len(files) == 0 {
			continue
		}
		for _, name := range dialectFiles {
			if files[name] == nil {
				t.Errorf("%s: no %s beside mcp.json", dir, name)
			}
		}
		// A real package's tool names come from the parser; a golden case that breaks
		// the name rules on purpose has the warnings beside its toolschema/.
		var refused map[string]bool
		if data, err := os.ReadFile(filepath.Join(dir, "..", "warnings.txt")); err == nil {
			var ws []Warning
			for line := range strings.Lines(string(data)) {
				ws = append(ws, Warning{Msg: strings.TrimSpace(line)})
			}
			refused = refusedNames(ws)
		}
		checkDialectDir(t, filepath.ToSlash(dir), files, refused)
		checked++
	}
	if checked < 3 {
		t.Errorf("found only %d toolschema directories", checked)
	}
}

// filesByName maps the base names of the files under toolschema/ to their data.
func filesByName(files []File) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range files {
		if dir, name := path.Split(f.Path); dir == SchemaDir+"/" {
			out[name] = f.Data
		}
	}
	return out
}

// refusedNames returns the tool names the generator warned a provider may refuse.
func refusedNames(ws []Warning) map[string]bool {
	out := map[string]bool{}
	re := regexp.MustCompile(`tool (\S+): name may be refused`)
	for _, w := range ws {
		if m := re.FindStringSubmatch(w.Msg); m != nil && !strings.Contains(w.Msg, "parameter") {
			out[m[1]] = true
		}
	}
	return out
}

// decode parses JSON keeping numbers as written.
func decode(t *testing.T, what string, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// checkDialectDir checks one directory's dialect files; refused lists tool names the
// generator warned about, exempt from the name rules.
func checkDialectDir(t *testing.T, dir string, files map[string][]byte, refused map[string]bool) {
	t.Helper()
	var want []string // the tool names, from mcp.json, in order
	if data := files["mcp.json"]; data != nil {
		for _, tool := range asList(asMap(decode(t, dir+"/mcp.json", data))["tools"]) {
			want = append(want, asMap(tool)["name"].(string))
		}
	}
	var problems []string
	report := func(file string, ps []string) {
		for _, p := range ps {
			problems = append(problems, dir+"/"+file+": "+p)
		}
	}
	type entry struct {
		params any
		strict bool
	}
	byAPI := map[string]map[string]entry{}
	for _, name := range dialectFiles {
		data := files[name]
		if data == nil {
			continue
		}
		if !bytes.HasSuffix(data, []byte("\n")) || bytes.HasSuffix(data, []byte("\n\n")) {
			report(name, []string{"does not end in exactly one newline"})
		}
		if indented := indentJSON(data); !bytes.Equal(indented, data) {
			report(name, []string{"is not indented by two spaces"})
		}
		doc := decode(t, dir+"/"+name, data)
		var names []string
		tools := map[string]entry{}
		switch name {
		case "openai.json":
			for i, item := range asList(doc) {
				m := asMap(item)
				report(name, keysOnly(fmt.Sprintf("[%d]", i), m, "type", "function"))
				fn := asMap(m["function"])
				report(name, keysOnly(fmt.Sprintf("[%d].function", i), fn, "name", "description", "strict", "parameters"))
				if m["type"] != "function" {
					report(name, []string{fmt.Sprintf("[%d]: type %v", i, m["type"])})
				}
				n, strict := checkOpenAITool(fn, refused, func(ps []string) { report(name, ps) })
				names = append(names, n)
				tools[n] = entry{fn["parameters"], strict}
			}
			byAPI["chat"] = tools
		case "openai-responses.json":
			for i, item := range asList(doc) {
				m := asMap(item)
				report(name, keysOnly(fmt.Sprintf("[%d]", i), m, "type", "name", "description", "strict", "parameters"))
				if m["type"] != "function" {
					report(name, []string{fmt.Sprintf("[%d]: type %v", i, m["type"])})
				}
				if _, ok := m["strict"].(bool); !ok {
					report(name, []string{fmt.Sprintf("[%d]: strict is not sent explicitly", i)})
				}
				n, strict := checkOpenAITool(m, refused, func(ps []string) { report(name, ps) })
				names = append(names, n)
				tools[n] = entry{m["parameters"], strict}
			}
			byAPI["responses"] = tools
		case "anthropic.json":
			for i, item := range asList(doc) {
				m := asMap(item)
				report(name, keysOnly(fmt.Sprintf("[%d]", i), m, "name", "description", "input_schema", "strict", "input_examples"))
				n, _ := m["name"].(string)
				if ex, ok := m["input_examples"]; ok {
					// A list of inputs: objects, as the tool_use input is.
					list, isList := ex.([]any)
					if !isList || len(list) == 0 {
						report(name, []string{n + ": input_examples is not a list of examples"})
					}
					for j, e := range list {
						if _, ok := e.(map[string]any); !ok {
							report(name, []string{fmt.Sprintf("%s: input_examples[%d] is not an object", n, j)})
						}
					}
				}
				names = append(names, n)
				report(name, checkToolName(n, openAIName, refused))
				strict, _ := m["strict"].(bool)
				if s, ok := m["strict"]; ok && s != true {
					report(name, []string{n + ": strict is written but not true"})
				}
				report(name, prefix(n+": ", anthropicProblems(asMap(m["input_schema"]), strict)))
			}
		case "gemini.json":
			d := asMap(doc)
			report(name, keysOnly("", d, "functionDeclarations"))
			for i, item := range asList(d["functionDeclarations"]) {
				m := asMap(item)
				report(name, keysOnly(fmt.Sprintf("functionDeclarations[%d]", i), m, "name", "description", "parameters"))
				n, _ := m["name"].(string)
				names = append(names, n)
				report(name, checkToolName(n, geminiName, refused))
				report(name, prefix(n+": ", geminiProblems(m["parameters"])))
			}
		}
		if want != nil && !slices.Equal(names, want) {
			report(name, []string{fmt.Sprintf("tools %q, mcp.json has %q", names, want)})
		}
		if !slices.IsSorted(names) {
			report(name, []string{fmt.Sprintf("tools %q are not sorted by name", names)})
		}
	}
	// Chat Completions and Responses take the same parameters.
	if chat, resp := byAPI["chat"], byAPI["responses"]; chat != nil && resp != nil {
		for n, c := range chat {
			if r := resp[n]; r.strict != c.strict || !reflect.DeepEqual(r.params, c.params) {
				problems = append(problems, fmt.Sprintf("%s: %s: openai.json and openai-responses.json differ", dir, n))
			}
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
}

var (
	openAIName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	geminiName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
)

func checkToolName(name string, re *regexp.Regexp, refused map[string]bool) []string {
	if !re.MatchString(name) && !refused[name] {
		return []string{fmt.Sprintf("tool name %q does not match %s", name, re)}
	}
	return nil
}

// checkOpenAITool checks an OpenAI function (Chat's "function" object or a Responses
// tool) and returns its name and strictness.
func checkOpenAITool(fn map[string]any, refused map[string]bool, report func([]string)) (string, bool) {
	name, _ := fn["name"].(string)
	report(checkToolName(name, openAIName, refused))
	strict, ok := fn["strict"].(bool)
	if !ok {
		report([]string{name + ": no strict"})
	}
	params := asMap(fn["parameters"])
	if params["type"] != "object" {
		report([]string{name + ": parameters are not an object schema"})
	}
	if strict {
		report(prefix(name+": ", openAIStrictProblems(params)))
	}
	return name, strict
}

// OpenAI strict mode (providers.md section 3).
var (
	openAIStrictKeys = []string{
		"type", "description", "title", "enum", "const", "anyOf", "$defs", "$ref", "pattern", "format",
		"multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
		"properties", "required", "additionalProperties", "items",
	}
	openAIStrictFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
	jsonTypes           = []string{"string", "number", "integer", "boolean", "object", "array", "null"}
)

// openAIStrictProblems checks a strict OpenAI parameters schema: an object root (not an
// anyOf), only the supported keywords and formats, additionalProperties false and every
// property required on every object, $ref alone, nesting depth at most 10, at most 5000
// properties and 1000 enum values.
func openAIStrictProblems(root map[string]any) []string {
	var out []string
	if _, ok := root["anyOf"]; ok {
		out = append(out, "root is an anyOf")
	}
	defs := asMap(root["$defs"])
	props, enums := 0, 0
	var walk func(n map[string]any, at string)
	walk = func(n map[string]any, at string) {
		out = append(out, keysOnly(at, n, openAIStrictKeys...)...)
		if ref, ok := n["$ref"].(string); ok {
			if len(n) != 1 {
				out = append(out, at+": $ref with other keywords")
			}
			if defs[strings.TrimPrefix(ref, "#/$defs/")] == nil {
				out = append(out, at+": $ref "+ref+" does not resolve")
			}
		}
		types := typeNames(n["type"])
		for _, ty := range types {
			if !slices.Contains(jsonTypes, ty) {
				out = append(out, at+": type "+ty)
			}
		}
		if f, ok := n["format"].(string); ok && !slices.Contains(openAIStrictFormats, f) {
			out = append(out, at+": format "+f)
		}
		if slices.Contains(types, "object") || n["properties"] != nil {
			if n["additionalProperties"] != false {
				out = append(out, at+": an object without additionalProperties false")
			}
			var keys []string
			for k := range asMap(n["properties"]) {
				keys = append(keys, k)
			}
			props += len(keys)
			var req []string
			for _, r := range asList(n["required"]) {
				req = append(req, r.(string))
			}
			slices.Sort(keys)
			slices.Sort(req)
			if !slices.Equal(keys, req) {
				out = append(out, fmt.Sprintf("%s: required %q, properties %q", at, req, keys))
			}
		} else if ap, ok := n["additionalProperties"]; ok && ap != false {
			out = append(out, at+": additionalProperties other than false")
		}
		enums += len(asList(n["enum"]))
		eachSubschema(n, at, walk)
	}
	walk(root, "")
	for k, d := range defs {
		walk(asMap(d), "/$defs/"+k)
	}
	if d := jsonDepth(root, defs); d > 10 {
		out = append(out, fmt.Sprintf("objects nested %d deep", d))
	}
	if props > 5000 {
		out = append(out, fmt.Sprintf("%d properties", props))
	}
	if enums > 1000 {
		out = append(out, fmt.Sprintf("%d enum values", enums))
	}
	return out
}

// Anthropic strict tool use (providers.md section 4, anthropic-sdk-go's schemautil.go).
var (
	anthropicStrictKeys = []string{
		"$ref", "$defs", "type", "anyOf", "oneOf", "allOf", "description", "title", "enum", "const",
		"properties", "additionalProperties", "required", "items", "minItems", "format", "pattern",
	}
	anthropicStrictFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)

// anthropicProblems checks an input_schema: an object root; when strict, only the
// allowed keys and formats, additionalProperties false on every object, minItems 0 or
// 1, $ref alone, no recursion, at most 16 union-typed values.
func anthropicProblems(root map[string]any, strict bool) []string {
	var out []string
	if root["type"] != "object" {
		out = append(out, "input_schema is not an object schema")
	}
	if !strict {
		return out
	}
	defs := asMap(root["$defs"])
	unions := 0
	var walk func(n map[string]any, at string)
	walk = func(n map[string]any, at string) {
		out = append(out, keysOnly(at, n, anthropicStrictKeys...)...)
		if _, ok := n["$ref"]; ok && len(n) != 1 {
			out = append(out, at+": $ref with other keywords")
		}
		types := typeNames(n["type"])
		if slices.Contains(types, "object") || n["properties"] != nil {
			if n["additionalProperties"] != false {
				out = append(out, at+": an object without additionalProperties false")
			}
		} else if ap, ok := n["additionalProperties"]; ok && ap != false {
			out = append(out, at+": additionalProperties other than false")
		}
		if mi, ok := n["minItems"]; ok && mi.(json.Number) != "0" && mi.(json.Number) != "1" {
			out = append(out, fmt.Sprintf("%s: minItems %v", at, mi))
		}
		if f, ok := n["format"].(string); ok && !slices.Contains(anthropicStrictFormats, f) {
			out = append(out, at+": format "+f)
		}
		if len(types) > 1 || n["anyOf"] != nil {
			unions++
		}
		eachSubschema(n, at, walk)
	}
	walk(root, "")
	for k, d := range defs {
		walk(asMap(d), "/$defs/"+k)
	}
	if unions > 16 {
		out = append(out, fmt.Sprintf("%d union-typed values", unions))
	}
	// No recursion: no definition reaches itself, and nothing refers to the root.
	refs := map[string][]string{}
	for k, d := range defs {
		var collect func(n map[string]any, at string)
		collect = func(n map[string]any, at string) {
			if ref, ok := n["$ref"].(string); ok {
				refs[k] = append(refs[k], strings.TrimPrefix(ref, "#/$defs/"))
			}
			eachSubschema(n, at, collect)
		}
		collect(asMap(d), "")
	}
	for k := range defs {
		seen := map[string]bool{}
		stack := slices.Clone(refs[k])
		for len(stack) > 0 {
			r := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if r == k {
				out = append(out, "recursive $defs entry "+k)
				break
			}
			if !seen[r] {
				seen[r] = true
				stack = append(stack, refs[r]...)
			}
		}
	}
	if bytes.Contains(mustMarshal(root), []byte(`"$ref":"#"`)) {
		out = append(out, "a reference to the root")
	}
	return out
}

// Gemini (providers.md section 5, genai.Schema).
var (
	geminiTypeNames = []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}
	// geminiKeys are genai.Schema's JSON field names, from testdata/genai_schema_keys.txt
	// (the root module does not require the SDK; interop (TestGenaiSchemaKeys) checks the file
	// against genai.Schema).
	geminiKeys = func() []string {
		data, err := os.ReadFile(filepath.Join("testdata", "genai_schema_keys.txt"))
		if err != nil {
			panic(err)
		}
		var keys []string
		for _, line := range strings.Split(string(data), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				keys = append(keys, line)
			}
		}
		return keys
	}()
	geminiFormats = map[string][]string{
		"STRING":  {"enum", "date-time"},
		"NUMBER":  {"float", "double"},
		"INTEGER": {"int32", "int64"},
	}
)

// geminiProblems checks Gemini parameters: an OBJECT root; only genai.Schema's fields
// (so no $ref, $defs, additionalProperties, oneOf, allOf, const); one upper-case type
// on every node that is not an anyOf; enums only on STRING, of strings; items on every
// ARRAY; each keyword on the type it belongs to; required naming properties.
func geminiProblems(params any) []string {
	if params == nil {
		return nil
	}
	var out []string
	root := asMap(params)
	if root["type"] != "OBJECT" {
		out = append(out, "parameters are not an OBJECT")
	}
	var walk func(n map[string]any, at string)
	walk = func(n map[string]any, at string) {
		out = append(out, keysOnly(at, n, geminiKeys...)...)
		for _, k := range []string{"$ref", "$defs", "additionalProperties", "oneOf", "allOf"} {
			if _, ok := n[k]; ok {
				out = append(out, at+": "+k)
			}
		}
		ty, isString := n["type"].(string)
		switch {
		case n["type"] != nil && !isString:
			out = append(out, fmt.Sprintf("%s: type %v is not one name", at, n["type"]))
		case n["type"] == nil && n["anyOf"] == nil:
			out = append(out, at+": no type")
		case isString && !slices.Contains(geminiTypeNames, ty):
			out = append(out, at+": type "+ty)
		}
		if e, ok := n["enum"]; ok {
			if ty != "STRING" {
				out = append(out, at+": enum on "+ty)
			}
			for _, v := range asList(e) {
				if _, ok := v.(string); !ok {
					out = append(out, fmt.Sprintf("%s: enum value %v is not a string", at, v))
				}
			}
		}
		if f, ok := n["format"].(string); ok && !slices.Contains(geminiFormats[ty], f) {
			out = append(out, at+": format "+f+" on "+ty)
		}
		if ty == "ARRAY" && n["items"] == nil {
			out = append(out, at+": ARRAY without items")
		}
		for kw, types := range map[string][]string{
			"minimum": {"INTEGER", "NUMBER"}, "maximum": {"INTEGER", "NUMBER"},
			"minLength": {"STRING"}, "maxLength": {"STRING"}, "pattern": {"STRING"},
			"minItems": {"ARRAY"}, "maxItems": {"ARRAY"}, "items": {"ARRAY"},
			"properties": {"OBJECT"}, "required": {"OBJECT"}, "minProperties": {"OBJECT"}, "maxProperties": {"OBJECT"},
		} {
			if _, ok := n[kw]; ok && !slices.Contains(types, ty) {
				out = append(out, at+": "+kw+" on "+ty)
			}
		}
		props := asMap(n["properties"])
		for _, r := range asList(n["required"]) {
			if _, ok := props[r.(string)]; !ok {
				out = append(out, fmt.Sprintf("%s: required %v is not a property", at, r))
			}
		}
		eachSubschema(n, at, walk)
	}
	walk(root, "")
	return out
}

// eachSubschema calls fn for the subschemas of n: properties, items, anyOf,
// additionalProperties (when a schema).
func eachSubschema(n map[string]any, at string, fn func(map[string]any, string)) {
	for k, p := range asMap(n["properties"]) {
		fn(asMap(p), at+"/properties/"+k)
	}
	if it, ok := n["items"].(map[string]any); ok {
		fn(it, at+"/items")
	}
	if ap, ok := n["additionalProperties"].(map[string]any); ok {
		fn(ap, at+"/additionalProperties")
	}
	for i, a := range asList(n["anyOf"]) {
		fn(asMap(a), fmt.Sprintf("%s/anyOf/%d", at, i))
	}
}

// jsonDepth returns how deeply objects nest, following references once.
func jsonDepth(root map[string]any, defs map[string]any) int {
	var depth func(n map[string]any, stack []string) int
	depth = func(n map[string]any, stack []string) int {
		d := 0
		if ref, ok := n["$ref"].(string); ok {
			key := strings.TrimPrefix(ref, "#/$defs/")
			if !slices.Contains(stack, key) {
				d = depth(asMap(defs[key]), append(slices.Clone(stack), key))
			}
		}
		eachSubschema(n, "", func(c map[string]any, _ string) { d = max(d, depth(c, stack)) })
		if n["properties"] != nil {
			d++
		}
		return d
	}
	return depth(root, nil)
}

// typeNames returns the "type" keyword as a list.
func typeNames(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			s, _ := x.(string)
			out = append(out, s)
		}
		return out
	}
	return nil
}

// keysOnly reports the keys of m outside allowed.
func keysOnly(at string, m map[string]any, allowed ...string) []string {
	var out []string
	for k := range m {
		if !slices.Contains(allowed, k) {
			out = append(out, fmt.Sprintf("%s: keyword %q", orRoot(at), k))
		}
	}
	slices.Sort(out)
	return out
}

func prefix(p string, list []string) []string {
	for i := range list {
		list[i] = p + list[i]
	}
	return list
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	if m == nil {
		return map[string]any{}
	}
	return m
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// indentJSON re-indents JSON by two spaces, as toolgen writes it.
func indentJSON(data []byte) []byte {
	var buf bytes.Buffer
	if err := json.Indent(&buf, bytes.TrimSpace(data), "", "  "); err != nil {
		return nil
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}
