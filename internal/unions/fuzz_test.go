package unions

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// FuzzUnionDecoder feeds arguments to echo_shape, whose input holds tagged unions as a
// property, an optional property, map values and (through Group) list items of a
// variant, and checks the generated decoder against a JSON Schema validator on the
// tool's own canonical input schema: on plain JSON (no duplicate keys, no null, no
// string that could be a double-encoded object) they agree on accept and reject; and
// what the tool accepts, written back with its tags, reads back the same.
func FuzzUnionDecoder(f *testing.F) {
	for _, s := range []string{
		`{"shape":{"type":"circle","radius":1}}`,
		`{"shape":{"radius":1,"type":"circle"}}`,
		`{"shape":{"width":1,"height":2,"type":"rectangle","unit":"cm"}}`,
		`{"shape":{"type":"group","name":"g","parts":[{"radius":2,"type":"circle"},{"parts":[],"name":"h","type":"group"}]}}`,
		`{"shape":{"type":"circle","radius":1},"named":{"a":{"radius":1,"type":"circle"}},"spare":{"type":"rectangle","width":0,"height":0}}`,
		`{"shape":{"type":"square"}}`,
		`{"shape":{"type":3}}`,
		`{"shape":{"radius":1}}`,
		`{"shape":"{\"type\":\"circle\",\"radius\":1}"}`,
		`{"shape":{"type":"circle","radius":1,"type":"circle"}}`,
		`{"shape":{"typ\u0065":"circle","radius":1}}`,
		`{"shape":{"parts":[{"parts":[{"parts":[],"name":"c","type":"group"}],"name":"b","type":"group"}],"name":"a","type":"group"}}`,
	} {
		f.Add([]byte(s))
	}
	tool, _ := Tools().Lookup("echo_shape")
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.InputSchema))
	if err != nil {
		f.Fatal(err)
	}
	if err := c.AddResource("https://toolgen.test/echo_shape.json", doc); err != nil {
		f.Fatal(err)
	}
	oracle, err := c.Compile("https://toolgen.test/echo_shape.json")
	if err != nil {
		f.Fatal(err)
	}
	ts := Tools()
	f.Fuzz(func(t *testing.T, args []byte) {
		r := ts.Call(context.Background(), "echo_shape", args)
		if r == nil {
			t.Fatal("no result")
		}
		if plain(args) {
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
			if err == nil {
				valid := oracle.Validate(inst) == nil
				if valid == r.IsError {
					t.Fatalf("%s: the validator says valid=%v, the decoder: %s", args, valid, r.Text())
				}
			}
		}
		if r.IsError {
			return
		}
		var out struct {
			Shape json.RawMessage `json:"shape"`
		}
		if err := json.Unmarshal(r.Structured, &out); err != nil {
			t.Fatalf("%s: result %s: %v", args, r.Structured, err)
		}
		again := ts.Call(context.Background(), "echo_shape", []byte(`{"shape":`+string(out.Shape)+`}`))
		if again.IsError {
			t.Fatalf("%s: the result's shape %s does not read back: %s", args, out.Shape, again.Text())
		}
		var back struct {
			Shape json.RawMessage `json:"shape"`
		}
		if err := json.Unmarshal(again.Structured, &back); err != nil || !bytes.Equal(back.Shape, out.Shape) {
			t.Fatalf("%s: %s read back as %s", args, out.Shape, back.Shape)
		}
	})
}

// plain reports whether args is one well-formed JSON value without what the decoder's
// leniencies read otherwise than a validator does (a duplicate key, a null, a string
// that may hold an object or an array, empty arguments) and without a number the
// validator cannot read in reasonable time.
func plain(args []byte) bool {
	if len(bytes.TrimSpace(args)) == 0 || !json.Valid(args) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next string is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return err.Error() == "EOF"
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		isKey := top != nil && top.object && top.key
		if top != nil && top.object {
			top.key = !top.key
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, &frame{object: true, keys: map[string]bool{}, key: true})
			case '[':
				stack = append(stack, &frame{})
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].object {
					stack[len(stack)-1].key = true
				}
			}
		case string:
			if isKey {
				if top.keys[v] {
					return false
				}
				top.keys[v] = true
				continue
			}
			if t := strings.TrimSpace(v); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
				return false
			}
		case nil:
			return false
		case json.Number:
			// The validator reads numbers as exact rationals: 1e999999999 would take it
			// for ever, as the decoder (a float64, or an int) does not.
			if _, exp, ok := strings.Cut(strings.ToLower(string(v)), "e"); ok && len(strings.TrimLeft(exp, "+-0")) > 3 || len(v) > 100 {
				return false
			}
		}
	}
}
