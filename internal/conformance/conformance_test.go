package conformance

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// call calls a tool of the package through the generated Toolset, on a goroutine of its
// own and inline (WithInlineCalls: the generated dispatch runs the tool at once), and
// checks that both answer alike.
func call(t *testing.T, name, args string) *runtime.Result {
	t.Helper()
	ts := runtime.Join(Tools(), StoreTools(&Store{prefix: "v:"}))
	r := ts.Call(context.Background(), name, []byte(args))
	in := ts.WithInlineCalls(true).Call(context.Background(), name, []byte(args))
	if in.IsError != r.IsError || in.Outcome != r.Outcome || in.Text() != r.Text() || string(in.Structured) != string(r.Structured) ||
		len(in.Content) != len(r.Content) || (in.Err == nil) != (r.Err == nil) {
		t.Errorf("Call(%s, %s) inline = %v %s %q %s, apart %v %s %q %s", name, args,
			in.IsError, in.Outcome, in.Text(), in.Structured, r.IsError, r.Outcome, r.Text(), r.Structured)
	}
	return r
}

// echoed decodes the structured result of an echo tool into v.
func echoed(t *testing.T, r *runtime.Result, v any) {
	t.Helper()
	if r.IsError {
		t.Fatalf("unexpected error result: %s", r.Text())
	}
	if err := json.Unmarshal(r.Structured, v); err != nil {
		t.Fatalf("structured result %s: %v", r.Structured, err)
	}
}

const kindsRequired = `"id":"r1","shadowed":3,"str":"s","bool":true,"int":-1,"int8":-128`

func TestKindsAccepted(t *testing.T) {
	args := `{` + kindsRequired + `,
		"note":"n","int16":-32768,"int32":2147483647,"int64":-9223372036854775808,
		"uint":0,"uint8":255,"uint16":65535,"uint32":4294967295,"uint64":18446744073709551615,
		"float32":3.5,"float64":-1e-300,"time":"2026-11-30T12:00:00+01:00","duration":"1h30m",
		"bytes":"aGk=","list":["a","b"],"pair":[1,2],"counts":{"a":1},"byColor":{"red":0.5},
		"ptr":"p","nested":{"name":"n","children":[{"name":"c"}]},"tree":{"name":"t"},
		"color":"blue","level":2,"tags":[{"key":"k","value":"v"}],"addr":"192.0.2.1",
		"any":{"x":[1,"y",null,true]},"raw":[1, 2],"matrix":[[1],[2,3]],"inline":{"x":4}}`
	var k Kinds
	echoed(t, call(t, "echo_kinds", args), &k)
	// What encoding/json reads from the same text, but for the duration, which toolgen
	// reads as a Go duration string.
	var want Kinds
	if err := json.Unmarshal([]byte(strings.Replace(args, `"1h30m"`, "5400000000000", 1)), &want); err != nil {
		t.Fatal(err)
	}
	want.Raw = json.RawMessage(`[1,2]`) // re-encoded by the echo's output
	got, _ := json.Marshal(k)
	exp, _ := json.Marshal(want)
	if string(got) != string(exp) {
		t.Errorf("decoded\n%s\nwant\n%s", got, exp)
	}
	if k.Extra == nil || k.Note != "n" || k.Base.Shadowed != "" || k.Shadowed != 3 {
		t.Errorf("embedded fields: Extra=%v Note=%q Base.Shadowed=%q Shadowed=%d", k.Extra, k.Note, k.Base.Shadowed, k.Shadowed)
	}
}

