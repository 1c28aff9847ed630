package wire_test

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/internal/wire"
)

func TestMarshal(t *testing.T) {
	got, err := wire.Marshal(map[string]any{"text": "a <b> & c", "raw": json.RawMessage(" { \"x\" : [1, 2] } ")})
	if err != nil || string(got) != `{"raw":{"x":[1,2]},"text":"a <b> & c"}` {
		t.Errorf("Marshal = %s, %v; want compact JSON, HTML characters as they are", got, err)
	}
	if _, err := wire.Marshal(json.RawMessage(`{`)); err == nil {
		t.Error("Marshal of invalid raw JSON succeeded")
	}
}

func TestDecodeObject(t *testing.T) {
	obj, err := wire.DecodeObject([]byte(` {"a": {"b": null}, "c": [1]} `), "the request")
	if err != nil || string(obj["a"]) != `{"b": null}` || string(obj["c"]) != `[1]` || len(obj) != 2 {
		t.Errorf("DecodeObject = %q, %v", obj, err)
	}
	for body, want := range map[string]string{
		`null`: "the request is null, not a JSON object",
		`[]`:   "the request is not a JSON object: ",
		`{`:    "the request is not a JSON object: ",
		``:     "the request is not a JSON object: ",
	} {
		if _, err := wire.DecodeObject([]byte(body), "the request"); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("DecodeObject(%q) = %v, want an error starting %q", body, err, want)
		}
	}
}

func TestIsNullIsObject(t *testing.T) {
	for raw, want := range map[string][2]bool{
		``:           {true, false},
		` `:          {true, false},
		`null`:       {true, false},
		" null\n":    {true, false},
		`{}`:         {false, true},
		" {\"a\":1}": {false, true},
		`[]`:         {false, false},
		`"null"`:     {false, false},
		`0`:          {false, false},
	} {
		if got := [2]bool{wire.IsNull(json.RawMessage(raw)), wire.IsObject(json.RawMessage(raw))}; got != want {
			t.Errorf("IsNull, IsObject(%q) = %v, want %v", raw, got, want)
		}
	}
}

func TestDecodeArray(t *testing.T) {
	obj := map[string]json.RawMessage{"list": json.RawMessage(`[1, {"a":2}, null]`), "null": json.RawMessage(`null`), "object": json.RawMessage(`{}`)}
	items, err := wire.DecodeArray(obj, "list", "the request")
	if err != nil || len(items) != 3 || string(items[1]) != `{"a":2}` || string(items[2]) != "null" {
		t.Errorf("DecodeArray(list) = %q, %v", items, err)
	}
	for _, field := range []string{"null", "absent"} {
		if items, err := wire.DecodeArray(obj, field, "the request"); err != nil || items != nil {
			t.Errorf("DecodeArray(%s) = %q, %v; want none", field, items, err)
		}
	}
	_, err = wire.DecodeArray(obj, "object", "the request")
	if want := `the request: "object" is not an array: `; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("DecodeArray(object) = %v, want an error starting %q", err, want)
	}

	if items, err := wire.RequireArray(obj, "null", "the request"); err != nil || items != nil {
		t.Errorf("RequireArray(null) = %q, %v; want none", items, err)
	}
	if _, err := wire.RequireArray(obj, "absent", "the request"); err == nil || err.Error() != `the request has no "absent"` {
		t.Errorf("RequireArray(absent) = %v", err)
	}
	if _, err := wire.RequireArray(obj, "object", "the request"); err == nil {
		t.Error("RequireArray(object) succeeded")
	}
}

func TestMerge(t *testing.T) {
	dst := map[string]json.RawMessage{"a": json.RawMessage(`1`), "b": json.RawMessage(`2`)}
	wire.Merge(dst, map[string]json.RawMessage{"a": json.RawMessage(`null`), "b": json.RawMessage(`3`), "c": json.RawMessage(`{}`)})
	want := map[string]json.RawMessage{"a": json.RawMessage(`1`), "b": json.RawMessage(`3`), "c": json.RawMessage(`{}`)}
	if !maps.EqualFunc(dst, want, func(x, y json.RawMessage) bool { return string(x) == string(y) }) {
		t.Errorf("Merge = %q, want %q", dst, want)
	}
}
