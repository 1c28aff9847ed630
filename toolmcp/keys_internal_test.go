package toolmcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/jsonread"
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

// upper returns the keys in upper case.
func upper(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = strings.ToUpper(k)
	}
	return out
}

// call returns a tools/call message with params, an object's members.
func call(params string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + params + `}}`
}

func TestCheckKeys(t *testing.T) {
	nested := strings.Repeat(`{"a":`, 999) + "1" + strings.Repeat("}", 999)
	for _, tc := range []struct {
		name, in string
		pointer  string // of the duplicate
		key      string // the duplicate, or "" for none
		first    string // the duplicate's first spelling, when another
	}{
		{name: "empty object", in: `{}`},
		{name: "scalars", in: ` [1, -0.5e+3, "s", true, false, null] `},
		{name: "a key in two objects", in: `{"a":1,"b":{"a":2},"c":[{"a":1},{"a":1}]}`},
		{name: "escaped backslash", in: `{"\\n":1,"\n":2}`},
		{name: "nested deep", in: nested},
		{"params twice", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"},"params":{"name":"rm"}}`, "", "params", ""},
		{"name twice", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","name":"rm"}}`, "/params", "name", ""},
		{"an argument twice", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a","text":"b"}}}`, "/params/arguments", "text", ""},
		{"id twice", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, "", "id", ""},
		{"escaped", `{"a":1,"\u0061":2}`, "", "a", ""},
		{"escaped both", `{"\/":1,"\u002F":2}`, "", "/", ""},
		{"surrogate pair", `{"😀":1,"\ud83d\ude00":2}`, "", "😀", ""},
		{"lone surrogates", `{"\ud800":1,"\udc00":2}`, "", "\ufffd", ""},
		{"surrogate then escape", `{"\ud800\u0041":1,"\ufffdA":2}`, "", "\ufffdA", ""},
		{"invalid UTF-8", "{\"\xff\":1,\"\xfe\":2}", "", "\ufffd", ""},
		{"invalid UTF-8 and U+FFFD", "{\"\xff\":1,\"\\ufffd\":2}", "", "\ufffd", ""},
		{"in an array", `[1,{"a":1,"a":1}]`, "/1", "a", ""},
		{"after a closed object", `[{"a":1},{"a":1,"b":1,"a":2}]`, "/1", "a", ""},
		{"pointer escapes", `{"a/b":{"x~y":[0,{"k":1,"k":2}]}}`, "/a~1b/x~0y/1", "k", ""},
		{"pointer decoded", `{"\u0070":{"k":1,"k":2}}`, "/p", "k", ""},
		{"before a syntax error", `{"a":1,"a":2,`, "", "a", ""},
		{"linear keys", object(append(names(jsonread.LinearKeys), "k0")...), "", "k0", ""},
		{"indexed keys", object(append(names(jsonread.LinearKeys+1), "k0")...), "", "k0", ""},
		{"grown table, first", object(append(names(4*jsonread.LinearKeys), "k0")...), "", "k0", ""},
		{"grown table, last", object(append(names(1000), "k999")...), "", "k999", ""},
		{"many keys", object(names(1000)...), "", "", ""},
		{"after a big object", `{"o":` + object(names(100)...) + `,"p":1,"o":2}`, "", "o", ""},
		{"big in big", `{"o":` + object(names(100)...) + `,` + object(names(50)...)[1:len(object(names(50)...))-1] + `,"k7":1}`, "", "k7", ""},

		// In the protocol's objects, keys equal under case folding are the same key.
		{"case, at the top", `{"params":1,"Params":2}`, "", "Params", "params"},
		{"method and Method", `{"jsonrpc":"2.0","id":1,"method":"tools/call","Method":"ping"}`, "", "Method", "method"},
		{"id and ID", `{"jsonrpc":"2.0","id":1,"ID":2,"method":"ping"}`, "", "ID", "id"},
		{"params and PARAMS", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"},"PARAMS":{"name":"b"}}`, "", "PARAMS", "params"},
		{"escaped case", `{"params":{},"\u0050arams":{}}`, "", "Params", "params"},
		{"name and Name", call(`"name":"a","Name":"b","arguments":{}`), "/params", "Name", "name"},
		{"Name and name", call(`"Name":"b","name":"a","arguments":{}`), "/params", "name", "Name"},
		{"arguments and Arguments", call(`"name":"a","arguments":{"x":1},"Arguments":{"x":2}`), "/params", "Arguments", "arguments"},
		{"long s", call(`"name":"a","arguments":{},"argument\u017f":{}`), "/params", "argument\u017f", "arguments"},
		{"long s, unescaped", call("\"name\":\"a\",\"arguments\":{},\"argument\u017f\":{}"), "/params", "argument\u017f", "arguments"},
		{"Kelvin sign", call(`"name":"a","task":1,"tas\u212a":2`), "/params", "tas\u212a", "task"},
		{"Kelvin sign, unescaped", call("\"name\":\"a\",\"task\":1,\"tas\u212a\":2"), "/params", "tas\u212a", "task"},
		{"Kelvin sign and K", `{"\u212a":1,"K":2}`, "", "K", "\u212a"},
		{"unknown keys", call(`"name":"a","zz":1,"ZZ":2`), "/params", "ZZ", "zz"},
		{"_meta and _META", call(`"name":"a","_meta":{},"_META":{}`), "/params", "_META", "_meta"},
		{"in Params", `{"jsonrpc":"2.0","id":1,"method":"tools/call","Params":{"name":"a","NAME":"b"}}`, "/Params", "NAME", "name"},
		{"in a batch", `[{"id":1,"Id":2}]`, "/0", "Id", "id"},
		{"in error", `{"jsonrpc":"2.0","id":1,"error":{"code":1,"Code":2,"message":"m"}}`, "/error", "Code", "code"},
		{"in result", `{"jsonrpc":"2.0","id":1,"result":{"roots":[],"Roots":[]}}`, "/result", "Roots", "roots"},
		{"in result's roots", `{"jsonrpc":"2.0","id":1,"result":{"roots":[{"uri":"file:///a"},{"uri":"file:///a","URI":"file:///b"}]}}`, "/result/roots/1", "URI", "uri"},
		{"in clientInfo", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"a","Name":"b"}}}`, "/params/clientInfo", "Name", "name"},
		{"in an icon", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"icons":[{"src":"a","SRC":"b"}]}}}`, "/params/clientInfo/icons/0", "SRC", "src"},
		{"in capabilities", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"roots":{},"rootS":{}}}}`, "/params/capabilities", "rootS", "roots"},
		{"in an elicitation capability", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"elicitation":{"form":{"a":1,"A":2}}}}}`, "/params/capabilities/elicitation/form", "A", "a"},
		{"in completion's argument", `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"v","Value":"w"}}}`, "/params/argument", "Value", "value"},
		{"in an input response", call(`"name":"a","inputResponses":{"r":{"action":"accept","Action":"decline"}}`), "/params/inputResponses/r", "Action", "action"},
		{"in an input response's roots", call(`"name":"a","inputResponses":{"r":{"roots":[{"uri":"a","Uri":"b"}]}}`), "/params/inputResponses/r/roots/0", "Uri", "uri"},
		{"in _meta's clientInfo", call(`"name":"a","_meta":{"io.modelcontextprotocol/clientInfo":{"name":"a","NAME":"b"}}`), "/params/_meta/io.modelcontextprotocol~1clientInfo", "NAME", "name"},
		{"linear keys, folded", call(object("k0", "k1", "K1")[1 : len(object("k0", "k1", "K1"))-1]), "/params", "K1", "k1"},
		{"indexed keys, folded", call(object(append(names(40), "K39")...)[1 : len(object(append(names(40), "K39")...))-1]), "/params", "K39", "k39"},
		// Elsewhere keys are compared exactly: a tool's arguments are case-sensitive.
		{"case in arguments", call(`"name":"a","arguments":{"a":1,"A":2}`), "", "", ""},
		{"Kelvin sign in arguments", call(`"name":"a","arguments":{"k":1,"\u212a":2,"K":3}`), "", "", ""},
		{"long s in arguments", call(`"name":"a","arguments":{"s":1,"\u017f":2,"S":3}`), "", "", ""},
		{"case deep in arguments", call(`"name":"a","arguments":{"o":{"Name":1,"name":2},"l":[{"a":1,"A":2}]}`), "", "", ""},
		{"many cases in arguments", call(`"name":"a","arguments":` + object(append(names(40), upper(names(40))...)...)), "", "", ""},
		{"case in Arguments", call(`"name":"a","Arguments":{"a":1,"A":2}`), "", "", ""},
		{"case in _meta", call(`"name":"a","_meta":{"progressToken":1,"ProgressToken":2}`), "", "", ""},
		{"case in prompt arguments", `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"p","arguments":{"a":"1","A":"2"}}}`, "", "", ""},
		{"case in completion context arguments", `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"context":{"arguments":{"a":"1","A":"2"}}}}`, "", "", ""},
		{"case in experimental capabilities", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"experimental":{"a":{},"A":{}}}}}`, "", "", ""},
		{"case in error data", `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":{"a":1,"A":2}}}`, "", "", ""},
		{"case in inputResponses' ids", call(`"name":"a","inputResponses":{"r":{"action":"accept"},"R":{"action":"accept"}}`), "", "", ""},
		{"case in an elicitation's content", call(`"name":"a","inputResponses":{"r":{"action":"accept","content":{"a":1,"A":2}}}`), "", "", ""},
		{"case in _meta's other keys", call(`"name":"a","_meta":{"io.modelcontextprotocol/ClientInfo":{"name":"a","NAME":"b"}}`), "", "", ""},
		{"dotless i is another letter", `{"id":1,"\u0131d":2,"\u0130D":3}`, "", "", ""},
		// Exact duplicates are refused everywhere, in the protocol's objects too.
		{"name twice, first in another case", call(`"Name":"a","name":"b","Name":"c"`), "/params", "name", "Name"},
		{"an argument twice, beside its other case", call(`"name":"a","arguments":{"a":1,"A":2,"a":3}`), "/params/arguments", "a", ""},
		{"twice in _meta", call(`"name":"a","_meta":{"progressToken":1,"progressToken":2}`), "/params/_meta", "progressToken", ""},
		{"twice in an elicitation's content", call(`"name":"a","inputResponses":{"r":{"content":{"a":1,"a":2}}}`), "/params/inputResponses/r/content", "a", ""},
	} {
		r := checkKeys([]byte(tc.in), maxMessageDepth)
		want := keysReport{}
		if tc.key != "" {
			want = keysReport{problem: keysDuplicate, pointer: tc.pointer, key: tc.key, first: tc.first}
		}
		if r != want {
			t.Errorf("%s: checkKeys(%.80s) = %+v, want %+v", tc.name, tc.in, r, want)
		}
		if ref := refKeys(t, []byte(tc.in), maxMessageDepth); json.Valid([]byte(tc.in)) && ref != want {
			t.Errorf("%s: refKeys(%.80s) = %+v, want %+v", tc.name, tc.in, ref, want)
		}
	}
}