func TestKindsRejected(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{`{}`, `/id: missing required property; /shadowed: missing required property; /str: missing required property; /bool: missing required property; /int: missing required property; /int8: missing required property`},
		{`{` + kindsRequired + `,"int8":0}`, "/int8: duplicate property"},
		{`{` + kindsRequired + `,"int16":40000,"uint":-1,"uint8":256,"float32":1e39,"int64":9223372036854775808}`,
			"/int16: must be at most 32767 (got 40000); /uint: must be at least 0 (got -1); /uint8: must be at most 255 (got 256); /float32: is out of range for a 32-bit float (got 1e39); /int64: is out of range for a 64-bit integer (got 9223372036854775808)"},
		{`{"id":"r","shadowed":"3","str":5,"bool":"true","int":1.5,"int8":1.0}`,
			`/shadowed: must be an integer (got "3"); /str: must be a string (got 5); /bool: must be a boolean (got "true"); /int: must be an integer (got 1.5)`},
		{`{` + kindsRequired + `,"time":"2026-11-30","duration":"90 minutes","bytes":"!!"}`,
			`/time: must be a date-time (RFC 3339) such as "2024-01-31T09:30:00Z" (got "2026-11-30"); /duration: must be a duration such as "1h30m", "90s" or "250ms" (got "90 minutes"); /bytes: must be base64 text (standard encoding, padded) (got "!!")`},
		{`{` + kindsRequired + `,"pair":[1],"byColor":{"pink":1},"addr":"x"}`,
			`/pair: must have at least 2 items (got 1); /byColor/pink: unknown property; expected one of "red", "green", "blue"; /addr: is not valid: ParseAddr("x"): unable to parse IP (got "x")`},
		{`{` + kindsRequired + `,"level":3,"color":"Red","tags":[{"key":""},{"value":"v"}]}`,
			`/level: must be one of 1, 2 (got 3); /color: must be one of "red", "green", "blue" (got "Red"); /tags/0/key: must be at least 1 character long (got ""); /tags/1/key: missing required property`},
		{`{` + kindsRequired + `,"nested":{"name":"a","children":[{"name":1}]},"inline":{},"matrix":[[1,"x"]]}`,
			`/nested/children/0/name: must be a string (got 1); /inline/x: missing required property; /matrix/0/1: must be an integer (got "x")`},
		{`{` + kindsRequired + `,"Secret":"x","private":"y","Shadowed":1}`,
			`/Secret: unknown property; expected one of "id", "note", "shadowed", "str", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "time", "duration", "bytes", "list", "pair", "counts", "byColor", "ptr", "nested", "tree", "color", "level", "tags", "addr", "any", "raw", "matrix", "inline"; /private: unknown property; expected one of "id", "note", "shadowed", "str", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "time", "duration", "bytes", "list", "pair", "counts", "byColor", "ptr", "nested", "tree", "color", "level", "tags", "addr", "any", "raw", "matrix", "inline"; /Shadowed: unknown property; did you mean "shadowed"?`},
	} {
		r := call(t, "echo_kinds", tc.args)
		want := "invalid arguments for echo_kinds: " + tc.want
		if !r.IsError || r.Text() != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, r.Text(), want)
		}
	}
}

func TestKindsLeniencies(t *testing.T) {
	var k Kinds
	// Null for optional properties means absent; objects and arrays may arrive as JSON
	// strings holding them (some clients double-encode); so may the arguments.
	args := `{` + kindsRequired + `,"ptr":null,"note":null,"nested":"{\"name\":\"n\"}","list":"[\"a\"]"}`
	echoed(t, call(t, "echo_kinds", args), &k)
	if k.Ptr != nil || k.Nested == nil || k.Nested.Name != "n" || len(k.List) != 1 {
		t.Errorf("leniencies: %+v", k)
	}
	quoted, _ := json.Marshal(args)
	echoed(t, call(t, "echo_kinds", string(quoted)), &k)
	if k.ID != "r1" {
		t.Errorf("double-encoded arguments: %+v", k)
	}
	// A string property is never parsed as JSON.
	echoed(t, call(t, "echo_kinds", `{"id":"r1","shadowed":3,"str":"{\"a\":1}","bool":true,"int":-1,"int8":-128}`), &k)
	if k.Str != `{"a":1}` {
		t.Errorf("str = %q", k.Str)
	}
}

const constrainedRequired = `"mustHave":1`

func TestConstraintsAccepted(t *testing.T) {
	var c Constrained
	echoed(t, call(t, "echo_constrained", `{`+constrainedRequired+`}`), &c)
	if c.Default != "dflt" || c.DefaultInt != 7 || c.DefaultPtr == nil || !*c.DefaultPtr || c.DefaultEnum != Green {
		t.Errorf("defaults not applied: %+v", c)
	}
	echoed(t, call(t, "echo_constrained", `{"mustHave":null,"default":null}`), &c)
	if c.MustHave != nil || c.Default != "dflt" {
		t.Errorf("null: %+v", c)
	}
	for _, args := range []string{
		`"enum":"c d"`, `"intEnum":3`, `"const":"fixed"`, `"default":"x"`, `"defaultPtr":false`,
		`"min":-5`, `"max":5`, `"exclMin":0.001`, `"exclMax":0.999`, `"multInt":-15`, `"multFloat":0.3`,
		`"minLen":"éé"`, `"maxLen":"ééé"`, `"pattern":"AB1"`, `"comma":"a,b"`,
		`"dateTime":"2016-12-31T23:59:60Z"`, `"date":"2024-02-29"`,
		`"timeOfDay":"23:59:59.5-01:00"`, `"isoDuration":"P1W"`, `"email":"a.b@example.com"`,
		`"hostname":"a-b.example"`, `"ipv4":"10.0.0.1"`, `"ipv6":"::ffff:1.2.3.4"`, `"uri":"mailto:a@b.c"`,
		`"uuid":"123E4567-E89B-12D3-A456-426614174000"`, `"minItems":[1,1]`, `"maxItems":[]`,
		`"unique":["a","b"]`, `"itemBounds":[0,9]`, `"colorList":["red","blue"]`, `"secret":"12345678"`,
		`"titled":"t"`, `"mayOmit":""`, `"small":100`, `"stamp":"2026-01-01T00:00:00Z"`,
	} {
		r := call(t, "echo_constrained", `{`+constrainedRequired+`,`+args+`}`)
		if r.IsError {
			t.Errorf("%s: rejected: %s", args, r.Text())
		}
	}
}

