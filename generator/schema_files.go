package generator

import (
	"bytes"
	"encoding/json"
	"fmt"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime/schematree"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// schemaSet holds the canonical schemas of a package's tools and the schema files made
// from them. It is built once by buildSchemas and only read afterwards.
type schemaSet struct {
	// tools are the tools' schemas, sorted by tool name.
	tools []*toolSchema
	// rendered are the files under toolschema/, sorted by path.
	rendered []File
	// warnings are the problems the dialects found, sorted.
	warnings []Warning
	// errors are the input examples the tools' input schemas refuse, sorted.
	errors SourceErrors
}

// toolSchema is one tool's canonical schemas.
type toolSchema struct {
	tool *model.Tool
	// input is the input schema; output the output schema, nil when there is none.
	input, output *schema
	// inputJSON and outputJSON are the same schemas as compact JSON, the roots led by
	// "$schema" when the package says schema= (model.Package.SchemaURI). Every
	// rendering of the canonical schemas (toolschema/<tool>.json, mcp.json, the
	// runtime.Tool definitions of toolgen.gen.go) starts from these bytes.
	inputJSON, outputJSON []byte

	// openAI and anthropic are the input schema lowered to those providers' dialects
	// (the canonical schema itself when not strict) by runtime/dialect.
	openAI, anthropic lowered
	// geminiJSON is the input schema lowered to Gemini's dialect, compact JSON.
	geminiJSON []byte

	// program is inputJSON compiled by the engine dynamic tools use: the generated
	// decoder's checks are read from its nodes (gocode_program.go).
	program *toolimpl.Program
}

// lowered is a tool's input schema in one provider's dialect.
type lowered struct {
	// json is the schema as compact JSON.
	json []byte
	// strict reports that json meets the provider's strict mode, for a tool that
	// asks for it.
	strict bool
}

// dialectFile is one file under toolschema/ beside the per-tool files,
// toolschema/<name>.json, rendered from the schemas runtime/dialect lowered.
type dialectFile struct {
	// name is the file's base name; no tool may take it.
	name string
	// render returns the document to write, marshaled with two-space indent.
	render func(s *schemaSet) (any, error)
}

// dialects returns the dialect files written beside the per-tool files.
func dialects() []dialectFile {
	return []dialectFile{
		{name: "mcp", render: renderMCP},
		{name: "openai", render: renderOpenAIChat},
		{name: "openai-responses", render: renderOpenAIResponses},
		{name: "anthropic", render: renderAnthropic},
		{name: "gemini", render: renderGemini},
	}
}

// reservedName reports whether a tool name would clash with a dialect file under
// toolschema/.
func reservedName(name string) bool {
	switch name {
	case "mcp", "openai", "openai-responses", "anthropic", "gemini":
		return true
	}
	return false
}

// buildSchemas builds the canonical input and output schemas of every tool in pkg and
// renders the files under toolschema/.
// canonicalSchemas builds and checks the canonical input and output schemas of pkg's
// tools, and their input examples (set.errors).
func canonicalSchemas(pkg *model.Package) (*schemaSet, error) {
	if pkg.SchemaDialect != "" && pkg.SchemaURI() == "" {
		return nil, fmt.Errorf("unknown schema dialect %q (want %q)", pkg.SchemaDialect, model.SchemaDialect202012)
	}
	cyclic := cyclicTypes(pkg)
	set := &schemaSet{}
	seen := map[string]bool{}
	for _, t := range pkg.Tools {
		if t == nil {
			return nil, fmt.Errorf("missing tool")
		}
		if seen[t.Name] {
			return nil, fmt.Errorf("two tools are named %q", t.Name)
		}
		seen[t.Name] = true
		if reservedName(t.Name) {
			return nil, fmt.Errorf("tool %s: the name %q is reserved for %s/%s.json; choose another with name=", t.Name, t.Name, SchemaDir, t.Name)
		}
	}
	// Each tool's schemas are its own work: built, checked, lowered and encoded on
	// as many goroutines as there are processors, then put together in order, so
	// that the output is the same as one goroutine's.
	set.tools = make([]*toolSchema, len(pkg.Tools))
	exampleErrs := make([]SourceErrors, len(pkg.Tools))
	if err := eachTool(len(pkg.Tools), func(i int) error {
		t := pkg.Tools[i]
		ts, err := buildTool(pkg, cyclic, t)
		if err != nil {
			return fmt.Errorf("tool %s: %w", t.Name, err)
		}
		errs, err := checkExamples(t, ts.inputJSON)
		if err != nil {
			return fmt.Errorf("tool %s: %w", t.Name, err)
		}
		exampleErrs[i] = errs
		set.tools[i] = ts
		return nil
	}); err != nil {
		return nil, err
	}
	for _, errs := range exampleErrs {
		set.errors = append(set.errors, errs...)
	}
	slices.SortFunc(set.tools, func(a, b *toolSchema) int { return strings.Compare(a.tool.Name, b.tool.Name) })
	set.errors.sort()
	return set, nil
}

// buildSchemas builds the canonical schemas of pkg's tools (canonicalSchemas), then
// lowers them to each dialect and renders the schema files (lowerAll).
func buildSchemas(pkg *model.Package) (*schemaSet, error) {
	set, err := canonicalSchemas(pkg)
	if err != nil {
		return nil, err
	}
	if err := set.lowerAll(); err != nil {
		return nil, err
	}
	return set, nil
}

// lowerAll lowers the canonical schemas to each dialect, collecting the warnings, and
// renders the schema files. It writes only what inputJSON and outputJSON do not read,
// so that goSource may run at the same time.
func (set *schemaSet) lowerAll() error {
	// A tool's warnings are its own (warningSink merges a tool's issues only), so each
	// tool gets a sink, and the sinks are joined in the tools' order.
	sinks := make([]warningSink, len(set.tools))
	files := make([]File, len(set.tools))
	if err := eachTool(len(set.tools), func(i int) error {
		ts := set.tools[i]
		if err := ts.lower(&sinks[i]); err != nil {
			return fmt.Errorf("tool %s: %w", ts.tool.Name, err)
		}
		data, err := schematree.EncodeJSON(mcpToolOf(ts, true), true)
		if err != nil {
			return fmt.Errorf("tool %s: %w", ts.tool.Name, err)
		}
		files[i] = File{Path: SchemaDir + "/" + ts.tool.Name + ".json", Data: data}
		return nil
	}); err != nil {
		return err
	}
	var sink warningSink
	for i := range sinks {
		sink.entries = append(sink.entries, sinks[i].entries...)
	}
	set.warnings = sink.warnings()
	set.rendered = append(set.rendered, files...)
	for _, d := range dialects() {
		doc, err := d.render(set)
		if err != nil {
			return fmt.Errorf("%s schemas: %w", d.name, err)
		}
		data, err := schematree.EncodeJSON(doc, true)
		if err != nil {
			return fmt.Errorf("%s schemas: %w", d.name, err)
		}
		set.rendered = append(set.rendered, File{Path: SchemaDir + "/" + d.name + ".json", Data: data})
	}
	sortFiles(set.rendered)
	return nil
}

// buildTool builds one tool's schemas.
func buildTool(pkg *model.Package, cyclic map[string]bool, t *model.Tool) (*toolSchema, error) {
	ts := &toolSchema{tool: t}
	var err error
	in := newBuilder(pkg, cyclic, false)
	if ts.input, err = in.build(func() (*schema, error) { return in.inputRoot(t) }); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	ts.input.Examples = exampleValues(t)
	if ts.inputJSON, err = encodeRoot(ts.input, pkg.SchemaURI()); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	if ts.program, err = toolimpl.CompileSchema(t.Name, ts.inputJSON, sensitivePaths(pkg, t)); err != nil {
		return nil, fmt.Errorf("input schema: compile: %w", err)
	}
	if !t.Output.Structured() {
		return ts, nil
	}
	if t.Output.Type == nil {
		return nil, fmt.Errorf("output schema: missing type")
	}
	out := newBuilder(pkg, cyclic, true)
	if ts.output, err = out.build(func() (*schema, error) { return out.outputRoot(t.Output.Type) }); err != nil {
		return nil, fmt.Errorf("output schema: %w", err)
	}
	if ts.outputJSON, err = encodeRoot(ts.output, pkg.SchemaURI()); err != nil {
		return nil, fmt.Errorf("output schema: %w", err)
	}
	return ts, nil
}

// encodeRoot returns the root schema s as compact JSON, with "$schema": uri as the
// first key of the root object when uri is not "" (only the root: a nested node or an
// entry of "$defs" never names the dialect).
func encodeRoot(s *schema, uri string) ([]byte, error) {
	data, err := schematree.EncodeJSON(s, false)
	if err != nil || uri == "" {
		return data, err
	}
	body, ok := bytes.CutPrefix(data, []byte("{"))
	if !ok {
		return nil, fmt.Errorf("the root is %s, not an object, so it cannot carry \"$schema\"", data)
	}
	key, err := schematree.EncodeJSON(uri, false)
	if err != nil {
		return nil, err
	}
	out := append([]byte(`{"$schema":`), key...)
	if !bytes.Equal(body, []byte("}")) {
		out = append(out, ',')
	}
	return append(out, body...), nil
}

// files returns the files under toolschema/: toolschema/<tool>.json for every tool and
// one file per dialect, sorted by path.
func (s *schemaSet) files() []File {
	files := make([]File, len(s.rendered))
	for i, f := range s.rendered {
		files[i] = File{Path: f.Path, Data: bytes.Clone(f.Data)}
	}
	return files
}

// program returns the compiled input schema of the named tool, or nil.
func (s *schemaSet) program(tool string) *toolimpl.Program {
	if ts := s.lookup(tool); ts != nil {
		return ts.program
	}
	return nil
}

// lookup returns the schemas of the named tool, or nil.
func (s *schemaSet) lookup(tool string) *toolSchema {
	i, ok := slices.BinarySearchFunc(s.tools, tool, func(t *toolSchema, name string) int {
		return strings.Compare(t.tool.Name, name)
	})
	if !ok {
		return nil
	}
	return s.tools[i]
}

// inputJSON returns the tool's canonical input schema as compact JSON, the same schema
// as in its toolschema file, or nil for an unknown tool.
func (s *schemaSet) inputJSON(tool string) []byte {
	if ts := s.lookup(tool); ts != nil {
		return bytes.Clone(ts.inputJSON)
	}
	return nil
}

// outputJSON returns the tool's canonical output schema as compact JSON, or nil when
// the tool has none (its output is not a value) or is unknown.
func (s *schemaSet) outputJSON(tool string) []byte {
	if ts := s.lookup(tool); ts != nil && ts.outputJSON != nil {
		return bytes.Clone(ts.outputJSON)
	}
	return nil
}

// sortFiles sorts files by path.
func sortFiles(files []File) {
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
}

// mcpTool is an MCP Tool object, as in tools/list, plus toolgen's groups.
type mcpTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  *mcpAnnotations `json:"annotations,omitempty"`
	Groups       []string        `json:"groups,omitempty"`
}