// TestShapes: the shapes' members are their keys folded, and every shape index is in
// the table.
func TestShapes(t *testing.T) {
	for i, sh := range shapes {
		for _, m := range sh.members {
			if m.folded != strings.ToUpper(m.key) || int(m.shape) >= len(shapes) {
				t.Errorf("shape %d: member %+v", i, m)
			}
		}
		if int(sh.every) >= len(shapes) || int(sh.elem) >= len(shapes) {
			t.Errorf("shape %d: %+v", i, sh)
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
			if r := checkKeys([]byte(in), maxMessageDepth); r.problem != want || jsonread.DepthOver([]byte(in), maxMessageDepth) != (want == keysTooDeep) {
				t.Errorf("%d levels (%.10s...): %+v, want problem %d", n, in, r, want)
			}
		}
	}
}

// TestCheckKeysAllocs: a usual message costs no allocation once the pool is warm.
func TestCheckKeysAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	msg := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Z\u00fcrich","days":3,"unit":"celsius"},"_meta":{"progressToken":"p"}}}`)
	if n := testing.AllocsPerRun(100, func() { checkKeys(msg, maxMessageDepth) }); n != 0 {
		t.Errorf("%v allocations per message", n)
	}
}

// refKeys is checkKeys written slowly, with encoding/json: json.Valid for the syntax,
// then the decoder's tokens, a list of keys per object, compared with == or, in the
// protocol's objects (shapes), bytes.EqualFold.
func refKeys(t testing.TB, data []byte, maxDepth int) keysReport {
	if !json.Valid(data) {
		return keysReport{problem: keysSyntax}
	}
	type level struct {
		object bool
		shape  uint8
		keys   []string
		key    string // the object's current key
		child  uint8  // the shape of its value
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
	dec.UseNumber() // numbers past float64 are valid JSON too
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
				sh := shapes[l.shape]
				for _, old := range l.keys {
					if old == k || sh.fold && bytes.EqualFold([]byte(old), []byte(k)) {
						r := keysReport{problem: keysDuplicate, pointer: pointer(), key: k}
						if old != k {
							r.first = old
						}
						return r
					}
				}
				l.keys = append(l.keys, k)
				l.key, l.value, l.child = k, true, sh.every
				for _, m := range sh.members {
					if k == m.key || sh.fold && strings.EqualFold(k, m.key) {
						l.child = m.shape
						break
					}
				}
				continue
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if len(stack) >= maxDepth {
				return keysReport{problem: keysTooDeep}
			}
			shape := shapeMessage
			switch n := len(stack); {
			case n == 0 && tok == json.Delim('['):
				shape = shapeBatch
			case n > 0 && stack[n-1].object:
				shape = stack[n-1].child
			case n > 0:
				shape = shapes[stack[n-1].shape].elem
			}
			stack = append(stack, &level{object: tok == json.Delim('{'), shape: shape})
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
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","Name":"b","arguments":{"a":1,"A":2}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"},"Params":{"name":"b"}}`,
		`{"params":{"task":1,"tas\u212a":2,"argument\u017f":{}},"_meta":{"k":1,"\u212a":2}}`,
		`{"params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"icons":[{"src":1,"SRC":2}]},"a":1,"A":2}}}`,
		`{"params":{"inputResponses":{"r":{"roots":[{"uri":1,"URI":2}],"content":{"a":1,"A":1}},"R":{}}}}`,
		`{"result":{"roots":[{},{"uri":1}]},"error":{"data":{"a":1,"A":2},"code":1,"CODE":2}}`,
		`{"params":{"capabilities":{"sampling":{"tools":{"x":1,"X":2}},"experimental":{"x":1,"X":2}}}}`,
		`[{"id":1,"Id":2}]`,
		`{"\u0131d":1,"id":2,"\u0130d":3,"ID":4}`,
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
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
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
		"many folded keys":  keys(func(i int) string { return "\"\u212a\u017f" + strconv.Itoa(i) + `"` }), // case folded, at the top
		"many small objects": func() []byte {
			var b bytes.Buffer
			b.WriteByte('[')
			for b.Len() < size {
				b.WriteString(object(names(jsonread.LinearKeys+1)...) + ",")
			}
			b.WriteString("0]")
			return b.Bytes()
		}(),
		// Objects of many short keys each, nested as deep as a message may be: every
		// open object's keys are held at once.
		"deep objects of 17 keys": deepKeys(size, jsonread.LinearKeys+1),
		"deep objects of 33 keys": deepKeys(size, 2*jsonread.LinearKeys+1),
		"long escaped key":        []byte(`{"` + strings.Repeat(`\u00e9`, size/6) + `":0,"x":0}`),
		"long string":             []byte(`{"a":"` + strings.Repeat("x", size) + `"}`),
		"deep":                    []byte(strings.Repeat(`{"a":[`, n/2) + strings.Repeat("]}", n/2)),
		"deepest allowed":         []byte(strings.Repeat("[", maxMessageDepth) + strings.Repeat("]", maxMessageDepth)),
		"numbers":                 []byte("[" + strings.Repeat("-1.5e+300,", size/10) + "0]"),
	}
}

