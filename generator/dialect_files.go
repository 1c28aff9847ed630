package generator

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/dialect"
	"github.com/toolgen/toolgen/runtime/jsonread"
)

// Provider name rules. The parser already holds tool names to ^[a-zA-Z0-9_-]{1,64}$,
// which fits OpenAI and Anthropic; these checks are defensive, for models built by hand.
var (
	openAIToolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	// Gemini: a letter or "_" first, then letters, digits, "_", ".", ":" and "-"; 64
	// characters on older SDKs, 128 on newer.
	geminiToolName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
)

// What a warning says happened, before the dialects it happened in.
const (
	notStrictFor     = "not strict for"
	approximatedFor  = "approximated for"
	nameMayBeRefused = "name may be refused by"
)

// The providers' names in warnings.
const (
	openAIDialect    = "OpenAI"
	anthropicDialect = "Anthropic"
	geminiDialect    = "Gemini"
)

// geminiParamName is what Gemini takes as a parameter name.
var geminiParamName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// lower lowers the tool's input schema to every provider dialect with runtime/dialect,
// as the adapters do at run time, and records what the dialects had to give up. Every
// dialect drops the root's "$schema" (schema=), which no provider needs, so the
// provider files are the same with it as without.
func (ts *toolSchema) lower(sink *warningSink) error {
	in := dialect.Parse(ts.inputJSON) // read once for the three
	l, ws := in.OpenAI(ts.tool.Strict)
	ts.openAI = lowered{json: l.Parameters, strict: l.Strict}
	sink.add(ts.tool, openAIDialect, notStrictFor, ts.issues(ws))
	l, ws = in.Anthropic(ts.tool.Strict)
	ts.anthropic = lowered{json: l.Parameters, strict: l.Strict}
	sink.add(ts.tool, anthropicDialect, notStrictFor, ts.issues(ws))
	l, ws = in.Gemini()
	if l.Parameters == nil {
		return fmt.Errorf("gemini schema: %s", ws[0].Message)
	}
	ts.geminiJSON = l.Parameters
	sink.add(ts.tool, geminiDialect, approximatedFor, ts.issues(ws))
	name := ts.tool.Name
	if !openAIToolName.MatchString(name) {
		var is issueList
		is.add(nil, "", "%q does not match %s", name, openAIToolName)
		sink.add(ts.tool, openAIDialect, nameMayBeRefused, is)
		sink.add(ts.tool, anthropicDialect, nameMayBeRefused, is)
	}
	if !geminiToolName.MatchString(name) {
		var is issueList
		is.add(nil, "", "%q does not match %s (a letter or _ first, at most 64 characters)", name, geminiToolName)
		sink.add(ts.tool, geminiDialect, nameMayBeRefused, is)
	}
	if ts.input.Properties != nil {
		var is issueList
		for _, e := range *ts.input.Properties {
			if !geminiParamName.MatchString(e.Name) {
				is.add(e.Schema.Ext.field, "", "parameter %q does not match %s", e.Name, geminiParamName)
			}
		}
		sink.add(ts.tool, geminiDialect, nameMayBeRefused, is)
	}
	return nil
}

// issues turns a lowering's warnings into issues, each at the field whose property
// the warning's JSON Pointer names.
func (ts *toolSchema) issues(ws []dialect.Warning) issueList {
	var out issueList
	for _, w := range ws {
		out.add(fieldAt(ts.input, w.Field), w.Path, "%s", w.Message)
	}
	return out
}

// fieldAt returns the field of the node at the JSON Pointer ptr of root, nil when no
// node there has one.
func fieldAt(root *schema, ptr string) *model.Field {
	if ptr == "" {
		return nil
	}
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, s := range segs {
		segs[i] = jsonread.UnescapeToken(s)
	}
	n := root
	for i := 0; n != nil && i < len(segs); i++ {
		switch segs[i] {
		case "items":
			n = n.Items
		case "additionalProperties":
			n = n.AdditionalProperties
		case "propertyNames":
			n = n.PropertyNames
		case "properties", "$defs", "anyOf":
			if i+1 == len(segs) {
				return nil
			}
			key := segs[i+1]
			i++
			switch segs[i-1] {
			case "properties":
				if n.Properties == nil {
					return nil
				}
				n = n.Properties.Get(key)
			case "$defs":
				n = n.Defs.Get(key)
			default:
				k, err := strconv.Atoi(key)
				if err != nil || k < 0 || k >= len(n.AnyOf) {
					return nil
				}
				n = n.AnyOf[k]
			}
		default:
			return nil
		}
	}
	if n == nil {
		return nil
	}
	return n.Ext.field
}

// description is the tool's description as the providers get it.
func (ts *toolSchema) description() string {
	return strings.TrimSpace(ts.tool.Description)
}

// openAIFunction is the function of a Chat Completions tool.
type openAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Strict      bool            `json:"strict"`
	Parameters  json.RawMessage `json:"parameters"`
}

// renderOpenAIChat renders toolschema/openai.json: the Chat Completions "tools" array.
func renderOpenAIChat(s *schemaSet) (any, error) {
	type tool struct {
		Type     string         `json:"type"`
		Function openAIFunction `json:"function"`
	}
	out := []tool{}
	for _, ts := range s.tools {
		out = append(out, tool{Type: "function", Function: openAIFunction{
			Name: ts.tool.Name, Description: ts.description(), Strict: ts.openAI.strict, Parameters: ts.openAI.json,
		}})
	}
	return out, nil
}

// renderOpenAIResponses renders toolschema/openai-responses.json: the Responses API
// "tools" array, whose function tools are flat and always say whether they are strict.
func renderOpenAIResponses(s *schemaSet) (any, error) {
	type tool struct {
		Type        string          `json:"type"`
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Strict      bool            `json:"strict"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	out := []tool{}
	for _, ts := range s.tools {
		out = append(out, tool{
			Type: "function", Name: ts.tool.Name, Description: ts.description(), Strict: ts.openAI.strict, Parameters: ts.openAI.json,
		})
	}
	return out, nil
}

// renderAnthropic renders toolschema/anthropic.json: the Messages API "tools" array,
// as runtime/anthropic sends it.
func renderAnthropic(s *schemaSet) (any, error) {
	out := []anthropic.Tool{}
	for _, ts := range s.tools {
		out = append(out, anthropic.Tool{
			Name: ts.tool.Name, Description: ts.description(), InputSchema: ts.anthropic.json, Strict: ts.anthropic.strict,
			InputExamples: exampleValues(ts.tool),
		})
	}
	return out, nil
}

// renderGemini renders toolschema/gemini.json: a Tool with its functionDeclarations.
func renderGemini(s *schemaSet) (any, error) {
	type declaration struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	doc := struct {
		FunctionDeclarations []declaration `json:"functionDeclarations"`
	}{FunctionDeclarations: []declaration{}}
	for _, ts := range s.tools {
		doc.FunctionDeclarations = append(doc.FunctionDeclarations, declaration{
			Name: ts.tool.Name, Description: ts.description(), Parameters: ts.geminiJSON,
		})
	}
	return doc, nil
}
