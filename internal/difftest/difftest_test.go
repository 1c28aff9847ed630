package difftest

import (
	"encoding/json"
	"strings"
	"testing"
)

// The oracle's own tests: that it reads the contract right, before it judges anyone.

const schema = `{"type":"object","properties":{
	"s":{"type":"string","minLength":2},
	"n":{"type":"integer","maximum":9,"default":4},
	"o":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer","default":7}},"required":["x"],"additionalProperties":false},
	"a":{"type":"array","items":{"$ref":"#/$defs/item"}},
	"r":{"type":["integer","null"]}
},"required":["s"],"additionalProperties":false,
"$defs":{"item":{"type":"object","properties":{"z":{"type":"boolean"}},"additionalProperties":false}}}`

type value struct {
	S string `json:"s"`
	N int8   `json:"n"`
	O *struct {
		X int `json:"x"`
		Y int `json:"y"`
	} `json:"o"`
	A []struct {
		Z bool `json:"z"`
	} `json:"a"`
	R *int `json:"r"`
}

func unmarshalValue(b []byte) error {
	var v value
	return json.Unmarshal(b, &v)
}

func TestJudge(t *testing.T) {
	o, err := For("test", []byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  string
		stage Stage
		norm  string // the normalized JSON, when accepted
	}{
		{`{"s":"ab"}`, Accepted, `{"s":"ab","n":4}`},
		{` {"s":"ab","n":null} `, Accepted, `{"s":"ab","n":4}`},
		{`{"s":"ab","n":2,"r":null}`, Accepted, `{"s":"ab","n":2}`},
		{`"{\"s\":\"ab\"}"`, Accepted, `{"s":"ab","n":4}`},
		{`{"s":"ab","o":"{\"x\":1}"}`, Accepted, `{"s":"ab","o":{"x":1,"y":7},"n":4}`},
		{`{"s":"ab","o":"{\"x\":1,\"y\":null}"}`, Accepted, `{"s":"ab","o":{"x":1,"y":7},"n":4}`},
		{`{"s":"ab","a":"[{\"z\":true}]"}`, Accepted, `{"s":"ab","a":[{"z":true}],"n":4}`},
		{`{"s":"ab","a":["{\"z\":true}"]}`, Accepted, `{"s":"ab","a":[{"z":true}],"n":4}`},
		{`{"s":"\ud83d\ude00\u00e9"}`, Accepted, `{"s":"😀é","n":4}`},
		{"{\"s\":\"\xff\xff\"}", Accepted, `{"s":"��","n":4}`},
		{``, Schema, ``},
		{"\t null \n", Schema, ``},
		{`{"s":null}`, Schema, ``},
		{`{"s":"a"}`, Schema, ``},
		{`{"s":"😀"}`, Schema, ``},
		{`{"s":"ab","n":1.0}`, Accepted, `{"s":"ab","n":1.0}`}, // an integer, as JSON Schema says
		{`{"s":"ab","n":1.5}`, Schema, ``},
		{`{"s":"ab","n":2e0}`, Accepted, `{"s":"ab","n":2e0}`},
		{`{"s":"ab","n":-2e2}`, Unmarshal, ``}, // int8 overflow
		{`{"s":"ab","n":-0}`, Accepted, `{"s":"ab","n":-0}`},
		{`{"s":"ab","n":-200}`, Unmarshal, ``},                 // int8 overflow
		{`{"s":"ab","n":1.0}`, Accepted, `{"s":"ab","n":1.0}`}, // an integer, as JSON Schema says
		{`{"s":"ab","n":1.5}`, Schema, ``},
		{`{"s":"ab","n":2e0}`, Accepted, `{"s":"ab","n":2e0}`},
		{`{"s":"ab","n":-2e2}`, Unmarshal, ``}, // int8 overflow
		{`{"s":"ab","o":{"x":1,"x":2}}`, Duplicate, ``},
		{`{"s":"ab","o":"{\"x\":1,\"x\":2}"}`, Duplicate, ``},
		{`{"s":"ab","s":"ab"}`, Duplicate, ``},
		{`{"s":"ab","q":1}`, Schema, ``},
		{`{"s":"ab","o":"{\"x\":1} x"}`, Schema, ``},
		{`""{"s":"ab"}""`, Syntax, ``},
		{`"\"{\\\"s\\\":\\\"ab\\\"}\""`, Schema, ``},
		{`{"s":"ab"}x`, Syntax, ``},
		{`{"s":"ab"} {}`, Syntax, ``},
		{`{"s":"ab","a":` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + `}`, TooDeep, ``},
		{`{"s":"ab","a":` + strings.Repeat("[", 63) + strings.Repeat("]", 63) + `}`, Schema, ``},
		{`{"s":"ab"}` + strings.Repeat(" ", 1<<20), TooLarge, ``},
	} {
		v := o.Judge([]byte(tc.args), unmarshalValue)
		if v.Stage != tc.stage {
			t.Errorf("%s: %v, want %v", Quote([]byte(tc.args)), v, tc.stage)
			continue
		}
		if tc.norm != "" && string(v.Normalized.JSON()) != tc.norm {
			t.Errorf("%s: normalized to %s, want %s", Quote([]byte(tc.args)), v.Normalized.JSON(), tc.norm)
		}
	}
}

func TestPathExists(t *testing.T) {
	o, err := For("test", []byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	args := []byte(`{"s":"ab","q~/":{"w":1},"a":[{"z":1}]}`)
	v := o.Judge(args, unmarshalValue)
	for ptr, want := range map[string]bool{
		"":          true,
		"/s":        true,
		"/n":        true, // in the schema
		"/o/y":      true,
		"/a/3/z":    true, // any item, by the schema
		"/q~0~1":    true, // in the input
		"/q~0~1/w":  true,
		"/q":        false,
		"/o/w":      false,
		"/a/x":      false,
		"/s/0":      false,
		"s":         false,
		"/q~2":      false,
		"/nothing":  false,
		"/a/0/z/zz": false,
	} {
		if got := o.PathExists(ptr, v, args); got != want {
			t.Errorf("PathExists(%q) = %v, want %v", ptr, got, want)
		}
	}
	broken := []byte(`{"s":"ab","bad":1,"x":`)
	bv := o.Judge(broken, unmarshalValue)
	if !o.PathExists("/bad", bv, broken) || o.PathExists("/worse", bv, broken) {
		t.Error("PathExists on broken input: want /bad found and /worse not")
	}
}

func TestDuplicateAndDepth(t *testing.T) {
	for text, want := range map[string]string{
		`{"a":1,"b":{"c":1,"c":2}}`:             "/b/c",
		`[{"a":1},{"a~":1,"a\u007e":2}]`:        "/1/a~0",
		`{"a":1,"\u0061":2}`:                    "/a",
		"{\"\xff\":1,\"\xfe\":2}":               "/\ufffd",
		`{"a":{"b":1},"b":{"a":1}}`:             "",
		`{"a":[{"x":1}],"b":[{"x":1},{"x":1}]}`: "",
	} {
		n, err := Parse([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		got, _ := n.Duplicate()
		if got != want {
			t.Errorf("%s: duplicate %q, want %q", text, got, want)
		}
	}
	n, _ := Parse([]byte(`{"a":[[1],{"b":[]}]}`))
	if d := n.Depth(); d != 4 {
		t.Errorf("depth %d, want 4", d)
	}
}