// deepKeys returns about size bytes (at most maxMessageDepth-1 levels) of objects nested
// in each other, each with per short keys before the one that holds the next.
func deepKeys(size, per int) []byte {
	var level strings.Builder
	level.WriteByte('{')
	for i := range per - 1 {
		level.WriteString(`"` + strconv.Itoa(i) + `":0,`)
	}
	level.WriteString(`"x":`)
	n := min(size/level.Len(), maxMessageDepth-1)
	return []byte(strings.Repeat(level.String(), n) + "0" + strings.Repeat("}", n))
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

// checkedMessages are tools/call requests as the SDK's client sends them, for
// BenchmarkCheckKeysMessage: of MCP 2026-07-28 (stateless: the client's identity and
// capabilities in _meta) and of 2025-11-25 (in a session), with the arguments of the
// bench package's get_weather and list_transactions.
var checkedMessages = map[string]string{
	"stateless_weather": `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{` +
		`"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"v1.0.0"},` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"get_weather",` +
		`"arguments":{"city":"Paris","days":3,"unit":"celsius"}}}`,
	"sessions_weather": `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather",` +
		`"arguments":{"city":"Paris","days":3,"unit":"celsius"}}}`,
	"sessions_transactions": `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_transactions",` +
		`"arguments":{"accountId":"acc-42","from":"2026-10-01T00:00:00Z","to":"2026-10-31T23:59:59Z",` +
		`"amount":{"min":100,"max":50000,"currency":"EUR"},"categories":["groceries","dining"],"limit":50}}}`,
}

// BenchmarkCheckKeysMessage reports checkKeys's cost on the tools/call requests a
// client sends, per message and per byte.
func BenchmarkCheckKeysMessage(b *testing.B) {
	for _, name := range slices.Sorted(maps.Keys(checkedMessages)) {
		in := []byte(checkedMessages[name])
		b.Run(name, func(b *testing.B) {
			if r := checkKeys(in, maxMessageDepth); r.problem != keysOK {
				b.Fatalf("checkKeys: %+v", r)
			}
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				checkKeys(in, maxMessageDepth)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(in)), "ns/byte")
		})
	}
}
