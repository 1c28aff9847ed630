package schematree

import (
	"encoding/json"
	"testing"
)

type note struct{ text string }

type node = Schema[note]

func tree() *node {
	n := 2
	return &node{
		Type:        TypeList{"object"},
		Description: "<a & b>",
		Properties: &Map[*node]{
			{Name: "z", Schema: &node{Type: TypeList{"string", "null"}, MinLength: &n, Ext: note{"z"}}},
			{Name: "a", Schema: &node{Items: Bool[note](false), Enum: []json.RawMessage{json.RawMessage(`"x"`)}}},
		},
		AnyOf: []*node{{Ref: "#/$defs/T"}, {Type: TypeList{"null"}}},
		Defs:  Map[*node]{{Name: "T", Schema: Bool[note](true)}},
		Ext:   note{"root"},
	}
}

// Keywords are written in field order, entries in their order, one type as a string,
// boolean schemas as true and false, nothing of Ext, and <, > and & as they are.
func TestKeywords(t *testing.T) {
	want := `{"type":"object","description":"<a & b>","properties":{"z":{"type":["string","null"],"minLength":2},"a":{"enum":["x"],"items":false}},"anyOf":[{"$ref":"#/$defs/T"},{"type":"null"}],"$defs":{"T":true}}`
	if got := tree().Keywords(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	out, err := EncodeJSON(Map[*node]{{Name: "k", Schema: &node{}}}, true)
	if err != nil || string(out) != "{\n  \"k\": {}\n}\n" {
		t.Errorf("indented: %q, %v", out, err)
	}
}

func TestAcceptsNull(t *testing.T) {
	for _, tc := range []struct {
		s    *node
		want bool
	}{
		{&node{}, true},
		{Bool[note](true), true},
		{Bool[note](false), false},
		{&node{Type: TypeList{"string", "null"}}, true},
		{&node{AnyOf: []*node{{Ref: "#"}, {Type: TypeList{"null"}}}}, true},
		{&node{Type: TypeList{"string"}}, false},
		{&node{Ref: "#"}, false},
		{&node{Minimum: json.RawMessage("1")}, true},
	} {
		if got := tc.s.AcceptsNull(); got != tc.want {
			t.Errorf("%s: AcceptsNull %v, want %v", tc.s.Keywords(), got, tc.want)
		}
	}
}

// A clone is deep: changing it leaves the original as it was; Ext comes along.
func TestCloneWalk(t *testing.T) {
	orig := tree()
	before := orig.Keywords()
	c := orig.Clone()
	if c.Keywords() != before || c.Ext != orig.Ext || c.Properties.Get("z").Ext.text != "z" {
		t.Fatalf("clone differs: %s", c.Keywords())
	}
	var seen []string
	c.Walk(func(n *node) {
		seen = append(seen, n.Keywords())
		if n.Type != nil {
			n.Type[0] = "changed"
		}
		if n.MinLength != nil {
			*n.MinLength = 9
		}
		if n.Enum != nil {
			n.Enum[0][1] = 'y'
		}
		if n.Boolean != nil {
			*n.Boolean = !*n.Boolean
		}
	})
	if orig.Keywords() != before {
		t.Errorf("changing the clone changed the original: %s", orig.Keywords())
	}
	if len(seen) != 7 {
		t.Errorf("walk visited %d nodes, want 7: %q", len(seen), seen)
	}
	if c.Properties.Get("none") != nil {
		t.Error("Get of a missing name is not nil")
	}
}

func TestJoinText(t *testing.T) {
	if got := JoinText(" a ", "", "\n", "b"); got != "a\n\nb" {
		t.Errorf("JoinText = %q", got)
	}
}
