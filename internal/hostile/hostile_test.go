package hostile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/toolmcp"
)

const (
	payHead = `{"at":"2030-01-02T03:04:05Z","card":"4111111111111111",`
	// maxBytesPerByte is the bound on the bytes a call allocates per byte of its
	// arguments: generous, and far below what an unbounded check costs.
	maxBytesPerByte = 64
	// callSlack is a fixed allowance per call, for what any call costs (its goroutine,
	// context, result and event), so that the ratio is about the input's size.
	callSlack = 16 << 10
	// smallText is the most model-facing text a call with any number of violations may
	// get: the violation budget (DefaultMaxViolationBytes) and some words around it.
	smallText = 8 << 10
)

// sizes are the sizes of the adversarial payloads: 1 KB, 64 KB and just under the
// argument limit.
var sizes = []struct {
	name string
	n    int
}{{"1KB", 1 << 10}, {"64KB", 64 << 10}, {"1MiB", runtime.DefaultMaxArgumentBytes - 64}}

// build returns prefix, then as many items as fit in size bytes joined by commas, then
// suffix.
func build(prefix, suffix string, size int, item func(i int) string) []byte {
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString(prefix)
	for i := 0; ; i++ {
		it := item(i)
		sep := 0
		if i > 0 {
			sep = 1
		}
		if b.Len()+sep+len(it)+len(suffix) > size {
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(it)
	}
	b.WriteString(suffix)
	return b.Bytes()
}

// buildN returns prefix, then n items joined by commas, then suffix.
func buildN(prefix, suffix string, n int, item func(i int) string) []byte {
	var b bytes.Buffer
	b.WriteString(prefix)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(item(i))
	}
	b.WriteString(suffix)
	return b.Bytes()
}

// digits returns prefix + head + fill repeated + tail + suffix, size bytes long.
func digits(prefix, head, fill, tail, suffix string, size int) []byte {
	n := size - len(prefix) - len(head) - len(tail) - len(suffix)
	return []byte(prefix + head + strings.Repeat(fill, n/len(fill)) + tail + suffix)
}

// key returns the i-th of many distinct 5-byte property names.
func key(i int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := []byte("k0000")
	for j := 4; j > 0; j-- {
		b[j] = alphabet[i%36]
		i /= 36
	}
	return string(b)
}

// receipt decodes the structured result of pay.
func receipt(t testing.TB, res *runtime.Result) Receipt {
	t.Helper()
	var r Receipt
	if err := json.Unmarshal(res.Structured, &r); err != nil {
		t.Fatalf("structured result %s: %v", res.Structured, err)
	}
	return r
}

// verdict checks a call's result.
type verdict func(t testing.TB, res *runtime.Result)

func refusedAt(path string) verdict {
	return func(t testing.TB, res *runtime.Result) {
		t.Helper()
		if !res.IsError || res.Outcome != runtime.OutcomeInvalidArguments {
			t.Errorf("want invalid_arguments at %s, got %v %q: %s", path, res.IsError, res.Outcome, clip(res.Text(), 300))
			return
		}
		if !strings.Contains(res.Text(), path) {
			t.Errorf("the text does not name %s: %s", path, clip(res.Text(), 300))
		}
	}
}

func acceptedWith(check func(t testing.TB, r Receipt)) verdict {
	return func(t testing.TB, res *runtime.Result) {
		t.Helper()
		if res.IsError {
			t.Errorf("refused: %s", clip(res.Text(), 300))
			return
		}
		check(t, receipt(t, res))
	}
}

