package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"unicode/utf8"

	"github.com/bytedance/sonic"
	gojson "github.com/goccy/go-json"
	gschema "github.com/google/jsonschema-go/jsonschema"
	"github.com/mailru/easyjson"
	v6 "github.com/santhosh-tekuri/jsonschema/v6"
	segjson "github.com/segmentio/encoding/json"

	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// An approach decodes a tool's JSON arguments into its Go argument type.
type approach[T any] struct {
	name string
	// validates reports whether the approach checks every rule of the tool's schema,
	// so that it must accept and reject the same arguments as the others that do.
	validates bool
	decode    func(args []byte) (T, error)
}

// approaches returns the ways the benchmarks decode the arguments of tool into T.
// decode is the generated decoder function of T; validate is the hand-written
// validation of the schema's rules; defaults sets the schema's defaults on a new T
// before encoding/json fills it in.
func approaches[T any](tool string, decode func(*toolimpl.Decoder, *T), validate func(*T) error, defaults func(*T)) []approach[T] {
	t, ok := Tools().Lookup(tool)
	if !ok {
		panic("no tool " + tool)
	}
	return []approach[T]{
		{"generated", true, generated(tool, decode)},
		{"encoding_json", false, encodingJSON[T]},
		{"encoding_json_handwritten", true, handwritten(validate, defaults)},
		{"jsonschema_v6", true, jsonschemaV6(t.InputSchema, defaults)},
		{"mcp_sdk", true, mcpSDK[T](t.InputSchema)},
		{"easyjson", false, easyJSON[T]},
		{"goccy", false, goccy[T]},
		{"sonic", false, sonicDefault[T]},
		{"sonic_std", false, sonicStd[T]},
	}
}

// generated runs the decoder toolgen generated for T, as Toolset.Call does before it
// runs the tool: a pooled Decoder reset for the arguments, the generated function, then
// Finish. (The generated dispatch function does exactly this, and then wraps the decoded
// value in a closure that calls the tool; BenchmarkCall measures that whole path.)
func generated[T any](tool string, decode func(*toolimpl.Decoder, *T)) func([]byte) (T, error) {
	d := toolimpl.NewDecoder(nil, toolimpl.Limits{})
	return func(args []byte) (T, error) {
		var in T
		d.Reset(args, toolimpl.Limits{})
		decode(d, &in)
		if !d.Finish() {
			return in, &invalid.ArgumentError{Tool: tool, Violations: d.Violations()}
		}
		return in, nil
	}
}

// encodingJSON is json.Unmarshal alone: types are checked, no other rule is.
func encodingJSON[T any](args []byte) (T, error) {
	var in T
	err := json.Unmarshal(args, &in)
	return in, err
}

// handwritten is what a careful author writes without a generator: encoding/json with
// unknown properties refused (which json.Unmarshal cannot do, so a json.Decoder), trailing
// data refused, the schema's defaults set first, then a hand-written check of every
// rule of the schema.
func handwritten[T any](validate func(*T) error, defaults func(*T)) func([]byte) (T, error) {
	return func(args []byte) (T, error) {
		var in T
		if defaults != nil {
			defaults(&in)
		}
		dec := json.NewDecoder(bytes.NewReader(args))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return in, err
		}
		if dec.More() {
			return in, errors.New("unexpected data after the arguments")
		}
		return in, validate(&in)
	}
}

// jsonschemaV6 validates the arguments against the tool's canonical input schema (the
// one in toolschema/<tool>.json) with santhosh-tekuri/jsonschema/v6, formats asserted,
// and then decodes them with encoding/json into a value holding the schema's defaults
// (the validator does not apply them).
func jsonschemaV6[T any](schema json.RawMessage, defaults func(*T)) func([]byte) (T, error) {
	doc, err := v6.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		panic(err)
	}
	c := v6.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("tool.json", doc); err != nil {
		panic(err)
	}
	sch := c.MustCompile("tool.json")
	return func(args []byte) (T, error) {
		var in T
		inst, err := v6.UnmarshalJSON(bytes.NewReader(args))
		if err != nil {
			return in, err
		}
		if err := sch.Validate(inst); err != nil {
			return in, err
		}
		if defaults != nil {
			defaults(&in)
		}
		err = json.Unmarshal(args, &in)
		return in, err
	}
}

