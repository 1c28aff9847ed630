// Package suite holds the tools the official MCP conformance suite
// (@modelcontextprotocol/conformance) calls by name, written as ordinary toolgen tools:
// content blocks of every kind, an error, progress, log messages to the client, a
// question to the client's model (sampling) and forms for its user (elicitation), and
// a tool whose input schema keeps JSON Schema 2020-12's "$schema", "$defs" and
// "additionalProperties". Each is what the suite's scenario of the same name asks for.
//
// The last one's schema is toolgen's as for any tool: the package's schema=2020-12
// option writes "$schema", a named type used twice (address) goes in "$defs" once,
// and every object toolgen writes is closed ("additionalProperties": false).
//
// What a tool asks of the client goes through its context (client.Sample,
// client.Elicit, client.Logger, progress.Report): toolmcp serves it over the
// MCP session, and anywhere else it degrades to an error a tool can report
// (errors.ErrUnsupported) or to nothing (logs and progress nobody listens to). The
// tools that ask return the error of a request as it is, wrapped: under MCP
// 2026-07-28 it ends the round of the call (client.ErrInputRequired), which runs
// again with the answer.
//
//toolgen:package schema=2020-12
package suite

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"time"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
	"github.com/toolgen/toolgen/runtime/progress"
)

//go:generate go tool toolgen generate

// SimpleText answers with one text block.
//
//toolgen:tool name=test_simple_text readonly idempotent openworld=false
func SimpleText() string {
	return "This is a simple text response for testing."
}

// Image answers with a picture: one red pixel, as a PNG image block.
//
//toolgen:tool name=test_image_content readonly idempotent openworld=false
func Image() *runtime.Result {
	return &runtime.Result{Content: []runtime.Content{runtime.ImageContent(redPixel(), "image/png")}}
}

// Audio answers with a sound: a tenth of a second of silence, as a WAV audio block.
//
//toolgen:tool name=test_audio_content readonly idempotent openworld=false
func Audio() *runtime.Result {
	return &runtime.Result{Content: []runtime.Content{runtime.AudioContent(silence(), "audio/wav")}}
}

// EmbeddedResource answers with a text resource embedded in the result.
//
//toolgen:tool name=test_embedded_resource readonly idempotent openworld=false
func EmbeddedResource() *runtime.Result {
	return &runtime.Result{Content: []runtime.Content{
		runtime.TextResource("test://embedded-resource", "text/plain", "This is an embedded resource content."),
	}}
}

// MultipleContentTypes answers with text, an image and an embedded JSON resource.
//
//toolgen:tool name=test_multiple_content_types readonly idempotent openworld=false
func MultipleContentTypes() *runtime.Result {
	return &runtime.Result{Content: []runtime.Content{
		runtime.TextContent("Multiple content types test:"),
		runtime.ImageContent(redPixel(), "image/png"),
		runtime.TextResource("test://mixed-content-resource", "application/json", `{"test":"data","value":123}`),
	}}
}

// step is the pause between the steps of the slow tools. toolmcp sends at most one
// progress notification per toolmcp.DefaultProgressInterval (100 ms), the newest of an
// interval standing for the others: pausing as long keeps every report.
const step = 100 * time.Millisecond

// WithLogging works in three steps and logs each to the client.
//
//toolgen:tool name=test_tool_with_logging readonly idempotent openworld=false
func WithLogging(ctx context.Context) (string, error) {
	log := client.Logger(ctx)
	log.Info("Tool execution started")
	if err := pause(ctx, step/2); err != nil {
		return "", err
	}
	log.Info("Tool processing data")
	if err := pause(ctx, step/2); err != nil {
		return "", err
	}
	log.Info("Tool execution completed")
	return "Tool with logging executed successfully", nil
}

// ErrorHandling always fails.
//
//toolgen:tool name=test_error_handling readonly idempotent openworld=false
func ErrorHandling() error {
	return runtime.ToolErrorf("This tool intentionally returns an error for testing")
}

// WithProgress works in three steps and reports its progress after each.
//
//toolgen:tool name=test_tool_with_progress readonly idempotent openworld=false
func WithProgress(ctx context.Context) (string, error) {
	for i, done := range []float64{0, 50, 100} {
		if i > 0 {
			if err := pause(ctx, step); err != nil {
				return "", err
			}
		}
		progress.Report(ctx, done, 100, fmt.Sprintf("step %d of 3", i+1))
	}
	return "Tool with progress executed successfully", nil
}

