package unions

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

func call(t *testing.T, name, args string) *runtime.Result {
	t.Helper()
	return Tools().Call(context.Background(), name, []byte(args))
}

// TestTagAnywhere decodes the same rectangle with its discriminator first, in the
// middle and last, escaped, with white space, and inside a double-encoded object.
func TestTagAnywhere(t *testing.T) {
	for _, shape := range []string{
		`{"type":"rectangle","width":2,"height":3}`,
		`{"width":2,"type":"rectangle","height":3}`,
		`{"width":2,"height":3,"type":"rectangle"}`,
		`{ "width" : 2 , "height" : 3 , "type" : "rectangle" }`,
		`{"width":2,"height":3,"typ\u0065":"rect\u0061ngle"}`,
		`"{\"width\":2,\"height\":3,\"type\":\"rectangle\"}"`,
	} {
		r := call(t, "echo_shape", `{"shape":`+shape+`}`)
		if r.IsError {
			t.Errorf("%s: %s", shape, r.Text())
			continue
		}
		want := `{"shape":{"type":"rectangle","width":2,"height":3,"unit":"m"},"count":1}`
		if got := string(r.Structured); got != want {
			t.Errorf("%s: got %s, want %s", shape, got, want)
		}
	}
}

// TestNestedUnions reads unions inside unions, the tags last at every level, so that
// the look-ahead of the outer one passes over the inner ones.
func TestNestedUnions(t *testing.T) {
	args := `{"e":{"left":{"left":{"value":1,"op":"num"},"right":{"value":2,"op":"num"},"op":"add"},"right":{"op":"num","value":3},"op":"add"}}`
	r := call(t, "eval", args)
	if r.IsError || r.Text() != `{"result":6}` {
		t.Fatalf("got %s", r.Text())
	}
	group := `{"shape":{"parts":[{"radius":1,"type":"circle"},{"name":"g2","parts":[{"type":"rectangle","width":1,"height":1}],"type":"group"}],"name":"g","type":"group"}}`
	r = call(t, "echo_shape", group)
	if r.IsError {
		t.Fatal(r.Text())
	}
	var back Area
	if err := json.Unmarshal(r.Structured, &struct{ Shape *json.RawMessage }{}); err != nil {
		t.Fatal(err)
	}
	_ = back
	want := `{"shape":{"type":"group","name":"g","parts":[{"type":"circle","radius":1},{"type":"group","name":"g2","parts":[{"type":"rectangle","width":1,"height":1,"unit":"m"}]}]},"count":1}`
	if got := string(r.Structured); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestTagErrors: a missing, unknown or wrong-typed discriminator is an argument error
// at the discriminator's path that names the variants; the variant chosen reports all
// of its violations.
func TestTagErrors(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{`{"shape":{"radius":1}}`, `/shape/type: missing required property: it says which kind of object this is, one of "circle", "rectangle", "group"`},
		{`{"shape":{"radius":1,"type":"square"}}`, `/shape/type: must be one of "circle", "rectangle", "group" (got "square")`},
		{`{"shape":{"type":3,"radius":1}}`, `/shape/type: must be a string: one of "circle", "rectangle", "group" (got 3)`},
		{`{"shape":{"type":null}}`, `/shape/type: must be a string: one of "circle", "rectangle", "group" (got null)`},
		{`{"shape":[1]}`, `/shape: must be an object`},
		{`{"shape":null}`, `/shape: must be an object`},
		{`{}`, `/shape: missing required property`},
		{`{"shape":{"type":"rectangle","width":-1,"height":"x","label":"much too long","depth":1}}`,
			`/shape/width: must be at least 0 (got -1); /shape/height: must be a number (got "x"); /shape/label: must be at most 8 characters long (got "much too long"); /shape/depth: unknown property`},
		{`{"shape":{"type":"circle","radius":0,"type":"circle"}}`, `/shape/radius: must be greater than 0 (got 0); /shape/type: duplicate property`},
		{`{"shape":{"type":"circle"}}`, `/shape/radius: missing required property`},
		{`{"shape":{"type":"group","name":"g","parts":[{"type":"circle","radius":-1},{"kind":"x"}]}}`,
			`/shape/parts/0/radius: must be greater than 0 (got -1); /shape/parts/1/type: missing required property`},
	} {
		r := call(t, "echo_shape", c.args)
		if !r.IsError {
			t.Errorf("%s: accepted: %s", c.args, r.Text())
			continue
		}
		if !strings.Contains(r.Text(), c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.args, r.Text(), c.want)
		}
	}
}

// TestOptionalUnion: null for an optional union means absent (OpenAI strict sends it),
// and the leniencies apply inside variants: null for an optional property, defaults.
func TestOptionalUnion(t *testing.T) {
	r := call(t, "echo_shape", `{"shape":{"type":"rectangle","width":1,"height":1,"label":null,"unit":null},"spare":null,"named":null}`)
	if r.IsError {
		t.Fatal(r.Text())
	}
	if want := `{"shape":{"type":"rectangle","width":1,"height":1,"unit":"m"},"count":1}`; string(r.Structured) != want {
		t.Errorf("got %s, want %s", r.Structured, want)
	}
	r = call(t, "echo_shape", `{"shape":{"type":"circle","radius":1},"spare":{"radius":2,"type":"circle"},"named":{"a":{"type":"circle","radius":3}}}`)
	if r.IsError || !strings.Contains(r.Text(), `"count":3`) {
		t.Fatal(r.Text())
	}
}

// TestSensitiveVariant: a sensitive property inside a variant is not echoed.
func TestSensitiveVariant(t *testing.T) {
	r := call(t, "unlock", `{"secret":{"code":"12345","kind":"pin"}}`)
	if !r.IsError || strings.Contains(r.Text(), "12345") || !strings.Contains(r.Text(), "/secret/code") {
		t.Fatalf("got %s", r.Text())
	}
	if r := call(t, "unlock", `{"secret":{"code":"1234","kind":"pin"}}`); r.IsError || r.Text() != "open" {
		t.Fatalf("got %s", r.Text())
	}
	// Below a sensitive union, neither a wrong tag nor a variant's value is shown.
	for _, hidden := range []string{`{"type":"secret-shape"}`, `{"type":"circle","radius":"secret-radius"}`, `{"type":7}`} {
		r := call(t, "echo_shape", `{"shape":{"type":"circle","radius":1},"hidden":`+hidden+`}`)
		if !r.IsError || strings.Contains(r.Text(), "secret") || strings.Contains(r.Text(), "7") || !strings.Contains(r.Text(), "/hidden/") {
			t.Errorf("%s: got %s", hidden, r.Text())
		}
	}
}

// TestUnionList reads a list of unions and returns it: each item keeps its tag.
func TestUnionList(t *testing.T) {
	r := call(t, "shapes", `{"shapes":[{"radius":1,"type":"circle"},{"type":"rectangle","height":2,"width":1}]}`)
	if r.IsError {
		t.Fatal(r.Text())
	}
	if want := `{"result":[{"type":"circle","radius":1},{"type":"rectangle","width":1,"height":2,"unit":"m"}]}`; string(r.Structured) != want {
		t.Errorf("got %s, want %s", r.Structured, want)
	}
	if r := call(t, "shapes", `{"shapes":[{"radius":1,"type":"circle"},{"type":"oval"}]}`); !r.IsError || !strings.Contains(r.Text(), "/shapes/1/type: must be one of") {
		t.Errorf("got %s", r.Text())
	}
}
