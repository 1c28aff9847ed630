package parser

import (
	"reflect"
	"testing"

	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"GetTransactions": "get_transactions",
		"HTTPServer":      "http_server",
		"GetURLFor":       "get_url_for",
		"Hello":           "hello",
		"hello":           "hello",
		"ID":              "id",
		"UserID":          "user_id",
		"GetV2Data":       "get_v2_data",
		"Get_Thing":       "get_thing",
		"A":               "a",
		"ServeHTTP":       "serve_http",
		"JSONToXML":       "json_to_xml",
	} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitOptions(t *testing.T) {
	tests := []struct {
		in   string
		want []option
		errs []offError
	}{
		{"", nil, nil},
		{"   ", nil, nil},
		{"readonly", []option{{Key: "readonly", Off: 0}}, nil},
		{" name=x\ttitle=y", []option{
			{Key: "name", Value: "x", HasValue: true, Off: 1},
			{Key: "title", Value: "y", HasValue: true, Off: 8},
		}, nil},
		{`title="Get \"x\"" group=a,b`, []option{
			{Key: "title", Value: `Get "x"`, HasValue: true, Off: 0},
			{Key: "group", Value: "a,b", HasValue: true, Off: 18},
		}, nil},
		{`title="a b"`, []option{{Key: "title", Value: "a b", HasValue: true}}, nil},
		{`title=""`, []option{{Key: "title", Value: "", HasValue: true}}, nil},
		{"name=", []option{{Key: "name", HasValue: true}}, nil},
		{"pattern=^\\d+$", []option{{Key: "pattern", Value: "^\\d+$", HasValue: true}}, nil},
		{"a=b=c", []option{{Key: "a", Value: "b=c", HasValue: true}}, nil},
		{`=x readonly`, []option{{Key: "readonly", Off: 3}}, []offError{{0, `missing option name before "="`}}},
		{`title="open readonly`, nil, []offError{{0, `malformed quoted value "open readonly: missing closing quote`}}},
		{`title="bad\q" ok`, []option{{Key: "ok", Off: 14}}, []offError{{0, `malformed quoted value "bad\q"`}}},
		{`title="x"y ok`, []option{{Key: "ok", Off: 11}}, []offError{{0, `unexpected text "y" after quoted value`}}},
	}
	for _, tt := range tests {
		got, errs := splitOptions(tt.in, 0)
		if !reflect.DeepEqual(got, tt.want) || !reflect.DeepEqual(errs, tt.errs) {
			t.Errorf("splitOptions(%q)\n got %+v %+v\nwant %+v %+v", tt.in, got, errs, tt.want, tt.errs)
		}
	}
	// The base offset is added.
	got, _ := splitOptions("a b", 10)
	if got[0].Off != 10 || got[1].Off != 12 {
		t.Errorf("offsets with base 10: %+v", got)
	}
}

func TestSplitTag(t *testing.T) {
	tests := []struct {
		in   string
		want []tagItem
		errs []offError
	}{
		{"", nil, nil},
		{"required", []tagItem{{Key: "required", Text: "required"}}, nil},
		{"minLength=1,maxLength=5", []tagItem{
			{Key: "minLength", Value: "1", HasValue: true, Off: 0, Text: "minLength=1"},
			{Key: "maxLength", Value: "5", HasValue: true, Off: 12, Text: "maxLength=5"},
		}, nil},
		{`title=a\, b,sensitive`, []tagItem{
			{Key: "title", Value: "a, b", HasValue: true, Off: 0, Text: "title=a, b"},
			{Key: "sensitive", Off: 12, Text: "sensitive"},
		}, nil},
		{`pattern=^\d+$`, []tagItem{{Key: "pattern", Value: `^\d+$`, HasValue: true, Text: `pattern=^\d+$`}}, nil},
		{`pattern=a\\,b`, []tagItem{{Key: "pattern", Value: `a\,b`, HasValue: true, Text: `pattern=a\,b`}}, nil},
		{"enum=a|b|c, required", []tagItem{
			{Key: "enum", Value: "a|b|c", HasValue: true, Text: "enum=a|b|c"},
			{Key: "required", Off: 12, Text: " required"},
		}, nil},
		{"default=", []tagItem{{Key: "default", HasValue: true, Text: "default="}}, nil},
		{"a,,b", []tagItem{{Key: "a", Text: "a"}, {Key: "b", Off: 3, Text: "b"}}, []offError{{2, "empty item in tool tag"}}},
		{"a,", []tagItem{{Key: "a", Text: "a"}}, []offError{{2, "empty item in tool tag"}}},
		{"=x", nil, []offError{{0, `missing key before "=" in tool tag`}}},
	}
	for _, tt := range tests {
		got, errs := splitTag(tt.in)
		if !reflect.DeepEqual(got, tt.want) || !reflect.DeepEqual(errs, tt.errs) {
			t.Errorf("splitTag(%q)\n got %+v %+v\nwant %+v %+v", tt.in, got, errs, tt.want, tt.errs)
		}
	}
}