// TestCostBoundedBySize (class 1): adversarial pay arguments of 1 KB, 64 KB and ~1 MiB
// (extreme exponents on multipleOf floats, numbers of a million digits, unknown keys,
// long strings, type errors, duplicates, deep nesting, double encoding) get the right
// verdict and allocate at most maxBytesPerByte per input byte, with and without argument
// logging. Time is logged, never asserted.
func TestCostBoundedBySize(t *testing.T) {
	type family struct {
		name    string
		payload func(size int) []byte
		want    verdict
	}
	extremes := []string{"1e-999999", "1e999999", "-1e-999999", "1E+999999", "0.01e-999999", "7e-999999", "1e-400", "12.5e999999"}
	families := []family{
		{"splits of extreme exponents", func(n int) []byte {
			return build(payHead+`"amount":1,"splits":[`, `]}`, n, func(i int) string { return extremes[i%len(extremes)] })
		}, refusedAt("/splits/0")},
		{"amount of many digits, not a multiple", func(n int) []byte {
			return digits(payHead+`"amount":`, "1.", "0", "1", "}", n)
		}, refusedAt("/amount")},
		{"amount of many digits, a multiple", func(n int) []byte {
			return digits(payHead+`"amount":`, "1.23", "0", "", "}", n)
		}, acceptedWith(func(t testing.TB, r Receipt) {
			if r.Amount != 1.23 {
				t.Errorf("amount %v, want 1.23", r.Amount)
			}
		})},
		{"amount of many integer digits", func(n int) []byte {
			return digits(payHead+`"amount":`, "1", "0", "", "}", n)
		}, refusedAt("/amount")},
		{"amount with an exponent of many digits", func(n int) []byte {
			return digits(payHead+`"amount":`, "1e-", "9", "", "}", n)
		}, refusedAt("/amount")},
		{"amount with a huge exponent of many digits", func(n int) []byte {
			return digits(payHead+`"amount":`, "1e+", "9", "", "}", n)
		}, refusedAt("/amount")},
		{"rate of many digits, a multiple", func(n int) []byte {
			return digits(payHead+`"amount":1,"rate":`, "0.25", "0", "", "}", n)
		}, acceptedWith(func(t testing.TB, r Receipt) {
			if r.Rate != 0.25 {
				t.Errorf("rate %v, want 0.25", r.Rate)
			}
		})},
		{"rate of many digits, a multiple as float64 only", func(n int) []byte {
			return digits(payHead+`"amount":1,"rate":`, "0.25", "0", "1", "}", n)
		}, refusedAt("/rate")},
		{"rate of many leading zeros", func(n int) []byte {
			return digits(payHead+`"amount":1,"rate":`, "0.", "0", "1", "}", n)
		}, refusedAt("/rate")},
		{"unknown keys", func(n int) []byte {
			return build(payHead+`"amount":1,`, `}`, n, func(i int) string { return `"` + key(i) + `":0` })
		}, refusedAt("unknown property")},
		{"long memo", func(n int) []byte {
			return digits(payHead+`"amount":1,"memo":"`, "", "x", "", `"}`, n)
		}, refusedAt("/memo")},
		{"long memo of escapes", func(n int) []byte {
			return digits(payHead+`"amount":1,"memo":"`, "", `\u00e9`, "", `"}`, n)
		}, refusedAt("/memo")},
		{"splits of wrong types", func(n int) []byte {
			return build(payHead+`"amount":1,"splits":[`, `]}`, n, func(int) string { return `"x"` })
		}, refusedAt("/splits/0")},
		{"duplicate memos", func(n int) []byte {
			return build(payHead+`"amount":1,`, `}`, n, func(int) string { return `"memo":"a"` })
		}, refusedAt("/memo")},
		{"deep nesting", func(n int) []byte {
			d := (n - len(payHead) - 30) / 2
			return []byte(payHead + `"amount":1,"memo":` + strings.Repeat("[", d) + strings.Repeat("]", d) + "}")
		}, func(t testing.TB, res *runtime.Result) {
			if !res.IsError || res.Outcome != runtime.OutcomeInvalidArguments {
				t.Errorf("deep nesting: %v %s", res.Outcome, clip(res.Text(), 300))
			}
		}},
		{"one long unknown key", func(n int) []byte {
			return digits(payHead+`"amount":1,"`, "", "k", "", `":0}`, n)
		}, refusedAt("unknown property")},
		{"unknown keys, arguments encoded twice", func(n int) []byte {
			inner := build(payHead+`"amount":1,`, `}`, n*2/3, func(i int) string { return `"` + key(i) + `":0` }) // ~n once escaped
			return []byte(jsonString(string(inner)))
		}, refusedAt("unknown property")},
		{"splits as a string of extreme exponents", func(n int) []byte {
			inner := build(`[`, `]`, n-len(payHead)-40, func(i int) string { return extremes[i%len(extremes)] })
			return []byte(payHead + `"amount":1,"splits":` + jsonString(string(inner)) + `}`)
		}, refusedAt("/splits/0")},
	}
	logged := VaultTools(NewVault()).WithArgumentLogging(true).
		WithObserver(runtime.SlogObserver(slog.New(slog.NewJSONHandler(io.Discard, nil))))
	plain := VaultTools(NewVault())
	for _, f := range families {
		for _, sz := range sizes {
			args := f.payload(sz.n)
			if len(args) > runtime.DefaultMaxArgumentBytes {
				t.Fatalf("%s %s: payload of %d bytes is over the limit", f.name, sz.name, len(args))
			}
			for _, ts := range []struct {
				name  string
				tools *runtime.Toolset
			}{{"plain", plain}, {"logged", logged}} {
				t.Run(f.name+"/"+sz.name+"/"+ts.name, func(t *testing.T) {
					var res *runtime.Result
					start := time.Now()
					alloc := allocs(func() { res = ts.tools.Call(context.Background(), "pay", args) })
					elapsed := time.Since(start)
					ratio := float64(alloc) / float64(len(args))
					t.Logf("%d bytes: %.1f B/byte allocated, %.1f ns/byte (not asserted)", len(args), ratio, float64(elapsed.Nanoseconds())/float64(len(args)))
					f.want(t, res)
					if !raceEnabled && alloc > maxBytesPerByte*uint64(len(args))+callSlack {
						t.Errorf("%d bytes of arguments allocated %d bytes: %.1f B/byte, bound %d B/byte + %d", len(args), alloc, ratio, maxBytesPerByte, callSlack)
					}
					if len(res.Text()) > smallText && res.IsError {
						t.Errorf("model text of %d bytes", len(res.Text()))
					}
				})
			}
		}
	}
}

