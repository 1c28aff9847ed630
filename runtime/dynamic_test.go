package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// echo is a dynamic tool's run that answers with the arguments it received.
func echo(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
	return runtime.TextResult(string(args)), nil
}

func mustTool(t *testing.T, name, schema string) *runtime.Toolset {
	t.Helper()
	ts, err := runtime.NewTool(runtime.Tool{Name: name, InputSchema: json.RawMessage(schema)}, echo)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// The example: a hand-built tool whose schema requires msg refuses {}.
func TestNewToolRequiresMsg(t *testing.T) {
	ts := mustTool(t, "say", `{"type":"object","properties":{"msg":{"type":"string"}},"required":["msg"]}`)
	res := ts.Call(context.Background(), "say", []byte(`{}`))
	if !res.IsError || res.Outcome != runtime.OutcomeInvalidArguments {
		t.Fatalf("{} was not refused: %v %q", res.Outcome, res.Text())
	}
	if want := "invalid arguments for say: /msg: missing required property"; res.Text() != want {
		t.Errorf("text %q, want %q", res.Text(), want)
	}
	res = ts.Call(context.Background(), "say", []byte(`{"msg":"hi"}`))
	if res.IsError || res.Text() != `{"msg":"hi"}` {
		t.Errorf("valid call: %v %q", res.Outcome, res.Text())
	}
}

func TestNewToolRefuses(t *testing.T) {
	for _, tc := range []struct{ schema, keyword, path string }{
		{`{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`, "$ref", "/properties/a/$ref"},
		{`{"type":"object","properties":{"a":{"$dynamicRef":"other.json#node"}}}`, "$dynamicRef", "/properties/a/$dynamicRef"},
		{`{"type":"object","anyOf":[]}`, "anyOf", "/anyOf"},
		{`{"type":"object","properties":{"a":{"type":"strin"}}}`, "type", "/properties/a/type"},
		{`{"type":"object","properties":{"a":{"minLength":-1}}}`, "minLength", "/properties/a/minLength"},
		{`{"type":"object","properties":{"a":{"items":[{}]}}}`, "items", "/properties/a/items"},
		{`{"type":"object","properties":{"a":{"allOf":[{"$ref":"#/properties/a"}]}}}`, "$ref", "/properties/a"},
		{`{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}`, "pattern", "/properties/a/pattern"},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/A"}}}`, "$ref", "/$defs/A"},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/Missing"}}}`, "$ref", "/properties/a/$ref"},
	} {
		_, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(tc.schema)}, echo)
		var se *runtime.SchemaError
		if !errors.As(err, &se) {
			t.Errorf("%s: err %v, want a *SchemaError", tc.schema, err)
			continue
		}
		if se.Keyword != tc.keyword || se.Path != tc.path {
			t.Errorf("%s: refused %q at %q (%v), want %q at %q", tc.schema, se.Keyword, se.Path, err, tc.keyword, tc.path)
		}
		if !strings.Contains(err.Error(), tc.keyword) {
			t.Errorf("%s: the error does not name the keyword: %v", tc.schema, err)
		}
	}
	for _, schema := range []string{`{"type":"string"}`, `[`, `{"type":"object","type":"object"}`} {
		if _, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(schema)}, echo); err == nil {
			t.Errorf("%s: accepted", schema)
		}
	}
	if _, err := runtime.NewTool(runtime.Tool{Name: "t"}, nil); err == nil {
		t.Error("a nil run was accepted")
	}
	if _, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), Sensitive: []string{"/nope"}}, echo); err == nil {
		t.Error("a Sensitive path naming nothing was accepted")
	}
}

// A recursive schema through $ref, with the anyOf toolgen writes for an optional
// pointer, defaults and a sensitive extension.
func TestNewToolRecursion(t *testing.T) {
	const schema = `{"type":"object","properties":{
		"tree":{"$ref":"#/$defs/Node"},
		"next":{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]},
		"depth":{"type":"integer","minimum":1,"default":3},
		"token":{"type":"string","minLength":8,"x-toolgen-sensitive":true}},
		"required":["tree"],"additionalProperties":false,
		"$defs":{"Node":{"type":"object","properties":{"name":{"type":"string"},
			"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}},
			"required":["name"],"additionalProperties":false}}}`
	ts := mustTool(t, "walk", schema)
	tool, _ := ts.Lookup("walk")
	if len(tool.Sensitive) != 1 || tool.Sensitive[0] != "/token" {
		t.Errorf("Sensitive %q, want [/token]", tool.Sensitive)
	}
	for _, tc := range []struct{ args, want string }{
		{`{"tree":{"name":"a","children":[{"name":"b","children":[{"name":"c"}]}]},"next":null}`,
			`{"tree":{"name":"a","children":[{"name":"b","children":[{"name":"c"}]}]},"depth":3}`},
		{`{"tree":"{\"name\":\"x\"}","depth":2.0}`, `{"tree":{"name":"x"},"depth":2}`},
		{`{"tree":{"name":"a","children":[{"children":[{"name":1}]}]}}`,
			`invalid arguments for walk: /tree/children/0/children/0/name: must be a string (got 1); /tree/children/0/name: missing required property`},
		{`{"tree":{"name":"a"},"token":"short"}`, `invalid arguments for walk: /token: must be at least 8 characters long`},
		{`{"tree":{"name":"a"},"next":{"nam":"b"}}`, `invalid arguments for walk: /next/nam: unknown property; did you mean "name"?; /next/name: missing required property`},
	} {
		res := ts.Call(context.Background(), "walk", []byte(tc.args))
		if res.Text() != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, res.Text(), tc.want)
		}
	}
	deep := strings.Repeat(`{"name":"n","children":[`, 40) + strings.Repeat(`]}`, 40)
	res := ts.Call(context.Background(), "walk", []byte(`{"tree":`+deep+`}`))
	if !res.IsError || !strings.Contains(res.Text(), "nested deeper than the limit") {
		t.Errorf("deep recursion: %s", res.Text())
	}
}

// Dynamic tools join generated ones, keep their annotations and redact sensitive values.
func TestNewToolJoin(t *testing.T) {
	a := mustTool(t, "a", `{"type":"object","properties":{}}`)
	b, err := runtime.NewTool(runtime.Tool{Name: "b", Annotations: runtime.Annotations{ReadOnly: new(true)},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"pw":{"type":"string"}}}`), Sensitive: []string{"/pw"}}, echo)
	if err != nil {
		t.Fatal(err)
	}
	ts := runtime.Join(a, b)
	if ts.Len() != 2 {
		t.Fatalf("Len %d", ts.Len())
	}
	tool, _ := ts.Lookup("b")
	if !tool.Annotations.Effective().ReadOnly {
		t.Error("annotations lost")
	}
	if got := string(runtime.Redact(tool, []byte(`{"pw":"hunter2"}`))); got != `{"pw":"[redacted]"}` {
		t.Errorf("Redact: %s", got)
	}
	res := ts.Call(context.Background(), "b", []byte(`{"pw":7}`))
	if strings.Contains(res.Text(), "7") {
		t.Errorf("a sensitive value was echoed: %s", res.Text())
	}
}