// SamplingArgs are the arguments of test_sampling.
type SamplingArgs struct {
	// Prompt is what to ask the client's model.
	Prompt string `json:"prompt" tool:"minLength=1,maxLength=4000"`
}

// Sampling asks the client's model the prompt and answers with its reply.
//
//toolgen:tool name=test_sampling readonly openworld
func Sampling(ctx context.Context, a SamplingArgs) (string, error) {
	res, err := client.Sample(ctx, &client.SampleRequest{
		Messages:  []client.SampleMessage{client.UserMessage(a.Prompt)},
		MaxTokens: 100,
	})
	if err != nil {
		return "", runtime.ToolErrorf("sampling failed: %w", err)
	}
	return "LLM response: " + res.Text(), nil
}

// ElicitationArgs are the arguments of test_elicitation.
type ElicitationArgs struct {
	// Message is what to tell the user.
	Message string `json:"message" tool:"minLength=1,maxLength=4000"`
}

// userForm asks for a username and an email address.
const userForm = `{
	"type": "object",
	"properties": {
		"username": {"type": "string", "description": "User's response"},
		"email": {"type": "string", "description": "User's email address"}
	},
	"required": ["username", "email"]
}`

// Elicitation asks the user for a username and an email address, with the message,
// and answers with what the user did.
//
//toolgen:tool name=test_elicitation readonly openworld
func Elicitation(ctx context.Context, a ElicitationArgs) (string, error) {
	res, err := ask(ctx, a.Message, userForm)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("User response: action=%s, content=%s", res.Action, contentOf(res)), nil
}

// defaultsForm has a default for every primitive type (SEP-1034).
const defaultsForm = `{
	"type": "object",
	"properties": {
		"name": {"type": "string", "description": "User name", "default": "John Doe"},
		"age": {"type": "integer", "description": "User age", "default": 30},
		"score": {"type": "number", "description": "User score", "default": 95.5},
		"status": {"type": "string", "description": "User status", "enum": ["active", "inactive", "pending"], "default": "active"},
		"verified": {"type": "boolean", "description": "Verification status", "default": true}
	}
}`

// ElicitationDefaults asks the user to fill in a form whose fields have defaults.
//
//toolgen:tool name=test_elicitation_sep1034_defaults readonly openworld
func ElicitationDefaults(ctx context.Context) (string, error) {
	res, err := ask(ctx, "Check your profile", defaultsForm)
	if err != nil {
		return "", err
	}
	return completed(res), nil
}

// enumsForm has the five kinds of enum of SEP-1330.
const enumsForm = `{
	"type": "object",
	"properties": {
		"untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
		"titledSingle": {"type": "string", "oneOf": [
			{"const": "value1", "title": "First Option"},
			{"const": "value2", "title": "Second Option"},
			{"const": "value3", "title": "Third Option"}
		]},
		"legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"], "enumNames": ["Option One", "Option Two", "Option Three"]},
		"untitledMulti": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
		"titledMulti": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"anyOf": [
			{"const": "value1", "title": "First Choice"},
			{"const": "value2", "title": "Second Choice"},
			{"const": "value3", "title": "Third Choice"}
		]}}
	}
}`

// ElicitationEnums asks the user to choose from enums of every kind.
//
//toolgen:tool name=test_elicitation_sep1330_enums readonly openworld
func ElicitationEnums(ctx context.Context) (string, error) {
	res, err := ask(ctx, "Choose your options", enumsForm)
	if err != nil {
		return "", err
	}
	return completed(res), nil
}

// HeaderArgs are the arguments of test_custom_headers: the region goes in the HTTP
// header Mcp-Param-Region too (MCP SEP-2243), which the server checks against it.
type HeaderArgs struct {
	// Region is where the query runs.
	Region string `json:"region" tool:"header=Region,maxLength=100"`
	// Priority orders the queries of a region.
	Priority int `json:"priority,omitempty" tool:"header=Priority,minimum=0,maximum=10"`
	// Query is what to run.
	Query string `json:"query,omitempty" tool:"maxLength=4000"`
}

// CustomHeaders answers with the region and the priority it was given, which the
// client also sent as headers.
//
//toolgen:tool name=test_custom_headers readonly idempotent openworld=false
func CustomHeaders(a HeaderArgs) string {
	return fmt.Sprintf("region=%s priority=%d", a.Region, a.Priority)
}

// LoggingTool logs to the client at info level, which reaches a client of MCP
// 2026-07-28 only when its request asked for a log level.
//
//toolgen:tool name=test_logging_tool readonly idempotent openworld=false
func LoggingTool(ctx context.Context) string {
	client.Logger(ctx).Info("test_logging_tool ran")
	return "logged"
}

