package toolmcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// object returns an object with the keys, each with the value 0.
func object(keys ...string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(k) + ":0")
	}
	b.WriteByte('}')
	return b.String()
}

// names returns n distinct keys k0, k1, ...
func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "k" + strconv.Itoa(i)
	}
	return out
}

func TestCheckKeys(t *testing.T) {
	nested := strings.Repeat(`{"a":`, 999) + "1" + strings.Repeat("}", 999)
	for _, tc := range []struct {
		name, in string
		pointer  string // of the duplicate
		key      string // the duplicate, or "" for none
	}{
		{"empty object", `{}`, "", ""},
		{"scalars", ` [1, -0.5e+3, "s", true, false, null] `, "", ""},
		{"a key in two objects", `{"a":1,"b":{"a":2},"c":[{"a":1},{"a":1}]}`, "", ""},
		{"escaped backslash", `{"\\n":1,"\n":2}`, "", ""},
		{"case", `{"params":1,"Params":2}`, "", ""},
		{"nested deep", nested, "", ""},
		{"params twice", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"},"params":{"name":"rm"}}`, "", "params"},
		{"name twice", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","name":"rm"}}`, "/params", "name"},
		{"an argument twice", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a","text":"b"}}}`, "/params/arguments", "text"},
		{"id twice", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, "", "id"},
		{"escaped", `{"a":1,"\u0061":2}`, "", "a"},
		{"escaped both", `{"\/":1,"\u002F":2}`, "", "/"},
		{"surrogate pair", `{"😀":1,"\ud83d\ude00":2}`, "", "😀"},
		{"lone surrogates", `{"\ud800":1,"\udc00":2}`, "", "\ufffd"},
		{"surrogate then escape", `{"\ud800\u0041":1,"\ufffdA":2}`, "", "\ufffdA"},
		{"invalid UTF-8", "{\"\xff\":1,\"\xfe\":2}", "", "\ufffd"},
		{"invalid UTF-8 and U+FFFD", "{\"\xff\":1,\"\\ufffd\":2}", "", "\ufffd"},
		{"in an array", `[1,{"a":1,"a":1}]`, "/1", "a"},
		{"after a closed object", `[{"a":1},{"a":1,"b":1,"a":2}]`, "/1", "a"},
		{"pointer escapes", `{"a/b":{"x~y":[0,{"k":1,"k":2}]}}`, "/a~1b/x~0y/1", "k"},
		{"pointer decoded", `{"\u0070":{"k":1,"k":2}}`, "/p", "k"},
		{"before a syntax error", `{"a":1,"a":2,`, "", "a"},
		{"linear keys", object(append(names(linearKeys), "k0")...), "", "k0"},
		{"indexed keys", object(append(names(linearKeys+1), "k0")...), "", "k0"},
		{"grown table, first", object(append(names(4*linearKeys), "k0")...), "", "k0"},
		{"grown table, last", object(append(names(1000), "k999")...), "", "k999"},
		{"many keys", object(names(1000)...), "", ""},
		{"after a big object", `{"o":` + object(names(100)...) + `,"p":1,"o":2}`, "", "o"},
		{"big in big", `{"o":` + object(names(100)...) + `,` + object(names(50)...)[1:len(object(names(50)...))-1] + `,"k7":1}`, "", "k7"},
	} {
		r := checkKeys([]byte(tc.in), maxMessageDepth)
		want := keysReport{}
		if tc.key != "" {
			want = keysReport{problem: keysDuplicate, pointer: tc.pointer, key: tc.key}
		}
		if r != want {
			t.Errorf("%s: checkKeys(%.80s) = %+v, want %+v", tc.name, tc.in, r, want)
		}
	}
}

func TestCheckKeysSyntax(t *testing.T) {
	for _, in := range []string{
		``, ` `, `{`, `[`, `}`, `]`, `{"a"}`, `{"a":}`, `{"a" 1}`, `{1:2}`, `{"a":1,}`, `[1,]`, `[1 2]`,
		`01`, `1.`, `.5`, `-`, `1e`, `1e+`, `+1`, `tru`, `nul`, `falsey`, `"`, `"\`, "\"\x01\"", `"\q"`, `"\u12"`, `"\u12g4"`,
		`{} {}`, `{"a":1}x`, `{"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"}`,
		"\x00", `{"a":1]`, `[1}`,
	} {
		if r := checkKeys([]byte(in), maxMessageDepth); r.problem != keysSyntax || json.Valid([]byte(in)) {
			t.Errorf("checkKeys(%q) = %+v, json.Valid %v; want a syntax error", in, r, json.Valid([]byte(in)))
		}
	}
}

// TestCheckKeysDepth: maxMessageDepth levels are fine, one more is too deep, in arrays
// and objects alike.
func TestCheckKeysDepth(t *testing.T) {
	for _, n := range []int{maxMessageDepth, maxMessageDepth + 1} {
		for _, in := range []string{
			strings.Repeat("[", n) + strings.Repeat("]", n),
			strings.Repeat(`{"a":`, n-1) + "{}" + strings.Repeat("}", n-1),
		} {
			want := keysOK
			if n > maxMessageDepth {
				want = keysTooDeep
			}
			if r := checkKeys([]byte(in), maxMessageDepth); r.problem != want || depthOver([]byte(in), maxMessageDepth) != (want == keysTooDeep) {
				t.Errorf("%d levels (%.10s...): %+v, want problem %d", n, in, r, want)
			}
		}
	}
}

// TestCheckKeysAllocs: a usual message costs no allocation once the pool is warm.
func TestCheckKeysAllocs(t *testing.T) {
	msg := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Z\u00fcrich","days":3,"unit":"celsius"},"_meta":{"progressToken":"p"}}}`)
	if n := testing.AllocsPerRun(100, func() { checkKeys(msg, maxMessageDepth) }); n != 0 {
		t.Errorf("%v allocations per message", n)
	}
}

// refKeys is checkKeys written slowly, with encoding/json: json.Valid for the syntax,
// then the decoder's tokens, a set of keys per object.
func refKeys(t testing.TB, data []byte, maxDepth int) keysReport {
	if !json.Valid(data) {
		return keysReport{problem: keysSyntax}
	}
	type level struct {
		object bool
		keys   map[string]bool
		key    string // the object's current key
		index  int    // the array's current element
		value  bool   // an object's next token is a value, not a key
	}
	var stack []*level
	pointer := func() string {
		var b strings.Builder
		for _, l := range stack[:len(stack)-1] {
			b.WriteByte('/')
			if l.object {
				b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(l.key))
			} else {
				b.WriteString(strconv.Itoa(l.index))
			}
		}
		return b.String()
	}
	done := func() { // a value ended
		if len(stack) == 0 {
			return
		}
		if l := stack[len(stack)-1]; l.object {
			l.value = false
		} else {
			l.index++
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return keysReport{}
		}
		if err != nil {
			t.Fatalf("json.Valid accepts %q, the decoder does not: %v", data, err)
		}
		if n := len(stack); n > 0 && stack[n-1].object && !stack[n-1].value {
			if k, ok := tok.(string); ok {
				l := stack[n-1]
				if l.keys[k] {
					return keysReport{problem: keysDuplicate, pointer: pointer(), key: k}
				}
				l.keys[k], l.key, l.value = true, k, true
				continue
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if len(stack) >= maxDepth {
				return keysReport{problem: keysTooDeep}
			}
			stack = append(stack, &level{object: tok == json.Delim('{'), keys: map[string]bool{}})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			done()
		default:
			done()
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

// The cost property of checkKeys: it allocates at most maxAllocPerByte bytes per byte
// of its input, beyond allocSlack bytes for any input.
const (
	maxAllocPerByte = 16
	allocSlack      = 4096
)

// FuzzCheckKeys compares checkKeys with refKeys, and checks its cost property.
func FuzzCheckKeys(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":1},"params":{"b":2}}`,
		`{"a":1,"\u0061":2}`,
		`{"\ud83d\ude00":1,"😀":2}`,
		`{"\ud800":1,"\udc00\u0041":2}`,
		"{\"\xff\":1,\"\\ufffd\":2}",
		`{"\\n":1,"\n":2}`,
		`[{"a":1},{"a":1,"a":2}]`,
		`{"a/b":{"x~y":[0,{"k":1,"k":2}]}}`,
		object(append(names(20), "k3")...),
		strings.Repeat(`{"a":[`, 20) + strings.Repeat("]}", 20),
		`{"a":-0.5e+10,"b":[true,false,null,"\t\"\\\/\b\f\n\r"]}`,
	} {
		f.Add([]byte(s))
	}
	const depth = 64 // small, for the fuzzer to reach
	f.Fuzz(func(t *testing.T, data []byte) {
		got := checkKeys(data, depth)
		if !json.Valid(data) {
			if got.problem == keysOK {
				t.Fatalf("checkKeys accepts %q, which json.Valid refuses", data)
			}
		} else if want := refKeys(t, data, depth); got != want {
			t.Fatalf("checkKeys(%q) = %+v, want %+v", data, got, want)
		}
		if b := allocated(func() { checkKeys(data, depth) }, 4); b > float64(maxAllocPerByte*len(data)+allocSlack) {
			t.Fatalf("checkKeys allocates %.0f bytes for %d bytes of input (%.1f per byte)", b, len(data), b/float64(len(data)))
		}
	})
}

// TestCheckKeysCost checks the cost property on adversarial inputs of up to 1 MiB.
func TestCheckKeysCost(t *testing.T) {
	for name, in := range adversarial(1 << 20) {
		b := allocated(func() { checkKeys(in, maxMessageDepth) }, 2)
		if b > float64(maxAllocPerByte*len(in)+allocSlack) {
			t.Errorf("%s: %.0f bytes allocated for %d bytes of input (%.1f per byte)", name, b, len(in), b/float64(len(in)))
		}
	}
}

// adversarial returns inputs of about size bytes that make checkKeys work hardest.
func adversarial(size int) map[string][]byte {
	keys := func(key func(i int) string) []byte {
		var b bytes.Buffer
		b.WriteByte('{')
		for i := 0; b.Len() < size; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(key(i) + ":0")
		}
		b.WriteString(`,"dup":0,"dup":0}`)
		return b.Bytes()
	}
	n := size / 12
	return map[string][]byte{
		"many keys":         keys(func(i int) string { return `"` + strconv.Itoa(i) + `"` }),
		"many escaped keys": keys(func(i int) string { return `"\u00e9` + strconv.Itoa(i) + `"` }),
		"many small objects": func() []byte {
			var b bytes.Buffer
			b.WriteByte('[')
			for b.Len() < size {
				b.WriteString(object(names(linearKeys+1)...) + ",")
			}
			b.WriteString("0]")
			return b.Bytes()
		}(),
		"long escaped key": []byte(`{"` + strings.Repeat(`\u00e9`, size/6) + `":0,"x":0}`),
		"long string":      []byte(`{"a":"` + strings.Repeat("x", size) + `"}`),
		"deep":             []byte(strings.Repeat(`{"a":[`, n/2) + strings.Repeat("]}", n/2)),
		"deepest allowed":  []byte(strings.Repeat("[", maxMessageDepth) + strings.Repeat("]", maxMessageDepth)),
		"numbers":          []byte("[" + strings.Repeat("-1.5e+300,", size/10) + "0]"),
	}
}

// BenchmarkCheckKeys reports the cost of checkKeys per byte of adversarial input of
// 1 KiB, 64 KiB and 1 MiB.
func BenchmarkCheckKeys(b *testing.B) {
	for _, size := range []int{1 << 10, 64 << 10, 1 << 20} {
		for name, in := range adversarial(size) {
			b.Run(fmt.Sprintf("%s/%dKiB", strings.ReplaceAll(name, " ", "_"), size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				var ms0, ms1 runtime.MemStats
				runtime.ReadMemStats(&ms0)
				for b.Loop() {
					checkKeys(in, maxMessageDepth)
				}
				runtime.ReadMemStats(&ms1)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(in)), "ns/byte")
				b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(b.N)/float64(len(in)), "B/byte")
			})
		}
	}
}