// mcpSDK reproduces, with the same library calls, what the MCP Go SDK v1.8.0 does with
// a tools/call's arguments before a handler registered with mcp.AddTool gets them.
//
// At registration (mcp/server.go, toolForErr and setSchema): a schema given as
// something other than a *jsonschema.Schema (here the generated json.RawMessage) is
// re-marshaled into one (mcp/util.go, remarshal), then resolved with
// ResolveOptions{ValidateDefaults: true}.
//
// For each call (the handler closure in toolForErr, and applySchema in mcp/tool.go):
// the arguments are unmarshaled into a map[string]any with the SDK's internal/json
// (segmentio/encoding/json, case-sensitive field matching, after a nesting-depth scan),
// the schema's defaults are applied to the map (Resolved.ApplyDefaults), the map is
// validated (Resolved.Validate), marshaled again with encoding/json, and the result is
// unmarshaled into the handler's In type with internal/json again.
func mcpSDK[T any](schema json.RawMessage) func([]byte) (T, error) {
	var s *gschema.Schema
	if err := sdkUnmarshal(schema, &s); err != nil {
		panic(err)
	}
	resolved, err := s.Resolve(&gschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(err)
	}
	return func(args []byte) (T, error) {
		var in T
		// applySchema(input, inputResolved, false)
		v := make(map[string]any)
		if len(args) > 0 {
			if err := sdkUnmarshal(args, &v); err != nil {
				return in, fmt.Errorf("unmarshaling arguments: %w", err)
			}
		}
		var unmarshaled any = v
		if err := resolved.ApplyDefaults(&unmarshaled); err != nil {
			return in, fmt.Errorf("applying schema defaults:\n%w", err)
		}
		if err := resolved.Validate(&unmarshaled); err != nil {
			return in, err
		}
		input, err := json.Marshal(unmarshaled)
		if err != nil {
			return in, fmt.Errorf("marshalling with defaults: %v", err)
		}
		// The handler: internaljson.Unmarshal(input, &in).
		err = sdkUnmarshal(input, &in)
		return in, err
	}
}

// sdkUnmarshal is the SDK's internal/json.Unmarshal (go-sdk v1.8.0,
// internal/json/json.go): a nesting-depth check, then segmentio/encoding/json with
// case-sensitive field matching.
func sdkUnmarshal(data []byte, v any) error {
	if err := checkMaxDepth(data, 1000); err != nil {
		return err
	}
	dec := segjson.NewDecoder(bytes.NewReader(data))
	dec.DontMatchCaseInsensitiveStructFields()
	return dec.Decode(v)
}

