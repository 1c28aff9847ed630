package contractdiff

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// oasdiffPair is a row of testdata/oasdiff.json: a change of a request (input) or
// response (output) schema, with oasdiff's verdict on it, which interop/oasdiff's
// TestTableIsOASDiffs checks against oasdiff itself.
type oasdiffPair struct {
	Name     string          `json:"name"`
	Side     string          `json:"side"`
	Old      json.RawMessage `json:"old"`
	New      json.RawMessage `json:"new"`
	OASDiff  string          `json:"oasdiff"`
	Rules    []string        `json:"rules"`
	Disagree string          `json:"disagree"`
}

// TestAgainstOASDiff judges Compare against oasdiff's verdicts on the table's pairs:
// it agrees on all of them but those whose row says why not, at most 2 of at least 91,
// and the package doc explains each of those.
func TestAgainstOASDiff(t *testing.T) {
	data, err := os.ReadFile("testdata/oasdiff.json")
	if err != nil {
		t.Fatal(err)
	}
	var pairs []oasdiffPair
	if err := json.Unmarshal(data, &pairs); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("contractdiff.go")
	if err != nil {
		t.Fatal(err)
	}
	agree, disagree := 0, 0
	for _, p := range pairs {
		key := map[string]string{"request": "inputSchema", "response": "outputSchema"}[p.Side]
		if key == "" || p.OASDiff != "breaking" && p.OASDiff != "compatible" {
			t.Fatalf("%s: side %q, verdict %q", p.Name, p.Side, p.OASDiff)
		}
		contract := func(s json.RawMessage) []byte {
			return []byte(`{"name":"t","` + key + `":` + string(s) + `}`)
		}
		changes, err := Compare(map[string][]byte{file: contract(p.Old)}, map[string][]byte{file: contract(p.New)})
		if err != nil {
			t.Fatalf("%s %s: %v", p.Side, p.Name, err)
		}
		got := "compatible"
		for _, c := range changes {
			if c.Kind == Breaking {
				got = "breaking"
			}
		}
		switch {
		case got == p.OASDiff && p.Disagree == "":
			agree++
		case got == p.OASDiff:
			t.Errorf("%s %s: agrees with oasdiff (%s), but the row says it does not", p.Side, p.Name, got)
		case p.Disagree == "":
			t.Errorf("%s %s: %s, oasdiff says %s %v: %v", p.Side, p.Name, got, p.OASDiff, p.Rules, lines(changes))
		default:
			disagree++
			if !strings.Contains(string(doc), p.Side+" "+p.Name) {
				t.Errorf("the package doc does not explain the %s %s pair", p.Side, p.Name)
			}
		}
	}
	if len(pairs) < 91 || disagree > 2 {
		t.Errorf("%d pairs, %d disagree: want at least 91, at most 2", len(pairs), disagree)
	}
	t.Logf("agrees with oasdiff on %d of %d pairs", agree, len(pairs))
}