func TestConstraintsRejected(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{`"enum":"d"`, `/enum: must be one of "a", "b", "c d" (got "d")`},
		{`"intEnum":4`, `/intEnum: must be one of 1, 2, 3 (got 4)`},
		{`"const":"other"`, `/const: must be "fixed" (got "other")`},
		{`"defaultEnum":"pink"`, `/defaultEnum: must be one of "red", "green", "blue" (got "pink")`},
		{`"min":-6`, `/min: must be at least -5 (got -6)`},
		{`"max":6`, `/max: must be at most 5 (got 6)`},
		{`"exclMin":0`, `/exclMin: must be greater than 0 (got 0)`},
		{`"exclMax":1`, `/exclMax: must be less than 1 (got 1)`},
		{`"multInt":7`, `/multInt: must be a multiple of 5 (got 7)`},
		{`"multFloat":0.35`, `/multFloat: must be a multiple of 0.1 (got 0.35)`},
		{`"minLen":"é"`, `/minLen: must be at least 2 characters long (got "é")`},
		{`"maxLen":"éééé"`, `/maxLen: must be at most 3 characters long (got "éééé")`},
		{`"pattern":"ab1"`, `/pattern: must match the pattern ^[A-Z]{2}\d$ (got "ab1")`},
		{`"comma":"a\\,b"`, `/comma: must match the pattern ^a,b$ (got "a\\,b")`},
		{`"dateTime":"2026-11-30 12:00"`, `/dateTime: must be a date-time (RFC 3339) such as "2024-01-31T09:30:00Z" (got "2026-11-30 12:00")`},
		{`"date":"2023-02-29"`, `/date: must be a date (RFC 3339 full-date) such as "2024-01-31" (got "2023-02-29")`},
		{`"timeOfDay":"25:00:00Z"`, `/timeOfDay: must be a time (RFC 3339 full-time) such as "09:30:00Z" (got "25:00:00Z")`},
		{`"isoDuration":"1h"`, `/isoDuration: must be an ISO 8601 duration such as "P1DT2H" (got "1h")`},
		{`"email":"a@@b"`, `/email: must be an email address (got "a@@b")`},
		{`"hostname":"-a"`, `/hostname: must be a host name (got "-a")`},
		{`"ipv4":"1.2.3.256"`, `/ipv4: must be an IPv4 address (got "1.2.3.256")`},
		{`"ipv6":"1.2.3.4"`, `/ipv6: must be an IPv6 address (got "1.2.3.4")`},
		{`"uri":"/relative"`, `/uri: must be an absolute URI (got "/relative")`},
		{`"uuid":"x"`, `/uuid: must be a UUID such as "123e4567-e89b-12d3-a456-426614174000" (got "x")`},
		{`"minItems":[1]`, `/minItems: must have at least 2 items (got 1)`},
		{`"maxItems":[1,2,3]`, `/maxItems: must have at most 2 items (got 3)`},
		{`"unique":["a","b","a"]`, `/unique: must not hold equal items (items 0 and 2 are equal)`},
		{`"max":6,"unique":["a","b","a"]`, `/max: must be at most 5 (got 6); /unique: must not hold equal items (items 0 and 2 are equal)`},
		{`"unique":["a",1,"b",2,"a"]`, `/unique/1: must be a string (got 1); /unique/3: must be a string (got 2); /unique: must not hold equal items (items 0 and 4 are equal)`},
		{`"itemBounds":[-1,10,1,2]`, `/itemBounds/0: must be at least 0 (got -1); /itemBounds/1: must be at most 9 (got 10); /itemBounds: must have at most 3 items (got 4)`},
		{`"colorList":["red","green"]`, `/colorList/1: must be one of "red", "blue" (got "green")`},
		{`"secret":"hunter2"`, `/secret: must be at least 8 characters long`},
		{`"small":101`, `/small: must be at most 100 (got 101)`},
		{`"stamp":"noon"`, `/stamp: must be a date-time (RFC 3339) such as "2024-01-31T09:30:00Z" (got "noon")`},
	} {
		r := call(t, "echo_constrained", `{`+constrainedRequired+`,`+tc.args+`}`)
		want := "invalid arguments for echo_constrained: " + tc.want
		if !r.IsError || r.Text() != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, r.Text(), want)
		}
	}
	if r := call(t, "echo_constrained", `{}`); r.Text() != "invalid arguments for echo_constrained: /mustHave: missing required property" {
		t.Errorf("required pointer: %s", r.Text())
	}
}

