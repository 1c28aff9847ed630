package jsonread

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// tree reads the text s scans into the value encoding/json would decode it into with
// UseNumber: objects as maps (the last of a key given twice winning), arrays as
// slices, numbers as json.Number.
func tree(s *Scanner, k Kind) any {
	switch k {
	case BeginObject:
		m := map[string]any{}
		for {
			if s.Next() != Key {
				return m
			}
			name := string(s.Text())
			m[name] = tree(s, s.Next())
		}
	case BeginArray:
		a := []any{}
		for {
			k := s.Next()
			if k == EndArray || k == End {
				return a
			}
			a = append(a, tree(s, k))
		}
	case String:
		return string(s.Text())
	case Number:
		return json.Number(s.Raw())
	case True:
		return true
	case False:
		return false
	}
	return nil
}

// scanAll reads data with s and returns its value, or the problem that stopped it.
func scanAll(s *Scanner, data []byte, opt Options) (v any, err error) {
	s.Reset(data, opt)
	v = tree(s, s.Next())
	if s.Err() == nil && s.Next() != End {
		return nil, errors.New("a token after the end")
	}
	return v, s.Err()
}

// stdValue decodes data as encoding/json does, with UseNumber.
func stdValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more after the value")
	}
	return v, nil
}

// stdDuplicate reports whether an object of data, valid JSON, has two keys the same
// (under case folding when fold is set), as encoding/json decodes keys: a reference for
// KeysExact and KeysFold, quadratic in each object's keys.
func stdDuplicate(t testing.TB, data []byte, fold bool) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type level struct {
		object bool
		keys   []string
		expect bool // the next string token of an object is a key
	}
	var stack []level
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return false
		}
		if err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		value := true // the token is a value, or begins one
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].expect {
			if key, ok := tok.(string); ok {
				l := &stack[n-1]
				for _, k := range l.keys {
					if k == key || fold && bytes.EqualFold([]byte(k), []byte(key)) {
						return true
					}
				}
				l.keys = append(l.keys, key)
				l.expect = false
				value = false
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].expect = true
			}
			stack = append(stack, level{object: tok == json.Delim('{'), expect: true})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			value = false
		}
		if n := len(stack); value && n > 0 && stack[n-1].object {
			stack[n-1].expect = true
		}
	}
}

// allocated returns the bytes f allocates, on average over runs after a first run.
func allocated(f func(), runs int) float64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(runs)
}

// The cost property of a Scanner: at most one token per byte of the text (and the
// End), and at most maxAllocPerByte bytes allocated per byte, beyond allocSlack.
const (
	maxAllocPerByte = 16
	allocSlack      = 4096
)

var seeds = []string{
	`{"a":1,"b":[true,false,null,"x"],"c":{"d":-0.5e+10}}`,
	`{"a":1,"a":2}`,
	`{"a":1,"\u0061":2}`,
	`{"name":1,"Name":2}`,
	`{"tas\u212a":1,"TASK":2}`,
	`{"\ud83d\ude00":1,"😀":2}`,
	`{"\ud800":1,"\udc00\u0041":2}`,
	"{\"\xff\":1,\"\\ufffd\":2}",
	`["\t\"\\\/\b\f\n\r\u00e9", 0, -0, 1e400, 2.5E-3]`,
	`[1,]`, `{"a":}`, `{"a" 1}`, `[01]`, `"\x"`, `"\u12"`, "\"\x01\"", `nul`, `{"a":1}}`,
	strings.Repeat("[", 70) + strings.Repeat("]", 70),
	`  {} `, ``, ` `, `[]`, `{"":0}`,
}