// TestCostRedactSensitive (class 1, 3): a ~1 MiB put_secret call whose sensitive map and
// list are large, plain and encoded twice, costs a bounded multiple of its size with
// argument logging on, and Redact alone too.
func TestCostRedactSensitive(t *testing.T) {
	tools := VaultTools(NewVault()).WithArgumentLogging(true).
		WithObserver(runtime.SlogObserver(slog.New(slog.NewJSONHandler(io.Discard, nil))))
	tool, _ := tools.Lookup("put_secret")
	head := `{"name":"api","secret":"S3CR3T-plain-value","clientIp":"10.1.2.3","login":` + validLogin + `,"expiresAt":"2030-01-02T03:04:05Z","headers":{`
	for _, sz := range sizes {
		mapArgs := build(head, `}}`, sz.n, func(i int) string { return `"` + key(i) + `":"S3CR3T-v"` })
		listArgs := build(strings.TrimSuffix(head, `"headers":{`)+`"recoveryCodes":[`, `]}`, sz.n, func(int) string { return `"S3CR3T-rc"` })
		twice := []byte(jsonString(string(build(head, `}}`, sz.n*2/3, func(i int) string { return `"` + key(i) + `":"S3CR3T-v"` }))))
		for name, args := range map[string][]byte{"map": mapArgs, "list": listArgs, "twice": twice} {
			t.Run(name+"/"+sz.name, func(t *testing.T) {
				var res *runtime.Result
				alloc := allocs(func() { res = tools.Call(context.Background(), "put_secret", args) })
				ratio := float64(alloc) / float64(len(args))
				t.Logf("call: %d bytes, %.1f B/byte, %v %s", len(args), ratio, res.Outcome, clip(res.Text(), 120))
				if alloc > maxBytesPerByte*uint64(len(args))+callSlack {
					t.Errorf("call allocated %.1f B/byte, bound %d", ratio, maxBytesPerByte)
				}
				var red json.RawMessage
				alloc = allocs(func() { red = runtime.Redact(tool, args) })
				ratio = float64(alloc) / float64(len(args))
				if alloc > maxBytesPerByte*uint64(len(args))+callSlack {
					t.Errorf("Redact allocated %.1f B/byte, bound %d", ratio, maxBytesPerByte)
				}
				if bytes.Contains(red, []byte("S3CR3T")) {
					t.Errorf("Redact leaks: %s", clip(string(red), 300))
				}
			})
		}
	}
}

