package wiretest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
)

// TestToolset runs every tool of the stand-in as its documentation says.
func TestToolset(t *testing.T) {
	calls := []runtime.ToolCall{
		{ID: "1", Name: "get_weather", Arguments: []byte(`{"city":"Paris"}`)},
		{ID: "2", Name: "report", Arguments: []byte(`{"days":3}`)},
		{ID: "3", Name: "fail", Arguments: []byte(`{"city":"Atlantis"}`)},
		{ID: "4", Name: "boom", Arguments: []byte(`{}`)},
		{ID: "5", Name: "get_weather", Arguments: []byte(`["Paris"]`)},
	}
	results := wiretest.Toolset().RunCalls(context.Background(), calls, 0)
	for i, want := range []struct {
		isError bool
		text    string
	}{{false, "Sunny in Paris"}, {false, `{"days":3,"ok":true}`}, {true, "city Atlantis not found"}, {true, "boom failed with an internal error"}, {true, "invalid arguments for get_weather: must be an object"}} {
		if r := results[i].Result; r.IsError != want.isError || !strings.HasPrefix(r.Text(), want.text) {
			t.Errorf("%s = %q (error %v), want %q", calls[i].Name, r.Text(), r.IsError, want.text)
		}
	}
	if got := wiretest.CallsText(calls[:1]); got != "1 get_weather {\"city\":\"Paris\"}\n" {
		t.Errorf("CallsText = %q", got)
	}
}

func TestJSON(t *testing.T) {
	if !wiretest.JSONEqual(t, []byte(`{"a":[1, 2],"b":null}`), []byte(` {"b":null,"a":[1,2]}`)) {
		t.Error("JSONEqual of the same value in other spacing and order = false")
	}
	if wiretest.JSONEqual(t, []byte(`{"a":1}`), []byte(`{"a":"1"}`)) {
		t.Error("JSONEqual of 1 and \"1\" = true")
	}
	if f := wiretest.Fields(t, []byte(`{"a": {"b":1}}`)); string(f["a"]) != `{"b":1}` {
		t.Errorf("Fields = %q", f)
	}
	wiretest.Kept(t, []byte(`{"a":1,"b":[2],"c":3}`), []byte(`{"b":[ 2 ],"a":1,"d":4}`), "c")
}