// FuzzScanner holds the Scanner and Valid to encoding/json: the same texts are valid,
// a valid text reads as the same value (strings decoded alike, numbers as their
// text), keys given twice are found as encoding/json decodes and matches keys, and the
// cost property holds.
func FuzzScanner(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := json.Valid(data)
		if got := Valid(data, StdMaxDepth); got != valid {
			t.Fatalf("Valid(%q) = %v, json.Valid %v", data, got, valid)
		}
		var s Scanner
		opt := Options{Limits: Limits{MaxBytes: len(data) + 1, MaxDepth: StdMaxDepth}}
		v, err := scanAll(&s, data, opt)
		if (err == nil) != valid {
			t.Fatalf("Scanner(%q): %v, json.Valid %v", data, err, valid)
		}
		// Work per byte: each token but the End takes at least one byte of the text.
		s.Reset(data, opt)
		tokens := 0
		for s.Next() != End {
			tokens++
		}
		if tokens > len(data) {
			t.Fatalf("Scanner(%q): %d tokens for %d bytes", data, tokens, len(data))
		}
		if valid {
			want, err := stdValue(data)
			if err != nil {
				t.Fatalf("encoding/json: %v", err)
			}
			if !reflect.DeepEqual(v, want) {
				t.Fatalf("Scanner(%q) = %#v, encoding/json %#v", data, v, want)
			}
		}
		for _, mode := range []KeyMode{KeysExact, KeysFold} {
			opt.Keys = mode
			_, err := scanAll(&s, data, opt)
			var e *Error
			dup := errors.As(err, &e) && e.Problem == DuplicateKey
			if valid && dup != stdDuplicate(t, data, mode == KeysFold) {
				t.Fatalf("Scanner(%q) with keys %d: %v, encoding/json finds a key twice: %v", data, mode, err, !dup)
			}
			if !valid && err == nil {
				t.Fatalf("Scanner(%q) with keys %d accepts it", data, mode)
			}
			if b := allocated(func() { scanAll(&s, data, opt) }, 2); b > float64(maxAllocPerByte*len(data)+allocSlack) && !raceEnabled {
				t.Fatalf("Scanner(%q) allocates %.0f bytes", data, b)
			}
		}
	})
}

func TestScannerLimits(t *testing.T) {
	var s Scanner
	problem := func(data string, l Limits) Problem {
		_, err := scanAll(&s, []byte(data), Options{Limits: l})
		var e *Error
		if errors.As(err, &e) {
			return e.Problem
		}
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		return OK
	}
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		data string
		l    Limits
		want Problem
	}{
		{nest(DefaultMaxDepth), Limits{}, OK},
		{nest(DefaultMaxDepth + 1), Limits{}, TooDeep},
		{nest(3), Limits{MaxDepth: 3}, OK},
		{nest(4), Limits{MaxDepth: 3}, TooDeep},
		{`"` + strings.Repeat("a", DefaultMaxBytes-2) + `"`, Limits{}, OK},
		{`"` + strings.Repeat("a", DefaultMaxBytes-1) + `"`, Limits{}, TooLarge},
		{`["abcd"]`, Limits{MaxBytes: 8}, OK},
		{`["abcde"]`, Limits{MaxBytes: 8}, TooLarge},
		{`{"abcd":"efgh"}`, Limits{MaxStringBytes: 4}, OK},
		{`{"abcd":"efghi"}`, Limits{MaxStringBytes: 4}, StringTooLong},
		{`{"abcde":"efgh"}`, Limits{MaxStringBytes: 4}, StringTooLong},
	} {
		if got := problem(tc.data, tc.l); got != tc.want {
			t.Errorf("%.40s with %+v: problem %d, want %d", tc.data, tc.l, got, tc.want)
		}
	}
	if got := (Limits{MaxBytes: 1 << 40}).Bytes(); got != 1<<31-1 {
		t.Errorf("Bytes() of 1 TiB = %d", got)
	}
}

// TestSkipDepth: Skip counts the value's own nesting against the depth it is given,
// and refuses at the bracket past it, whether it skips objects or arrays.
func TestSkipDepth(t *testing.T) {
	for _, open := range []string{`[`, `{"a":`} {
		close := map[string]string{`[`: `]`, `{"a":`: `}`}[open]
		for _, n := range []int{1, 63, 64, 256, 257, 1000} {
			text := []byte(strings.Repeat(open, n) + "1" + strings.Repeat(close, n))
			if end, p := Skip(text, 0, n); p != OK || end != len(text) {
				t.Errorf("Skip(%d levels of %s, %d) = %d, %d", n, open, n, end, p)
			}
			if _, p := Skip(text, 0, n-1); p != TooDeep {
				t.Errorf("Skip(%d levels of %s, %d) = %d, want TooDeep", n, open, n-1, p)
			}
		}
	}
}

