package runtime_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// verdictCase is a schema NewTool accepts, arguments, and whether JSON Schema (draft
// 2020-12, as santhosh-tekuri/jsonschema reads it) holds them valid.
type verdictCase struct {
	name, schema, args string
	valid              bool
}

// checkVerdicts calls a dynamic tool of each case's schema with its arguments and
// checks that it accepts exactly the valid ones.
func checkVerdicts(t *testing.T, cases []verdictCase) {
	t.Helper()
	for _, tc := range cases {
		ts, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(tc.schema)}, echo)
		if err != nil {
			t.Errorf("%s: NewTool: %v", tc.name, err)
			continue
		}
		res := ts.Call(context.Background(), "t", []byte(tc.args))
		if res.IsError == tc.valid {
			t.Errorf("%s: %s against %s: accepted %v, want %v (%s)", tc.name, tc.args, tc.schema, !res.IsError, tc.valid, res.Text())
		}
	}
}

// Dynamic tools refuse what their schema forbids: the cases of issue 19, each a
// keyword the program read but did not apply, and their neighbours.
func TestNewToolAssertsWhatItReads(t *testing.T) {
	obj := func(prop string) string { return `{"type":"object","properties":{"a":` + prop + `}}` }
	checkVerdicts(t, []verdictCase{
		// An integer bound past the int64 range.
		{"minimum 1e30", obj(`{"type":"integer","minimum":1e30}`), `{"a":5}`, false},
		{"maximum -1e30", obj(`{"type":"integer","maximum":-1e30}`), `{"a":-5}`, false},
		{"minimum -1e30", obj(`{"type":"integer","minimum":-1e30}`), `{"a":-5}`, true},
		{"maximum 1e30", obj(`{"type":"integer","maximum":1e30}`), `{"a":5}`, true},
		{"minimum 1e30 nullable", obj(`{"type":["integer","null"],"minimum":1e30}`), `{"a":[1]}`, false},
		// Numbers are compared exactly, and as the float64 run gets (found by
		// FuzzDifferential: 9223372036854775808 passed a const of 2^63-1).
		{"number const 2^63-1", obj(`{"type":"number","const":9223372036854775807}`), `{"a":9223372036854775808}`, false},
		{"number maximum 2^63-1", obj(`{"type":"number","maximum":9223372036854775807}`), `{"a":9223372036854775808}`, false},
		{"number minimum 0.1", obj(`{"type":"number","minimum":0.1}`), `{"a":0.09999999999999999999}`, false},
		{"number enum 0.1", obj(`{"type":"number","enum":[0.1]}`), `{"a":1e-1}`, true},
		{"number enum 0.1 near", obj(`{"type":"number","enum":[0.1]}`), `{"a":0.10000000000000000001}`, false},
		{"number enum -0", obj(`{"type":"number","enum":[0]}`), `{"a":-0.0}`, true},
		{"number rounds to its bound", obj(`{"type":"number","exclusiveMinimum":0}`), `{"a":1e-400}`, false},
		{"integer exclusiveMinimum 2.5", obj(`{"type":"integer","exclusiveMinimum":2.5}`), `{"a":3}`, true},
		{"integer exclusiveMinimum 2.5 below", obj(`{"type":"integer","exclusiveMinimum":2.5}`), `{"a":2}`, false},
		{"integer minimum 2.5", obj(`{"type":"integer","minimum":2.5}`), `{"a":2}`, false},
		{"integer enum 2.0", obj(`{"type":"integer","enum":[2.0]}`), `{"a":2}`, true},
		{"integer maximum 2^63-1.5", obj(`{"type":"integer","exclusiveMaximum":9223372036854775806.5}`), `{"a":9223372036854775807}`, false},
		// The list keywords beside a $ref apply with the target's, not instead (found
		// by FuzzDifferential: minItems 0 beside a $ref to minItems 2 took []).
		{"minItems beside", `{"type":"object","properties":{"a":{"$ref":"#/$defs/L","minItems":0}},"$defs":{"L":{"type":"array","minItems":2}}}`, `{"a":[1]}`, false},
		{"maxItems beside", `{"type":"object","properties":{"a":{"$ref":"#/$defs/L","maxItems":5}},"$defs":{"L":{"type":"array","maxItems":1}}}`, `{"a":[1,2]}`, false},
		{"uniqueItems beside", `{"type":"object","properties":{"a":{"$ref":"#/$defs/L","minItems":0}},"$defs":{"L":{"type":"array","uniqueItems":true}}}`, `{"a":[1,1]}`, false},
		{"maxProperties beside", `{"type":"object","properties":{"a":{"$ref":"#/$defs/O","maxProperties":3}},"$defs":{"O":{"type":"object","maxProperties":1}}}`, `{"a":{"x":1,"y":2}}`, false},
		{"minProperties beside", `{"type":"object","properties":{"a":{"$ref":"#/$defs/O","minProperties":0}},"$defs":{"O":{"type":"object","minProperties":1}}}`, `{"a":{}}`, false},
		{"beside both hold", `{"type":"object","properties":{"a":{"$ref":"#/$defs/L","minItems":1}},"$defs":{"L":{"type":"array","maxItems":2}}}`, `{"a":[1,2]}`, true},
		// propertyNames applies to every property, declared ones too.
		{"propertyNames declared", `{"type":"object","properties":{"b":{"type":"string"}},"propertyNames":{"enum":["a"]}}`, `{"b":"x"}`, false},
		{"propertyNames declared absent", `{"type":"object","properties":{"b":{"type":"string"}},"propertyNames":{"enum":["a"]}}`, `{"a":1}`, true},
		{"propertyNames declared ok", `{"type":"object","properties":{"a":{"type":"string"}},"propertyNames":{"enum":["a"]}}`, `{"a":"x"}`, true},
		// The string keywords beside an enum or a const.
		{"enum maxLength", obj(`{"type":"string","enum":["ab","abcd"],"maxLength":3}`), `{"a":"abcd"}`, false},
		{"enum minLength", obj(`{"type":"string","enum":["ab","abcd"],"minLength":3}`), `{"a":"ab"}`, false},
		{"enum pattern", obj(`{"type":"string","enum":["ab","cd"],"pattern":"^a"}`), `{"a":"cd"}`, false},
		{"enum format", obj(`{"type":"string","enum":["a@b.c","nope"],"format":"email"}`), `{"a":"nope"}`, false},
		{"const pattern", obj(`{"type":"string","const":"cd","pattern":"^a"}`), `{"a":"cd"}`, false},
		{"enum all ok", obj(`{"type":"string","enum":["ab","abcd"],"maxLength":4,"pattern":"^a"}`), `{"a":"abcd"}`, true},
		// null against an enum or a const that lacks it, with type [T, "null"].
		{"nullable enum null", `{"type":"object","properties":{"a":{"type":"array","items":{"type":["string","null"],"enum":["x"]}}}}`, `{"a":[null]}`, false},
		{"nullable const null", `{"type":"object","properties":{"a":{"type":["string","null"],"const":"x"}},"required":["a"]}`, `{"a":null}`, false},
		{"nullable int enum null", `{"type":"object","properties":{"a":{"type":["integer","null"],"enum":[1]}},"required":["a"]}`, `{"a":null}`, false},
		{"nullable bool const null", `{"type":"object","properties":{"a":{"type":["boolean","null"],"const":true}},"required":["a"]}`, `{"a":null}`, false},
		{"nullable enum with null", `{"type":"object","properties":{"a":{"type":["string","null"],"enum":["x",null]}},"required":["a"]}`, `{"a":null}`, true},
		{"nullable enum with null value", `{"type":"object","properties":{"a":{"type":["string","null"],"enum":["x",null]}},"required":["a"]}`, `{"a":"x"}`, true},
		{"optional null is absent", `{"type":"object","properties":{"a":{"type":["string","null"],"enum":["x"]}}}`, `{"a":null}`, true},
		{"anyOf null", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string","enum":["x"]},{"type":"null"}]}},"required":["a"]}`, `{"a":null}`, true},
		// uniqueItems compares numbers as numbers: 0 and -0 are equal, at any depth.
		{"unique -0 any", obj(`{"type":"array","uniqueItems":true}`), `{"a":[0,-0]}`, false},
		{"unique [-0] any", obj(`{"type":"array","uniqueItems":true}`), `{"a":[[0],[-0]]}`, false},
		{"unique {-0}", obj(`{"type":"array","uniqueItems":true,"items":{"type":"object"}}`), `{"a":[{"x":0},{"x":-0.0}]}`, false},
		{"unique [-0] arrays", obj(`{"type":"array","uniqueItems":true,"items":{"type":"array","items":{"type":"number"}}}`), `{"a":[[0],[-0]]}`, false},
		{"unique -0 numbers", obj(`{"type":"array","uniqueItems":true,"items":{"type":"number"}}`), `{"a":[0,-0]}`, false},
		{"unique 1 1.0 any", obj(`{"type":"array","uniqueItems":true}`), `{"a":[[1],[1.0]]}`, false},
		{"unique distinct", obj(`{"type":"array","uniqueItems":true}`), `{"a":[[0],[1],{"a":0},{"a":-1}]}`, true},
		{"unique members in any order", obj(`{"type":"array","uniqueItems":true}`), `{"a":[{"a":1,"b":[2]},{"b":[2],"a":1}]}`, false},
		{"unique order of items", obj(`{"type":"array","uniqueItems":true}`), `{"a":[[1,2],[2,1],{"a":[1,2]},{"a":[2,1]}]}`, true},
		{"unique third of three", obj(`{"type":"array","uniqueItems":true}`), `{"a":[{"a":1},{"a":2},{"a":3},{"a":2}]}`, false},
		{"unique nested -0", obj(`{"type":"array","uniqueItems":true}`), `{"a":[{"a":[0,{"b":0}]},{"a":[-0,{"b":-0}]}]}`, false},
		{"unique strings that look alike", obj(`{"type":"array","uniqueItems":true}`), `{"a":[["a,b"],["a","b"],{"a":"b"},{"a\"":"b"}]}`, true},
	})
}
