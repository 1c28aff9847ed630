package toolmcp_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/toolmcp"
)

const urlAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// base64Respellings returns spellings of s, unpadded base64url, other than s itself,
// that some decoder reads as the bytes of s: line breaks and spaces anywhere, padding,
// the standard alphabet, other unused low bits in the last character, and each of
// those combined with the others.
func base64Respellings(s string) []string {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		panic(fmt.Sprintf("not base64url: %q", s))
	}
	seen := map[string]bool{s: true}
	var out []string
	add := func(v string) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, ins := range []string{"\n", "\r", "\r\n", "\n\n\n", " ", "\t", "="} {
		for _, i := range []int{0, 1, len(s) / 2, len(s) - 1, len(s)} {
			add(s[:i] + ins + s[i:])
		}
	}
	add(s + "\r")
	add(s + strings.Repeat("=", (4-len(s)%4)%4))
	add(s + "==")
	add(base64.StdEncoding.EncodeToString(b))
	add(base64.URLEncoding.EncodeToString(b))
	add(base64.RawStdEncoding.EncodeToString(b))
	add(strings.NewReplacer("-", "+", "_", "/").Replace(s))
	// A last character carrying fewer than 6 bits of the bytes has its low bits
	// unused: a lenient decoder ignores them.
	lastBits := make([]string, 0, 3)
	if unused := len(s)*6 - len(b)*8; unused > 0 && len(s) > 0 {
		last := strings.IndexByte(urlAlphabet, s[len(s)-1])
		for v := 1; v < 1<<unused; v++ {
			lastBits = append(lastBits, s[:len(s)-1]+string(urlAlphabet[last|v]))
		}
	}
	for _, v := range lastBits {
		add(v)
		add(v + "\r")
		add(v[:3] + "\n" + v[3:])
		add(base64.StdEncoding.EncodeToString(b)[:len(v)-1] + v[len(v)-1:])
	}
	return out
}

