package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/internal/engine"
)

// TestDigestKeepsWhatReadersTellApart: arguments a reader may read as different values
// have different digests: numbers past a float64's precision, duplicate members in
// another order or merged,
// invalid UTF-8 and lone surrogates against a U+FFFD, an object against a string
// holding it.
func TestDigestKeepsWhatReadersTellApart(t *testing.T) {
	for _, pair := range [][2]string{
		{`{"id":9007199254740992}`, `{"id":9007199254740993}`},
		{`{"id":18446744073709551615}`, `{"id":18446744073709551614}`},
		{`{"x":1e400}`, `{"x":1e401}`},
		{`{"x":0.1}`, `{"x":0.10000000000000001}`},
		{`{"x":1}`, `{"x":-1}`},
		{`{"x":1e99999999999999999999}`, `{"x":1e99999999999999999998}`},
		{`{"a":1,"a":2}`, `{"a":2,"a":1}`},
		{`{"a":1,"a":2}`, `{"a":2}`},
		{`{"a":1,"a":2}`, `{"a":1}`},
		{`{"a":1}`, `{"A":1}`},
		{"{\"s\":\"\xff\"}", `{"s":"\ufffd"}`},
		{"{\"s\":\"\xff\"}", "{\"s\":\"\xfe\"}"},
		{"{\"s\":\"\xed\xa0\x80\"}", `{"s":"\ud800"}`},
		{`{"s":"\ud800"}`, `{"s":"\ufffd"}`},
		{`{"s":"\ud800"}`, `{"s":"\udc00"}`},
		{`{"s":"\ud800\u0041"}`, `{"s":"\ufffdA"}`},
		{`{"a":{"b":1}}`, `{"a":"{\"b\":1}"}`},
		{`{"a":[1,2]}`, `{"a":[2,1]}`},
		{`{"a":null}`, `{}`},
		{`{"a":true}`, `{"a":"true"}`},
		{`[]`, `{}`},
		{`{"a":"x\u0000"}`, `{"a":"x"}`},
		{`{"a"}`, `{"a":1}`},
		{"\x00{}", `{}`},
	} {
		if Digest("t", []byte(pair[0])) == Digest("t", []byte(pair[1])) {
			t.Errorf("%s and %s share a digest (canonical %q and %q)", pair[0], pair[1], canonicalArgs([]byte(pair[0])), canonicalArgs([]byte(pair[1])))
		}
	}
	if Digest("a", []byte(`{}`)) == Digest("b", []byte(`{}`)) || Digest("a", []byte(`b{}`)) == Digest("ab", []byte(`{}`)) {
		t.Error("the tool's name is not in the digest, or not apart from the arguments")
	}
}

// TestDigestOfOneValue: spellings of one value share a digest: white space, member
// order (duplicates kept in theirs), escapes, a surrogate pair against the character,
// the spellings of a number, and the empty arguments the decoder reads as {}.
func TestDigestOfOneValue(t *testing.T) {
	for _, group := range [][]string{
		{`{"id":9007199254740993}`, ` { "id" : 9007199254740993 } `, "\t{\n\"id\"\r:9007199254740993}\n"},
		{`{"a":1,"b":[true,null,"x"]}`, `{"b":[true,null,"x"],"a":1}`},
		{`{"a":1,"b":2,"a":3}`, `{"a":1,"a":3,"b":2}`, `{"b":2,"a":1,"a":3}`, `{"\u0061":1,"b":2,"a":3}`},
		{`{"s":"A/é😀\"\\"}`, `{"s":"\u0041\/\u00e9\ud83d\ude00\u0022\u005c"}`, `{"s":"\u0041\/\u00E9\uD83D\uDE00\"\\"}`},
		{`{"s":"\n\t\b\f\r\u0001"}`, `{"s":"\u000a\u0009\u0008\u000c\u000d\u0001"}`},
		{`{"s":"\ud800"}`, `{"s":"\uD800"}`},
		{`{"s":"\ufffd"}`, `{"s":"` + "\uFFFD" + `"}`},
		{`{"s":"<&>"}`, `{"s":"\u003c\u0026\u003e"}`},
		{``, ` `, "\n\t", `null`, ` null `, `{}`, `{ }`},
		{`{"x":1}`, `{"x":1.0}`, `{"x":1e0}`, `{"x":1E+0}`, `{"x":10e-1}`, `{"x":0.1e1}`},
		{`{"x":0}`, `{"x":-0}`, `{"x":0.0e5}`, `{"x":-0e99999999999999999999}`},
	} {
		want := Digest("t", []byte(group[0]))
		for _, other := range group[1:] {
			if got := Digest("t", []byte(other)); got != want {
				t.Errorf("%q and %q have different digests (canonical %q and %q)", group[0], other, canonicalArgs([]byte(group[0])), canonicalArgs([]byte(other)))
			}
		}
	}
	// The canonical form written out, for the record.
	for in, want := range map[string]string{
		` { "b" : [ 1.50 , -0 , 1E+2 ] , "a" : "\u00e9\ud800\n\u001f" } `: `{"a":"é\ud800\n\u001f","b":[1.5,0,100]}`,
		`{"a!":1,"a":2,"":3}`: `{"":3,"a":2,"a!":1}`,
	} {
		if got := string(canonicalArgs([]byte(in))); got != want {
			t.Errorf("canonical %s = %s, want %s", in, got, want)
		}
	}
}