// StreamingElicitation asks the user a question: under MCP 2026-07-28 the call's
// response is an input-required result, never a request of the server's own.
//
//toolgen:tool name=test_streaming_elicitation readonly openworld
func StreamingElicitation(ctx context.Context) (string, error) {
	res, err := ask(ctx, "Please confirm", `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)
	if err != nil {
		return "", err
	}
	return completed(res), nil
}

// MissingCapability asks the client's model, which only a client that declared
// sampling can answer: one that did not gets the JSON-RPC error -32021 (missing
// required client capability) under MCP 2026-07-28.
//
//toolgen:tool name=test_missing_capability readonly openworld
func MissingCapability(ctx context.Context) (string, error) {
	res, err := client.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{client.UserMessage("Say hello.")}, MaxTokens: 50})
	if err != nil {
		return "", runtime.ToolErrorf("sampling failed: %w", err)
	}
	return "LLM response: " + res.Text(), nil
}

// The tools of the input-required-result scenarios (MCP 2026-07-28, SEP-2322) name
// their requests (the Key of client.ElicitRequest, SampleRequest and RootsRequest)
// as the scenarios do: the client answers each by its key, even before it is asked.

// nameForm asks for a name.
const nameForm = `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`

// InputRequiredElicitation asks the user's name, and greets them.
//
//toolgen:tool name=test_input_required_result_elicitation readonly openworld
func InputRequiredElicitation(ctx context.Context) (string, error) {
	res, err := askKeyed(ctx, "user_name", "What is your name?", nameForm)
	if err != nil {
		return "", err
	}
	return "Hello, " + field(res, "name") + "!", nil
}

// InputRequiredSampling asks the client's model the capital of France.
//
//toolgen:tool name=test_input_required_result_sampling readonly openworld
func InputRequiredSampling(ctx context.Context) (string, error) {
	res, err := client.Sample(ctx, &client.SampleRequest{Key: "capital_question", Messages: []client.SampleMessage{client.UserMessage("What is the capital of France?")}, MaxTokens: 100})
	if err != nil {
		return "", runtime.ToolErrorf("sampling failed: %w", err)
	}
	return "LLM response: " + res.Text(), nil
}

// InputRequiredListRoots asks the client for its roots, and lists them.
//
//toolgen:tool name=test_input_required_result_list_roots readonly openworld
func InputRequiredListRoots(ctx context.Context) (string, error) {
	roots, err := client.Roots(ctx, &client.RootsRequest{Key: "client_roots"})
	if err != nil {
		return "", runtime.ToolErrorf("roots failed: %w", err)
	}
	return rootsText(roots), nil
}

// InputRequiredRequestState asks the user to confirm; the answer comes with the state
// of the round that asked, which toolmcp reads back (state-ok).
//
//toolgen:tool name=test_input_required_result_request_state readonly openworld
func InputRequiredRequestState(ctx context.Context) (string, error) {
	res, err := askKeyed(ctx, "confirm", "Please confirm", `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)
	if err != nil {
		return "", err
	}
	return "state-ok: " + completed(res), nil
}

// InputRequiredMultipleInputs asks the user's name, the model for a greeting and the
// client for its roots, all in one round: it makes every request before it returns
// the first one's error.
//
//toolgen:tool name=test_input_required_result_multiple_inputs readonly openworld
func InputRequiredMultipleInputs(ctx context.Context) (string, error) {
	name, nerr := askKeyed(ctx, "user_name", "What is your name?", nameForm)
	greeting, gerr := client.Sample(ctx, &client.SampleRequest{Key: "greeting", Messages: []client.SampleMessage{client.UserMessage("Generate a greeting")}, MaxTokens: 50})
	roots, rerr := client.Roots(ctx, &client.RootsRequest{Key: "client_roots"})
	if err := errors.Join(nerr, gerr, rerr); err != nil {
		return "", runtime.ToolErrorf("asking the client failed: %w", err)
	}
	return fmt.Sprintf("%s, %s; %s", greeting.Text(), field(name, "name"), rootsText(roots)), nil
}

// InputRequiredMultiRound asks the user's name, then, in a round of its own, their
// favourite colour.
//
//toolgen:tool name=test_input_required_result_multi_round readonly openworld
func InputRequiredMultiRound(ctx context.Context) (string, error) {
	name, err := askKeyed(ctx, "step1", "Step 1: What is your name?", nameForm)
	if err != nil {
		return "", err
	}
	color, err := askKeyed(ctx, "step2", "Step 2: What is your favorite color?", `{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}`)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s likes %s", field(name, "name"), field(color, "color")), nil
}