// TestViolationsBounded (class 2): 90,000 unknown keys (~1 MiB), and other payloads with
// a huge number of violations, give the model a small text that says how many more
// there were, small events and small log lines, at a cost bounded by the input's size.
func TestViolationsBounded(t *testing.T) {
	cases := []struct {
		name, tool string
		args       []byte
		atLeast    int // violations in all
	}{
		{"90000 unknown keys", "pay", buildN(payHead+`"amount":1,`, `}`, 90000, func(i int) string { return `"` + key(i) + `":0` }), 90000},
		{"250000 type errors", "pay", build(payHead+`"amount":1,"splits":[`, `]}`, runtime.DefaultMaxArgumentBytes-64, func(int) string { return `"x"` }), 200000},
		{"100000 bad recovery codes (sensitive)", "put_secret", build(`{"name":"api","secret":"S3CR3T-x","clientIp":"10.1.2.3","login":`+validLogin+`,"expiresAt":"2030-01-02T03:04:05Z","recoveryCodes":[`, `]}`, runtime.DefaultMaxArgumentBytes-64, func(int) string { return `"S3"` }), 100000},
		{"one unknown key of 1 MiB", "pay", digits(payHead+`"amount":1,"`, "", "k", "", `":0}`, runtime.DefaultMaxArgumentBytes-64), 1},
		{"one bad name of 1 MiB", "put_secret", digits(`{"secret":"S3CR3T-x","clientIp":"10.1.2.3","login":`+validLogin+`,"expiresAt":"2030-01-02T03:04:05Z","name":"`, "", "X", "", `"}`, runtime.DefaultMaxArgumentBytes-64), 1},
		{"200 unknown keys of 4 KB", "pay", build(payHead+`"amount":1,`, `}`, runtime.DefaultMaxArgumentBytes-64, func(i int) string {
			return `"` + key(i) + strings.Repeat("q", 4096) + `":0`
		}), 200},
		{"many bad values across properties", "pay", build(`{`, `}`, runtime.DefaultMaxArgumentBytes-64, func(i int) string {
			return `"` + key(i) + `":[` + `"` + strings.Repeat("v", 50) + `"]`
		}), 10000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.args) > runtime.DefaultMaxArgumentBytes {
				t.Fatalf("payload %d bytes", len(tc.args))
			}
			var mu sync.Mutex
			var events []runtime.Event
			var logBuf bytes.Buffer
			slogObs := runtime.SlogObserver(slog.New(slog.NewJSONHandler(&logBuf, nil)))
			tools := VaultTools(NewVault()).WithObserver(func(ctx context.Context, e runtime.Event) {
				mu.Lock()
				defer mu.Unlock()
				events = append(events, e)
				slogObs(ctx, e)
			})
			var res *runtime.Result
			alloc := allocs(func() { res = tools.Call(context.Background(), tc.tool, tc.args) })
			ratio := float64(alloc) / float64(len(tc.args))
			text := res.Text()
			t.Logf("%d bytes in, %d bytes of text, %.1f B/byte: %s", len(tc.args), len(text), ratio, clip(text, 200))
			if !res.IsError || res.Outcome != runtime.OutcomeInvalidArguments {
				t.Fatalf("outcome %q", res.Outcome)
			}
			if alloc > maxBytesPerByte*uint64(len(tc.args))+callSlack {
				t.Errorf("allocated %.1f B/byte, bound %d", ratio, maxBytesPerByte)
			}
			if len(text) > smallText {
				t.Errorf("model text of %d bytes: %s", len(text), clip(text, 300))
			}
			if !utf8.ValidString(text) {
				t.Errorf("model text is not valid UTF-8")
			}
			var ae *invalid.ArgumentError
			if !errors.As(res.Err, &ae) {
				t.Fatalf("Result.Err %T is not an *ArgumentError", res.Err)
			}
			if got := len(ae.Violations) + ae.Omitted; got < tc.atLeast {
				t.Errorf("%d violations listed + %d omitted, want at least %d", len(ae.Violations), ae.Omitted, tc.atLeast)
			}
			if len(ae.Violations) > runtime.DefaultMaxViolations {
				t.Errorf("%d violations listed, budget %d", len(ae.Violations), runtime.DefaultMaxViolations)
			}
			if ae.Omitted > 0 && !strings.Contains(text, strconv.Itoa(ae.Omitted)) {
				t.Errorf("the text does not say how many more (%d): %s", ae.Omitted, clip(text, 600))
			}
			if len(ae.Error()) > smallText {
				t.Errorf("Result.Err text of %d bytes", len(ae.Error()))
			}
			mcpJSON, _ := json.Marshal(toolmcp.Result(res))
			if len(mcpJSON) > smallText+1024 {
				t.Errorf("MCP result of %d bytes", len(mcpJSON))
			}
			if len(events) != 1 {
				t.Fatalf("%d events", len(events))
			}
			e := events[0]
			vb := 0
			for _, v := range e.Violations {
				vb += len(v.Path) + len(v.Message) + len(v.Got)
			}
			if len(e.Violations) > runtime.DefaultMaxViolations || vb > smallText {
				t.Errorf("event holds %d violations, %d bytes", len(e.Violations), vb)
			}
			if e.OmittedViolations != ae.Omitted {
				t.Errorf("event omits %d, result %d", e.OmittedViolations, ae.Omitted)
			}
			if logBuf.Len() > smallText+1024 {
				t.Errorf("SlogObserver wrote %d bytes: %s", logBuf.Len(), clip(logBuf.String(), 300))
			}
		})
	}
	t.Run("unknown tool of a 1 MiB name", func(t *testing.T) {
		var logBuf bytes.Buffer
		var events []runtime.Event
		slogObs := runtime.SlogObserver(slog.New(slog.NewJSONHandler(&logBuf, nil)))
		tools := VaultTools(NewVault()).WithObserver(func(ctx context.Context, e runtime.Event) {
			events = append(events, e)
			slogObs(ctx, e)
		})
		name := strings.Repeat("n", runtime.DefaultMaxArgumentBytes)
		res := tools.Call(context.Background(), name, []byte(`{}`))
		if res.Outcome != runtime.OutcomeUnknownTool || len(res.Text()) > smallText {
			t.Errorf("outcome %q, text of %d bytes", res.Outcome, len(res.Text()))
		}
		if len(events) != 1 || len(events[0].Tool) > smallText || logBuf.Len() > smallText {
			t.Errorf("the event names the unknown tool in full: Event.Tool of %d bytes, SlogObserver line of %d bytes", len(events[0].Tool), logBuf.Len())
		}
	})
	t.Run("WithLimits", func(t *testing.T) {
		tools := VaultTools(NewVault()).WithLimits(runtime.Limits{MaxViolations: 2, MaxViolationBytes: 64})
		args := build(payHead+`"amount":1,`, `}`, 64<<10, func(i int) string { return `"` + key(i) + `":0` })
		res := tools.Call(context.Background(), "pay", args)
		var ae *invalid.ArgumentError
		if !errors.As(res.Err, &ae) {
			t.Fatalf("%T", res.Err)
		}
		if len(ae.Violations) > 2 || ae.Omitted == 0 || len(res.Text()) > 1024 {
			t.Errorf("%d listed, %d omitted, text %d bytes: %s", len(ae.Violations), ae.Omitted, len(res.Text()), res.Text())
		}
	})
}