// mcpAnnotations are MCP tool annotations: only what the author wrote.
type mcpAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// mcpToolOf returns the MCP Tool object of ts, with its groups when withGroups is set.
func mcpToolOf(ts *toolSchema, withGroups bool) *mcpTool {
	t := ts.tool
	m := &mcpTool{
		Name:         t.Name,
		Title:        t.Title,
		Description:  strings.TrimSpace(t.Description),
		InputSchema:  ts.inputJSON,
		OutputSchema: ts.outputJSON,
	}
	a := t.Annotations
	if t.Title != "" || a.ReadOnly != nil || a.Destructive != nil || a.Idempotent != nil || a.OpenWorld != nil {
		m.Annotations = &mcpAnnotations{
			Title:           t.Title,
			ReadOnlyHint:    a.ReadOnly,
			DestructiveHint: a.Destructive,
			IdempotentHint:  a.Idempotent,
			OpenWorldHint:   a.OpenWorld,
		}
	}
	if withGroups {
		m.Groups = t.Groups
	}
	return m
}

// renderMCP renders toolschema/mcp.json: the tools/list result, without groups.
func renderMCP(s *schemaSet) (any, error) {
	doc := struct {
		Tools []*mcpTool `json:"tools"`
	}{Tools: []*mcpTool{}}
	for _, ts := range s.tools {
		doc.Tools = append(doc.Tools, mcpToolOf(ts, false))
	}
	return doc, nil
}

// eachTool runs work(i) for i in [0, n) on up to GOMAXPROCS goroutines and returns
// the error of the smallest i that failed, as a loop that stops at the first error
// would (work must be safe to run concurrently for different i).
func eachTool(n int, work func(i int) error) error {
	workers := min(goruntime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			if err := work(i); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				errs[i] = work(i)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
