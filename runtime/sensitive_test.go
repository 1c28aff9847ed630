package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// treeSchema is a dynamic tool's recursive schema: entries holding a pin (sensitive by
// its keyword) and a note (sensitive by the Tool's "/root/**/note"), with entries
// below them by $ref, as a child, in a list and by name.
const treeSchema = `{"type":"object","properties":{"label":{"type":"string"},"root":{"$ref":"#/$defs/Entry"}},
	"required":["root"],"additionalProperties":false,
	"$defs":{"Entry":{"type":"object","additionalProperties":false,"properties":{
		"name":{"type":"string"},
		"pin":{"type":"string","minLength":4,"x-toolgen-sensitive":true},
		"note":{"type":"string"},
		"child":{"$ref":"#/$defs/Entry"},
		"kids":{"type":"array","items":{"$ref":"#/$defs/Entry"}},
		"byName":{"type":"object","additionalProperties":{"$ref":"#/$defs/Entry"}}}}}}`

// treeTool returns put_tree as a dynamic tool, and where the arguments it ran with
// are kept.
func treeTool(t testing.TB) (*Toolset, *[]json.RawMessage) {
	t.Helper()
	var mu sync.Mutex
	var ran []json.RawMessage
	ts, err := NewTool(Tool{Name: "put_tree", InputSchema: json.RawMessage(treeSchema), Sensitive: []string{"/root/**/note"}},
		func(_ context.Context, args json.RawMessage) (*Result, error) {
			mu.Lock()
			ran = append(ran, args)
			mu.Unlock()
			return TextResult("stored"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return ts, &ran
}

// randomEntry returns a random entry of depth levels at most, and appends the pins
// and notes it holds to secrets. Some entries go as JSON strings holding them.
func randomEntry(rng *rand.Rand, depth int, secrets *[]string) any {
	e := map[string]any{"name": fmt.Sprintf("entry %d", len(*secrets))}
	for _, k := range []string{"pin", "note"} {
		if rng.IntN(3) > 0 {
			s := fmt.Sprintf("%s-%d-%x", strings.ToUpper(k), len(*secrets), rng.Uint64())
			*secrets = append(*secrets, s)
			e[k] = s
		}
	}
	if depth > 0 {
		switch rng.IntN(4) {
		case 0:
			child := randomEntry(rng, depth-1, secrets)
			if rng.IntN(2) == 0 {
				b, _ := json.Marshal(child)
				child = string(b)
			}
			e["child"] = child
		case 1:
			e["kids"] = []any{randomEntry(rng, depth-1, secrets), randomEntry(rng, depth-1, secrets)}
		case 2:
			e["byName"] = map[string]any{"x": randomEntry(rng, depth-1, secrets)}
		}
	}
	return e
}

// TestDynamicSensitiveAtEveryDepth: a dynamic tool whose schema nests an entry in
// itself by $ref lists its sensitive paths with "**", marks the properties a given
// "**" path names, and keeps the pins and notes of random trees out of Redact, the
// slog lines and ApprovalRequest.Redacted at every depth; a pin that
// breaks its schema deep down is not echoed in the error.
func TestDynamicSensitiveAtEveryDepth(t *testing.T) {
	ts, ran := treeTool(t)
	tool, _ := ts.Lookup("put_tree")
	if !slices.Equal(tool.Sensitive, []string{"/root/**/note", "/root/**/pin"}) {
		t.Fatalf("Sensitive = %q", tool.Sensitive)
	}
	var logs bytes.Buffer
	var prompts []string
	logged := ts.WithArgumentLogging(true).WithObserver(SlogObserver(slog.New(slog.NewJSONHandler(&logs, nil)))).
		WithApprover(func(_ context.Context, req ApprovalRequest) Decision {
			prompts = append(prompts, string(req.Redacted()))
			return Allow()
		})
	rng := rand.New(rand.NewPCG(19, 5))
	for i := range 200 {
		var secrets []string
		b, _ := json.Marshal(map[string]any{"label": "codes", "root": randomEntry(rng, 1+rng.IntN(5), &secrets)})
		args := string(b)
		logs.Reset()
		prompts = nil
		if r := logged.Call(context.Background(), "put_tree", b); r.IsError {
			t.Fatalf("refused: %s\n%s", r.Text(), args)
		}
		// loop.Pending's Redacted is Redact's (runtime/loop's TestPendingRedacted).
		surfaces := map[string]string{"Redact": string(Redact(tool, b)), "slog": logs.String(),
			"ApprovalRequest.Redacted": strings.Join(prompts, "\n")}
		for name, text := range surfaces {
			for _, s := range secrets {
				if strings.Contains(text, s) {
					t.Fatalf("%s shows %s: %s\nargs %s", name, s, text, args)
				}
			}
		}
		if i == 0 && len(*ran) == 0 {
			t.Fatal("the tool never ran")
		}
	}
	deep := `{"root":{"kids":[{"byName":{"x":{"child":{"pin":"Zq9","note":31415926}}}}]}}`
	r := ts.Call(context.Background(), "put_tree", []byte(deep))
	if !r.IsError || strings.Contains(r.Text(), "Zq9") || strings.Contains(r.Text(), "31415926") || !strings.Contains(r.Text(), "/root/kids/0/byName/x/child/pin") {
		t.Errorf("a deep invalid pin: %s", r.Text())
	}
	for _, bad := range []string{"/root/**/nothing", "/root/**", "/**/label/x"} {
		if _, err := NewTool(Tool{Name: "t", InputSchema: json.RawMessage(treeSchema), Sensitive: []string{bad}}, func(context.Context, json.RawMessage) (*Result, error) { return nil, nil }); err == nil {
			t.Errorf("Sensitive %q names no property, and was taken", bad)
		}
	}
}

// FuzzRedact: whatever arguments the recursive dynamic tool takes, Redact shows every
// pin and note, at any depth, as [redacted].
func FuzzRedact(f *testing.F) {
	for _, s := range []string{`{"root":{"pin":"1234","child":{"note":"n","kids":[{"pin":"5678"}]}}}`,
		`{"root":{"child":"{\"pin\":\"1234\",\"byName\":{\"a\":{\"note\":\"x\"}}}"}}`,
		`"{\"root\":{\"byName\":{\"pin\":{\"pin\":\"abcd\"}}}}"`} {
		f.Add([]byte(s))
	}
	ts, ran := treeTool(f)
	tool, _ := ts.Lookup("put_tree")
	f.Fuzz(func(t *testing.T, args []byte) {
		*ran = (*ran)[:0]
		if r := ts.Call(context.Background(), "put_tree", args); r.IsError {
			return
		}
		var v map[string]any
		if err := json.Unmarshal(Redact(tool, args), &v); err != nil {
			t.Fatalf("Redact of valid arguments is not an object: %v", err)
		}
		if err := allRedacted(v["root"]); err != nil {
			t.Fatalf("%v\nargs %q\nredacted %s", err, args, Redact(tool, args))
		}
	})
}

// allRedacted walks an entry of the redacted arguments. An entry may be redacted
// whole: a map key named like a sensitive property is one step of "**".
func allRedacted(v any) error {
	if v == nil || v == Redacted {
		return nil
	}
	e, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("an entry is %T", v)
	}
	for _, k := range []string{"pin", "note"} {
		if x, ok := e[k]; ok && x != Redacted {
			return fmt.Errorf("%s shown: %v", k, x)
		}
	}
	if err := allRedacted(e["child"]); err != nil {
		return err
	}
	kids, _ := e["kids"].([]any)
	for _, k := range kids {
		if err := allRedacted(k); err != nil {
			return err
		}
	}
	byName, _ := e["byName"].(map[string]any)
	for _, k := range byName {
		if err := allRedacted(k); err != nil {
			return err
		}
	}
	return nil
}

// TestSensitiveWhereverTheKeywordStands: x-toolgen-sensitive marks the value its schema
// reads wherever that schema stands, not only on a property's own schema: on the items
// of a list (of lists), on a map's values, on the target of a $ref (with list keywords
// beside it or not), on the branch of a nullable anyOf. Each of those was read as an
// annotation and ignored: the values were logged and prompted in clear. The value is
// redacted, not echoed in a violation, and the whole arguments marked is refused.
func TestSensitiveWhereverTheKeywordStands(t *testing.T) {
	const s = `"type":"string","minLength":9,"x-toolgen-sensitive":true`
	for _, tc := range []struct {
		schema, args, want string
	}{
		{`{"type":"object","properties":{"l":{"type":"array","items":{"type":"array","items":{` + s + `}}}}}`,
			`{"l":[["S1x"],["S2x"]]}`, "/l/*/*"},
		{`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{` + s + `}}}}`,
			`{"m":{"a":"S1x","b":"S2x"}}`, "/m/*"},
		{`{"type":"object","properties":{"pin":{"$ref":"#/$defs/s"}},"$defs":{"s":{` + s + `}}}`,
			`{"pin":"S1x"}`, "/pin"},
		{`{"type":"object","properties":{"pins":{"$ref":"#/$defs/l","minItems":1}},"$defs":{"l":{"type":"array","items":{"type":"string"},"x-toolgen-sensitive":true}}}`,
			`{"pins":["S1x",5]}`, "/pins"},
		{`{"type":"object","properties":{"pins":{"$ref":"#/$defs/l","minItems":1,"x-toolgen-sensitive":true}},"$defs":{"l":{"type":"array","items":{"type":"string"}}}}`,
			`{"pins":["S1x",5]}`, "/pins"},
		{`{"type":"object","properties":{"pin":{"anyOf":[{` + s + `},{"type":"null"}]}}}`,
			`{"pin":"S1x"}`, "/pin"},
	} {
		ts, err := NewTool(Tool{Name: "d", InputSchema: json.RawMessage(tc.schema)}, func(context.Context, json.RawMessage) (*Result, error) {
			return TextResult("ran"), nil
		})
		if err != nil {
			t.Fatalf("%s: %v", tc.schema, err)
		}
		tool, _ := ts.Lookup("d")
		if !slices.Contains(tool.Sensitive, tc.want) {
			t.Errorf("%s: Sensitive %q, want %q in it", tc.schema, tool.Sensitive, tc.want)
		}
		if r := Redact(tool, []byte(tc.args)); strings.Contains(string(r), "S1") || strings.Contains(string(r), "S2") {
			t.Errorf("%s: Redact gave %s", tc.schema, r)
		}
		if res := ts.Call(context.Background(), "d", []byte(tc.args)); !res.IsError || strings.Contains(res.Text(), "S1") {
			t.Errorf("%s: the call's violation %q", tc.schema, res.Text())
		}
	}
	for _, schema := range []string{
		`{"type":"object","x-toolgen-sensitive":true}`,
		`{"$ref":"#/$defs/o","$defs":{"o":{"type":"object","x-toolgen-sensitive":true}}}`,
		`{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","x-toolgen-sensitive":"yes"}}}}`,
	} {
		var se *SchemaError
		if _, err := NewTool(Tool{Name: "d", InputSchema: json.RawMessage(schema)}, func(context.Context, json.RawMessage) (*Result, error) { return nil, nil }); !errors.As(err, &se) || se.Keyword != SensitiveKeyword {
			t.Errorf("%s: %v, want a SchemaError about %s", schema, err, SensitiveKeyword)
		}
	}
}

// TestSensitiveKeywordAtAnyNesting: the family of TestSensitiveWhereverTheKeywordStands,
// on random nestings of properties, lists, maps, references and nullable anyOfs around
// a schema marked x-toolgen-sensitive, or around a reference to one: its value is
// redacted and never echoed in a violation, wherever it stands.
func TestSensitiveKeywordAtAnyNesting(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 3))
	for range 3000 {
		var defs []string
		schema, value := `{"type":"string","minLength":99,"x-toolgen-sensitive":true}`, `"SECRET"`
		if r.IntN(2) == 0 {
			defs = append(defs, `"leaf":`+schema)
			schema = `{"$ref":"#/$defs/leaf"}`
		}
		for i := range 1 + r.IntN(5) {
			switch r.IntN(5) {
			case 0:
				schema, value = `{"type":"array","items":`+schema+`}`, `[`+value+`]`
			case 1:
				schema, value = `{"type":"object","additionalProperties":`+schema+`}`, `{"k":`+value+`}`
			case 2:
				schema, value = `{"type":"object","properties":{"p":`+schema+`}}`, `{"p":`+value+`}`
			case 3:
				name := fmt.Sprintf("d%d", i)
				defs = append(defs, `"`+name+`":`+schema)
				schema = `{"$ref":"#/$defs/` + name + `"}`
			case 4:
				schema = `{"anyOf":[` + schema + `,{"type":"null"}]}`
			}
		}
		doc := `{"type":"object","properties":{"a":` + schema + `}`
		if len(defs) > 0 {
			doc += `,"$defs":{` + strings.Join(defs, ",") + `}`
		}
		doc += `}`
		args := `{"a":` + value + `}`
		ts, err := NewTool(Tool{Name: "d", InputSchema: json.RawMessage(doc)}, func(context.Context, json.RawMessage) (*Result, error) {
			return TextResult("ran"), nil
		})
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		tool, _ := ts.Lookup("d")
		if red := Redact(tool, []byte(args)); strings.Contains(string(red), "SECRET") {
			t.Fatalf("%s: Redact(%s) = %s (Sensitive %q)", doc, args, red, tool.Sensitive)
		}
		if res := ts.Call(context.Background(), "d", []byte(args)); !res.IsError || strings.Contains(res.Text(), "SECRET") {
			t.Fatalf("%s: the call of %s: %q", doc, args, res.Text())
		}
	}
}
