package difftest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/runtime"
)

// Want is what a corpus case expects of the oracle: a guard that the oracle itself
// reads the contract right, independently of the decoder.
type Want int

// The expectations of a case.
const (
	Either Want = iota // the case only compares decoder and oracle
	Accept
	Reject
)

// Case is one argument text of a differential corpus.
type Case struct {
	Name string
	Args string
	Want Want
}

// A is a case the oracle must accept.
func A(name, args string) Case { return Case{name, args, Accept} }

// R is a case the oracle must reject.
func R(name, args string) Case { return Case{name, args, Reject} }

// Structural returns the cases every tool shares, built around valid, the compact text
// of a valid argument object, and key, a required property of it whose value in valid
// is the JSON text value: white space, null and empty arguments, double encoding,
// other JSON types, trailing text, truncation, syntax errors, unknown and duplicate
// properties, escaped names, nesting and the size limit.
func Structural(valid, key, value string) []Case {
	if !strings.HasPrefix(valid, "{") || !strings.HasSuffix(valid, "}") || len(valid) < 3 {
		panic("difftest.Structural: valid must be a non-empty object")
	}
	body := valid[1 : len(valid)-1]
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	escKey := ""
	for _, r := range key {
		escKey += fmt.Sprintf(`\u%04x`, r)
	}
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	cases := []Case{
		A("valid", valid),
		A("valid padded", " \n\t"+valid+"\r\n "),
		R("empty", ""),
		R("white space only", " \t\r\n"),
		R("null", "null"),
		R("null padded", "\n null \t"),
		R("nul", "nul"),
		R("nullx", "null x"),
		R("empty object", "{}"),
		R("empty object padded", " { } "),
		R("array", "[]"),
		R("array holding the object", "["+valid+"]"),
		R("number", "1"),
		R("true", "true"),
		R("plain string", `"hello"`),
		R("empty string", `""`),
		R("string holding null", `"null"`),
		R("string holding an array", `"[]"`),
		A("double-encoded", q(valid)),
		A("double-encoded with white space inside", q(" \n"+valid+"\t ")),
		A("double-encoded padded outside", "  "+q(valid)+"\n"),
		R("double-encoded twice", q(q(valid))),
		R("double-encoded with text after", q(valid+" x")),
		R("double-encoded truncated", q(valid[:len(valid)-1])),
		R("double-encoded then text", q(valid)+" x"),
		R("double-encoded twice in a row", q(valid)+q(valid)),
		R("trailing garbage", valid+"x"),
		R("trailing brace", valid+"}"),
		R("two objects", valid+valid),
		R("trailing null", valid+" null"),
		R("trailing comma", "{"+body+",}"),
		R("leading comma", "{,"+body+"}"),
		R("missing close", "{"+body),
		R("truncated by one", valid[:len(valid)-1]),
		R("truncated in half", valid[:len(valid)/2]),
		R("byte order mark", "\ufeff"+valid),
		R("comment", "/* c */"+valid),
		R("single quotes", strings.ReplaceAll(valid, `"`, `'`)),
		R("unquoted key", "{"+key+":"+value+"}"),
		R("NUL byte after", valid+"\x00"),
		R("unknown property", "{"+body+`,"extra":1}`),
		R("unknown property null", "{"+body+`,"extra":null}`),
		R("unknown property object", "{"+body+`,"extra":{"a":[1,{"b":null}]}}`),
		R("unknown property, other case", "{"+body+`,`+q(strings.ToUpper(key[:1])+key[1:])+":"+value+"}"),
		R("unknown empty name", "{"+body+`,"":1}`),
		R("unknown name with slash and tilde", "{"+body+`,"a/b~c":1}`),
		R("unknown name -", "{"+body+`,"-":1}`),
		R("unknown name, invalid UTF-8", "{"+body+`,"\xff\xfe":1}`),
		R("duplicate required property", "{"+body+","+q(key)+":"+value+"}"),
		R("duplicate via escaped name", "{"+body+`,"`+escKey+`":`+value+"}"),
		A("escaped name", strings.Replace(valid, q(key), `"`+escKey+`"`, 1)),
		R("required property null", strings.Replace(valid, q(key)+":"+value, q(key)+":null", 1)),
		R("required property missing", "{"+strings.Trim(strings.Replace(body, q(key)+":"+value, "", 1), ",")+"}"),
		R("required property as object", strings.Replace(valid, q(key)+":"+value, q(key)+":{}", 1)),
		R("required property as array", strings.Replace(valid, q(key)+":"+value, q(key)+":["+value+"]", 1)),
		R("nested 63 deep in unknown", "{"+body+`,"x":`+deep(62)+"}"),
		R("nested 64 deep in unknown", "{"+body+`,"x":`+deep(63)+"}"),
		R("nested 65 deep in unknown", "{"+body+`,"x":`+deep(64)+"}"),
		R("nested 10000 deep", deep(10000)),
		R("nested 100 deep unclosed", strings.Repeat(`{"a":`, 100)),
		R("nested objects in unknown", "{"+body+`,"x":`+strings.Repeat(`{"a":`, 70)+"1"+strings.Repeat("}", 70)+"}"),
		R("double-encoded deep array", q(deep(70))),
		A("exactly the size limit", valid+strings.Repeat(" ", runtime.DefaultMaxArgumentBytes-len(valid))),
		R("one byte over the size limit", valid+strings.Repeat(" ", runtime.DefaultMaxArgumentBytes-len(valid)+1)),
		R("over the size limit, double-encoded", q(valid+strings.Repeat(" ", runtime.DefaultMaxArgumentBytes))),
	}
	return cases
}

