package parser

import (
	"go/ast"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

func TestForModel(t *testing.T) {
	for _, tc := range []struct {
		doc, ident, want string
	}{
		// A verb after the identifier: the identifier goes, the verb is capitalized.
		{"GetWeather returns the weather forecast for a city.", "GetWeather", "Returns the weather forecast for a city."},
		{"Ping checks the connection.", "Ping", "Checks the connection."},
		{"Limit caps the number of results.", "Limit", "Caps the number of results."},
		{"Size defaults to medium.", "Size", "Defaults to medium."},
		{"Search has no side effects.", "Search", "Has no side effects."},
		{"Refund does what it says.", "Refund", "Does what it says."},
		{"Pay passes the payment on.", "Pay", "Passes the payment on."},
		// "is" and "are" go too; the next word is capitalized.
		{"City is the city to forecast.", "City", "The city to forecast."},
		{"Unit is a temperature unit.", "Unit", "A temperature unit."},
		{"Days is how many days to forecast, 1 to 14.", "Days", "How many days to forecast, 1 to 14."},
		{"Items are the ordered items.", "Items", "The ordered items."},
		{"Stamp is written as text.", "Stamp", "Written as text."},
		{"WeatherArgs are the arguments of GetWeather.", "WeatherArgs", "The arguments of GetWeather."},
		// Only the first word, and only when it is exactly the identifier.
		{"The city to forecast.", "City", "The city to forecast."},
		{"city is the city.", "City", "city is the city."},
		{"Cities is the list.", "City", "Cities is the list."},
		{"GetWeather's result is cached.", "GetWeather", "GetWeather's result is cached."},
		{"City: the city.", "City", "City: the city."},
		{"City, the city.", "City", "City, the city."},
		{"A City is a place.", "City", "A City is a place."},
		{"", "City", ""},
		// Without a verb, the identifier is part of the sentence: kept.
		{"City to look up.", "City", "City to look up."},
		{"Days to forecast.", "Days", "Days to forecast."},
		{"City - the city.", "City", "City - the city."},
		{"Name as the user wrote it.", "Name", "Name as the user wrote it."},
		{"Access class members.", "Access", "Access class members."},
		{"Mode Returns the mode.", "Mode", "Mode Returns the mode."},
		// A noun that ends in s reads as a verb; what is left is still a description.
		{"Unit celsius or fahrenheit.", "Unit", "Celsius or fahrenheit."},
		// Nothing, or no word, left: the original.
		{"City", "City", "City"},
		{"City is", "City", "City is"},
		{"City is ", "City", "City is "},
		{"City\n", "City", "City\n"},
		{"Limit is 10 by default.", "Limit", "Limit is 10 by default."},
		{"Limit is `n`.", "Limit", "Limit is `n`."},
		// The rest is untouched: later paragraphs, later uses of the identifier.
		{"GetWeather returns the weather.\n\nGetWeather is cached.", "GetWeather", "Returns the weather.\n\nGetWeather is cached."},
		{"City\nis the city,\nas written.", "City", "The city,\nas written."},
		{"City is  the city.", "City", "The city."},
		{"Amount is the amount in EUR.", "Amount", "The amount in EUR."},
		// Words that are not plain lower case keep their case.
		{"Platform is iOS or Android.", "Platform", "iOS or Android."},
		{"Key is userID or email.", "Key", "userID or email."},
		{"Greeting is élan itself.", "Greeting", "Élan itself."},
	} {
		if got := forModel(tc.doc, tc.ident); got != tc.want {
			t.Errorf("forModel(%q, %q) = %q, want %q", tc.doc, tc.ident, got, tc.want)
		}
	}
}

func TestCapitalize(t *testing.T) {
	for in, want := range map[string]string{
		"returns the weather": "Returns the weather",
		"the city":            "The city",
		"iOS or Android":      "iOS or Android",
		"userID or email":     "userID or email",
		"Already":             "Already",
		"élan":                "Élan",
		"`code`":              "`code`",
		"x":                   "X",
		"":                    "",
	} {
		if got := capitalize(in); got != want {
			t.Errorf("capitalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDescribeVerbatim(t *testing.T) {
	b := &pkgBuilder{}
	if got, _ := b.describe("City", "City is the city."); got != "The city." {
		t.Errorf("describe = %q, want %q", got, "The city.")
	}
	b.opts.verbatim = true
	if got, _ := b.describe("City", "City is the city."); got != "City is the city." {
		t.Errorf("describe with descriptions=verbatim = %q, want it unchanged", got)
	}
}

// TestDescribePlaceholders checks that the placeholders toolgen-vet -fix writes never
// reach a description, verbatim or not, and are reported.
func TestDescribePlaceholders(t *testing.T) {
	for _, verbatim := range []bool{false, true} {
		b := &pkgBuilder{}
		b.opts.verbatim = verbatim
		for _, tc := range []struct {
			docs []string
			want string
			ph   bool
		}{
			{[]string{"Note TODO: say what it holds."}, "", true},
			{[]string{"Note TODO: say what it holds.", "A line comment."}, "A line comment.", true},
			{[]string{"Get TODO: say what it does and when to use it.\n\nUse it always."}, "Use it always.", true},
			{[]string{"High TODO: say what the value means.\nLoud."}, "Loud.", true},
			{[]string{"TODO: fix the cache (a note, not the placeholder)."}, "TODO: fix the cache (a note, not the placeholder).", false},
			{[]string{"", "The note."}, "The note.", false},
		} {
			got, ph := b.describe("X", tc.docs...)
			if got != tc.want || ph != tc.ph {
				t.Errorf("verbatim %v: describe(%q) = %q, %v; want %q, %v", verbatim, tc.docs, got, ph, tc.want, tc.ph)
			}
		}
	}
}

func TestNearMiss(t *testing.T) {
	for _, tc := range []struct {
		text, fix string
	}{
		{"// toolgen:tool", "//toolgen:tool"},
		{"// toolgen:tool readonly name=x", "//toolgen:tool readonly name=x"},
		{"//\ttoolgen:tool", "//toolgen:tool"},
		{"//   toolgen:param x desc=\"y\"", "//toolgen:param x desc=\"y\""},
		{"//Toolgen:tool", "//toolgen:tool"},
		{"// TOOLGEN:TOOL", "//toolgen:tool"},
		{"// toolgen: tool", "//toolgen:tool"},
		{"//toolgen : tool", "//toolgen:tool"},
		{"//toolgen: tool readonly", "//toolgen:tool readonly"},
		{"// toolgen:tools", "//toolgen:tool"},
		{"// toolgen:pakage tools=X", "//toolgen:package tools=X"},
		{"// toolgen:package", "//toolgen:package"},
		{"/* toolgen:tool */", "//toolgen:tool"},
		{"/*toolgen:tool readonly*/", "//toolgen:tool readonly"},
		{"/* toolgen:tool readonly\nmore */", "//toolgen:tool readonly"},
		{"/*ToolGen:param x */", "//toolgen:param x"},
		// Unicode look-alikes of a space or a colon, and invisible characters: each
		// made the tool vanish with exit status 0.
		{"//\u00a0toolgen:tool", "//toolgen:tool"},
		{"//\u2003toolgen:tool readonly", "//toolgen:tool readonly"},
		{"//\u200btoolgen:tool", "//toolgen:tool"},
		{"//toolgen\u200b:tool", "//toolgen:tool"},
		{"//tool\u200dgen:tool", "//toolgen:tool"},
		{"//\ufefftoolgen:tool", "//toolgen:tool"},
		{"//toolgen\uff1atool", "//toolgen:tool"},
		{"//toolgen\u2236tool", "//toolgen:tool"},
		{"//toolgen:\u00a0tool", "//toolgen:tool"},
		{"//toolgen:tool\u00a0readonly", "//toolgen:tool readonly"},
		// Another separator, written as a directive is (no space after //).
		{"//toolgen-tool", "//toolgen:tool"},
		{"//toolgen.tool readonly", "//toolgen:tool readonly"},
		{"//toolgen_param x", "//toolgen:param x"},
		{"//toolgen;tool", "//toolgen:tool"},
		// Not near misses.
		{"//toolgen:tool", ""},
		{"// toolgen: see the README", ""},
		{"// toolgen: to do", ""},
		{"// toolgen:tols", ""},
		{"// toolgen generates this", ""},
		{"// toolgen", ""},
		{"// go:generate toolgen:tool", ""},
		{"/* toolgen generates this */", ""},
		{"// the toolgen:tool directive", ""},
		{"// toolgen-tool is the name of the binary", ""},
		{"// toolgen_tool returns the tool", ""},
		{"// toolgen.tool", ""},
	} {
		fix, ok := nearMiss(tc.text)
		if ok != (tc.fix != "") || fix != tc.fix {
			t.Errorf("nearMiss(%q) = %q, %v; want %q", tc.text, fix, ok, tc.fix)
		}
	}
}

func TestCheckStructTag(t *testing.T) {
	for _, tc := range []struct {
		tag string
		off int
		msg string // "" when valid
	}{
		{``, 0, ""},
		{`json:"x"`, 0, ""},
		{`json:"x" tool:"minimum=1"`, 0, ""},
		{`json:"x"  tool:"pattern=^\\d+$"`, 0, ""},
		{` json:"x" `, 0, ""},
		{`tool:"pattern=^\d+$"`, 15, `bad syntax for struct tag value of tool: \d is not a Go string escape; write \\d`},
		{`tool:"minimum=1" json:"x`, 22, "bad syntax for struct tag value of json: missing closing quote"},
		{`json:x`, 5, "bad syntax for struct tag value of json: the value must be in double quotes"},
		{`json:"x",tool:"y"`, 8, `key:"value" pairs not separated by spaces`},
		{`json:"x" tool`, 9, `bad syntax for struct tag pair`},
		{`json:"x" :"y"`, 9, "bad syntax for struct tag key"},
		{`json`, 0, `bad syntax for struct tag pair`},
		{`json:`, 0, `bad syntax for struct tag pair`},
		{`js on:"x"`, 0, `bad syntax for struct tag pair`},
	} {
		off, msg, ok := checkStructTag(tc.tag)
		if ok != (tc.msg == "") {
			t.Errorf("checkStructTag(%q): ok = %v, message %q; want %q", tc.tag, ok, msg, tc.msg)
			continue
		}
		if !ok && (off != tc.off || !strings.HasPrefix(msg, tc.msg)) {
			t.Errorf("checkStructTag(%q) = %d, %q; want %d, %q...", tc.tag, off, msg, tc.off, tc.msg)
		}
	}
}

func TestParsePackageOptions(t *testing.T) {
	for _, tc := range []struct {
		line string
		want packageOptions
		errs []string
	}{
		{"//toolgen:package", packageOptions{toolsOff: -1, typeToolsOff: -1}, nil},
		{"//toolgen:package tools=AllTools", packageOptions{toolsFunc: "AllTools", toolsOff: 18, typeToolsOff: -1}, nil},
		{"//toolgen:package typetools=*Toolset descriptions=verbatim", packageOptions{typeToolsFunc: "*Toolset", toolsOff: -1, typeToolsOff: 18, verbatim: true}, nil},
		{"//toolgen:package typetools=New*Tools descriptions=trim", packageOptions{typeToolsFunc: "New*Tools", toolsOff: -1, typeToolsOff: 18}, nil},
		{"//toolgen:package tools=\"Quoted\"", packageOptions{toolsFunc: "Quoted", toolsOff: 18, typeToolsOff: -1}, nil},
		{"//toolgen:package tools=all", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{"18: invalid tools=all: the constructor must be exported"}},
		{"//toolgen:package tools=1x", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{`18: invalid tools=1x: "1x" is not a Go identifier`}},
		{"//toolgen:package tools", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{`18: option "tools" needs a value`}},
		{"//toolgen:package typetools=**", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{"18: invalid typetools=**: the pattern needs exactly one *"}},
		{"//toolgen:package typetools=Tools", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{"18: invalid typetools=Tools: the pattern needs exactly one *"}},
		{"//toolgen:package typetools=*", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{"18: invalid typetools=*: the constructor would have the receiver type's own name"}},
		{"//toolgen:package typetools=*-x", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{`18: invalid typetools=*-x: "Service-x" is not a Go identifier`}},
		{"//toolgen:package descriptions=short", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{"18: invalid descriptions=short"}},
		{"//toolgen:package schema=2020-12", packageOptions{toolsOff: -1, typeToolsOff: -1, schemaDialect: "2020-12"}, nil},
		{"//toolgen:package schema=\"2020-12\" descriptions=verbatim", packageOptions{toolsOff: -1, typeToolsOff: -1, schemaDialect: "2020-12", verbatim: true}, nil},
		{"//toolgen:package schema=2019-09", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{`18: invalid schema=2019-09: want schema=2020-12, the only dialect toolgen writes (every tool's inputSchema and outputSchema then say "$schema": "https://json-schema.org/draft/2020-12/schema")`}},
		{"//toolgen:package schema=https://json-schema.org/draft/2020-12/schema", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{"18: invalid schema=https://json-schema.org/draft/2020-12/schema: want schema=2020-12"}},
		{"//toolgen:package schema", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{`18: option "schema" needs a value (schema=...)`}},
		{"//toolgen:package schema=", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{`18: option "schema" needs a value (schema=...)`}},
		{"//toolgen:package schema=2020-12 schema=2020-12", packageOptions{toolsOff: -1, typeToolsOff: -1, schemaDialect: "2020-12"}, []string{`33: repeated option "schema" (first at @18)`}},
		{"//toolgen:package schemas=2020-12", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{`18: unknown option "schemas" (did you mean "schema"?)`}},
		{"//toolgen:package tool=X", packageOptions{toolsOff: -1, typeToolsOff: -1}, []string{`18: unknown option "tool" (did you mean "tools"?)`}},
		{"//toolgen:package tools=A tools=B", packageOptions{toolsFunc: "A", toolsOff: 18, typeToolsOff: -1}, []string{`26: repeated option "tools" (first at @18)`}},
	} {
		got, errs := parsePackageOptions(&ast.Comment{Text: tc.line}, func(off int) string { return "@" + strconv.Itoa(off) })
		got.c = nil
		if got != tc.want {
			t.Errorf("parsePackageOptions(%q) = %+v, want %+v", tc.line, got, tc.want)
		}
		if len(errs) != len(tc.errs) {
			t.Errorf("parsePackageOptions(%q) errors %v, want %q", tc.line, errs, tc.errs)
			continue
		}
		for i, e := range errs {
			if s := strconv.Itoa(e.Off) + ": " + e.Msg; !strings.HasPrefix(s, tc.errs[i]) {
				t.Errorf("parsePackageOptions(%q) error %q, want %q...", tc.line, s, tc.errs[i])
			}
		}
	}
}

// TestNearMissLookalikes: the family of TestNearMiss's Unicode cases: each directive
// with any Unicode space, or an invisible (format) character, after "//", inside
// "toolgen", after it or after the colon, or with a colon look-alike, is a near miss
// whose fix is the directive.
func TestNearMissLookalikes(t *testing.T) {
	var odd []rune
	for r := rune(0x80); r <= 0x10ffff; r++ {
		if unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			odd = append(odd, r)
		}
	}
	for _, d := range []string{"tool readonly", "param x the x", "package"} {
		want := "//toolgen:" + d
		for _, r := range odd {
			c := string(r)
			for _, text := range []string{
				"//" + c + "toolgen:" + d,
				"//tool" + c + "gen:" + d,
				"//toolgen" + c + ":" + d,
				"//toolgen:" + c + d,
			} {
				if unicode.IsSpace(r) && strings.HasPrefix(text, "//tool"+c+"gen") {
					continue // "tool gen" is two words
				}
				if fix, ok := nearMiss(text); !ok || fix != want {
					t.Errorf("nearMiss(%q) = %q, %v; want %q", text, fix, ok, want)
				}
			}
		}
		for _, colon := range colonLookalikes {
			text := "//toolgen" + string(colon) + d
			if fix, ok := nearMiss(text); !ok || fix != want {
				t.Errorf("nearMiss(%q) = %q, %v; want %q", text, fix, ok, want)
			}
		}
	}
}
