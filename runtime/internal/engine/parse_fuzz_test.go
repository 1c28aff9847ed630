package engine

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/jsonread"
)

// decoderParse is parseSchema's path for text jsonread.Valid declines: a json.Decoder.
func decoderParse(b []byte) (*jv, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return parseJV(dec, nil, "", 0)
}

// shape writes v's kind, JSON Pointer and text, and those of every value in it, one a
// line, so that two trees compare with their links up included.
func shape(v *jv, out *strings.Builder) {
	out.WriteString(string(v.kind) + " " + v.pointer("") + " " + string(v.compact()) + "\n")
	for _, c := range v.vals {
		shape(c, out)
	}
	for _, c := range v.items {
		shape(c, out)
	}
}

// FuzzParseSchema checks that parseSchema's direct reading of well-formed text builds
// the tree the json.Decoder path builds, with the same errors (a duplicate key, too
// deep a nesting).
func FuzzParseSchema(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`,
		` { "a" : [ 1 , -2.5e3 , true , false , null , "x\u00e9\ud83d\ude00" ] } `,
		`{"a":1,"a":2}`,
		`{"\u0061":1,"a":2}`,
		`{"p":{"x":{},"x":[]}}`,
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
		strings.Repeat(`{"a":`, MaxSchemaDepth) + `1` + strings.Repeat(`}`, MaxSchemaDepth),
		strings.Repeat(`[`, MaxSchemaDepth+1) + strings.Repeat(`]`, MaxSchemaDepth+1),
		"{\"k\xff\":\"v\xfe\"}",
		`{"a~b/c":{"":0}}`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"e":10}`,
		`"s"`, `0`, `{}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !jsonread.Valid(b, jsonread.StdMaxDepth) {
			return
		}
		got, _, gotErr := readJV(b, jsonread.SkipSpace(b, 0), nil, "", 0)
		want, wantErr := decoderParse(b)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("%q: direct error %v, decoder error %v", b, gotErr, wantErr)
		}
		if gotErr != nil {
			return
		}
		var g, w strings.Builder
		shape(got, &g)
		shape(want, &w)
		if g.String() != w.String() {
			t.Fatalf("%q: direct reading\n%s\ndecoder reading\n%s", b, g.String(), w.String())
		}
	})
}