// The list keywords toolgen writes beside a $ref, and uniqueItems on objects.
func TestNewToolBesideRef(t *testing.T) {
	ts := mustTool(t, "cfg", `{"type":"object","properties":{
		"tree":{"$ref":"#/$defs/Tree","minProperties":1},
		"people":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}},"uniqueItems":true}},
		"$defs":{"Tree":{"type":"object","additionalProperties":{"$ref":"#/$defs/Tree"}}}}`)
	for _, tc := range []struct{ args, want string }{
		{`{"tree":{"a":{"b":{}}}}`, `{"tree":{"a":{"b":{}}}}`},
		{`{"tree":{}}`, `invalid arguments for cfg: /tree: must have at least 1 property (got 0)`},
		{`{"people":[{"name":"a","age":1},{"age":1.0,"name":"a"}]}`, `invalid arguments for cfg: /people: must not hold equal items (items 0 and 1 are equal)`},
		{`{"people":[{"name":"a","age":1},{"name":"a","age":2}]}`, `{"people":[{"name":"a","age":1},{"name":"a","age":2}]}`},
	} {
		if got := ts.Call(context.Background(), "cfg", []byte(tc.args)).Text(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
	// A $ref to the root with keywords beside it: a copy of the root that holds itself
	// (found by FuzzNewTool: listing the sensitive paths did not end).
	ts = mustTool(t, "r", `{"type":"object","properties":{"t":{"$ref":"#","minProperties":1},"pw":{"type":"string","x-toolgen-sensitive":true}}}`)
	if tool, _ := ts.Lookup("r"); strings.Join(tool.Sensitive, ",") != "/t/**/pw,/pw" {
		t.Errorf("Sensitive: %q", tool.Sensitive)
	}
	if got := ts.Call(context.Background(), "r", []byte(`{"t":{"t":{}}}`)).Text(); got != "invalid arguments for r: /t/t: must have at least 1 property (got 0)" {
		t.Errorf("a $ref to the root: %s", got)
	}
	// A definition that is itself a $ref with keywords beside it.
	ts = mustTool(t, "l", `{"type":"object","properties":{"l":{"$ref":"#/$defs/L"}},
		"$defs":{"L":{"$ref":"#/$defs/E","minItems":1},"E":{"type":"array","items":{"type":"integer"}}}}`)
	if got := ts.Call(context.Background(), "l", []byte(`{"l":[]}`)).Text(); got != "invalid arguments for l: /l: must have at least 1 item (got 0)" {
		t.Errorf("minItems beside a $ref in a definition: %s", got)
	}
	for _, schema := range []string{
		`{"$ref":"#","minProperties":1}`,
		`{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/A"},{"type":"null"}]}}}`,
		`{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/A","minItems":1}}}`,
	} {
		if _, err := runtime.NewTool(runtime.Tool{Name: "c", InputSchema: json.RawMessage(schema)}, echo); err == nil {
			t.Errorf("%s: accepted", schema)
		}
	}
}

// FuzzNewTool checks that no schema makes NewTool panic or hang, and that a dynamic
// tool built from any schema NewTool accepts answers any arguments without a panic:
// valid arguments reach run as JSON.
func FuzzNewTool(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"msg":{"type":"string"}},"required":["msg"]}`,
		`{"type":"object","properties":{"tree":{"$ref":"#/$defs/N"},"n":{"anyOf":[{"$ref":"#/$defs/N"},{"type":"null"}]}},"$defs":{"N":{"type":"object","properties":{"c":{"type":"array","items":{"$ref":"#/$defs/N"},"uniqueItems":true}},"additionalProperties":false}}}`,
		`{"type":"object","properties":{"a":{"type":"integer","minimum":0,"maximum":255,"enum":[1,2]},"b":{"type":"number","exclusiveMinimum":0,"multipleOf":0.01},"m":{"type":"object","additionalProperties":{"type":["string","null"],"format":"email"},"propertyNames":{"enum":["x","y"]},"minProperties":1}}}`,
		`{"type":"object","properties":{"t":{"$ref":"#/$defs/T","minProperties":1},"d":{"type":"string","format":"date-time","default":"2024-01-01T00:00:00Z"},"b":{"type":"string","contentEncoding":"base64","maxLength":8}},"$defs":{"T":{"type":"object","additionalProperties":{"$ref":"#/$defs/T"}}}}`,
	} {
		f.Add([]byte(s), []byte(`{"msg":"x","tree":{"c":[{},{}]},"a":1,"b":0.5,"m":{"x":"a@b.c"},"t":{"a":{}},"d":"2024-01-01t00:00:00z","b":"aGk="}`))
	}
	f.Fuzz(func(t *testing.T, schema, args []byte) {
		ts, err := runtime.NewTool(runtime.Tool{Name: "f", InputSchema: schema}, echo)
		if err != nil {
			return
		}
		res := ts.Call(context.Background(), "f", args)
		switch res.Outcome {
		case runtime.OutcomeOK:
			if !json.Valid([]byte(res.Text())) {
				t.Fatalf("run received arguments that are not JSON: %s", res.Text())
			}
		case runtime.OutcomeInvalidArguments:
		default:
			t.Fatalf("outcome %s: %s", res.Outcome, res.Text())
		}
	})
}

// A schema whose definitions are shared along exponentially many paths compiles fast:
// listing its sensitive paths is bounded.
func TestNewToolSharedDefinitions(t *testing.T) {
	defs := `"D30":{"type":"object","properties":{"pw":{"type":"string","x-toolgen-sensitive":true}}}`
	for i := 29; i >= 0; i-- {
		next := strconv.Itoa(i + 1)
		defs += `,"D` + strconv.Itoa(i) + `":{"type":"object","properties":{"a":{"$ref":"#/$defs/D` + next + `"},"b":{"$ref":"#/$defs/D` + next + `"}}}`
	}
	schema := `{"type":"object","properties":{"r":{"$ref":"#/$defs/D0"}},"$defs":{` + defs + `}}`
	start := time.Now()
	_, err := runtime.NewTool(runtime.Tool{Name: "deep", InputSchema: json.RawMessage(schema)}, echo)
	if err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("err %v after %v", err, time.Since(start))
	}
	// Without sensitive properties, there is nothing to list.
	schema = strings.ReplaceAll(schema, `,"x-toolgen-sensitive":true`, "")
	if _, err := runtime.NewTool(runtime.Tool{Name: "deep", InputSchema: json.RawMessage(schema)}, echo); err != nil {
		t.Errorf("without sensitive properties: %v", err)
	}
}

// A dynamic tool goes through the Toolset's approvals and observers as a generated one
// does: unannotated, it is presumed destructive, and its sensitive values are redacted
// from the approval prompt and the logged arguments.
func TestNewToolApprovalsAndEvents(t *testing.T) {
	ts, err := runtime.NewTool(runtime.Tool{Name: "pay", InputSchema: json.RawMessage(
		`{"type":"object","properties":{"to":{"type":"string"},"card":{"type":"string","x-toolgen-sensitive":true}},"required":["to","card"]}`)}, echo)
	if err != nil {
		t.Fatal(err)
	}
	var prompt string
	var events []runtime.Event
	ts = ts.WithApprover(func(_ context.Context, req runtime.ApprovalRequest) runtime.Decision {
		prompt = string(req.Redacted())
		return runtime.Deny("not today")
	}).WithArgumentLogging(true).WithObserver(func(_ context.Context, e runtime.Event) { events = append(events, e) })
	res := ts.Call(context.Background(), "pay", []byte(`{"to":"bob","card":"4111111111111111"}`))
	if res.Outcome != runtime.OutcomeDenied || prompt != `{"card":"[redacted]","to":"bob"}` {
		t.Errorf("outcome %s, prompt %s", res.Outcome, prompt)
	}
	res = ts.Call(context.Background(), "pay", []byte(`{"to":"bob","card":4111111111111111}`))
	if res.Outcome != runtime.OutcomeInvalidArguments || strings.Contains(res.Text(), "4111") {
		t.Errorf("outcome %s: %s", res.Outcome, res.Text())
	}
	if len(events) != 2 || strings.Contains(string(events[0].Arguments), "4111") || strings.Contains(string(events[1].Arguments), "4111") || len(events[1].Violations) != 1 {
		t.Errorf("events: %+v", events)
	}
}