// checkMaxDepth is the SDK's (internal/json/json.go), copied as it is: it scans the
// whole text once before it is decoded.
func checkMaxDepth(data []byte, maxDepth int) error {
	var (
		depth    int
		inString bool
		escaped  bool
	)
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > maxDepth {
				return fmt.Errorf("json: exceeded maximum nesting depth of %d", maxDepth)
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}

// easyJSON runs the decoder the easyjson tool generated (tools_easyjson.go); it checks
// types only.
func easyJSON[T any](args []byte) (T, error) {
	var in T
	err := easyjson.Unmarshal(args, any(&in).(easyjson.Unmarshaler))
	return in, err
}

// goccy is goccy/go-json's drop-in Unmarshal; it checks types only.
func goccy[T any](args []byte) (T, error) {
	var in T
	err := gojson.Unmarshal(args, &in)
	return in, err
}

// sonicDefault is bytedance/sonic's Unmarshal (its default configuration, JIT
// compiled on amd64): types only, and the strings of the value it decodes point into
// the arguments' bytes instead of being copied, as every other approach here copies
// them.
func sonicDefault[T any](args []byte) (T, error) {
	var in T
	err := sonic.Unmarshal(args, &in)
	return in, err
}

// sonicStd is sonic's encoding/json-compatible configuration (sonic.ConfigStd): types
// only, strings copied and their UTF-8 checked, as encoding/json does.
func sonicStd[T any](args []byte) (T, error) {
	var in T
	err := sonic.ConfigStd.Unmarshal(args, &in)
	return in, err
}

// The hand-written validation of the three tools' schemas.

func weatherDefaults(q *WeatherQuery) { q.Days, q.Unit = 1, Celsius }

func validateWeather(q *WeatherQuery) error {
	var errs []error
	if n := utf8.RuneCountInString(q.City); n < 1 || n > 80 {
		errs = append(errs, errors.New("city: must be from 1 to 80 characters long"))
	}
	if q.Days < 1 || q.Days > 14 {
		errs = append(errs, errors.New("days: must be from 1 to 14"))
	}
	switch q.Unit {
	case Celsius, Fahrenheit:
	default:
		errs = append(errs, errors.New(`unit: must be "celsius" or "fahrenheit"`))
	}
	return errors.Join(errs...)
}

var currencyPattern = regexp.MustCompile(`^[A-Z]{3}$`)

func validateTransactions(q *TransactionsQuery) error {
	var errs []error
	if n := utf8.RuneCountInString(q.AccountID); n < 1 || n > 64 {
		errs = append(errs, errors.New("accountId: must be from 1 to 64 characters long"))
	}
	// encoding/json checked the date-times' syntax (time.Time.UnmarshalJSON); a zero
	// time means the property was missing.
	if q.From.IsZero() {
		errs = append(errs, errors.New("from: missing"))
	}
	if q.To.IsZero() {
		errs = append(errs, errors.New("to: missing"))
	}
	if q.Amount.Min < 0 || q.Amount.Min > 100000000 {
		errs = append(errs, errors.New("amount/min: out of range"))
	}
	if q.Amount.Max < 0 || q.Amount.Max > 100000000 {
		errs = append(errs, errors.New("amount/max: out of range"))
	}
	if !currencyPattern.MatchString(q.Amount.Currency) {
		errs = append(errs, errors.New("amount/currency: must match ^[A-Z]{3}$ (missing?)"))
	}
	if q.Categories == nil {
		errs = append(errs, errors.New("categories: missing"))
	} else if len(q.Categories) < 1 || len(q.Categories) > 7 {
		errs = append(errs, errors.New("categories: must have from 1 to 7 items"))
	}
	for i, c := range q.Categories {
		switch c {
		case Groceries, Dining, Travel, Utilities, Entertainment, Health, Other:
		default:
			errs = append(errs, fmt.Errorf("categories/%d: not a category", i))
		}
	}
	if q.Merchant != nil {
		if n := utf8.RuneCountInString(*q.Merchant); n < 1 || n > 100 {
			errs = append(errs, errors.New("merchant: must be from 1 to 100 characters long"))
		}
	}
	if q.Limit != nil && (*q.Limit < 1 || *q.Limit > 500) {
		errs = append(errs, errors.New("limit: must be from 1 to 500"))
	}
	return errors.Join(errs...)
}

var skuPattern = regexp.MustCompile(`^[A-Z]{3}-[0-9]{4}$`)

func validateBatch(b *BatchRequest) error {
	var errs []error
	if b.Items == nil {
		errs = append(errs, errors.New("items: missing"))
	} else if len(b.Items) < 1 || len(b.Items) > 100 {
		errs = append(errs, errors.New("items: must have from 1 to 100 items"))
	}
	for i, it := range b.Items {
		if !skuPattern.MatchString(it.SKU) {
			errs = append(errs, fmt.Errorf("items/%d/sku: must match ^[A-Z]{3}-[0-9]{4}$ (missing?)", i))
		}
		if it.Quantity < 1 || it.Quantity > 10000 {
			errs = append(errs, fmt.Errorf("items/%d/quantity: must be from 1 to 10000 (missing?)", i))
		}
		if it.PriceCents < 1 || it.PriceCents > 100000000 {
			errs = append(errs, fmt.Errorf("items/%d/priceCents: must be from 1 to 100000000 (missing?)", i))
		}
	}
	return errors.Join(errs...)
}

// The arguments: the benchmarks decode the first valid one of each payload; the corpus
// test checks that every validating approach accepts all valid ones and rejects all
// invalid ones.

var weatherValid = []string{
	`{"city":"San Francisco","days":7,"unit":"fahrenheit"}`,
	`{"city":"Paris"}`,
	`{"unit":"celsius","city":"Tōkyō","days":14}`,
	` {"city":"Oslo","days":1} `,
	`{"city":"Zürich \u00e9\"","days":3}`,
}

var weatherInvalid = []string{
	`{"days":3}`,
	`{"city":""}`,
	`{"city":"Paris","days":0}`,
	`{"city":"Paris","days":15}`,
	`{"city":"Paris","days":2.5}`,
	`{"city":"Paris","days":"3"}`,
	`{"city":"Paris","unit":"kelvin"}`,
	`{"city":42}`,
	`{"city":"Paris","country":"FR"}`,
	`{"city":"` + repeat("x", 81) + `"}`,
	`[]`,
	`"Paris"`,
	`{"city":"Paris",}`,
	`{"city":"Paris"`,
}

var transactionsValid = []string{
	`{"accountId":"acc_7f3a9c21e","from":"2026-01-01T00:00:00Z","to":"2026-03-31T23:59:59+02:00","amount":{"min":1000,"max":250000,"currency":"EUR"},"categories":["groceries","dining","travel"],"merchant":"Whole Foods Market","limit":50}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00.5Z","amount":{"currency":"USD"},"categories":["other"]}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"USD","min":0},"categories":["health","utilities","entertainment"],"merchant":null,"limit":null}`,
}

var transactionsInvalid = []string{
	`{"accountId":"a","to":"2026-01-02T00:00:00Z","amount":{"currency":"USD"},"categories":["other"]}`,
	`{"accountId":"","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"USD"},"categories":["other"]}`,
	`{"accountId":"a","from":"2026-13-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"USD"},"categories":["other"]}`,
	`{"accountId":"a","from":"yesterday","to":"2026-01-02T00:00:00Z","amount":{"currency":"USD"},"categories":["other"]}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","categories":["other"]}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"eur"},"categories":["other"]}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"EUR","min":-1},"categories":["other"]}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"EUR","avg":3},"categories":["other"]}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"EUR"},"categories":[]}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"EUR"},"categories":["food"]}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"EUR"},"categories":["other","other","other","other","other","other","other","other"]}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"EUR"},"categories":["other"],"merchant":""}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"EUR"},"categories":["other"],"limit":0}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"EUR"},"categories":["other"],"limit":501}`,
	`{"accountId":"a","from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","amount":{"currency":"EUR"},"categories":["other"],"page":2}`,
}

var batchValid = []string{
	batchArgs(100, nil),
	batchArgs(1, nil),
	batchArgs(37, nil),
}

var batchInvalid = []string{
	`{"items":[]}`,
	`{}`,
	batchArgs(101, nil),
	batchArgs(50, map[int]string{7: `{"sku":"abc-1234","quantity":1,"priceCents":100}`}),
	batchArgs(50, map[int]string{49: `{"sku":"ABC-1234","quantity":0,"priceCents":100}`}),
	batchArgs(50, map[int]string{0: `{"sku":"ABC-1234","quantity":10001,"priceCents":100}`}),
	batchArgs(50, map[int]string{20: `{"sku":"ABC-1234","quantity":3}`}),
	batchArgs(50, map[int]string{20: `{"sku":"ABC-1234","quantity":"3","priceCents":100}`}),
	batchArgs(50, map[int]string{30: `{"sku":"ABC-1234","quantity":3,"priceCents":100,"note":"x"}`}),
	batchArgs(50, map[int]string{40: `{"quantity":3,"priceCents":100}`}),
}

// batchArgs returns the arguments of add_stock with n items, some replaced.
func batchArgs(n int, replace map[int]string) string {
	var b bytes.Buffer
	b.WriteString(`{"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if r, ok := replace[i]; ok {
			b.WriteString(r)
			continue
		}
		fmt.Fprintf(&b, `{"sku":"%c%c%c-%04d","quantity":%d,"priceCents":%d}`,
			'A'+i%26, 'A'+i*7%26, 'A'+i*11%26, (i*7919)%10000, 1+i*37%250, 99+i*1237%250000)
	}
	b.WriteString(`]}`)
	return b.String()
}

func repeat(s string, n int) string { return string(bytes.Repeat([]byte(s), n)) }

// payloads are the argument sets the benchmarks decode: the three of this package's
// tools, then the three of bench/shapes (shapes_test.go).
var payloads = []payloadRunner{
	payload[WeatherQuery]{
		name:       "weather",
		tool:       "get_weather",
		schemaFile: "toolschema/get_weather.json",
		valid:      weatherValid,
		invalid:    weatherInvalid,
		approaches: approaches("get_weather", toolgenDecodeWeatherQuery, validateWeather, weatherDefaults),
	},
	payload[TransactionsQuery]{
		name:       "transactions",
		tool:       "list_transactions",
		schemaFile: "toolschema/list_transactions.json",
		valid:      transactionsValid,
		invalid:    transactionsInvalid,
		approaches: approaches("list_transactions", toolgenDecodeTransactionsQuery, validateTransactions, nil),
	},
	payload[BatchRequest]{
		name:       "batch",
		tool:       "add_stock",
		schemaFile: "toolschema/add_stock.json",
		valid:      batchValid,
		invalid:    batchInvalid,
		approaches: approaches("add_stock", toolgenDecodeBatchRequest, validateBatch, nil),
	},
	alarmPayload,
	logsPayload,
	contactsPayload,
}