func TestLookupTag(t *testing.T) {
	tests := []struct {
		tag, key string
		value    string
		literal  bool
		// offsets in the tag of value bytes 0 and len(value)
		first, end int
		found      bool
	}{
		{`json:"a" tool:"minLength=1"`, "tool", "minLength=1", false, 15, 26, true},
		{`json:"a" tool:"minLength=1"`, "json", "a", false, 6, 7, true},
		{`json:"a"`, "tool", "", false, 0, 0, false},
		{`tool:"pattern=^\\d+$"`, "tool", `pattern=^\d+$`, false, 6, 20, true},
		{`tool:"pattern=^\d+$"`, "tool", `pattern=^\d+$`, true, 6, 19, true},
		{`tool:"é=1"`, "tool", "é=1", false, 6, 10, true},
	}
	for _, tt := range tests {
		v, found := lookupTag(tt.tag, tt.key)
		if found != tt.found {
			t.Errorf("lookupTag(%q, %q) found = %v", tt.tag, tt.key, found)
			continue
		}
		if !found {
			continue
		}
		if v.Value != tt.value || v.Literal != tt.literal || v.Offset(0) != tt.first || v.Offset(len(v.Value)) != tt.end {
			t.Errorf("lookupTag(%q, %q) = %q literal=%v offsets %d..%d, want %q %v %d..%d", tt.tag, tt.key,
				v.Value, v.Literal, v.Offset(0), v.Offset(len(v.Value)), tt.value, tt.literal, tt.first, tt.end)
		}
	}
	// Offsets past an escape point at the escaped character's source.
	v, _ := lookupTag(`tool:"a\\,b,c"`, "tool")
	if v.Value != `a\,b,c` || v.Offset(5) != 12 {
		t.Errorf("escaped offsets: %q %v", v.Value, v.offs)
	}
}

func TestParseValue(t *testing.T) {
	i8 := &model.Type{Kind: model.Int, Bits: 8}
	u16 := &model.Type{Kind: model.Uint, Bits: 16}
	f32 := &model.Type{Kind: model.Float, Bits: 32}
	f64 := &model.Type{Kind: model.Float, Bits: 64}
	str := &model.Type{Kind: model.String}
	tests := []struct {
		t    *model.Type
		in   string
		want string // JSON, or "error"
	}{
		{i8, "127", "127"},
		{i8, "-128", "-128"},
		{i8, "128", "error"},
		{i8, "1e2", "100"},
		{i8, "1.5", "error"},
		{i8, "+1", "error"},
		{i8, "0x10", "error"},
		{u16, "65535", "65535"},
		{u16, "-1", "error"},
		{f64, "1.50", "1.5"},
		{f64, "1e21", "1e+21"},
		{f64, "0.0000001", "1e-7"},
		{f64, "-0", "0"},
		{f32, "0.1", "0.1"},
		{f32, "1e39", "error"},
		{f64, "abc", "error"},
		{str, `a "b" <c>`, `"a \"b\" <c>"`},
		{&model.Type{Kind: model.Bool}, "true", "true"},
		{&model.Type{Kind: model.Bool}, "yes", "error"},
		{&model.Type{Kind: model.Duration}, "1h30m", `"1h30m"`},
		{&model.Type{Kind: model.Duration}, "90", "error"},
		{&model.Type{Kind: model.Time}, "2024-01-02T03:04:05Z", `"2024-01-02T03:04:05Z"`},
	}
	for _, tt := range tests {
		v, err := parseValue(tt.t, tt.in)
		got := v.json
		if err != nil {
			got = "error"
		}
		if got != tt.want {
			t.Errorf("parseValue(%s%d, %q) = %s (%v), want %s", tt.t.Kind, tt.t.Bits, tt.in, got, err, tt.want)
		}
	}
}