// TestModelTextValidUTF8 (class 4): invalid UTF-8 in names, values and keys never makes
// the model-facing text, the error, the events or the log invalid UTF-8.
func TestModelTextValidUTF8(t *testing.T) {
	long := strings.Repeat("€", 2000)
	cases := []struct{ name, tool, args string }{
		{"name invalid bytes", "put_secret", `{"name":"bad\xff\xfename"}`},
		{"name lone surrogate escape", "put_secret", `{"name":"\ud800"}`},
		{"name surrogate pair split", "put_secret", `{"name":"\udc00\ud800x"}`},
		{"name overlong encoding", "put_secret", "{\"name\":\"\xc0\xaf\"}"},
		{"name encoded surrogate", "put_secret", "{\"name\":\"\xed\xa0\x80\"}"},
		{"name truncated rune", "put_secret", "{\"name\":\"abc\xe2\x82\"}"},
		{"name long multibyte", "put_secret", `{"name":"` + long + `"}`},
		{"name long multibyte then invalid", "put_secret", `{"name":"` + long + "\xff" + `"}`},
		{"memo long multibyte", "pay", payHead + `"amount":1,"memo":"` + long + `"}`},
		{"memo 141 emoji", "pay", payHead + `"amount":1,"memo":"` + strings.Repeat("😀", 141) + `"}`},
		{"memo invalid bytes, too long", "pay", payHead + `"amount":1,"memo":"` + strings.Repeat("\xff", 200) + `"}`},
		{"unknown key invalid bytes", "pay", payHead + `"amount":1,"\xffk\xfe":0}`},
		{"unknown key long multibyte", "pay", payHead + `"amount":1,"` + long + `":0}`},
		{"unknown key lone surrogate", "pay", payHead + `"amount":1,"\udfff":0}`},
		{"enum invalid bytes", "explode", `{"kind":"str\xc3\x28ing","token":"x"}`},
		{"enum long multibyte", "connect_backend", `{"backend":"` + long + `","password":"x"}`},
		{"value invalid bytes, wrong type", "pay", payHead + `"amount":"\xff\xfe"}`},
		{"syntax error at invalid bytes", "pay", "{\"amount\":\xff\xfe}"},
		{"syntax error after multibyte", "pay", `{"amount":1,"memo":"` + long + `"` + "\xe2\x82"},
		{"date-time invalid bytes", "pay", `{"amount":1,"card":"4111111111111111","at":"2030\xff01-02T03:04:05Z"}`},
		{"arguments not an object, invalid bytes", "pay", `"\xff\xfe"`},
		{"arguments encoded twice, invalid bytes", "pay", jsonString(`{"memo":"`) + "\xff"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCapture(t, false)
			res := callDone(t, c.tools, context.Background(), tc.tool, []byte(tc.args))
			if !res.IsError {
				t.Logf("accepted: %q", clip(tc.args, 100))
			}
			for _, s := range c.surfaces(t, tc.tool, []byte(tc.args), res, false) {
				if s.name == "runtime.Redact" || s.name == "Result.Structured" {
					continue
				}
				if !utf8.ValidString(s.text) {
					t.Errorf("%s is not valid UTF-8: %q", s.name, clip(s.text, 300))
				}
			}
		})
	}
	t.Run("unknown tool name invalid bytes", func(t *testing.T) {
		c := newCapture(t, false)
		for _, name := range []string{"pay\xff", "\xed\xa0\x80", strings.Repeat("é", 5000) + "\xff", ""} {
			res := c.tools.Call(context.Background(), name, []byte(`{}`))
			if !res.IsError || res.Outcome != runtime.OutcomeUnknownTool {
				t.Errorf("%q: %v %q", name, res.IsError, res.Outcome)
			}
			if !utf8.ValidString(res.Text()) {
				t.Errorf("%q: text not valid UTF-8: %q", clip(name, 20), clip(res.Text(), 200))
			}
			if len(res.Text()) > smallText {
				t.Errorf("%q: text of %d bytes", clip(name, 20), len(res.Text()))
			}
		}
		if !utf8.ValidString(c.slogJSON.String()) || !utf8.ValidString(c.slogText.String()) {
			t.Errorf("slog output not valid UTF-8")
		}
		for _, e := range c.events {
			if !utf8.ValidString(e.Tool) {
				// Events are for the application, not the model: logged, not asserted.
				t.Logf("observation: Event.Tool of an unknown tool holds the name as sent, invalid UTF-8 included: %q", clip(e.Tool, 40))
			}
		}
	})
}

// TestIntegersWrittenAsNumbers (class 5): any integral JSON number is an integer, with
// its exact value; others are refused.
func TestIntegersWrittenAsNumbers(t *testing.T) {
	type tc struct {
		field, num string
		want       int64 // ignored when refused
		ok         bool
	}
	cases := []tc{
		{"installments", "2", 2, true},
		{"installments", "2.0", 2, true},
		{"installments", "1e1", 10, true},
		{"installments", "1E1", 10, true},
		{"installments", "1e+1", 10, true},
		{"installments", "150e-1", 15, true},
		{"installments", "0.1e1", 1, true},
		{"installments", "10.000", 10, true},
		{"installments", "4.8e1", 48, true},
		{"installments", "480000e-4", 48, true},
		{"installments", "2.5", 0, false},
		{"installments", "4.9e1", 0, false},
		{"installments", "1.00000000000000000001", 0, false},
		{"installments", "1.0000000000000001", 0, false},
		{"installments", "15e-1", 0, false},
		{"installments", "1e-400", 0, false},
		{"installments", "0.0", 0, false},
		{"installments", "-0.0", 0, false},
		{"installments", "1e400", 0, false},
		{"priority", "2.55e2", 255, true},
		{"priority", "-0", 0, true},
		{"priority", "-0.0e5", 0, true},
		{"priority", "0e-999999", 0, true},
		{"priority", "2.56e2", 0, false},
		{"priority", "-1e0", 0, false},
		{"sequence", "9223372036854775807", 9223372036854775807, true},
		{"sequence", "9223372036854775807.0", 9223372036854775807, true},
		{"sequence", "9.223372036854775807e18", 9223372036854775807, true},
		{"sequence", "-9.223372036854775808e18", -9223372036854775808, true},
		{"sequence", "1234567890123456789.0", 1234567890123456789, true},
		{"sequence", "12345678901234567890e-1", 1234567890123456789, true},
		{"sequence", "0.1234567890123456789e19", 1234567890123456789, true},
		{"sequence", "9223372036854775808.0", 0, false},
		{"sequence", "9.223372036854775808e18", 0, false},
		{"sequence", "1e19", 0, false},
		{"sequence", "1234567890123456789.5", 0, false},
		{"sequence", "1e999999", 0, false},
	}
	tools := VaultTools(NewVault())
	for _, c := range cases {
		t.Run(c.field+"="+c.num, func(t *testing.T) {
			args := payHead + `"amount":1,"` + c.field + `":` + c.num + `}`
			res := tools.Call(context.Background(), "pay", []byte(args))
			if !c.ok {
				refusedAt("/"+c.field)(t, res)
				return
			}
			if res.IsError {
				t.Fatalf("refused: %s", res.Text())
			}
			r := receipt(t, res)
			var got int64
			switch c.field {
			case "installments":
				got = int64(r.Installments)
			case "priority":
				got = int64(r.Priority)
			case "sequence":
				got = r.Sequence
			}
			if got != c.want {
				t.Errorf("%s = %d, want %d", c.field, got, c.want)
			}
		})
	}
	t.Run("list_secrets limit", func(t *testing.T) {
		for num, ok := range map[string]bool{"1e2": true, "1.0e2": true, "100.0": true, "1.5e1": true, "1.55e1": false, "1e3": false} {
			res := tools.Call(context.Background(), "list_secrets", []byte(`{"prefix":"","limit":`+num+`}`))
			if res.IsError == ok {
				t.Errorf("limit %s: error %v: %s", num, res.IsError, res.Text())
			}
		}
	})
}