// jsonRespellings returns texts of the JSON object body other than body itself that
// decode to the same object, or to one whose last duplicate key holds the same: other
// spaces, key order, escapes, duplicate keys, keys in other letter cases, a member more.
func jsonRespellings(body []byte) []string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		panic(err)
	}
	var out []string
	add := func(v string) {
		if v != string(body) {
			out = append(out, v)
		}
	}
	var indented bytes.Buffer
	json.Indent(&indented, body, "", "  ")
	add(indented.String())
	add(" " + string(body))
	add(string(body) + "\n")
	add(strings.ReplaceAll(string(body), ":", " : "))
	keys := slices.Sorted(maps.Keys(m)) // the order json.Marshal writes
	reordered := func(keys []string, name func(string) string, value func(string, json.RawMessage) string) string {
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = name(k) + ":" + value(k, m[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	quote := func(k string) string { b, _ := json.Marshal(k); return string(b) }
	asIs := func(_ string, v json.RawMessage) string { return string(v) }
	if len(keys) > 1 {
		reversed := slices.Clone(keys)
		slices.Reverse(reversed)
		add(reordered(reversed, quote, asIs))
	}
	// Escapes: the first letter of each key, and of each string value, as \u00XX;
	// a slash as \/.
	add(reordered(keys, func(k string) string { return `"\u00` + fmt.Sprintf("%02x", k[0]) + k[1:] + `"` }, asIs))
	add(reordered(keys, quote, func(_ string, v json.RawMessage) string {
		if len(v) > 2 && v[0] == '"' {
			return `"\u00` + fmt.Sprintf("%02x", v[1]) + string(v[2:])
		}
		return string(v)
	}))
	add(reordered(keys, quote, func(_ string, v json.RawMessage) string {
		return strings.ReplaceAll(string(v), "/", `\/`)
	}))
	// Keys in capitals: encoding/json matches them to the fields.
	add(reordered(keys, func(k string) string { return quote(strings.ToUpper(k)) }, asIs))
	// Duplicate keys: a junk value first, the real one last (encoding/json keeps the
	// last); the real one twice.
	for _, k := range keys {
		add(`{` + quote(k) + `:"junk",` + string(body[1:]))
		add(string(body[:len(body)-1]) + `,` + quote(k) + `:` + string(m[k]) + `}`)
	}
	add(string(body[:len(body)-1]) + `,"x":1}`)
	return out
}

// stateRespellings returns the spellings other than state of a requestState of
// toolmcp's ("tg1." and base64url of JSON): of its base64, of the JSON inside, and of
// the approval's state inside the JSON.
func stateRespellings(t *testing.T, state string) map[string][]string {
	t.Helper()
	raw, ok := strings.CutPrefix(state, "tg1.")
	if !ok {
		t.Fatalf("state %q", state)
	}
	body, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		t.Fatal(err)
	}
	families := map[string][]string{}
	for _, v := range base64Respellings(raw) {
		families["outer base64"] = append(families["outer base64"], "tg1."+v)
	}
	families["outer base64"] = append(families["outer base64"], "TG1."+raw, " tg1."+raw, "tg1.tg1."+raw)
	for _, v := range jsonRespellings(body) {
		families["json"] = append(families["json"], forge(v))
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	var approval string
	if err := json.Unmarshal(m["approval"], &approval); err != nil || approval == "" {
		t.Fatalf("no approval in %s", body)
	}
	// The approval's state alone, as a requestState, is read as one of the approval
	// alone (from before the round state): the round's binding it lacks denies it.
	families["approval alone"] = []string{approval}
	for _, v := range base64Respellings(approval) {
		m["approval"] = json.RawMessage(jsonOf(t, v))
		families["approval base64"] = append(families["approval base64"], forge(jsonOf(t, m)))
		families["approval alone"] = append(families["approval alone"], v)
	}
	return families
}

// TestApprovalRunsOncePerSpelling: the approval a user gives runs the approved call
// once, however the client spells the requestState that carries it: a spelling other
// than the server's (base64 with line breaks, padding, the other alphabet, other
// unused bits; the JSON inside with other spaces, order, escapes or duplicate keys;
// the approval's state inside respelled in turn) is refused, and refusing it spends
// nothing: the state as written is good once after. One "yes" ran a destructive tool
// for every line break a client inserted, until the state expired.
func TestApprovalRunsOncePerSpelling(t *testing.T) {
	var mu sync.Mutex
	spent := map[string]bool{}
	shared := toolmcp.ElicitSpend(func(_ context.Context, id string, _ time.Time) (bool, error) {
		mu.Lock()
		defer mu.Unlock()
		first := !spent[id]
		spent[id] = true
		return first, nil
	})
	yes := mcp.InputResponseMap{"toolgen_approval": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	for _, mode := range []struct {
		name string
		opts []toolmcp.ElicitOption
	}{{"in memory", nil}, {"ElicitSpend", []toolmcp.ElicitOption{shared}}} {
		t.Run(mode.name, func(t *testing.T) {
			var ran atomic.Int32
			cs := clientOf(t, elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover(mode.opts...)), "2026-07-28", hostile)
			// One first round gives the families their spellings; each family then
			// gets an approval of its own.
			first := roundOf(t, cs, "close_account", json.RawMessage(closeArgs), nil, "")
			for family := range stateRespellings(t, first.RequestState) {
				t.Run(family, func(t *testing.T) {
					start := ran.Load()
					r1 := roundOf(t, cs, "close_account", json.RawMessage(closeArgs), nil, "")
					variants := stateRespellings(t, r1.RequestState)[family]
					if len(variants) == 0 {
						t.Fatal("no spellings")
					}
					for _, v := range variants {
						if res := roundOf(t, cs, "close_account", json.RawMessage(closeArgs), yes, v); text(res) == "closed" {
							t.Errorf("the spelling %q of the state was accepted", v)
						}
					}
					if res := roundOf(t, cs, "close_account", json.RawMessage(closeArgs), yes, r1.RequestState); text(res) != "closed" {
						t.Errorf("the state as written, after its other spellings: %q", text(res))
					}
					if res := roundOf(t, cs, "close_account", json.RawMessage(closeArgs), yes, r1.RequestState); text(res) == "closed" {
						t.Errorf("the state as written, again: %q", text(res))
					}
					if n := ran.Load() - start; n != 1 {
						t.Errorf("one approval ran the tool %d times, tried with %d spellings", n, len(variants)+2)
					}
				})
			}
		})
	}
}

// TestApprovalIntoTheToolsRoundRunsOncePerSpelling: the approval a round carries into
// the round that brings the tool its answers (a state with answers and digests) holds
// in one spelling too.
func TestApprovalIntoTheToolsRoundRunsOncePerSpelling(t *testing.T) {
	var runs atomic.Int32
	cs := clientOf(t, wipeTool(t, &runs), "2026-07-28", hostile)
	args := map[string]any{}
	yes := mcp.InputResponseMap{"toolgen_approval": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	why := mcp.InputResponseMap{"toolgen_ask_1": &mcp.ElicitResult{Action: "accept"}}
	approved := func() string {
		t.Helper()
		r1 := roundOf(t, cs, "wipe", args, nil, "")
		r2 := roundOf(t, cs, "wipe", args, yes, r1.RequestState)
		if r2.InputRequests["toolgen_ask_1"] == nil || !strings.Contains(string(stateOf(t, r2.RequestState)["answers"]), "approve") {
			t.Fatalf("round 2: %s", jsonOf(t, r2))
		}
		return r2.RequestState
	}
	for family := range stateRespellings(t, approved()) {
		t.Run(family, func(t *testing.T) {
			state := approved()
			wiped := 0
			for _, v := range stateRespellings(t, state)[family] {
				if text(roundOf(t, cs, "wipe", args, why, v)) == "wiped: accept" {
					wiped++
					t.Errorf("the spelling %q of the state was accepted", v)
				}
			}
			for range 2 {
				if text(roundOf(t, cs, "wipe", args, why, state)) == "wiped: accept" {
					wiped++
				}
			}
			if wiped != 1 {
				t.Errorf("one approval wiped %d times", wiped)
			}
		})
	}
}

// TestApprovalRunsOnceConcurrently: one approval sent again by many calls at once,
// as written and respelled, runs the tool once: the state is spent atomically.
func TestApprovalRunsOnceConcurrently(t *testing.T) {
	var ran atomic.Int32
	cs := clientOf(t, elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover()), "2026-07-28", hostile)
	yes := mcp.InputResponseMap{"toolgen_approval": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	r1 := roundOf(t, cs, "close_account", json.RawMessage(closeArgs), nil, "")
	states := []string{r1.RequestState}
	for _, f := range stateRespellings(t, r1.RequestState) {
		states = append(states, f...)
	}
	var wg sync.WaitGroup
	var closed atomic.Int32
	for range 4 {
		for _, s := range states {
			wg.Go(func() {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "close_account", Arguments: json.RawMessage(closeArgs), InputResponses: yes, RequestState: s})
				if err == nil && text(res) == "closed" {
					closed.Add(1)
				}
			})
		}
	}
	wg.Wait()
	if ran.Load() != 1 || closed.Load() != 1 {
		t.Errorf("one approval sent %d times at once ran the tool %d times", 4*len(states), ran.Load())
	}
}
