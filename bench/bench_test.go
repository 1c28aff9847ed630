package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/bench/thousand"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/toolmcp"
)

// payloadRunner is a payload of any argument type.
type payloadRunner interface {
	benchDecode(b *testing.B)
	checkCorpus(t *testing.T)
	id() (name, tool string, args []byte)
	// toolset is the Toolset that holds the tool, for BenchmarkCall.
	toolset() *runtime.Toolset
	// bareDecode is the generated approach, for BenchmarkCall.
	bareDecode() func([]byte) error
}

// payload is one tool's arguments and the approaches that decode them into T.
type payload[T any] struct {
	name, tool     string
	valid, invalid []string
	approaches     []approach[T]
	// tools returns the Toolset of the tool's package: Tools when nil.
	tools func() *runtime.Toolset
	// schemaFile is the tool's canonical contract, toolschema/<tool>.json, whose
	// inputSchema is the corpus's oracle (see TestCorpus).
	schemaFile string
}

func (p payload[T]) toolset() *runtime.Toolset {
	if p.tools == nil {
		return Tools()
	}
	return p.tools()
}

func (p payload[T]) id() (string, string, []byte) { return p.name, p.tool, []byte(p.valid[0]) }

func (p payload[T]) bareDecode() func([]byte) error {
	decode := p.approaches[0].decode
	return func(args []byte) error { _, err := decode(args); return err }
}

// BenchmarkDecode decodes each payload's arguments with each approach. Only the
// generated, floor, encoding_json_handwritten, jsonschema_v6 and mcp_sdk approaches
// check the schema's rules; the others check types only. The payloads alarm, logs and
// contacts (the tools of bench/shapes) have the floor, their hand-written single-pass
// decoders; weather, transactions and batch have encoding_json_handwritten and mcp_sdk.
//
//	go test -run '^$' -bench BenchmarkDecode -benchmem .   # in bench
func BenchmarkDecode(b *testing.B) {
	for _, p := range payloads {
		name, _, _ := p.id()
		b.Run("payload="+name, p.benchDecode)
	}
}