func TestValidFormat(t *testing.T) {
	for _, tt := range []struct {
		format, s string
		ok        bool
	}{
		{"date-time", "2024-01-02T03:04:05+01:00", true},
		{"date-time", "2024-01-02", false},
		{"date", "2024-01-02", true},
		{"time", "03:04:05Z", true},
		{"time", "03:04:05.123+02:00", true},
		{"duration", "P1DT2H", true},
		{"duration", "P", false},
		{"duration", "PT", false},
		{"email", "a@example.com", true},
		{"email", "A <a@example.com>", false},
		{"hostname", "example.com", true},
		{"hostname", "-bad.com", false},
		{"ipv4", "10.0.0.1", true},
		{"ipv4", "::1", false},
		{"ipv6", "::1", true},
		{"uri", "https://example.com/x", true},
		{"uri", "/relative", false},
		{"uri", "file:a b?q", false}, // a space: the decoder refuses it, so does a default
		{"uuid", "123e4567-e89b-12d3-a456-426614174000", true},
		{"uuid", "123e4567", false},
	} {
		if got := toolimpl.Format(tt.format).Valid(tt.s); got != tt.ok {
			t.Errorf("a default of format %q: %q valid = %v", tt.format, tt.s, got)
		}
	}
}

func TestNearest(t *testing.T) {
	known := []string{"readonly", "destructive", "idempotent", "openworld"}
	for in, want := range map[string]string{
		"redonly":    "readonly",
		"ReadOnly":   "readonly",
		"idempotant": "idempotent",
		"xyz":        "",
	} {
		if got := nearest(in, known); got != want {
			t.Errorf("nearest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDiagnostic(t *testing.T) {
	list := sortDiagnostics([]Diagnostic{
		{model.Pos{File: "b.go", Line: 1, Col: 1}, "b", nil},
		{model.Pos{File: "a.go", Line: 10, Col: 2}, "late", nil},
		{model.Pos{File: "a.go", Line: 2, Col: 30}, "early", nil},
		{model.Pos{File: "a.go", Line: 2, Col: 30}, "early", nil},
		{model.Pos{File: "a.go", Line: 2}, "no column", nil},
		{model.Pos{}, "nowhere", nil},
	})
	want := "nowhere\na.go:2: no column\na.go:2:30: early\na.go:10:2: late\nb.go:1:1: b"
	if got := list.Error(); got != want {
		t.Errorf("ErrorList.Error() =\n%s\nwant\n%s", got, want)
	}
}

func TestSplitErrorPos(t *testing.T) {
	for in, want := range map[string][3]any{
		"/a/b.go:12:3":  {"/a/b.go", 12, 3},
		"b.go:12":       {"b.go", 12, 0},
		"":              {"", 0, 0},
		"-":             {"", 0, 0},
		"c:/x/b.go:1:2": {"c:/x/b.go", 1, 2},
	} {
		f, l, c := splitErrorPos(in)
		if f != want[0] || l != want[1] || c != want[2] {
			t.Errorf("splitErrorPos(%q) = %q %d %d", in, f, l, c)
		}
	}
}