// TestUniqueItemsComparesNumbersExactly: a dynamic tool's uniqueItems tells objects
// apart by numbers a float64 cannot, as a generated decoder's int64 fields do.
func TestUniqueItemsComparesNumbersExactly(t *testing.T) {
	ts, err := NewTool(Tool{Name: "pick", InputSchema: json.RawMessage(`{"type":"object","properties":{"ids":{"type":"array","uniqueItems":true,
		"items":{"type":"object","properties":{"n":{"type":"integer"}}}}}}`)},
		func(_ context.Context, args json.RawMessage) (*Result, error) { return TextResult("ok"), nil })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if r := ts.Call(ctx, "pick", []byte(`{"ids":[{"n":9007199254740992},{"n":9007199254740993}]}`)); r.IsError {
		t.Errorf("distinct items refused: %s", r.Text())
	}
	if r := ts.Call(ctx, "pick", []byte(`{"ids":[{"n":9007199254740993},{"n":9007199254740993.0}]}`)); !r.IsError {
		t.Errorf("equal items accepted: %s", r.Text())
	}
}

// jsonValue is a JSON value for the property test of digests, with what a reader may
// tell apart: numbers by their value, strings by their units (characters, invalid bytes
// and lone surrogates), and the members of an object in their order.
type jsonValue struct {
	kind    byte // 'n' number or literal, 's' string, '[' or '{'
	text    string
	units   []jsonUnit
	items   []jsonValue
	members []jsonMember
}

type jsonMember struct {
	name  []jsonUnit
	value jsonValue
}

// jsonUnit is a character (r >= 0), an invalid byte (bad), or a lone surrogate.
type jsonUnit struct {
	r   rune
	bad byte
}

var numberTexts = []string{"0", "-0", "1", "1.0", "1e0", "1E0", "1e+0", "10", "1e1", "9007199254740992",
	"9007199254740993", "18446744073709551616", "0.1", "0.10000000000000001", "-2.5e-3", "1e400", "true", "false", "null"}

func randomUnits(rng *rand.Rand) []jsonUnit {
	pool := []jsonUnit{{r: 'a'}, {r: 'A'}, {r: '"'}, {r: '\\'}, {r: '/'}, {r: '\n'}, {r: 0}, {r: 0x1f}, {r: 0x7f},
		{r: 'é'}, {r: '€'}, {r: 0xfffd}, {r: '😀'}, {r: '<'}, {bad: 0xff}, {bad: 0xc3}, {bad: 0x80},
		{r: -0xd800}, {r: -0xdbff}, {r: -0xdc00}}
	u := make([]jsonUnit, rng.IntN(4))
	for i := range u {
		u[i] = pool[rng.IntN(len(pool))]
	}
	return u
}

func randomValue(rng *rand.Rand, depth int) jsonValue {
	k := rng.IntN(10)
	if depth <= 0 {
		k = rng.IntN(6)
	}
	switch {
	case k < 3:
		return jsonValue{kind: 'n', text: numberTexts[rng.IntN(len(numberTexts))]}
	case k < 6:
		return jsonValue{kind: 's', units: randomUnits(rng)}
	case k < 8:
		v := jsonValue{kind: '['}
		for range rng.IntN(4) {
			v.items = append(v.items, randomValue(rng, depth-1))
		}
		return v
	}
	v := jsonValue{kind: '{'}
	names := [][]jsonUnit{{{r: 'a'}}, {{r: 'b'}}, {{r: 'a'}, {r: 'b'}}, {}, {{bad: 0xff}}, {{r: 0xfffd}}}
	for range rng.IntN(5) {
		v.members = append(v.members, jsonMember{names[rng.IntN(len(names))], randomValue(rng, depth-1)})
	}
	return v
}