func TestParamsAndOutputs(t *testing.T) {
	for _, tc := range []struct {
		name, args string
		isError    bool
		text       string
	}{
		{"greet", `{"name":"Ada","color":"red"}`, false, "hi Ada red"},
		{"greet", `{"name":"Ada","times":2,"loud":true,"color":"blue"}`, false, "hi Ada hi Ada !blue"},
		{"greet", `{"name":"","times":4,"loud":"yes"}`, true, `invalid arguments for greet: /name: must be at least 1 character long (got ""); /times: must be at most 3 (got 4); /loud: must be a boolean (got "yes"); /color: missing required property`},
		{"no_args", ``, false, "ok"},
		{"no_args", `{"x":1}`, true, "invalid arguments for no_args: /x: unknown property: this object takes no properties"},
		{"list", `{}`, false, `{"result":[]}`},
		{"counts", `{}`, false, `{}`},
		{"number", `null`, false, `{"result":1.5}`},
		{"rich", ``, false, "for the model"},
		{"fail", `{"how":"safe"}`, true, "the order 7 does not exist"},
		{"fail", `{"how":"internal"}`, true, "fail failed with an internal error"},
		{"fail", `{"how":"panic"}`, true, "fail failed with an internal error"},
		{"fail", `{"how":"slow"}`, true, "fail timed out after 20ms"},
		{"fail", `{"how":"loud"}`, true, `invalid arguments for fail: /how: must be one of "safe", "internal", "panic", "slow" (got "loud")`},
		{"store_lookup", `{"key":"abc"}`, false, "v:abc"},
		{"store_lookup", `{"key":"ABC"}`, true, `invalid arguments for store_lookup: /key: must match the pattern ^[a-z]+$ (got "ABC")`},
		{"put", `{"key":"k"}`, false, "ok"},
		{"lookup", `{}`, true, `unknown tool "lookup"; available tools: counts, echo_constrained, echo_kinds, echo_schedule, fail, greet, list, no_args, number, put, rich, store_lookup`},
	} {
		r := call(t, tc.name, tc.args)
		if r.IsError != tc.isError || r.Text() != tc.text {
			t.Errorf("%s %s: got %v %q, want %v %q", tc.name, tc.args, r.IsError, r.Text(), tc.isError, tc.text)
		}
	}
}

func TestMetadata(t *testing.T) {
	ts := runtime.Join(Tools(), StoreTools(&Store{}))
	greet, _ := ts.Lookup("greet")
	if greet.Timeout.String() != "50ms" || greet.Description != "Greets someone, with parameters described by //toolgen:param lines." {
		t.Errorf("greet: %+v", greet)
	}
	if got := len(ts.Group("store").Tools()); got != 2 {
		t.Errorf("group store has %d tools, want 2", got)
	}
	if got := len(ts.Group("read").Tools()); got != 1 {
		t.Errorf("group read has %d tools, want 1", got)
	}
	noArgs, _ := ts.Lookup("no_args")
	e := noArgs.Annotations.Effective()
	if e.Destructive || !e.Idempotent || !e.OpenWorld || noArgs.Annotations.ReadOnly != nil {
		t.Errorf("no_args annotations: %+v effective %+v", noArgs.Annotations, e)
	}
	if string(noArgs.InputSchema) != `{"type":"object","properties":{},"additionalProperties":false}` {
		t.Errorf("no_args input schema: %s", noArgs.InputSchema)
	}
	constrained, _ := ts.Lookup("echo_constrained")
	if strings.Join(constrained.Sensitive, ",") != "/secret" {
		t.Errorf("echo_constrained sensitive paths: %q", constrained.Sensitive)
	}
	if got := string(runtime.Redact(constrained, []byte(`{"secret":"hunter2hunter2","mustHave":1}`))); got != `{"mustHave":1,"secret":"[redacted]"}` {
		t.Errorf("Redact = %s", got)
	}
	rich, _ := ts.Lookup("rich")
	if rich.OutputSchema != nil {
		t.Errorf("a runtime.Result tool has an output schema: %s", rich.OutputSchema)
	}
	if r := call(t, "rich", ""); len(r.Content) != 2 || r.Content[1].Audience[0] != runtime.RoleUser {
		t.Errorf("rich content: %+v", r.Content)
	}
}