// TestSyntaxOffsets: a problem is reported where it is, in the words Describe gives.
func TestSyntaxOffsets(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{`[1,]`, `malformed JSON: unexpected ']' at offset 3`},
		{`{"a" 1}`, `malformed JSON: unexpected '1' at offset 5`},
		{`{"a":1`, `malformed JSON: unexpected end of input at offset 6`},
		{`"\x"`, `malformed JSON: invalid escape at offset 2`},
		{`"\u12"`, `malformed JSON: invalid \u escape at offset 2`},
		{"[\"\x01\"]", `malformed JSON: control character in string at offset 2`},
		{`[tru]`, `malformed JSON: unexpected ']' at offset 4`},
		{`[-]`, `malformed JSON: unexpected ']' at offset 2`},
		{"[1]\x00", `malformed JSON: unexpected byte 0x0 at offset 3`},
	} {
		var s Scanner
		_, err := scanAll(&s, []byte(tc.in), Options{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: %v, want %s", tc.in, err, tc.want)
		}
		end, p := Skip([]byte(tc.in), 0, DefaultMaxDepth)
		if p == OK {
			end, p = SkipSpace([]byte(tc.in), end), Unexpected
		}
		if got := "malformed JSON: " + Describe([]byte(tc.in), end, p) + " at offset " + itoa(end); got != tc.want {
			t.Errorf("Skip(%q): %s, want %s", tc.in, got, tc.want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestPointer: the Scanner keeps the JSON Pointer of where it is, and a duplicate key's
// report names the object that has it, escaped.
func TestPointer(t *testing.T) {
	var s Scanner
	s.Reset([]byte(`{"a/b":[0,{"x~y":1}],"c":{}}`), Options{})
	var got []string
	for k := s.Next(); k != End; k = s.Next() {
		got = append(got, string(s.AppendPointer(nil)))
	}
	want := []string{"", "/a~1b", "/a~1b", "/a~1b/0", "/a~1b/1", "/a~1b/1/x~0y", "/a~1b/1/x~0y", "/a~1b/1", "/a~1b", "/c", "/c", "/c", ""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pointers\n got %q\nwant %q", got, want)
	}
	_, err := scanAll(&s, []byte(`{"a/b":{"x~y":[0,{"k":1,"K":2}]}}`), Options{Keys: KeysFold})
	var e *Error
	if !errors.As(err, &e) || e.Problem != DuplicateKey || e.Pointer != "/a~1b/x~0y/1" || e.Key != "K" || e.First != "k" {
		t.Errorf("duplicate: %+v", err)
	}
	long := strings.Repeat("é", 400)
	_, err = scanAll(&s, []byte(`{"`+long+`":1,"`+long+`":2}`), Options{Keys: KeysExact})
	if !errors.As(err, &e) || e.Key != strings.Repeat("é", maxReportedKey/2) || e.First != "" {
		t.Errorf("long duplicate: %v", err)
	}
}

// TestSetKeys: the key mode of one object changes that object's only.
func TestSetKeys(t *testing.T) {
	var s Scanner
	data := []byte(`{"a":{"k":1,"K":2},"A":{"k":1,"K":2}}`)
	s.Reset(data, Options{Keys: KeysExact})
	s.Next()
	s.SetKeys(KeysFold)
	for s.Next() != End {
	}
	var e *Error
	if err := s.Err(); !errors.As(err, &e) || e.Pointer != "" || e.Key != "A" {
		t.Errorf("got %v, want the top-level A", err)
	}
}

func TestPointerTokens(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"", ""}, {"a", "a"}, {"a/b", "a~1b"}, {"~", "~0"}, {"~1", "~01"}, {"/~/", "~1~0~1"},
	} {
		if got := EscapeToken(tc.in); got != tc.out {
			t.Errorf("EscapeToken(%q) = %q, want %q", tc.in, got, tc.out)
		}
		if got := UnescapeToken(tc.out); got != tc.in {
			t.Errorf("UnescapeToken(%q) = %q, want %q", tc.out, got, tc.in)
		}
	}
	if toks, ok := SplitPointer("/a~1b/~01/0"); !ok || !reflect.DeepEqual(toks, []string{"a/b", "~1", "0"}) {
		t.Errorf("SplitPointer: %q, %v", toks, ok)
	}
	for _, p := range []string{"a", "/~", "/a~2", "/~0~", "/~1/~x"} {
		if toks, ok := SplitPointer(p); ok {
			t.Errorf("SplitPointer(%q) = %q, a pointer", p, toks)
		}
	}
	if toks, ok := SplitPointer("/~0~1~0/"); !ok || !reflect.DeepEqual(toks, []string{"~/~", ""}) {
		t.Errorf("SplitPointer: %q, %v", toks, ok)
	}
}

// TestFold: Fold folds two characters alike exactly when bytes.EqualFold finds them
// equal, for every character, and as encoding/json matches a key with a field.
func TestFold(t *testing.T) {
	fold := func(r rune) string { return string(Fold([]byte(string(r)))) }
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		f := fold(r)
		if !bytes.EqualFold([]byte(string(r)), []byte(f)) || fold([]rune(f)[0]) != f || len(f) > utf8.RuneLen(r) {
			t.Fatalf("Fold(%q) = %q", r, f)
		}
		for o := unicode.SimpleFold(r); o != r; o = unicode.SimpleFold(o) { // the characters equal to r
			if fold(o) != f {
				t.Fatalf("Fold(%q) = %q, Fold(%q) = %q", r, f, o, fold(o))
			}
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"name", "NAME"}, {"_meta", "_META"}, {"tas\u212a", "TASK"}, {"argument\u017f", "ARGUMENTS"},
		{"\u00e9t\u00c9", "\u00c9T\u00c9"}, {"\u0131\u0130", "\u0131\u0130"}, {"\xffa", "\xffA"}, {"", ""},
	} {
		if got := string(Fold([]byte(tc.in))); got != tc.want {
			t.Errorf("Fold(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// encoding/json matches a key with a field as Fold folds them.
	var v struct {
		Params int `json:"params"`
		Task   int `json:"task"`
	}
	if err := json.Unmarshal([]byte(`{"param\u017f":1,"TAS\u212a":2,"\u0131d":3}`), &v); err != nil || v.Params != 1 || v.Task != 2 {
		t.Errorf("encoding/json: %+v, %v", v, err)
	}
}

func TestDepthOver(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want bool
	}{
		{`{"a":[1]}`, 2, false},
		{`{"a":[[1]]}`, 2, true},
		{`{"a":"[[[[["}`, 2, false},
		{`{"a":"\"[[[["}`, 2, false},
		{`{"a":"[[[[`, 2, false},
		{`]]]][[`, 2, false},
		{`]]]][[[`, 2, true},
	} {
		if got := DepthOver([]byte(tc.in), tc.max); got != tc.want {
			t.Errorf("DepthOver(%s, %d) = %v", tc.in, tc.max, got)
		}
	}
}

// TestSkipLoose: on valid JSON SkipLoose ends a value where Skip does; on text cut
// short it says so.
func TestSkipLoose(t *testing.T) {
	for _, s := range seeds {
		b := []byte(s)
		i := SkipSpace(b, 0)
		if end, p := Skip(b, i, StdMaxDepth); p == OK {
			if got := SkipLoose(b, i); got != end && !(got == -1 && SkipSpace(b, end) == len(b) && b[i] != '{' && b[i] != '[' && b[i] != '"') {
				t.Errorf("SkipLoose(%q) = %d, Skip %d", s, got, end)
			}
		}
	}
	for _, s := range []string{`{"a":[1,2`, `"abc`, `12`, `"a\"`} {
		if got := SkipLoose([]byte(s), 0); got != -1 {
			t.Errorf("SkipLoose(%q) = %d, want -1", s, got)
		}
	}
}

// TestPlainEnd checks PlainEnd, eight bytes at a time, against the table, at every
// offset and for every byte that is not plain.
func TestPlainEnd(t *testing.T) {
	for c := 0; c < 256; c++ {
		if plainByte[c] {
			continue
		}
		for n := 0; n < 20; n++ {
			for at := 0; at <= n; at++ {
				b := []byte(strings.Repeat("a", n))
				if at < n {
					b[at] = byte(c)
				}
				// A non-plain byte after the first must not hide it.
				b = append(b, byte(c), '"', 0)
				want := at
				if at == n {
					want = n
				}
				for i := 0; i <= want; i++ {
					if got := PlainEnd(b, i); got != want {
						t.Fatalf("PlainEnd(%q, %d) = %d, want %d", b, i, got, want)
					}
				}
			}
		}
	}
}

// TestStdMaxDepth: Valid with StdMaxDepth takes what json.Valid takes at encoding/json's
// nesting limit, and refuses what it refuses one level past it.
func TestStdMaxDepth(t *testing.T) {
	for _, n := range []int{StdMaxDepth, StdMaxDepth + 1} {
		b := []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
		if got, want := Valid(b, StdMaxDepth), json.Valid(b); got != want || got != (n == StdMaxDepth) {
			t.Errorf("%d levels: Valid %v, json.Valid %v", n, got, want)
		}
	}
}

// TestScannerSkip: Skip passes over an object or array whole (its keys not compared),
// checks it within the depth left, and reading goes on after it.
func TestScannerSkip(t *testing.T) {
	var s Scanner
	data := []byte(`{"a":{"k":1,"k":[2]},"b":[[3]],"c":4}`)
	s.Reset(data, Options{Keys: KeysExact})
	var got []string
	for k := s.Next(); k != End; k = s.Next() {
		if k == Key && string(s.Text()) != "c" {
			got = append(got, string(s.Text())+":"+strconv.Itoa(int(s.Skip())))
			continue
		}
		got = append(got, strconv.Itoa(int(k)))
	}
	want := []string{strconv.Itoa(int(BeginObject)), "a:" + strconv.Itoa(int(EndObject)), "b:" + strconv.Itoa(int(EndArray)), strconv.Itoa(int(Key)), strconv.Itoa(int(Number)), strconv.Itoa(int(EndObject))}
	if !reflect.DeepEqual(got, want) || s.Err() != nil {
		t.Errorf("tokens %q, want %q (%v)", got, want, s.Err())
	}
	s.Reset([]byte(`{"a":[[[1]]]}`), Options{Limits: Limits{MaxDepth: 3}})
	s.Next()
	s.Next()
	if k := s.Skip(); k != End || s.Problem() != TooDeep || s.Error().Pointer != "/a" {
		t.Errorf("Skip past the depth: %d, %v", k, s.Err())
	}
	s.Release()
	s.Reset([]byte(`{"x":1,"x":2}`), Options{Keys: KeysExact})
	for s.Next() != End {
	}
	if s.Problem() != DuplicateKey {
		t.Errorf("after Release: %v", s.Err())
	}
}

// TestShortKeys holds the comparison of short keys (held in a word, see keyEntry)
// to encoding/json's: pairs of keys of 0 to 18 bytes, the same, differing in one byte
// at each place, in case, written with escapes (a \u0000 among them, which a short key's
// zero padding must not match), in objects small enough to compare keys one by one
// and large enough to hash them.
func TestShortKeys(t *testing.T) {
	var pairs [][2]string
	for n := 0; n <= 18; n++ {
		k := strings.Repeat("k", n)
		if n > 0 {
			k = "ab" + strings.Repeat("x", n)
			k = k[:n]
		}
		pairs = append(pairs, [2]string{k, k}, [2]string{k, k + `\u0000`}, [2]string{k + "\\u0000", k + `\u0000`})
		for i := 0; i < n; i++ {
			other := []byte(k)
			other[i] ^= 1
			upper := []byte(k)
			upper[i] = byte(unicode.ToUpper(rune(upper[i])))
			escaped := k[:i] + fmt.Sprintf(`\u%04x`, k[i]) + k[i+1:]
			pairs = append(pairs, [2]string{k, string(other)}, [2]string{k, string(upper)}, [2]string{k, escaped})
		}
		pairs = append(pairs, [2]string{k + "s", k + `\u017f`}, [2]string{k + "K", k + `\u212a`})
	}
	for _, p := range pairs {
		for _, filler := range []int{0, LinearKeys + 1} {
			var b strings.Builder
			b.WriteString(`{"` + p[0] + `":0`)
			for i := range filler {
				fmt.Fprintf(&b, `,"f%d":0`, i)
			}
			b.WriteString(`,"` + p[1] + `":1}`)
			data := []byte(b.String())
			for _, mode := range []KeyMode{KeysExact, KeysFold} {
				var s Scanner
				_, err := scanAll(&s, data, Options{Keys: mode})
				var e *Error
				got := errors.As(err, &e) && e.Problem == DuplicateKey
				if want := stdDuplicate(t, data, mode == KeysFold); got != want {
					t.Errorf("%s with keys %d: duplicate %v (%v), encoding/json %v", data, mode, got, err, want)
				}
			}
		}
	}
}