// spell writes v as JSON in a random spelling of the same value: white space, escapes
// and the order of members of different names chosen at random.
func spell(rng *rand.Rand, b []byte, v jsonValue) []byte {
	space := func() {
		for range rng.IntN(2) {
			b = append(b, " \t\n\r"[rng.IntN(4)])
		}
	}
	space()
	switch v.kind {
	case 'n':
		b = append(b, spellNumber(rng, v.text)...)
	case 's':
		b = spellString(rng, b, v.units)
	case '[':
		b = append(b, '[')
		for i, it := range v.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = spell(rng, b, it)
		}
		space()
		b = append(b, ']')
	case '{':
		b = append(b, '{')
		for i, m := range shuffleMembers(rng, v.members) {
			if i > 0 {
				b = append(b, ',')
			}
			space()
			b = spellString(rng, b, m.name)
			space()
			b = append(b, ':')
			b = spell(rng, b, m.value)
		}
		space()
		b = append(b, '}')
	}
	space()
	return b
}

// shuffleMembers returns the members in a random order that keeps those of one name
// in theirs.
func shuffleMembers(rng *rand.Rand, ms []jsonMember) []jsonMember {
	out := slices.Clone(ms)
	for range len(out) * 2 {
		i := rng.IntN(max(len(out)-1, 1))
		if i+1 < len(out) && !slices.Equal(out[i].name, out[i+1].name) {
			out[i], out[i+1] = out[i+1], out[i]
		}
	}
	return out
}

func spellString(rng *rand.Rand, b []byte, units []jsonUnit) []byte {
	b = append(b, '"')
	escape := func(r rune) []byte {
		f := "\\u%04x"
		if rng.IntN(2) == 0 {
			f = "\\u%04X"
		}
		return fmt.Appendf(b, f, r)
	}
	for _, u := range units {
		switch {
		case u.bad != 0:
			b = append(b, u.bad)
		case u.r < 0: // a lone surrogate
			b = escape(-u.r)
		case u.r == '"' || u.r == '\\' || u.r < 0x20 || rng.IntN(3) == 0:
			short := map[rune]string{'"': `\"`, '\\': `\\`, '/': `\/`, '\n': `\n`}
			if s, ok := short[u.r]; ok && rng.IntN(2) == 0 {
				b = append(b, s...)
			} else if u.r > 0xffff {
				r := u.r - 0x10000
				b = escape(0xd800 + r>>10)
				b = escape(0xdc00 + r&0x3ff)
			} else {
				b = escape(u.r)
			}
		default:
			b = utf8.AppendRune(b, u.r)
		}
	}
	return append(b, '"')
}

// spellNumber returns another spelling of the number text n, of the same value.
func spellNumber(rng *rand.Rand, n string) string {
	if strings.ContainsAny(n, "eEtfn") {
		return n // an exponent already, or a literal
	}
	switch rng.IntN(4) {
	case 0:
		return n + "e0"
	case 1:
		if strings.Contains(n, ".") {
			return n + "00"
		}
		if strings.TrimPrefix(n, "-")[0] != '0' {
			return n + "0E-1"
		}
	case 2:
		return n + "E+00"
	}
	return n
}

// numberValue is the exact value of a number text, or the text of a literal.
func numberValue(n string) string {
	var r big.Rat
	if _, ok := r.SetString(n); !ok {
		return n
	}
	return r.RatString()
}

// sameValue reports whether two values are the same value read exactly: objects
// compared with their members sorted by name, those of one name in their order.
func sameValue(x, y jsonValue) bool {
	if x.kind != y.kind || numberValue(x.text) != numberValue(y.text) || !slices.Equal(x.units, y.units) || len(x.items) != len(y.items) || len(x.members) != len(y.members) {
		return false
	}
	for i := range x.items {
		if !sameValue(x.items[i], y.items[i]) {
			return false
		}
	}
	sorted := func(ms []jsonMember) []jsonMember {
		return slices.SortedStableFunc(slices.Values(ms), func(a, b jsonMember) int {
			return strings.Compare(fmt.Sprint(a.name), fmt.Sprint(b.name))
		})
	}
	xs, ys := sorted(x.members), sorted(y.members)
	for i := range xs {
		if !slices.Equal(xs[i].name, ys[i].name) || !sameValue(xs[i].value, ys[i].value) {
			return false
		}
	}
	return true
}