// TestMultipleOfExact (class 1): multipleOf is decided exactly, on the number as written,
// with the right verdicts for values that binary floating point gets wrong.
func TestMultipleOfExact(t *testing.T) {
	cases := []struct {
		field, num string
		ok         bool
		want       float64
	}{
		{"amount", "0.07", true, 0.07},
		{"amount", "0.29", true, 0.29},
		{"amount", "1.15", true, 1.15},
		{"amount", "100.10", true, 100.1},
		{"amount", "999999.99", true, 999999.99},
		{"amount", "1e-2", true, 0.01},
		{"amount", "1e2", true, 100},
		{"amount", "123456e-2", true, 1234.56},
		{"amount", "0.075", false, 0},
		{"amount", "7e-3", false, 0},
		{"amount", "1234.5600000000000000000000001", false, 0},
		{"amount", "1e-999999", false, 0},
		{"amount", "1e999999", false, 0},
		{"amount", "-1e-999999", false, 0},
		{"amount", "0", false, 0},
		{"amount", "1000000.01", false, 0},
		{"rate", "0.25", true, 0.25},
		{"rate", "25e-2", true, 0.25},
		{"rate", "0.25e1", true, 2.5},
		{"rate", "12.75", true, 12.75},
		{"rate", "30.00", true, 30},
		{"rate", "0e999999", true, 0},
		{"rate", "0e-999999", true, 0},
		{"rate", "-0.0", true, 0},
		{"rate", "0.1", false, 0},
		{"rate", "30.25", false, 0},
		{"rate", "1e-999999", false, 0},
		{"rate", "0.25000000000000000001", false, 0},
		{"rate", "1e999999", false, 0},
	}
	tools := VaultTools(NewVault())
	for _, c := range cases {
		t.Run(c.field+"="+c.num, func(t *testing.T) {
			args := payHead + `"amount":1,"` + c.field + `":` + c.num + `}`
			if c.field == "amount" {
				args = payHead + `"amount":` + c.num + `}`
			}
			res := tools.Call(context.Background(), "pay", []byte(args))
			if !c.ok {
				refusedAt("/"+c.field)(t, res)
				return
			}
			if res.IsError {
				t.Fatalf("refused: %s", res.Text())
			}
			r := receipt(t, res)
			got := r.Amount
			if c.field == "rate" {
				got = r.Rate
			}
			if got != c.want {
				t.Errorf("%s = %v, want %v", c.field, got, c.want)
			}
		})
	}
}

// TestDateTimeLowercase (class 6): RFC 3339 date-times with a lowercase t and z are
// accepted, with their value; malformed ones are refused.
func TestDateTimeLowercase(t *testing.T) {
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		s    string
		ok   bool
		want time.Time
	}{
		{"2030-01-02T03:04:05Z", true, at},
		{"2030-01-02t03:04:05z", true, at},
		{"2030-01-02T03:04:05z", true, at},
		{"2030-01-02t03:04:05Z", true, at},
		{"2030-01-02t05:04:05+02:00", true, at},
		{"2030-01-02t03:04:05.123456789z", true, at.Add(123456789)},
		{"2030-01-02T03:04:05.5-00:00", true, at.Add(500 * time.Millisecond)},
		{"2030-01-02T03:04:05", false, time.Time{}},
		{"2030-01-02 03:04:05Z", false, time.Time{}},
		{"2030-01-02x03:04:05z", false, time.Time{}},
		{"2030-13-02T03:04:05Z", false, time.Time{}},
		{"2030-02-30T03:04:05Z", false, time.Time{}},
		{"2030-01-02T24:00:00Z", false, time.Time{}},
		{"2030-01-02T03:04:05ZZ", false, time.Time{}},
		{"2030-01-02T03:04:05+2:00", false, time.Time{}},
		{"2030-01-02T03:04:05.Z", false, time.Time{}},
		{"+2030-01-02T03:04:05Z", false, time.Time{}},
	}
	tools := VaultTools(NewVault())
	for _, c := range cases {
		t.Run(c.s, func(t *testing.T) {
			res := tools.Call(context.Background(), "pay", []byte(`{"amount":1,"card":"4111111111111111","at":"`+c.s+`"}`))
			if !c.ok {
				refusedAt("/at")(t, res)
				return
			}
			if res.IsError {
				t.Fatalf("refused: %s", res.Text())
			}
			if got := receipt(t, res).At; !got.Equal(c.want) {
				t.Errorf("at = %v, want %v", got, c.want)
			}
		})
	}
	t.Run("put_secret expiresAt", func(t *testing.T) {
		v := NewVault()
		args := strings.Replace(validStore(validLogin, validCodes, validHeaders), "2030-01-02T03:04:05Z", "2030-01-02t03:04:05z", 1)
		res := VaultTools(v).Call(context.Background(), "put_secret", []byte(args))
		if res.IsError {
			t.Fatalf("refused: %s", res.Text())
		}
		if got, _ := v.Stored("api"); !got.ExpiresAt.Equal(at) {
			t.Errorf("expiresAt = %v", got.ExpiresAt)
		}
	})
}

