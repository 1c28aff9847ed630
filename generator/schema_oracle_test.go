package generator

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileSchema compiles a generated schema with an independent JSON Schema 2020-12
// implementation, asserting formats and content encodings.
func compileSchema(t *testing.T, name string, data []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.AssertContent()
	url := "https://toolgen.test/" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s does not compile: %v\n%s", name, err, data)
	}
	return sch
}

// TestSchemaOracleCompiles compiles every input and output schema of every case.
func TestSchemaOracleCompiles(t *testing.T) {
	for _, tc := range schemaCases() {
		pkg := tc.pkg()
		set, err := buildSchemas(pkg)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range pkg.Tools {
			compileSchema(t, tool.Name+".input", set.inputJSON(tool.Name))
			if out := set.outputJSON(tool.Name); out != nil {
				compileSchema(t, tool.Name+".output", out)
			}
		}
	}
}

// oracleCase is an instance and whether a schema must accept it.
type oracleCase struct {
	instance string
	valid    bool
}

// oracleCheck is a schema of a golden case and instances to validate against it.
type oracleCheck struct {
	pkg    string
	tool   string
	output bool
	cases  []oracleCase
}

// oracleChecks returns hand-written instances for the golden cases' schemas.
func oracleChecks() []oracleCheck {
	return []oracleCheck{
		{"unions", "pay", false, []oracleCase{
			{`{"method":{"type":"card","number":"123456789012"},"amount":1}`, true},
			{`{"method":{"number":"123456789012","type":"card","holder":"A"},"amount":1}`, true},
			{`{"method":{"type":"bank_transfer","iban":"FR76"},"amount":2,"backups":[{"type":"card","number":"123456789012"}]}`, true},
			{`{"method":{"type":"split","first":{"type":"bank_transfer","iban":"DE12"},"second":{"type":"card","number":"123456789012"}},"amount":3}`, true},
			{`{"method":{"type":"card","number":"123456789012"},"amount":1,"spare":{"type":"bank_transfer","iban":"FR76"},"byName":{"x":{"type":"card","number":"123456789012"}}}`, true},
			{`{"method":{"number":"123456789012"},"amount":1}`, false},                        // no tag
			{`{"method":{"type":"cash"},"amount":1}`, false},                                  // unknown tag
			{`{"method":{"type":3,"number":"123456789012"},"amount":1}`, false},               // tag not a string
			{`{"method":{"type":"card","iban":"FR76"},"amount":1}`, false},                    // another variant's property
			{`{"method":{"type":"bank_transfer","number":"123456789012"},"amount":1}`, false}, // the same, the other way
			{`{"method":{"type":"card","number":"1"},"amount":1}`, false},                     // the variant's own rule
			{`{"method":{"type":"split","first":{"type":"card"},"second":{"type":"card","number":"123456789012"}},"amount":1}`, false},
			{`{"method":null,"amount":1}`, false},
			{`{"method":"card","amount":1}`, false},
			{`{"method":{"type":"card","number":"123456789012"},"amount":1,"byName":{"x":{}}}`, false},
		}},
		{"unions", "refund", false, []oracleCase{
			{`{"to":{"kind":"card","number":"123456789012"}}`, true},
			{`{"to":{"iban":"FR76","kind":"bank"},"also":[{"number":"123456789012","holder":"A","kind":"card"}]}`, true},
			{`{"to":{"kind":"card","number":"123456789012","type":"card"}}`, false},
			{`{"to":{"number":"123456789012"}}`, false},
			{`{"to":{"kind":"bank","iban":"FR76","holder":"A"}}`, false},
			{`{"to":{"kind":"card"}}`, false},
			{`{"to":{"kind":"card","number":"123456789012"},"maybe":{"kind":"bank","iban":"FR76"}}`, true},
			{`{"to":{"kind":"card","number":"123456789012"},"maybe":{"kind":"bank"}}`, false},
		}},
		{"unions", "pay", true, []oracleCase{
			{`{"result":{"type":"card","number":"123456789012"}}`, true},
			{`{"result":{"type":"card","number":"1"}}`, false},                     // output schemas promise the bounds
			{`{"result":{"type":"bank_transfer","iban":"FR76","extra":1}}`, false}, // and closed objects
			{`{"result":null}`, true},                                              // a nil interface
			{`{"result":{"number":"1"}}`, false},
			{`{"result":{"type":"cash"}}`, false},
		}},
		{"weather", "get_weather", false, []oracleCase{
			{`{"city":"Paris"}`, true},
			{`{"city":"Paris","unit":"fahrenheit","days":14}`, true},
			{`{}`, false},                               // missing required
			{`{"unit":"celsius"}`, false},               // missing required
			{`{"city":"Paris","country":"FR"}`, false},  // unknown property
			{`{"city":"Paris","unit":"kelvin"}`, false}, // enum miss
			{`{"city":""}`, false},                      // minLength
			{`{"city":"Paris","days":0}`, false},        // minimum
			{`{"city":"Paris","days":15}`, false},       // maximum
			{`{"city":"Paris","days":1.5}`, false},      // integer
			{`{"city":"Paris","unit":null}`, false},     // not a pointer
			{`{"city":"Paris","days":"3"}`, false},      // type
			{`{"city":["Paris"]}`, false},               // type
		}},
		{"weather", "get_weather", true, []oracleCase{
			{`{"city":"Paris","unit":"celsius","days":[{"date":"2026-01-02T00:00:00Z","high":3,"low":-1.5}]}`, true},
			{`{"city":"Paris","unit":"fahrenheit","days":null}`, true},
			{`{"city":"Paris","unit":"kelvin","days":null}`, false},          // the output promises its enums
			{`{"city":"Paris","unit":"celsius","days":[],"extra":1}`, false}, // and writes no other property
			{`{"city":"Paris","unit":"celsius"}`, false},
			{`{"city":"Paris","unit":"celsius","days":[{"date":"today","high":3,"low":1}]}`, false},
		}},
		{"weather", "list_cities", false, []oracleCase{
			{`{}`, true},
			{`{"x":1}`, false},
		}},
		{"weather", "list_cities", true, []oracleCase{
			{`{"result":["Paris"]}`, true},
			{`{"result":[]}`, true},
			{`{"result":null}`, false}, // the runtime sends []
			{`["Paris"]`, false},
			{`{}`, false},
		}},
		{"params", "greet", false, []oracleCase{
			{`{"name":"Ann"}`, true},
			{`{"name":"Ann","times":5,"shout":null}`, true},
			{`{"name":"Ann","shout":true}`, true},
			{`{"name":"Ann","times":6}`, false},
			{`{"name":"Ann","times":-128}`, true},
			{`{"name":"Ann","times":-129}`, false}, // out of int8's range
			{`{"name":"Ann","shout":"yes"}`, false},
			{`{"times":1}`, false},
		}},
		{"shared", "place_order", false, []oracleCase{
			{`{"billing":{"street":"1 Main St","city":"Springfield","country":"US"},"priority":2}`, true},
			{`{"billing":{"street":"s","city":"c","country":"US"},"shipping":null,"priority":3,"fallback":null,"only":1}`, true},
			{`{"billing":{"street":"s","city":"c","country":"US"},"shipping":{"street":"s","city":"c","country":"FR"},"priority":1,"fallback":2}`, true},
			{`{"billing":{"street":"s","city":"c","country":"USA"},"priority":2}`, false},                 // pattern
			{`{"billing":{"street":"s","city":"c"},"priority":2}`, false},                                 // nested required
			{`{"billing":{"street":"s","city":"c","country":"US","zip":"1"},"priority":2}`, false},        // nested unknown
			{`{"billing":{"street":"s","city":"c","country":"US"},"priority":4}`, false},                  // enum miss
			{`{"billing":{"street":"s","city":"c","country":"US"},"priority":2,"only":3}`, false},         // narrowed enum
			{`{"billing":{"street":"s","city":"c","country":"US"},"priority":2,"fallback":"low"}`, false}, // enum type
			{`{"billing":{"street":"s","city":"c","country":"US"},"priority":2,"tree":{"name":"a","children":[{"name":"b","parent":null}]}}`, true},
			{`{"billing":{"street":"s","city":"c","country":"US"},"priority":2,"tree":{"name":"a","children":[{"nom":"b"}]}}`, false},
		}},
		{"shared", "place_order", true, []oracleCase{
			{`{"billing":{"street":"s","city":"c","country":"US"},"shipping":null,"priority":3,"fallback":null,"only":1}`, true},
			{`{"billing":{"street":"s","city":"c","country":"USA"},"shipping":null,"priority":3,"fallback":null,"only":1}`, false},          // the output promises its patterns,
			{`{"billing":{"street":"s","city":"c","country":"US"},"shipping":null,"priority":4,"fallback":null,"only":1}`, false},           // its enums,
			{`{"billing":{"street":"s","city":"c","country":"US"},"shipping":null,"priority":3,"fallback":null,"only":3}`, false},           // narrowed ones too,
			{`{"billing":{"street":"s","city":"c","country":"US","zip":"1"},"shipping":null,"priority":3,"fallback":null,"only":1}`, false}, // and closed objects
		}},
		{"shared", "save_tree", false, []oracleCase{
			{`{"root":{"name":"a"}}`, true},
			{`{"root":{"name":"a","children":[{"name":"b","children":[{"name":"c"}]}]}}`, true},
			{`{"root":{"name":"a","children":[{"name":"b","children":[{}]}]}}`, false},
			{`{"root":{"name":"a","parent":{"name":"p","x":1}}}`, false},
		}},
		{"shared", "save_tree", true, []oracleCase{
			{`{"name":"a","children":null,"parent":null}`, true},
			{`{"name":"a","children":[{"name":"b","children":null}]}`, true},
			{`{"children":[]}`, false},
		}},
		{"kinds", "configure", false, []oracleCase{
			{`{"small":1}`, true},
			{`{"small":-128}`, true},
			{`{"small":-129}`, false}, // int8, a looser explicit minimum does not widen it
			{`{"small":101}`, false},  // tighter explicit maximum
			{`{"small":1,"name":null,"level":null,"retry_after":null}`, true},
			{`{"small":1,"name":"` + strings.Repeat("x", 65) + `"}`, false},
			{`{"small":1,"level":"info"}`, true},
			{`{"small":1,"level":"trace"}`, false},
			{`{"small":1,"levels":{"debug":"x","info":"y"}}`, true},
			{`{"small":1,"levels":{"trace":"x"}}`, false},
			{`{"small":1,"counts":{}}`, false}, // minItems on a map
			{`{"small":1,"counts":{"a":-1}}`, false},
			{`{"small":1,"counts":{"a":0}}`, true},
			{`{"small":1,"point":[1,2]}`, false},
			{`{"small":1,"point":[1,2,3]}`, true},
			{`{"small":1,"payload":"aGVsbG8="}`, true},
			{`{"small":1,"payload":"!!!"}`, false},
			{`{"small":1,"timeout":"1h30m","retry_after":".5s","intervals":["1s","2m"],"grace":"0"}`, true},
			{`{"small":1,"timeout":"90"}`, false},
			{`{"small":1,"intervals":["1s","1s","1s","1s","1s"]}`, false},
			{`{"small":1,"grace":"1d"}`, false},
			{`{"small":1,"at":"2026-01-02T03:04:05Z"}`, true},
			{`{"small":1,"at":"yesterday"}`, false},
			{`{"small":1,"extra":{"a":[1,null]},"raw":null,"color":"#fff"}`, true},
			{`{"small":1,"tags":["a","b"]}`, true},
			{`{"small":1,"tags":["a","a"]}`, false},
			{`{"small":1,"tags":["A"]}`, false},
			{`{"small":1,"tags":["a","b","c","d","e","f"]}`, false},
			{`{"small":1,"emails":[]}`, false},
			{`{"small":1,"emails":["ann@example.com"]}`, true},
			{`{"small":1,"emails":["not an email"]}`, false},
			{`{"small":1,"medium":0}`, false},
			{`{"small":1,"medium":32767}`, true},
			{`{"small":1,"medium":32768}`, false},
			{`{"small":1,"byte":255,"big":18446744073709551615,"u32":10}`, true},
			{`{"small":1,"byte":256}`, false},
			{`{"small":1,"big":-1}`, false},
			{`{"small":1,"u32":11}`, false},
			{`{"small":1,"ratio":0.5}`, true},
			{`{"small":1,"ratio":1}`, false},
			{`{"small":1,"ratio":0.3}`, false},
			{`{"small":1,"opts":["a",null,"b"]}`, true},
			{`{"small":1,"opts":["c"]}`, false},
			{`{"small":1,"grid":[[1,9],[]]}`, true},
			{`{"small":1,"grid":[[10]]}`, false},
			{`{"small":1,"grid":[[],[],[]]}`, false},
			{`{"small":1,"window":{"from":"2026-01-02T03:04:05Z"}}`, true},
			{`{"small":1,"window":{"to":"2026-01-02T03:04:05Z"}}`, false},
			{`{"small":1,"old":"x","mode":"fast","secret":"s"}`, true},
			{`{"small":1,"mode":"slow"}`, false},
			{`{"small":1,"items":[{"id":1,"name":"n","meta":{},"ttl":"1s","level":"debug"}]}`, true},
			{`{"small":1,"items":[{"id":1,"name":"n","meta":{},"ttl":"1s","level":"warn"}]}`, false},
			{`{"small":1,"items":[{"id":1,"name":"n","meta":{},"ttl":1}]}`, false},
			{`{"small":1,"tree":{"a":{"b":{}}}}`, true},
			{`{"small":1,"tree":{}}`, false}, // minItems beside the $ref
			{`{"small":1,"tree":{"a":1}}`, false},
			{`null`, false},
		}},
		{"kinds", "configure", true, []oracleCase{
			{`{"result":[{"id":1,"name":"n","data":null,"meta":null,"ttl":1000000000,"expires":null,"level":"info","window":{"from":"2026-01-02T03:04:05Z","to":null}}]}`, true},
			{`{"result":[{"id":1,"name":"n","data":null,"meta":null,"ttl":1000000000,"expires":null,"level":"warn","window":{"from":"2026-01-02T03:04:05Z","to":null}}]}`, false}, // not one of the constants
			{`{"result":[{"id":1,"name":"n","meta":{},"ttl":"1s","expires":null}]}`, false},                                                                                       // durations are nanoseconds
			{`{"result":null}`, false},
		}},
		{"kinds", "index", true, []oracleCase{
			{`{}`, true},
			{`{"a":null,"b":[]}`, true},
			{`{"a":[{"id":1}]}`, false},
			{`null`, false},
		}},
		{"kinds", "lookup", true, []oracleCase{
			{`{"result":null}`, true},
			{`{"result":{"id":1,"name":"n","meta":null,"ttl":0,"expires":null}}`, true},
			{`{}`, false},
		}},
		{"kinds", "count", true, []oracleCase{
			{`{"result":3}`, true},
			{`{"result":"3"}`, false},
		}},
		{"dialects", "book_trip", false, []oracleCase{
			{`{"destination":"Rome","travelers":[{"name":"a"},{"name":"b","age":30}],"budget":100.5,"nights":3,"home":{"street":"s","city":"c"},"departure":"2026-05-01T10:00:00Z"}`, true},
			{`{"destination":"Rome","website":"https://example.com/x","travelers":[{"name":"a","age":null},{"name":"b"}],"class":3,"budget":0.01,"nights":-128,"code":"X1","seats":2,"legacy":"x","home-airport":"FCO","home":{"street":"s","city":"c"},"work":{"street":"w","city":"c"},"departure":"2026-05-01T10:00:00Z","day":"2026-05-01","photo":"aGk="}`, true},
			{`{"destination":"Rome","travelers":[{"name":"a"},{"name":"b"}],"budget":1,"nights":3,"home":{"street":"s","city":"c"},"work":null,"class":null,"departure":"2026-05-01T10:00:00Z"}`, false}, // class is not nullable
			{`{"destination":"Rome","travelers":[{"name":"a"}],"budget":1,"nights":3,"home":{"street":"s","city":"c"},"departure":"2026-05-01T10:00:00Z"}`, false},                                       // minItems
			{`{"destination":"Rome","travelers":[{"name":"a"},{"name":"b"}],"budget":0,"nights":3,"home":{"street":"s","city":"c"},"departure":"2026-05-01T10:00:00Z"}`, false},                          // exclusiveMinimum
			{`{"destination":"Rome","travelers":[{"name":"a"},{"name":"b"}],"budget":1,"nights":30,"home":{"street":"s","city":"c"},"departure":"2026-05-01T10:00:00Z"}`, false},                         // exclusiveMaximum
		}},
		{"dialects", "tag_items", false, []oracleCase{
			{`{"labels":{}}`, true},
			{`{"labels":{"a":"x","b":"y"},"extra":[1,{"k":null}]}`, true},
			{`{"labels":{"a":"` + strings.Repeat("x", 21) + `"}}`, false},
		}},
		{"dialects", "deep", false, []oracleCase{
			{`{"next":{"next":{"next":{"next":{"next":{"next":{"next":{"next":{"next":{"next":{"leaf":"x"}}}}}}}}}}}`, true},
		}},
		{"dialects", "many_options", false, []oracleCase{
			{`{}`, true},
			{`{"opta":1,"optq":null}`, true},
			{`{"opta":"1"}`, false},
		}},
	}
}

// TestSchemaOracleInstances validates hand-written instances against the generated
// schemas.
func TestSchemaOracleInstances(t *testing.T) {
	checks := oracleChecks()
	sets := map[string]*schemaSet{}
	for _, tc := range schemaCases() {
		set, err := buildSchemas(tc.pkg())
		if err != nil {
			t.Fatal(err)
		}
		sets[tc.name] = set
	}
	for _, c := range checks {
		data, which := sets[c.pkg].inputJSON(c.tool), "input"
		if c.output {
			data, which = sets[c.pkg].outputJSON(c.tool), "output"
		}
		sch := compileSchema(t, c.tool+"."+which, data)
		for _, oc := range c.cases {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(oc.instance))
			if err != nil {
				t.Fatalf("%s: %v", oc.instance, err)
			}
			err = sch.Validate(inst)
			if got := err == nil; got != oc.valid {
				t.Errorf("%s %s schema: valid(%s) = %v, want %v (%v)", c.tool, which, oc.instance, got, oc.valid, err)
			}
		}
	}
}
