package generator

import (
	"regexp"
	"strings"
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

// lower lowers the tool's input schema to every provider dialect and records what the
// dialects had to give up.
func (ts *toolSchema) lower(sink *warningSink) error {
	var err error
	var issues issueList
	ts.openAI.params, ts.openAI.strict, issues = lowerOpenAI(ts)
	sink.add(ts.tool, openAIDialect, notStrictFor, issues)
	ts.anthropic.params, ts.anthropic.strict, issues = lowerAnthropic(ts)
	sink.add(ts.tool, anthropicDialect, notStrictFor, issues)
	ts.gemini, issues = lowerGemini(ts)
	sink.add(ts.tool, geminiDialect, approximatedFor, issues)
	for _, l := range []*lowered{&ts.openAI, &ts.anthropic} {
		if l.json, err = encodeJSON(l.params, false); err != nil {
			return err
		}
	}
	if ts.geminiJSON, err = encodeJSON(ts.gemini, false); err != nil {
		return err
	}
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
				is.add(e.Schema.field, "", "parameter %q does not match %s", e.Name, geminiParamName)
			}
		}
		sink.add(ts.tool, geminiDialect, nameMayBeRefused, is)
	}
	return nil
}

// description is the tool's description as the providers get it.
func (ts *toolSchema) description() string {
	return strings.TrimSpace(ts.tool.Description)
}

// openAIFunction is the function of a Chat Completions tool.
type openAIFunction struct {
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	Strict      bool    `json:"strict"`
	Parameters  *schema `json:"parameters"`
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
			Name: ts.tool.Name, Description: ts.description(), Strict: ts.openAI.strict, Parameters: ts.openAI.params,
		}})
	}
	return out, nil
}

// renderOpenAIResponses renders toolschema/openai-responses.json: the Responses API
// "tools" array, whose function tools are flat and always say whether they are strict.
func renderOpenAIResponses(s *schemaSet) (any, error) {
	type tool struct {
		Type        string  `json:"type"`
		Name        string  `json:"name"`
		Description string  `json:"description,omitempty"`
		Strict      bool    `json:"strict"`
		Parameters  *schema `json:"parameters"`
	}
	out := []tool{}
	for _, ts := range s.tools {
		out = append(out, tool{
			Type: "function", Name: ts.tool.Name, Description: ts.description(), Strict: ts.openAI.strict, Parameters: ts.openAI.params,
		})
	}
	return out, nil
}

// renderAnthropic renders toolschema/anthropic.json: the Messages API "tools" array.
func renderAnthropic(s *schemaSet) (any, error) {
	type tool struct {
		Name        string  `json:"name"`
		Description string  `json:"description,omitempty"`
		InputSchema *schema `json:"input_schema"`
		Strict      bool    `json:"strict,omitempty"`
	}
	out := []tool{}
	for _, ts := range s.tools {
		out = append(out, tool{
			Name: ts.tool.Name, Description: ts.description(), InputSchema: ts.anthropic.params, Strict: ts.anthropic.strict,
		})
	}
	return out, nil
}

// renderGemini renders toolschema/gemini.json: a Tool with its functionDeclarations.
func renderGemini(s *schemaSet) (any, error) {
	type declaration struct {
		Name        string        `json:"name"`
		Description string        `json:"description,omitempty"`
		Parameters  *geminiSchema `json:"parameters"`
	}
	doc := struct {
		FunctionDeclarations []declaration `json:"functionDeclarations"`
	}{FunctionDeclarations: []declaration{}}
	for _, ts := range s.tools {
		doc.FunctionDeclarations = append(doc.FunctionDeclarations, declaration{
			Name: ts.tool.Name, Description: ts.description(), Parameters: ts.gemini,
		})
	}
	return doc, nil
}