// TestCallAlwaysReturns (class 7): a tool that calls runtime.Goexit, a panicking tool,
// a hanging tool, a nil context, a canceled one, an approver that panics or calls
// Goexit: Call returns a result every time.
func TestCallAlwaysReturns(t *testing.T) {
	var nilCtx context.Context
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name    string
		ctx     context.Context
		tool    string
		args    string
		outcome runtime.Outcome // "" for any error outcome
		ok      bool
	}{
		{"goexit", context.Background(), "bail_out", `{}`, runtime.OutcomeInternalError, false},
		{"goexit, nil context", nilCtx, "bail_out", `{}`, runtime.OutcomeInternalError, false},
		{"panic", context.Background(), "explode", `{"kind":"string","token":"t"}`, runtime.OutcomeInternalError, false},
		{"panic nil", context.Background(), "explode", `{"kind":"nil","token":"t"}`, runtime.OutcomeInternalError, false},
		{"panic runtime error", context.Background(), "explode", `{"kind":"index","token":"t"}`, runtime.OutcomeInternalError, false},
		{"panic, nil context", nilCtx, "explode", `{"kind":"error","token":"t"}`, runtime.OutcomeInternalError, false},
		{"ping, nil context", nilCtx, "ping", `{}`, runtime.OutcomeOK, true},
		{"pay, nil context", nilCtx, "pay", payHead + `"amount":1}`, runtime.OutcomeOK, true},
		{"invalid, nil context", nilCtx, "pay", `{}`, runtime.OutcomeInvalidArguments, false},
		{"unknown, nil context", nilCtx, "nosuch", `{}`, runtime.OutcomeUnknownTool, false},
		{"hang past its timeout", context.Background(), "hang", `{}`, runtime.OutcomeTimeout, false},
		{"hang, nil context", nilCtx, "hang", `{}`, runtime.OutcomeTimeout, false},
		{"hang, canceled context", canceled, "hang", `{}`, runtime.OutcomeCanceled, false},
		{"ping, canceled context", canceled, "ping", `{}`, runtime.OutcomeCanceled, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := NewVault()
			defer v.Release()
			var mu sync.Mutex
			var events []runtime.Event
			tools := VaultTools(v).WithObserver(func(_ context.Context, e runtime.Event) {
				mu.Lock()
				events = append(events, e)
				mu.Unlock()
			})
			res := callDone(t, tools, c.ctx, c.tool, []byte(c.args))
			if res.IsError == c.ok {
				t.Errorf("IsError %v: %s", res.IsError, res.Text())
			}
			if c.outcome != "" && res.Outcome != c.outcome {
				t.Errorf("outcome %q, want %q (%s)", res.Outcome, c.outcome, res.Text())
			}
			if res.Outcome == runtime.OutcomeInternalError && res.Text() != c.tool+" failed with an internal error" {
				t.Errorf("model text %q", res.Text())
			}
			mu.Lock()
			n := len(events)
			mu.Unlock()
			if n != 1 {
				t.Errorf("%d events, want 1", n)
			}
		})
	}
	approvers := map[string]runtime.Approver{
		"approver panics": func(context.Context, runtime.ApprovalRequest) runtime.Decision { panic("approver bug") },
		"approver calls Goexit": func(context.Context, runtime.ApprovalRequest) runtime.Decision {
			failNow()
			return runtime.Allow()
		},
	}
	for name, a := range approvers {
		t.Run(name, func(t *testing.T) {
			v := NewVault()
			res := callDone(t, VaultTools(v).WithApprover(a), context.Background(), "pay", []byte(payHead+`"amount":1}`))
			if !res.IsError || res.Outcome != runtime.OutcomeDenied {
				t.Errorf("want a denial, got %v %q: %s", res.IsError, res.Outcome, res.Text())
			}
			if v.paid != 0 {
				t.Errorf("the payment ran")
			}
		})
	}
}