// TestDigestProperty: over random values of numbers, strings with escapes, invalid
// UTF-8 and lone surrogates, arrays and objects with duplicate members, every spelling
// of a value has its digest, and two values have the same digest only when they are the
// same value read exactly.
func TestDigestProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 2))
	var values []jsonValue
	var digests []string
	for range 3000 {
		v := randomValue(rng, 3)
		first := spell(rng, nil, v)
		d := Digest("t", first)
		for range 3 {
			other := spell(rng, nil, v)
			if Digest("t", other) != d {
				t.Fatalf("two spellings of one value, different digests:\n%q\n%q\ncanonical %q\n%q", first, other, canonicalArgs(first), canonicalArgs(other))
			}
		}
		if v.kind == 'n' && v.text == "null" {
			continue // null arguments are {}
		}
		for j := range values {
			if digests[j] == d && !sameValue(values[j], v) {
				t.Fatalf("different values, one digest: %q and %q", spell(rng, nil, values[j]), first)
			}
		}
		values, digests = append(values, v), append(digests, d)
	}
}

// FuzzDigest: arguments of one digest are one value to encoding/json reading numbers
// exactly (json.Number, by value), duplicate members kept in their order; canonical forms are
// their own canonical forms; and Digest never panics.
func FuzzDigest(f *testing.F) {
	for _, s := range []string{`{"id":9007199254740992}`, `{"id":9007199254740993}`, `{"a":1,"a":2}`, `{"a":2,"a":1}`,
		`{"s":"\ud800\udc00\ud800"}`, "{\"s\":\"\xff\"}", `{"s":"\u0041\/"}`, ` null `, `[1.0,1e0,-0]`, `{"b":{"y":1,"x":[]},"a":""}`} {
		f.Add([]byte(s), []byte(s))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ca, cb := canonicalArgs(a), canonicalArgs(b)
		if utf8.Valid(ca) && json.Valid(ca) && !bytes.Equal(canonicalArgs(ca), ca) {
			t.Fatalf("the canonical form %q of %q is not its own", ca, a)
		}
		if Digest("t", a) != Digest("t", b) {
			return
		}
		if !bytes.Equal(ca, cb) {
			t.Fatalf("one digest, canonical forms %q and %q", ca, cb)
		}
		ta, oka := exactTree(a)
		tb, okb := exactTree(b)
		if oka != okb || oka && ta != tb {
			t.Fatalf("one digest, read apart:\n%q: %s\n%q: %s", a, ta, b, tb)
		}
	})
}

// exactTree reads a JSON text with encoding/json's tokens, numbers as json.Number, and
// writes it back with the members of each object sorted by name, those of one name in
// their order: what a reader that keeps duplicates and number text reads.
func exactTree(b []byte) (string, bool) {
	if t := bytes.TrimSpace(b); len(t) == 0 || string(t) == "null" {
		b = []byte("{}")
	}
	if !json.Valid(b) {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var read func() string
	read = func() string {
		tok, err := dec.Token()
		if err != nil {
			panic(err)
		}
		switch x := tok.(type) {
		case json.Delim:
			var parts []string
			var names []string
			for dec.More() {
				if x == '{' {
					n, _ := dec.Token()
					names = append(names, fmt.Sprintf("%q", n))
				}
				parts = append(parts, read())
			}
			dec.Token()
			if x == '[' {
				return "[" + strings.Join(parts, ",") + "]"
			}
			idx := make([]int, len(parts))
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(i, j int) int { return strings.Compare(names[i], names[j]) })
			var out []string
			for _, i := range idx {
				out = append(out, names[i]+":"+parts[i])
			}
			return "{" + strings.Join(out, ",") + "}"
		case string:
			return fmt.Sprintf("%q", x)
		case json.Number:
			return string(engine.CanonicalArgs([]byte(x))) // its value, as the engine's FuzzCanonicalNumber checks
		default:
			return fmt.Sprintf("%T(%v)", x, x)
		}
	}
	return read(), true
}