// Big reports whether a case is too large to seed a fuzzer with.
func (c Case) Big() bool { return len(c.Args) > 16<<10 }

// DateTimes returns argument texts of every RFC 3339 shape and many near misses, for
// a tool whose valid arguments are format(s) with s a date-time: the expectation is
// whether both RFC 3339 (JSON Schema's date-time) and Go's time.Time accept it.
func DateTimes(format func(dateTime string) string) []Case {
	cases := []Case{}
	add := func(want Want, name, s string) {
		cases = append(cases, Case{"date-time " + name + " " + strconv.Quote(s), format(s), want})
	}
	for _, s := range []string{
		"2024-01-31T09:30:00Z",
		"2024-01-31T09:30:00.5Z",
		"2024-01-31T09:30:00.123Z",
		"2024-01-31T09:30:00.123456789Z",
		"2024-01-31T09:30:00.1234567891234Z",
		"2024-01-31T09:30:00+02:00",
		"2024-01-31T09:30:00-05:30",
		"2024-01-31T09:30:00+00:00",
		"2024-01-31T09:30:00-00:00",
		"2024-01-31T09:30:00+23:59",
		"2024-01-31T09:30:00.5+01:00",
		"2024-02-29T00:00:00Z",
		"2000-02-29T12:00:00Z",
		"0000-01-01T00:00:00Z",
		"0001-01-01T00:00:00Z",
		"9999-12-31T23:59:59Z",
		"1970-01-01T00:00:00Z",
		"2024-12-31T23:59:59.999999999-12:00",
		`2024-01-31T09:30:00\u005a`,
		`2024-01-31\u005409:30:00Z`,
		`2024\u002d01-31T09:30:00Z`,
		"2024-01-31t09:30:00Z", // RFC 3339 allows a lowercase t and z (section 5.6)
		"2024-01-31T09:30:00z",
		"2024-01-31t09:30:00.5z",
	} {
		add(Accept, "valid", s)
	}
	for _, s := range []string{
		"2024-01-31T23:59:60Z",      // a leap second: RFC 3339 yes, Go no
		"2024-06-30T23:59:60+00:00", // likewise
		"2023-02-29T00:00:00Z",
		"1900-02-29T00:00:00Z",
		"2024-13-01T00:00:00Z",
		"2024-00-10T00:00:00Z",
		"2024-01-32T00:00:00Z",
		"2024-04-31T00:00:00Z",
		"2024-01-31T24:00:00Z",
		"2024-01-31T23:60:00Z",
		"2024-01-31T23:59:61Z",
		"2024-01-31 09:30:00Z",
		"2024-01-31_09:30:00Z",
		"2024-01-31T09:30Z",
		"2024-01-31T09:30:00",
		"2024-01-31T09:30:00+0200",
		"2024-01-31T09:30:00+02",
		"2024-01-31T09:30:00.Z",
		"2024-01-31T09:30:00.5",
		"2024-01-31",
		"09:30:00Z",
		"2024-01-31T09:3:00Z",
		"2024-01-31T09:30:0Z",
		"2024-1-31T09:30:00Z",
		"24-01-31T09:30:00Z",
		"+2024-01-31T09:30:00Z",
		"-2024-01-31T09:30:00Z",
		"12024-01-31T09:30:00Z",
		"2024-01-31T09:30:00Z ",
		" 2024-01-31T09:30:00Z",
		"2024-01-31T09:30:00ZZ",
		"2024-01-31T09:30:00+99:99",
		"2024-01-31T09:30:00UTC",
		"２０２４-01-31T09:30:00Z",
		"2024-01-31T09:30:00\u00a0Z",
		"2024-01-31T09:30:00Z\x00",
		"",
		"now",
		"2024-01-31T09:30:00.-1Z",
		"2024-01-31T+9:30:00Z",
		"2024-01-31T09:+3:00Z",
		// Go's time.Time accepts these, RFC 3339 does not (Go issue 54580).
		"2024-01-31T9:30:00Z",
		"2024-01-31T09:30:00,5Z",
		"2024-01-31T09:30:00+24:00",
		"2024-01-31T09:30:00+02:60",
		"2024-01-31T09:30:00-23:60",
	} {
		add(Reject, "invalid", s)
	}
	return cases
}

// WriteSeeds writes the cases that are not Big as seed files of the fuzz target
// named target under dir (a package's testdata/fuzz), one file per case, in the
// format go test reads.
func WriteSeeds(dir, target string, cases []Case) error {
	d := filepath.Join(dir, target)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	for _, c := range cases {
		if c.Big() {
			continue
		}
		sum := sha256.Sum256([]byte(c.Args))
		name := "seed-" + slug(c.Name) + "-" + hex.EncodeToString(sum[:4])
		text := "go test fuzz v1\n[]byte(" + strconv.Quote(c.Args) + ")\n"
		if err := os.WriteFile(filepath.Join(d, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimSuffix(b.String(), "-")
	if len(out) > 60 {
		out = strings.TrimSuffix(out[:60], "-")
	}
	return out
}