// InputRequiredTamperedState asks the user to confirm; a requestState changed on its
// way back is refused with a JSON-RPC error.
//
//toolgen:tool name=test_input_required_result_tampered_state readonly openworld
func InputRequiredTamperedState(ctx context.Context) (string, error) {
	res, err := askKeyed(ctx, "confirm", "Please confirm", `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)
	if err != nil {
		return "", err
	}
	return completed(res), nil
}

// InputRequiredCapabilities asks the user's name and the client's model, each when
// the client declares the capability: a request the client cannot answer is not
// made, and the tool goes on with the others.
//
//toolgen:tool name=test_input_required_result_capabilities readonly openworld
func InputRequiredCapabilities(ctx context.Context) (string, error) {
	name, nerr := client.Elicit(ctx, &client.ElicitRequest{Key: "user_name", Message: "What is your name?", Schema: json.RawMessage(nameForm)})
	answer, serr := client.Sample(ctx, &client.SampleRequest{Key: "capital_question", Messages: []client.SampleMessage{client.UserMessage("What is the capital of France?")}, MaxTokens: 100})
	var parts []string
	for _, err := range []error{nerr, serr} {
		switch {
		case err == nil, errors.Is(err, errors.ErrUnsupported):
		default:
			return "", runtime.ToolErrorf("asking the client failed: %w", err)
		}
	}
	if nerr == nil {
		parts = append(parts, "name "+field(name, "name"))
	}
	if serr == nil {
		parts = append(parts, "capital "+answer.Text())
	}
	if len(parts) == 0 {
		return "", runtime.ToolErrorf("the client can answer neither a form nor a model's question")
	}
	return strings.Join(parts, ", "), nil
}

// askKeyed puts a form to the user under key.
func askKeyed(ctx context.Context, key, message, form string) (*client.ElicitResult, error) {
	res, err := client.Elicit(ctx, &client.ElicitRequest{Key: key, Message: message, Schema: json.RawMessage(form)})
	if err != nil {
		return nil, runtime.ToolErrorf("elicitation failed: %w", err)
	}
	return res, nil
}

// field returns the string property name of the user's answer, or "" when the user
// did not accept.
func field(res *client.ElicitResult, name string) string {
	var m map[string]any
	if res == nil || json.Unmarshal(res.Content, &m) != nil {
		return ""
	}
	v, _ := m[name].(string)
	return v
}

func rootsText(roots []client.Root) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d roots", len(roots))
	for _, r := range roots {
		fmt.Fprintf(&b, "; %s (%s)", r.URI, r.Name)
	}
	return b.String()
}

// ask puts a form to the user; a client that cannot ask fails the call with a message
// saying why.
func ask(ctx context.Context, message, form string) (*client.ElicitResult, error) {
	res, err := client.Elicit(ctx, &client.ElicitRequest{Message: message, Schema: json.RawMessage(form)})
	if err != nil {
		return nil, runtime.ToolErrorf("elicitation failed: %w", err)
	}
	return res, nil
}

func completed(res *client.ElicitResult) string {
	return fmt.Sprintf("Elicitation completed: action=%s, content=%s", res.Action, contentOf(res))
}

func contentOf(res *client.ElicitResult) string {
	if res.Content == nil {
		return "{}"
	}
	return string(res.Content)
}

// pause waits d, or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// redPixel returns a PNG image of one red pixel.
func redPixel() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // an in-memory buffer does not fail
	}
	return buf.Bytes()
}

// silence returns a WAV file of 100 ms of silence: 8 kHz, mono, 8-bit.
func silence() []byte {
	const rate, samples = 8000, 800
	var buf bytes.Buffer
	w := func(v any) { _ = binary.Write(&buf, binary.LittleEndian, v) }
	buf.WriteString("RIFF")
	w(uint32(36 + samples))
	buf.WriteString("WAVEfmt ")
	w(uint32(16))   // the fmt chunk's size
	w(uint16(1))    // PCM
	w(uint16(1))    // mono
	w(uint32(rate)) // samples per second
	w(uint32(rate)) // bytes per second
	w(uint16(1))    // bytes per sample
	w(uint16(8))    // bits per sample
	buf.WriteString("data")
	w(uint32(samples))
	buf.Write(bytes.Repeat([]byte{128}, samples)) // 8-bit PCM's zero is 128
	return buf.Bytes()
}