// BenchmarkDigest measures the canonical form's cost on the costliest shapes of 1 MiB
// of arguments: members in reverse order (the sort), objects nested 60 deep with their
// members out of order at every level, arrays nested as deep as encoding/json reads,
// and a long string of escapes.
func BenchmarkDigest(b *testing.B) {
	const size = 1 << 20
	var reverse, nested, escaped strings.Builder
	reverse.WriteString("{")
	for i := 99999; reverse.Len() < size-20; i-- {
		fmt.Fprintf(&reverse, `"k%05d":%d,`, i, i)
	}
	reverse.WriteString(`"a":0}`)
	nested.WriteString("[")
	for nested.Len() < size-2000 {
		nested.WriteString(strings.Repeat(`{"z":1,"b":`, 60) + "0" + strings.Repeat("}", 60) + ",")
	}
	nested.WriteString("0]")
	deep := strings.Repeat("[", 9999) + strings.Repeat("]", 9999)
	escaped.WriteString(`{"s":"`)
	for escaped.Len() < size-10 {
		escaped.WriteString(`\u00e9\ud83d\ude00\n\"`)
	}
	escaped.WriteString(`"}`)
	for _, c := range []struct{ name, args string }{
		{"members in reverse order", reverse.String()},
		{"nested 60 deep, out of order", nested.String()},
		{"arrays nested 9999 deep", deep},
		{"a long escaped string", escaped.String()},
	} {
		b.Run(c.name, func(b *testing.B) {
			args := []byte(c.args)
			if !json.Valid(args) {
				b.Fatal("not JSON")
			}
			b.SetBytes(int64(len(args)))
			b.ReportAllocs()
			for b.Loop() {
				Digest("t", args)
			}
		})
	}
}

// TestDigestIsTheValue: arguments have one digest if and only if they are equal as
// JSON values. A digest read through float64 gave an approval of account
// 9007199254740992 to account 9007199254740993 as well.
func TestDigestIsTheValue(t *testing.T) {
	same := [][]string{
		{`{"id":1}`, `{ "id" : 1 }`, `{"id":1.0}`, `{"id":10e-1}`, `{"id":0.1e1}`, `{"id":1E0}`, `{"id":1e+0}`, `{"\u0069d":1}`},
		{`{"a":1,"b":[true,null,"x"]}`, `{"b":[true,null,"x"],"a":1}`, "{\n\t\"b\" : [ true , null , \"\\u0078\" ] ,\"a\":1}"},
		{`{"n":0}`, `{"n":-0}`, `{"n":0.0}`, `{"n":0e99999999999999999999}`, `{"n":-0.000e-5}`},
		{`{"n":1e21}`, `{"n":1000000000000000000000}`, `{"n":10e20}`},
		{`{"n":0.000001}`, `{"n":1e-6}`, `{"n":100e-8}`},
		{`{"s":"<&>"}`, `{"s":"\u003c\u0026\u003e"}`},
		{`{"s":"a/b"}`, `{"s":"a\/b"}`},
		{``, `{}`},
	}
	distinct := []string{
		`{"id":9007199254740992}`, `{"id":9007199254740993}`, `{"id":9007199254740994}`,
		`{"id":1}`, `{"id":-1}`, `{"id":1.0000000000000001}`, `{"id":"1"}`, `{"id":[1]}`, `{"id":true}`, `{"id":null}`,
		`{"id":1e400}`, `{"id":1e401}`, `{"id":1e-400}`, `{"id":0.30000000000000001}`, `{"id":0.3}`,
		`{"id":123456789012345678901234567890}`, `{"id":123456789012345678901234567891}`,
		`{"id":1e99999999999999999999}`, `{"id":1e99999999999999999998}`,
		`{"Id":1}`, `{"id":1,"x":null}`, `{}`, `[]`,
		`{"id":1,"id":2}`, `{"id":2,"id":1}`, `{"id":2}`, `{"id":1} {"id":1}`, `{"id":`,
	}
	for _, group := range same {
		for _, a := range group[1:] {
			if Digest("t", []byte(a)) != Digest("t", []byte(group[0])) {
				t.Errorf("%s and %s: two digests", group[0], a)
			}
		}
	}
	seen := map[string]string{}
	for _, a := range distinct {
		d := Digest("t", []byte(a))
		if b, ok := seen[d]; ok {
			t.Errorf("%s and %s: one digest", a, b)
		}
		seen[d] = a
	}
	if Digest("t", []byte(`{}`)) == Digest("u", []byte(`{}`)) {
		t.Error("two tools: one digest")
	}
}

// TestRedactKeepsNumbers: the redacted arguments people approve show each number as
// the model sent it: read through float64 they showed account 9007199254740992 for a
// call on 9007199254740993, and no arguments at all for a number past float64's range.
func TestRedactKeepsNumbers(t *testing.T) {
	tool := &Tool{Name: "wipe", Sensitive: []string{"/pin"}}
	for in, want := range map[string]string{
		`{"id":9007199254740993,"pin":1234}`: `{"id":9007199254740993,"pin":"[redacted]"}`,
		`{"n":1e400,"m":-0.10}`:              `{"m":-0.10,"n":1e400}`,
		`{"a":[1.0,2E5]}`:                    `{"a":[1.0,2E5]}`,
		`{"id":01}`:                          `"[malformed arguments, not shown]"`,
	} {
		if got := string(Redact(tool, []byte(in))); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
