package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFieldNameLengths checks that NextField reads every property name as
// encoding/json does, whatever its length (NextField finds names of up to sixteen
// bytes eight at a time, without a call, and leaves the others to its full path),
// wherever an escape, a non-ASCII letter or the end of the text falls, and that text
// which breaks off inside a name or before its colon is refused.
func TestFieldNameLengths(t *testing.T) {
	var texts []string
	for n := 0; n <= 20; n++ {
		name := strings.Repeat("k", n)
		texts = append(texts,
			`{"`+name+`":1}`, `{"a":1,"`+name+`":2}`, `{"`+name+`":1,"zz":2}`,
			`{ "`+name+`" : 1 }`, `{"`+name+`"`, `{"`+name)
		for i := 0; i < n; i++ {
			for _, c := range []string{`\n`, `\u0041`, "é", `\"`} {
				with := name[:i] + c + name[i+1:]
				texts = append(texts, `{"`+with+`":1}`, `{"x":0,"`+with+`":1,"y":2}`)
			}
		}
	}
	for _, text := range texts {
		var want map[string]int
		wantOK := json.Unmarshal([]byte(text), &want) == nil
		d := NewDecoder([]byte(text), Limits{})
		got := map[string]int{}
		if d.BeginObject() {
			for d.NextField() {
				name := string(d.FieldName())
				if n, ok := d.Int(-1<<31, 1<<31); ok {
					got[name] = int(n)
				}
			}
		}
		gotOK := d.Finish()
		if gotOK != wantOK {
			t.Errorf("%s: valid %v, encoding/json says %v (%v)", text, gotOK, wantOK, d.Violations())
			continue
		}
		if !wantOK {
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%s: read %v, encoding/json %v", text, got, want)
			continue
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: read %v, encoding/json %v", text, got, want)
				break
			}
		}
	}
}
