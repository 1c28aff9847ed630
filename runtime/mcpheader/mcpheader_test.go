package mcpheader

import (
	"strings"
	"testing"
)

// TestCheckName: a header name is an HTTP token of 1 to MaxNameBytes bytes.
func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"Region", true},
		{strings.Repeat("a", MaxNameBytes), true},
		{strings.Repeat("a", MaxNameBytes+1), false},
		{"", false},
		{"Re gion", false},
		{"Région", false},
	} {
		if err := CheckName(tc.name); (err == nil) != tc.ok {
			t.Errorf("CheckName(%q) = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// TestParams: the annotations reached through properties are read, sorted by path; one
// inside items is refused; a schema without any has none.
func TestParams(t *testing.T) {
	got, err := Params([]byte(`{"type":"object","properties":{
		"where":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
		"region":{"type":"string","x-mcp-header":"Region"}}}`))
	if err != nil || len(got) != 2 || got[0].Name != "Region" || got[1].Name != "Zone" ||
		strings.Join(got[1].Path, "/") != "where/zone" || got[1].Type != "string" {
		t.Errorf("Params = %+v, %v", got, err)
	}
	if _, err := Params([]byte(`{"type":"array","items":{"type":"string","x-mcp-header":"Item"}}`)); err == nil {
		t.Error("an annotation inside items was taken")
	}
	if got, err := Params([]byte(`{"type":"object"}`)); got != nil || err != nil {
		t.Errorf("no annotation: %+v, %v", got, err)
	}
}