func (p payload[T]) benchDecode(b *testing.B) {
	args := []byte(p.valid[0])
	for _, a := range p.approaches {
		b.Run("approach="+a.name, func(b *testing.B) {
			if _, err := a.decode(args); err != nil {
				b.Fatalf("%s rejects the benchmark's arguments: %v", a.name, err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := a.decode(args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCall compares Toolset.Call, end to end, on the no-op tools with the bare
// generated decode of the same arguments (path=decode: BenchmarkDecode's generated
// approach): path=call on a goroutine of its own, call_inline with WithInlineCalls, and,
// with a runtime that has it, call_inline_readonly with WithReadOnlyResults too (the
// "ok" result shared; looked up as a method, so that run.sh builds this file against a
// runtime from before it too).
//
//	go test -run '^$' -bench BenchmarkCall -benchmem .   # in bench
func BenchmarkCall(b *testing.B) {
	ctx := context.Background()
	for _, p := range payloads {
		name, tool, args := p.id()
		ts := p.toolset()
		b.Run("payload="+name, func(b *testing.B) {
			b.Run("path=decode", func(b *testing.B) {
				decode := p.bareDecode()
				b.ReportAllocs()
				cpu := processCPU()
				for b.Loop() {
					if err := decode(args); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu)
			})
			paths := []struct {
				name string
				ts   *runtime.Toolset
			}{{"call", ts}, {"call_inline", ts.WithInlineCalls(true)}}
			if ro, ok := any(ts).(readOnlyResults); ok {
				paths = append(paths, struct {
					name string
					ts   *runtime.Toolset
				}{"call_inline_readonly", ro.WithReadOnlyResults(true).WithInlineCalls(true)})
			}
			for _, path := range paths {
				b.Run("path="+path.name, func(b *testing.B) {
					if r := path.ts.Call(ctx, tool, args); r.IsError {
						b.Fatal(r.Text())
					}
					b.ReportAllocs()
					cpu := processCPU()
					for b.Loop() {
						if r := path.ts.Call(ctx, tool, args); r.IsError {
							b.Fatal(r.Text())
						}
					}
					reportCPU(b, cpu)
				})
			}
		})
	}
}

// readOnlyResults is the runtime.Toolset method BenchmarkCall's call_inline_readonly
// path needs.
type readOnlyResults interface {
	WithReadOnlyResults(on bool) *runtime.Toolset
}

// BenchmarkToolset1000 measures getting 1,000 tools ready: the Toolset of the generated
// 1,000-tool package bench/thousand (approach=toolgen); that Toolset served over MCP by
// toolmcp.Register on a new server (approach=toolmcp); and 1,000 tools registered on a
// new server with the SDK's typed mcp.AddTool, which infers and resolves each tool's
// input and output schemas by reflection (approach=mcp_addtool; the In types cycle
// through the three argument types of this package). toolmcp's BenchmarkRegister1000
// compares the two MCP registrations with one shared argument type.
//
//	go generate ./thousand && go test -run '^$' -bench BenchmarkToolset1000 -benchmem .   # in bench
//
// bench/thousand is generated on demand (see thousandTools); without it, the toolgen
// and toolmcp approaches skip.
func BenchmarkToolset1000(b *testing.B) {
	b.Run("approach=toolgen", func(b *testing.B) {
		tools := thousandTools(b)
		if n := tools().Len(); n != 1000 {
			b.Fatalf("%d tools", n)
		}
		b.ReportAllocs()
		for b.Loop() {
			tools()
		}
	})
	b.Run("approach=toolmcp", func(b *testing.B) {
		tools := thousandTools(b)
		b.ReportAllocs()
		for b.Loop() {
			toolmcp.Register(newServer(), tools())
		}
	})
	b.Run("approach=mcp_addtool", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			addTools1000(newServer())
		}
	})
}

// BenchmarkSearch1000 measures Toolset.Search on the 1,000 tools of bench/thousand,
// whose descriptions share their words ("Looks a key up in table N."): a query of those
// words scores every tool, the worst case of a catalog of this size; one with a table's
// number few. index= is the first search of a new Toolset: its index built, then the
// query; first_search reads every tool, view gathers the words an earlier search of the
// Toolset it was made from read.
//
//	go generate ./thousand && go test -run '^$' -bench BenchmarkSearch1000 -benchmem .   # in bench
func BenchmarkSearch1000(b *testing.B) {
	tools := thousandTools(b)
	for _, q := range []struct{ name, query string }{
		{"query=every_tool", "look a key up in a table"},
		{"query=one_tool", "which table is number 512"},
	} {
		b.Run(q.name, func(b *testing.B) {
			ts := tools()
			if got := ts.Search(q.query, 5); len(got) == 0 {
				b.Fatalf("Search(%q) found nothing", q.query)
			}
			b.ReportAllocs()
			for b.Loop() {
				ts.Search(q.query, 5)
			}
		})
	}
	b.Run("index=first_search", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tools().Search("look a key up in a table", 5)
		}
	})
	b.Run("index=view", func(b *testing.B) {
		ts := tools()
		ts.Search("warm up", 1)
		b.ReportAllocs()
		for b.Loop() {
			runtime.Join(ts).Search("look a key up in a table", 5) // a view of the same tools
		}
	})
}

func newServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v0.0.1"}, nil)
}

var toolNames1000 = func() []string {
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("tool_%04d", i)
	}
	return names
}()

// addTools1000 registers 1,000 tools with mcp.AddTool.
func addTools1000(s *mcp.Server) {
	for i, name := range toolNames1000 {
		t := &mcp.Tool{Name: name, Description: "A tool of the benchmark.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}
		switch i % 3 {
		case 0:
			mcp.AddTool(s, t, func(ctx context.Context, _ *mcp.CallToolRequest, in WeatherQuery) (*mcp.CallToolResult, WeatherQuery, error) {
				return nil, in, nil
			})
		case 1:
			mcp.AddTool(s, t, func(ctx context.Context, _ *mcp.CallToolRequest, in TransactionsQuery) (*mcp.CallToolResult, TransactionsQuery, error) {
				return nil, in, nil
			})
		default:
			mcp.AddTool(s, t, func(ctx context.Context, _ *mcp.CallToolRequest, in BatchRequest) (*mcp.CallToolResult, BatchRequest, error) {
				return nil, in, nil
			})
		}
	}
}

// TestCorpus checks that the comparison is fair: a JSON Schema validator
// (santhosh-tekuri/jsonschema/v6, formats asserted) over the tool's canonical input
// schema, read from its toolschema/<tool>.json, accepts every valid argument set and
// rejects every invalid one; every approach that validates does the same; every
// approach, validating or not, accepts the valid ones; and every approach that
// validates decodes them to the same Go value.
func TestCorpus(t *testing.T) {
	for _, p := range payloads {
		name, _, _ := p.id()
		t.Run(name, p.checkCorpus)
	}
}

var sameInstant = cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })

func (p payload[T]) checkCorpus(t *testing.T) {
	oracle := schemaOracle(t, p.schemaFile)
	for i, args := range p.valid {
		if err := oracle(args); err != nil {
			t.Errorf("valid[%d] %.80s: the schema refuses it: %v", i, args, err)
		}
	}
	for i, args := range p.invalid {
		if oracle(args) == nil {
			t.Errorf("invalid[%d] %.80s: the schema accepts it", i, args)
		}
	}
	for i, args := range p.valid {
		want, err := p.approaches[0].decode([]byte(args))
		if err != nil {
			t.Errorf("valid[%d]: %s rejects it: %v", i, p.approaches[0].name, err)
			continue
		}
		for _, a := range p.approaches[1:] {
			got, err := a.decode([]byte(args))
			if err != nil {
				t.Errorf("valid[%d]: %s rejects it: %v", i, a.name, err)
				continue
			}
			if !a.validates {
				// Without validation, the schema's defaults are not applied.
				continue
			}
			if diff := cmp.Diff(want, got, sameInstant); diff != "" {
				t.Errorf("valid[%d]: %s decodes it otherwise than %s (-%[3]s +%[2]s):\n%[4]s", i, a.name, p.approaches[0].name, diff)
			}
		}
	}
	for i, args := range p.invalid {
		for _, a := range p.approaches {
			if !a.validates {
				continue
			}
			if _, err := a.decode([]byte(args)); err == nil {
				t.Errorf("invalid[%d] %.80s: %s accepts it", i, args, a.name)
			}
		}
	}
}

