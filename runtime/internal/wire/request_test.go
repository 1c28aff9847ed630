package wire_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/internal/wire"
)

func TestDecodeRequest(t *testing.T) {
	req, list, err := wire.DecodeRequest([]byte(`{"model":"m","messages":[{"role":"user"}]}`), "messages", wire.RequireArray)
	if err != nil || string(req["model"]) != `"m"` || len(list) != 1 || string(list[0]) != `{"role":"user"}` {
		t.Errorf("DecodeRequest = %q, %q, %v", req, list, err)
	}
	if req, list, err := wire.DecodeRequest([]byte(`{"model":"m"}`), "tools", wire.DecodeArray); err != nil || len(req) != 1 || list != nil {
		t.Errorf("DecodeRequest without the optional field = %q, %q, %v", req, list, err)
	}
	for _, tc := range []struct {
		body  string
		array func(map[string]json.RawMessage, string, string) ([]json.RawMessage, error)
		want  string
	}{
		{`{"model":"m"}`, wire.RequireArray, `the request has no "messages"`},
		{`{"messages":{}}`, wire.DecodeArray, `the request: "messages" is not an array: `},
		{`[]`, wire.DecodeArray, `the request is not a JSON object: `},
		{`null`, wire.RequireArray, `the request is null, not a JSON object`},
	} {
		if _, _, err := wire.DecodeRequest([]byte(tc.body), "messages", tc.array); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("DecodeRequest(%s) = %v, want an error starting %q", tc.body, err, tc.want)
		}
	}
}

func TestAppendJSON(t *testing.T) {
	list := []json.RawMessage{json.RawMessage(`1`)}
	got, err := wire.AppendJSON(list, map[string]string{"a": "<b>"}, map[string]string{})
	if err != nil || len(got) != 3 || string(got[1]) != `{"a":"<b>"}` || string(got[2]) != `{}` {
		t.Errorf("AppendJSON = %q, %v", got, err)
	}
	if got, err := wire.AppendJSON[any](nil); got != nil || err != nil {
		t.Errorf("AppendJSON of nothing to nil = %q, %v; want nil", got, err)
	}
	if _, err := wire.AppendJSON(list, json.RawMessage(`{`)); err == nil {
		t.Error("AppendJSON of invalid raw JSON succeeded")
	}
}

func TestWith(t *testing.T) {
	obj := map[string]json.RawMessage{"keep": json.RawMessage(`{"x": [1, 2]}`), "list": json.RawMessage(`[]`)}
	got, err := wire.With(obj, "list", []json.RawMessage{json.RawMessage(` "a & b" `)})
	if err != nil || string(got) != `{"keep":{"x":[1,2]},"list":["a & b"]}` {
		t.Errorf("With = %s, %v", got, err)
	}
	if got, err := wire.With(obj, "list", []json.RawMessage(nil)); err != nil || string(got) != `{"keep":{"x":[1,2]},"list":null}` {
		t.Errorf("With of a nil list = %s, %v", got, err)
	}
}

func TestNameOf(t *testing.T) {
	for raw, want := range map[string]string{
		`{"name":"get_weather","type":"custom"}`: "get_weather",
		`{"type":"web_search"}`:                  "",
		`{"name":7}`:                             "",
		`[]`:                                     "",
		``:                                       "",
	} {
		if got := wire.NameOf(json.RawMessage(raw)); got != want {
			t.Errorf("NameOf(%s) = %q, want %q", raw, got, want)
		}
	}
}

func TestWithTools(t *testing.T) {
	req := map[string]json.RawMessage{"model": json.RawMessage(`"m"`), "tools": json.RawMessage(`[{"name":"old"}]`)}
	got, err := wire.WithTools(req, []json.RawMessage{json.RawMessage(`{"name":"a"}`)}, "auto")
	if err != nil || string(got) != `{"model":"m","tool_choice":"auto","tools":[{"name":"a"}]}` {
		t.Errorf("WithTools = %s, %v", got, err)
	}
	got, err = wire.WithTools(req, nil, "auto")
	if err != nil || string(got) != `{"model":"m"}` {
		t.Errorf("WithTools without tools = %s, %v; want tools and tool_choice removed", got, err)
	}
}