// TestRunCallsOneResultPerCall (class 7): RunCalls over a mix of calls, two of them to
// the Goexit tool, gives exactly one result per call, in order, each for its own id.
func TestRunCallsOneResultPerCall(t *testing.T) {
	calls := []runtime.ToolCall{
		{ID: "c1", Name: "ping", Arguments: []byte(`{}`)},
		{ID: "c2", Name: "bail_out", Arguments: []byte(`{}`)},
		{ID: "c3", Name: "explode", Arguments: []byte(`{"kind":"string","token":"t"}`)},
		{ID: "c4", Name: "pay", Arguments: []byte(payHead + `"amount":1}`)},
		{ID: "c5", Name: "nosuch", Arguments: []byte(`{}`)},
		{ID: "c6", Name: "bail_out", Arguments: nil},
		{ID: "c7", Name: "pay", Arguments: []byte(`{"amount":"x"}`)},
		{ID: "c8", Name: "hang", Arguments: []byte(`{}`)},
		{ID: "c9", Name: "connect_backend", Arguments: []byte(`{"backend":"primary","password":"p"}`)},
		{ID: "c10", Name: "ping", Arguments: []byte(`{}`)},
		{ID: "c11", Name: "explode", Arguments: []byte(`{"kind":"nil","token":"t"}`)},
		{ID: "c12", Name: "bail_out", Arguments: []byte(`null`)},
	}
	want := []runtime.Outcome{runtime.OutcomeOK, runtime.OutcomeInternalError, runtime.OutcomeInternalError, runtime.OutcomeOK,
		runtime.OutcomeUnknownTool, runtime.OutcomeInternalError, runtime.OutcomeInvalidArguments, runtime.OutcomeTimeout,
		runtime.OutcomeInternalError, runtime.OutcomeOK, runtime.OutcomeInternalError, runtime.OutcomeInternalError}
	var nilCtx context.Context
	for _, run := range []struct {
		name        string
		ctx         context.Context
		maxParallel int
	}{{"parallel", context.Background(), 0}, {"one at a time", context.Background(), 1}, {"two", context.Background(), 2}, {"nil context", nilCtx, 0}} {
		t.Run(run.name, func(t *testing.T) {
			v := NewVault()
			defer v.Release()
			tools := VaultTools(v)
			done := make(chan []runtime.CallResult, 1)
			go func() { done <- tools.RunCalls(run.ctx, calls, run.maxParallel) }()
			var results []runtime.CallResult
			select {
			case results = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("RunCalls never returned")
			}
			if len(results) != len(calls) {
				t.Fatalf("%d results for %d calls", len(results), len(calls))
			}
			for i, r := range results {
				if r.Call.ID != calls[i].ID || r.Call.Name != calls[i].Name || r.Result == nil {
					t.Errorf("result %d: id %q name %q result %v, want id %q", i, r.Call.ID, r.Call.Name, r.Result, calls[i].ID)
					continue
				}
				if r.Result.Outcome != want[i] {
					t.Errorf("%s (%s): outcome %q, want %q: %s", calls[i].ID, calls[i].Name, r.Result.Outcome, want[i], r.Result.Text())
				}
			}
			if got := results[0].Result.Text(); got != "pong c1" {
				t.Errorf("ping c1 read %q", got)
			}
		})
	}
}

// TestGoroutinesReleased: the Goexit and panic tools leave no goroutine behind once their
// calls are answered (the hanging tool's goroutine is released by Release).
func TestGoroutinesReleased(t *testing.T) {
	v := NewVault()
	tools := VaultTools(v)
	before := goruntime.NumGoroutine()
	for i := 0; i < 50; i++ {
		tools.Call(context.Background(), "bail_out", nil)
		tools.Call(context.Background(), "explode", []byte(`{"kind":"error","token":"t"}`))
	}
	var after int
	for i := 0; i < 100; i++ {
		if after = goruntime.NumGoroutine(); after <= before+2 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if after > before+2 {
		t.Errorf("%d goroutines before, %d after 100 misbehaving calls", before, after)
	}
	v.Release()
}

// TestDuplicateKeysEscaped (class 11, at the decoder): a property given twice, once with
// its name escaped, is a duplicate, as encoding/json and every other reader see it; so
// is one given twice inside an object sent as a string.
func TestDuplicateKeysEscaped(t *testing.T) {
	tools := VaultTools(NewVault())
	for name, args := range map[string]string{
		"plain":                    payHead + `"amount":1,"amount":1000}`,
		"escaped":                  payHead + `"amount":1,"\u0061mount":1000}`,
		"escaped first":            payHead + `"\u0061\u006d\u006f\u0075\u006e\u0074":1,"amount":1000}`,
		"encoded twice":            jsonString(payHead + `"amount":1,"\u0061mount":1000}`),
		"escaped solidus in a key": payHead + `"amount":1,"\/memo":"x","memo":"y"}`,
	} {
		t.Run(name, func(t *testing.T) {
			res := tools.Call(context.Background(), "pay", []byte(args))
			if !res.IsError {
				t.Errorf("accepted, amount %v", receipt(t, res).Amount)
				return
			}
			t.Logf("%s", res.Text())
		})
	}
	t.Run("nested in a sensitive object", func(t *testing.T) {
		c := newCapture(t, true)
		args := validStore(`{"username":"ada","password":"S3CR3T-login-pw","p\u0061ssword":"S3CR3T-other-pw"}`, validCodes, validHeaders)
		res := c.tools.Call(context.Background(), "put_secret", []byte(args))
		if !res.IsError {
			t.Errorf("accepted")
		}
		assertNoLeak(t, c.surfaces(t, "put_secret", []byte(args), res, false), validSecrets...)
	})
}