// TestTypeOnlyApproaches checks that the approaches that do not validate decode the
// benchmark's arguments as encoding/json does.
func TestTypeOnlyApproaches(t *testing.T) {
	for _, p := range payloads {
		name, _, _ := p.id()
		t.Run(name, func(t *testing.T) { p.(interface{ checkTypeOnly(*testing.T) }).checkTypeOnly(t) })
	}
}

func (p payload[T]) checkTypeOnly(t *testing.T) {
	var base approach[T]
	for _, a := range p.approaches {
		if a.name == "encoding_json" {
			base = a
		}
	}
	for i, args := range p.valid {
		want, err := base.decode([]byte(args))
		if err != nil {
			t.Fatalf("valid[%d]: encoding_json: %v", i, err)
		}
		for _, a := range p.approaches {
			if a.validates {
				continue
			}
			got, err := a.decode([]byte(args))
			if err != nil {
				t.Errorf("valid[%d]: %s: %v", i, a.name, err)
				continue
			}
			if diff := cmp.Diff(want, got, sameInstant); diff != "" {
				t.Errorf("valid[%d]: %s decodes it otherwise than encoding_json:\n%s", i, a.name, diff)
			}
		}
	}
}

// TestToolsetCall checks that the tools BenchmarkCall calls run, and that a call with
// invalid arguments reports them.
func TestToolsetCall(t *testing.T) {
	for _, p := range payloads {
		_, tool, args := p.id()
		if r := p.toolset().Call(context.Background(), tool, args); r.IsError {
			t.Errorf("%s: %s", tool, r.Text())
		}
	}
	r := Tools().Call(context.Background(), "get_weather", []byte(`{"city":"Paris","days":30,"unit":"kelvin"}`))
	if !r.IsError || r.Outcome != runtime.OutcomeInvalidArguments {
		t.Errorf("get_weather with bad arguments: %s", r.Text())
	}
}

// thousandTools returns the generated Tools function of bench/thousand, whose 1,000
// tools are not committed but generated on demand, by `go generate ./thousand` in this
// module (bench/run.sh and .ci/run run it first). It skips tb when they are not there.
func thousandTools(tb testing.TB) func() *runtime.Toolset {
	tb.Helper()
	if thousand.Generated == nil {
		tb.Skip("bench/thousand is not generated: run `go generate ./thousand` in bench first (bench/run.sh and .ci/run do)")
	}
	return thousand.Generated
}

// TestRegistrations checks that the registrations BenchmarkToolset1000 compares work.
func TestRegistrations(t *testing.T) {
	addTools1000(newServer())
	ts := thousandTools(t)()
	if ts.Len() != 1000 {
		t.Fatalf("thousand.Tools() has %d tools", ts.Len())
	}
	if r := ts.Call(context.Background(), "lookup_0999", []byte(`{"key":"k"}`)); r.IsError {
		t.Errorf("lookup_0999: %s", r.Text())
	}
	toolmcp.Register(newServer(), ts)
}

// TestKnownDifferences pins where the validating approaches part ways, on arguments
// the corpus leaves out because of it (docs/PERFORMANCE.md lists them): for each, the
// approaches that accept it.
func TestKnownDifferences(t *testing.T) {
	p := payloads[0].(payload[WeatherQuery])
	for _, c := range []struct {
		args   string
		accept []string
	}{
		// A whole number written with a fraction or an exponent: an integer, as JSON
		// Schema says, to toolgen; the SDK's map keeps it as a float64 that the schema's
		// "integer" accepts and re-encodes as 7.
		{`{"city":"Paris","days":7.0}`, []string{"generated", "mcp_sdk"}},
		{`{"city":"Paris","days":1e1}`, []string{"generated", "mcp_sdk"}},
		// null for an optional property means absent to toolgen (OpenAI's strict mode
		// sends it) and to encoding/json; the schema's "integer" refuses it.
		{`{"city":"Paris","days":null}`, []string{"generated", "encoding_json_handwritten"}},
		// A duplicate key: the last one wins everywhere but in toolgen, which refuses it.
		{`{"city":"Paris","city":"Oslo"}`, []string{"encoding_json_handwritten", "jsonschema_v6", "mcp_sdk"}},
		// Arguments double-encoded as a JSON string: only toolgen decodes them.
		{`"{\"city\":\"Paris\"}"`, []string{"generated"}},
	} {
		var got []string
		for _, a := range p.approaches {
			if _, err := a.decode([]byte(c.args)); a.validates && err == nil {
				got = append(got, a.name)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.accept) {
			t.Errorf("%s: accepted by %v, want %v", c.args, got, c.accept)
		}
	}
}
