// Package contractdiff compares two sets of toolgen's tool contracts and classifies
// every change as breaking or compatible for a client, or a model, that learned the old
// contract. It is pure: file contents in, changes out; toolgen diff reads the files.
//
// # The contract
//
// A contract file is toolschema/<tool>.json in a package directory: the canonical MCP
// Tool object toolgen writes (inputSchema, outputSchema, annotations, groups). The
// dialect files beside it (openai.json, openai-responses.json, anthropic.json,
// gemini.json, mcp.json) are derived from those and are ignored. A tool is known by its
// package directory and its file name.
//
// # Inputs: what the model sends
//
// A change to an input schema is breaking when it can reject a call the old schema
// accepted, compatible otherwise:
//
//   - breaking: a property removed (a call that sends it is rejected, or its value is
//     silently dropped); a new required property, or a property that becomes required;
//     a type narrowed or changed (integer is a subset of number; null counts as a type,
//     whether written in a type array or as an anyOf branch {"type":"null"}); an enum
//     or const narrowed or changed (values removed); a minimum, exclusiveMinimum,
//     maximum, exclusiveMaximum, minLength, maxLength, minItems, maxItems,
//     minProperties or maxProperties added or tightened; a multipleOf added or changed
//     to one that is not a divisor of the old; a pattern, format or contentEncoding
//     added or changed; uniqueItems added; an object closed (additionalProperties
//     false added) or its additionalProperties schema narrowed; items or propertyNames
//     narrowed; an anyOf branch removed or changed; the schema made false.
//   - compatible: a new optional property; a property that becomes optional; bounds and
//     lengths widened or removed; an enum or const widened or removed; a type widened;
//     a pattern, format or contentEncoding removed; a pattern changed to one that
//     matches every string (".*", "^(?s).*$": see matchesAll); an object opened; an
//     anyOf branch added; and every change of a keyword that does not constrain values: title,
//     description, default, deprecated, examples, $comment and x-* extensions.
//
// A new optional property is compatible on the objects toolgen writes, which are closed
// (additionalProperties false): no call could have sent it. On an open object a call
// may have sent that name with a value the new property's schema refuses; that is
// still reported as compatible, since what callers sent under unknown names is not in
// the contract.
//
// A default changes what the function sees for a call that leaves the property out,
// not whether the call is accepted; it is reported as compatible, for a reviewer to
// read.
//
// $ref is resolved within the same schema (a "#/..." pointer from the schema's root),
// so a definition moved into $defs or inlined compares by what it accepts; a recursive
// schema is compared once per pair of locations. $defs themselves are compared only
// through the references that reach them. A reference that cannot be resolved there
// (toolgen writes none) is compared as text, as an unknown keyword.
//
// # Outputs: what the client reads
//
// An output schema is compared in the reverse sense: a change is breaking when the tool
// may now return what a client of the old contract did not expect, compatible when it
// returns a part of what it did. toolgen's output schemas say what a client may rely
// on (the output type's enums, bounds, lengths, patterns, formats and closed objects),
// so each keyword reads the other way round from the input's:
//
//   - breaking: a required property removed (a client reads it); a property that is no
//     longer required; a type widened or changed (a value that may now be null); an
//     enum or const widened, changed or removed; a minimum or maximum (exclusive or
//     not), a length, a number of items or of properties loosened or removed; a
//     multipleOf removed or changed to one that is not a multiple of the old; a
//     pattern, format or contentEncoding removed or changed (a pattern changed to one
//     that matches every string included); uniqueItems removed; an anyOf branch added;
//     additionalProperties' schema widened; the output schema removed.
//   - compatible: a new property, required or not; an optional property removed (a
//     client of it handles its absence); a property that becomes required; a type,
//     enum, bound, length or count narrowed or added; a pattern that matched every
//     string tightened; uniqueItems added; an anyOf branch removed; an object closed
//     or opened (as for a new property, a client ignores the properties it does not
//     know); an output schema added.
//
// # Judged against oasdiff
//
// testdata/oasdiff.json holds 136 changes of a request (input) or response (output)
// schema, each with the verdict of oasdiff (github.com/oasdiff/oasdiff, v1.37.0), the
// OpenAPI breaking-change checker, over an OpenAPI 3.1 document that wraps it: breaking
// when it reports a change at level WARN or ERR, as `oasdiff breaking` does. The nested
// module interop/oasdiff runs oasdiff over the table (TestTableIsOASDiffs), and
// TestAgainstOASDiff here checks this package's verdicts: they agree on 134. The two
// others, where this package is the more exact:
//
//   - request object closed: additionalProperties false added to an input object is
//     breaking here (a call that sent another property is refused now); oasdiff has no
//     rule for additionalProperties and reports nothing.
//   - response pattern .* narrowed: an output pattern that matched every string (".*")
//     tightened to "^[a-z]+$" is compatible here (the tool returns a part of what it
//     did); oasdiff reports every change of a pattern as a warning (its
//     response-property-pattern-changed), with one exception on the request side only
//     (request-property-pattern-generalized, for a new pattern of exactly ".*").
//
// # Annotations and groups
//
// Hints are compared as a conservative client reads them, with MCP's defaults applied
// to the hints not written (runtime.Annotations.Effective): readOnlyHint true to false,
// destructiveHint false to true, idempotentHint true to false and openWorldHint false
// to true withdraw a promise a client may act on (auto-approval, retries) and are
// breaking; the other way round they are compatible, as is a hint written out or left
// out with no effect, and a change of the annotations' title or of another field of
// theirs (hints for display, not promises). A group the tool leaves is breaking (a client that loads that
// group no longer gets the tool); a group it joins is compatible.
//
// # Tools
//
// A tool whose file is gone is removed (breaking); a new file is a new tool
// (compatible). A rename is both: the old name removed, the new one added; when the
// two have the same input and output schemas the messages say it may be a rename. A
// change of the name field inside a file is breaking.
//
// A keyword or field that this package does not know (nothing toolgen writes today) is
// breaking whenever it changes: its effect cannot be told.
package contractdiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"path"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/jsonread"
)

// Kind classifies a change.
type Kind int

// The kinds of change.
const (
	Compatible Kind = iota
	Breaking
)

// String returns "breaking" or "compatible", as the human output writes a change.
func (k Kind) String() string {
	if k == Breaking {
		return "breaking"
	}
	return "compatible"
}

// MarshalJSON writes the kind as "breaking" or "compatible".
func (k Kind) MarshalJSON() ([]byte, error) { return json.Marshal(k.String()) }

// Change is one classified change of a tool's contract.
type Change struct {
	// Dir is the tool's package directory, as the file paths give it.
	Dir string `json:"dir"`
	// Tool is the tool's name: its file's name without .json.
	Tool string `json:"tool"`
	// Pointer is the JSON Pointer of what changed in the tool's file: in the new file,
	// or in the old one for what the new one no longer has; "" for the whole tool.
	Pointer string `json:"pointer"`
	Kind    Kind   `json:"kind"`
	// Change says what changed, in words.
	Change string `json:"change"`
	// Old and New are the JSON values before and after; absent (nil) where there was
	// none.
	Old json.RawMessage `json:"old,omitempty"`
	New json.RawMessage `json:"new,omitempty"`
}

// SchemaDir is the directory, inside a package directory, of the contract files.
const SchemaDir = "toolschema"

// dialectFiles are the derived files under toolschema/; no tool may take these names
// (the generator refuses them).
var dialectFiles = []string{"mcp.json", "openai.json", "openai-responses.json", "anthropic.json", "gemini.json"}

// IsContract reports whether a slash-separated path names a contract file:
// <dir>/toolschema/<tool>.json, not a dialect file.
func IsContract(p string) bool {
	dir, file := path.Split(p)
	if path.Ext(file) != ".json" || file == ".json" || slices.Contains(dialectFiles, file) {
		return false
	}
	return path.Base(dir) == SchemaDir && strings.TrimSuffix(dir, "/") != "" && path.Clean(dir) == strings.TrimSuffix(dir, "/")
}

// Compare compares the contract files of old and new, maps from slash-separated paths
// (such as "examples/weather/forecast/toolschema/get_weather.json") to contents, and
// returns every change, sorted by directory, tool, pointer and text. Paths that are
// not contract files (see IsContract) are ignored. A contract file that is not a JSON
// object is an error.
func Compare(old, new map[string][]byte) ([]Change, error) {
	oldDocs, err := parseAll(old)
	if err != nil {
		return nil, fmt.Errorf("old contract: %w", err)
	}
	newDocs, err := parseAll(new)
	if err != nil {
		return nil, fmt.Errorf("new contract: %w", err)
	}
	var out []Change
	var removed, added []string
	for p, o := range oldDocs {
		n, ok := newDocs[p]
		if !ok {
			removed = append(removed, p)
			continue
		}
		c := &comparer{dir: pkgDir(p), tool: toolName(p), out: &out}
		c.compareTool(o, n)
	}
	for p := range newDocs {
		if _, ok := oldDocs[p]; !ok {
			added = append(added, p)
		}
	}
	slices.Sort(removed)
	slices.Sort(added)
	for _, p := range removed {
		msg := "tool removed"
		if q := sameInput(oldDocs[p], p, added, newDocs); q != "" {
			msg += fmt.Sprintf(" (renamed to %s?)", toolName(q))
		}
		out = append(out, Change{Dir: pkgDir(p), Tool: toolName(p), Kind: Breaking, Change: msg, Old: raw(oldDocs[p])})
	}
	for _, p := range added {
		msg := "tool added"
		if q := sameInput(newDocs[p], p, removed, oldDocs); q != "" {
			msg += fmt.Sprintf(" (renamed from %s?)", toolName(q))
		}
		out = append(out, Change{Dir: pkgDir(p), Tool: toolName(p), Kind: Compatible, Change: msg, New: raw(newDocs[p])})
	}
	slices.SortFunc(out, func(a, b Change) int {
		return cmpStrings([]string{a.Dir, a.Tool, a.Pointer, a.Change}, []string{b.Dir, b.Tool, b.Pointer, b.Change})
	})
	return slices.CompactFunc(out, func(a, b Change) bool {
		return a.Dir == b.Dir && a.Tool == b.Tool && a.Pointer == b.Pointer && a.Change == b.Change
	}), nil
}

func cmpStrings(a, b []string) int {
	for i := range a {
		if c := strings.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// sameInput returns the path, among others in the same package directory, of the one
// tool whose input and output schemas are those of doc, or "".
func sameInput(doc map[string]any, p string, others []string, docs map[string]map[string]any) string {
	var found string
	for _, q := range others {
		if pkgDir(q) != pkgDir(p) || !equal(doc["inputSchema"], docs[q]["inputSchema"]) || !equal(doc["outputSchema"], docs[q]["outputSchema"]) {
			continue
		}
		if found != "" {
			return ""
		}
		found = q
	}
	return found
}

func parseAll(files map[string][]byte) (map[string]map[string]any, error) {
	docs := map[string]map[string]any{}
	for p, data := range files {
		if !IsContract(p) {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%s: data after the JSON object", p)
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: not a JSON object", p)
		}
		docs[p] = m
	}
	return docs, nil
}

// pkgDir is the package directory of a contract file's path.
func pkgDir(p string) string { return path.Dir(path.Dir(p)) }

// toolName is the tool of a contract file's path.
func toolName(p string) string { return strings.TrimSuffix(path.Base(p), ".json") }

// comparer collects the changes of one tool.
type comparer struct {
	dir, tool string
	out       *[]Change
	// output is set while comparing output schemas, where the sense is reversed.
	output bool
	seen   map[[2]string]bool
}

// effect is what a change does to the set of values a schema accepts.
type effect int

const (
	neutral  effect = iota // the same values
	widened                // more values
	narrowed               // fewer values
	changed                // some values gained, some lost, or unknown
)

func (c *comparer) kind(e effect) Kind {
	switch {
	case e == changed, e == narrowed && !c.output, e == widened && c.output:
		return Breaking
	}
	return Compatible
}

func (c *comparer) add(e effect, ptr, msg string, old, new any) {
	*c.out = append(*c.out, Change{Dir: c.dir, Tool: c.tool, Pointer: ptr, Kind: c.kind(e), Change: msg, Old: raw(old), New: raw(new)})
}

// raw returns v as compact JSON, nil for nil (absent).
func raw(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return json.RawMessage(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// text returns v as compact JSON for a message, shortened when long.
func text(v any) string {
	s := string(raw(v))
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return s
}

func equal(a, b any) bool { return bytes.Equal(raw(a), raw(b)) }

// compareTool compares two versions of one tool's file.
func (c *comparer) compareTool(o, n map[string]any) {
	for _, k := range unionKeys(o, n) {
		ov, oOK := o[k]
		nv, nOK := n[k]
		ptr := "/" + jsonread.EscapeToken(k)
		switch k {
		case "inputSchema":
			c.output = false
			c.seen = map[[2]string]bool{}
			c.schema(root(ov, ptr), root(nv, ptr))
		case "outputSchema":
			c.output = true
			c.seen = map[[2]string]bool{}
			switch {
			case !oOK:
				c.add(neutral, ptr, "output schema added", nil, nv)
			case !nOK:
				c.add(changed, ptr, "output schema removed", ov, nil)
			default:
				c.schema(root(ov, ptr), root(nv, ptr))
			}
			c.output = false
		case "annotations":
			c.annotations(ov, nv)
		case "groups":
			c.groups(ov, nv)
		case "title", "description":
			c.neutralKeyword(ptr, k, ov, nv, oOK, nOK)
		case "name":
			if !equal(ov, nv) {
				c.add(changed, ptr, fmt.Sprintf("name changed from %s to %s", text(ov), text(nv)), ov, nv)
			}
		default:
			c.unknown(ptr, ov, nv, oOK, nOK)
		}
	}
}

func unionKeys(maps ...map[string]any) []string {
	var keys []string
	for _, m := range maps {
		for k := range m {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	return keys
}

// neutralKeyword reports a change of a keyword that does not constrain values.
func (c *comparer) neutralKeyword(ptr, k string, ov, nv any, oOK, nOK bool) {
	if equal(ov, nv) && oOK == nOK {
		return
	}
	long := k == "description"
	switch {
	case !oOK:
		c.add(neutral, ptr, added(nv, long), nil, nv)
	case !nOK:
		c.add(neutral, ptr, removed(ov, long), ov, nil)
	case long:
		c.add(neutral, ptr, "changed", ov, nv)
	default:
		c.add(neutral, ptr, fmt.Sprintf("changed from %s to %s", text(ov), text(nv)), ov, nv)
	}
}

func added(v any, long bool) string {
	if long {
		return "added"
	}
	return "added: " + text(v)
}

func removed(v any, long bool) string {
	if long {
		return "removed"
	}
	return fmt.Sprintf("removed (was %s)", text(v))
}

// unknown reports a change of a field this package does not know: breaking.
func (c *comparer) unknown(ptr string, ov, nv any, oOK, nOK bool) {
	if equal(ov, nv) && oOK == nOK {
		return
	}
	var msg string
	switch {
	case !oOK:
		msg = "added: " + text(nv)
	case !nOK:
		msg = fmt.Sprintf("removed (was %s)", text(ov))
	default:
		msg = fmt.Sprintf("changed from %s to %s", text(ov), text(nv))
	}
	c.add(changed, ptr, msg+"; toolgen cannot tell its effect", ov, nv)
}

// hint is one MCP annotation hint: its name, and the value a client that wants to be
// safe hopes for.
var hints = []struct {
	key  string
	safe bool
}{
	{"readOnlyHint", true},
	{"destructiveHint", false},
	{"idempotentHint", true},
	{"openWorldHint", false},
}

func (c *comparer) annotations(ov, nv any) {
	om, _ := ov.(map[string]any)
	nm, _ := nv.(map[string]any)
	oe, ne := effective(om), effective(nm)
	for _, h := range hints {
		ptr := "/annotations/" + h.key
		o, oOK := om[h.key]
		n, nOK := nm[h.key]
		if oe[h.key] == ne[h.key] {
			if !equal(o, n) || oOK != nOK {
				c.add(neutral, ptr, fmt.Sprintf("%s, as before: %s", writtenOut(oOK, nOK), defaultNote(nOK)), o, n)
			}
			continue
		}
		e := widened // compatible: the promise is kept or made
		if ne[h.key] != h.safe {
			e = changed
		}
		msg := fmt.Sprintf("changed from %t to %t", oe[h.key], ne[h.key])
		if !nOK {
			msg += " (MCP's default)"
		}
		c.add(e, ptr, msg, o, n)
	}
	for _, k := range unionKeys(om, nm) {
		if !isHint(k) {
			o, oOK := om[k]
			n, nOK := nm[k]
			c.neutralKeyword("/annotations/"+jsonread.EscapeToken(k), k, o, n, oOK, nOK)
		}
	}
}

func isHint(k string) bool {
	for _, h := range hints {
		if h.key == k {
			return true
		}
	}
	return false
}

func writtenOut(oOK, nOK bool) string {
	switch {
	case !oOK:
		return "written out"
	case !nOK:
		return "left out"
	}
	return "rewritten"
}

func defaultNote(nOK bool) string {
	if nOK {
		return "no effect"
	}
	return "MCP's default, no effect"
}

// effective returns the hints as a client reads them.
func effective(m map[string]any) map[string]bool {
	get := func(k string) *bool {
		if b, ok := m[k].(bool); ok {
			return &b
		}
		return nil
	}
	e := runtime.Annotations{
		ReadOnly:    get("readOnlyHint"),
		Destructive: get("destructiveHint"),
		Idempotent:  get("idempotentHint"),
		OpenWorld:   get("openWorldHint"),
	}.Effective()
	return map[string]bool{"readOnlyHint": e.ReadOnly, "destructiveHint": e.Destructive, "idempotentHint": e.Idempotent, "openWorldHint": e.OpenWorld}
}

func (c *comparer) groups(ov, nv any) {
	og, ng := stringSet(ov), stringSet(nv)
	for _, g := range og {
		if !slices.Contains(ng, g) {
			c.add(changed, "/groups", fmt.Sprintf("left group %q", g), ov, nv)
		}
	}
	for _, g := range ng {
		if !slices.Contains(og, g) {
			c.add(neutral, "/groups", fmt.Sprintf("joined group %q", g), ov, nv)
		}
	}
}

func stringSet(v any) []string {
	var out []string
	a, _ := v.([]any)
	for _, e := range a {
		if s, ok := e.(string); ok {
			out = append(out, s)
		} else {
			out = append(out, string(raw(e)))
		}
	}
	return out
}

// node is a schema as it applies at one place: its own keywords merged with those of
// the schema its $ref names, each keyword with the pointer where it is written.
type node struct {
	doc any    // the schema's root, for $ref
	id  string // the pointer of the schema as written, before resolving $ref
	// boolean is set for the schema true or false (and for an absent one, true).
	boolean *bool
	kw      map[string]any
	at      map[string]string
}

// root returns the node of a tool's input or output schema, at ptr.
func root(v any, ptr string) node {
	return resolve(v, v, ptr, ptr, 0)
}

// resolve returns the node of v, written at ptr in the schema doc, rooted at base.
func resolve(doc, v any, ptr, base string, depth int) node {
	n := node{doc: doc, id: ptr, kw: map[string]any{}, at: map[string]string{}}
	switch v := v.(type) {
	case nil:
		t := true
		n.boolean = &t
	case bool:
		n.boolean = &v
	case map[string]any:
		resolved := false
		if ref, ok := v["$ref"].(string); ok && depth < 64 {
			if tv, tptr, ok := lookup(doc, ref, base); ok {
				t := resolve(doc, tv, tptr, base, depth+1)
				if t.boolean != nil && (!*t.boolean || len(v) == 1) {
					t.id = ptr
					return t
				}
				for k, kv := range t.kw {
					n.kw[k], n.at[k] = kv, t.at[k]
				}
				resolved = true
			}
		}
		for k, kv := range v {
			if resolved && k == "$ref" {
				continue
			}
			if _, ok := n.kw[k]; ok && resolved && !isAnnotation(k) {
				// Both the reference and its sibling constrain: the reference's
				// keyword is kept, as which is stricter cannot be told in general.
				continue
			}
			n.kw[k], n.at[k] = kv, ptr+"/"+jsonread.EscapeToken(k)
		}
	default:
		// Not a schema: compare it as an unknown keyword would be.
		n.kw["(value)"], n.at["(value)"] = v, ptr
	}
	return n
}

func isAnnotation(k string) bool {
	switch k {
	case "title", "description", "default", "deprecated", "examples", "$comment", "readOnly", "writeOnly":
		return true
	}
	return strings.HasPrefix(k, "x-")
}

// lookup resolves a "#..." reference within the schema doc, rooted at base.
func lookup(doc any, ref, base string) (any, string, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || frag != "" && !strings.HasPrefix(frag, "/") {
		return nil, "", false
	}
	v := doc
	if frag != "" {
		for _, tok := range strings.Split(frag[1:], "/") {
			tok = jsonread.UnescapeToken(tok)
			m, ok := v.(map[string]any)
			if !ok {
				return nil, "", false
			}
			if v, ok = m[tok]; !ok {
				return nil, "", false
			}
		}
	}
	return v, base + frag, true
}

// child returns the node of the subschema under keyword k (and, for properties, name).
func (n node) child(k string, name ...string) node {
	v, ok := n.kw[k]
	ptr := n.at[k]
	if !ok {
		ptr = n.id + "/" + jsonread.EscapeToken(k)
	}
	for _, nm := range name {
		switch x := v.(type) {
		case map[string]any:
			v = x[nm]
		case []any:
			var i int
			if _, err := fmt.Sscan(nm, &i); err == nil && i >= 0 && i < len(x) {
				v = x[i]
			} else {
				v = nil
			}
		default:
			v = nil
		}
		ptr += "/" + jsonread.EscapeToken(nm)
	}
	return resolve(n.doc, v, ptr, baseOf(n), 0)
}

// baseOf is the pointer of the root of n's schema: /inputSchema or /outputSchema.
func baseOf(n node) string {
	if i := strings.Index(n.id[1:], "/"); i >= 0 {
		return n.id[:i+1]
	}
	return n.id
}

// ptr returns where keyword k is written in n, or where it would be.
func (n node) ptr(k string) string {
	if p, ok := n.at[k]; ok {
		return p
	}
	return n.id + "/" + jsonread.EscapeToken(k)
}

// nullable splits off a nullable anyOf, [X, {"type":"null"}] in either order: it
// returns X with n's other keywords and true, or n and false.
func (n node) nullable() (node, bool) {
	branches, ok := n.kw["anyOf"].([]any)
	if !ok || len(branches) != 2 {
		return n, false
	}
	for i, b := range branches {
		if !equal(b, map[string]any{"type": "null"}) {
			continue
		}
		core := resolve(n.doc, branches[1-i], n.at["anyOf"]+fmt.Sprintf("/%d", 1-i), baseOf(n), 0)
		if core.boolean != nil {
			return n, false
		}
		for k, v := range n.kw {
			if k == "anyOf" {
				continue
			}
			if _, ok := core.kw[k]; !ok || isAnnotation(k) {
				core.kw[k], core.at[k] = v, n.at[k]
			}
		}
		core.id = n.id
		core.kw["(null)"], core.at["(null)"] = true, n.at["anyOf"]
		return core, true
	}
	return n, false
}

// schema compares two versions of a schema.
func (c *comparer) schema(o, n node) {
	key := [2]string{o.id, n.id}
	if c.seen[key] {
		return
	}
	c.seen[key] = true

	if o.boolean != nil || n.boolean != nil {
		ob := o.boolean == nil || *o.boolean // a schema with keywords accepts something
		nb := n.boolean == nil || *n.boolean
		switch {
		case !ob && !nb:
			return
		case !ob:
			c.add(widened, n.id, "accepts values now (was false)", false, n.kw)
			return
		case !nb:
			c.add(narrowed, n.id, "accepts nothing now (false)", nil, false)
			return
		}
	}
	o, _ = o.nullable()
	n, _ = n.nullable()

	c.types(o, n)
	c.values(o, n)
	c.bound(o, n, "minimum", "exclusiveMinimum", 1)
	c.bound(o, n, "maximum", "exclusiveMaximum", -1)
	c.multipleOf(o, n)
	for _, k := range []string{"minLength", "minItems", "minProperties"} {
		c.count(o, n, k, 1)
	}
	for _, k := range []string{"maxLength", "maxItems", "maxProperties"} {
		c.count(o, n, k, -1)
	}
	for _, k := range []string{"pattern", "format", "contentEncoding"} {
		c.assertion(o, n, k)
	}
	c.uniqueItems(o, n)
	c.object(o, n)
	if _, ok := o.kw["items"]; ok || n.kw["items"] != nil {
		c.schema(o.child("items"), n.child("items"))
	}
	if _, ok := o.kw["propertyNames"]; ok || n.kw["propertyNames"] != nil {
		c.schema(o.child("propertyNames"), n.child("propertyNames"))
	}
	c.branches(o, n, "anyOf")
	c.branches(o, n, "oneOf")
	for _, k := range unionKeys(o.kw, n.kw) {
		if handled(k) {
			continue
		}
		ov, oOK := o.kw[k]
		nv, nOK := n.kw[k]
		ptr := n.ptr(k)
		if !nOK {
			ptr = o.ptr(k)
		}
		if isAnnotation(k) || k == "$schema" || k == "$id" {
			c.neutralKeyword(ptr, k, ov, nv, oOK, nOK)
		} else {
			c.unknown(ptr, ov, nv, oOK, nOK)
		}
	}
}

// handled reports whether schema compares keyword k itself, or ignores it. A $ref
// left in a node is one that could not be resolved: it is compared as an unknown
// keyword.
func handled(k string) bool {
	switch k {
	case "type", "(null)", "enum", "const", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum",
		"multipleOf", "minLength", "minItems", "minProperties", "maxLength", "maxItems", "maxProperties",
		"pattern", "format", "contentEncoding", "uniqueItems", "properties", "required",
		"additionalProperties", "items", "propertyNames", "anyOf", "oneOf", "$defs":
		return true
	}
	return false
}

// typeSet returns the types n accepts, null included, or nil for any type.
func typeSet(n node) []string {
	var ts []string
	switch t := n.kw["type"].(type) {
	case string:
		ts = []string{t}
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				ts = append(ts, s)
			}
		}
	default:
		return nil
	}
	if n.kw["(null)"] != nil && !slices.Contains(ts, "null") {
		ts = append(ts, "null")
	}
	slices.Sort(ts)
	return ts
}

// covers reports whether the types of a include those of b (nil: any type).
func covers(a, b []string) bool {
	if a == nil {
		return true
	}
	if b == nil {
		return false
	}
	for _, t := range b {
		if !slices.Contains(a, t) && !(t == "integer" && slices.Contains(a, "number")) {
			return false
		}
	}
	return true
}

func typeText(ts []string) string {
	if ts == nil {
		return "any type"
	}
	return strings.Join(ts, " or ")
}

func (c *comparer) types(o, n node) {
	ot, nt := typeSet(o), typeSet(n)
	if slices.Equal(ot, nt) && (ot == nil) == (nt == nil) {
		return
	}
	// Point at where the type is written, or where null is added or taken away by an
	// anyOf branch.
	ptr := n.ptr("type")
	if _, ok := n.at["type"]; !ok {
		ptr = o.ptr("type")
	}
	if p, ok := n.at["(null)"]; ok {
		ptr = p
	} else if p, ok := o.at["(null)"]; ok {
		ptr = p
	}
	oNull := ot == nil || slices.Contains(ot, "null")
	nNull := nt == nil || slices.Contains(nt, "null")
	without := func(ts []string) []string {
		return slices.DeleteFunc(slices.Clone(ts), func(s string) bool { return s == "null" })
	}
	ov, nv := o.kw["type"], n.kw["type"]
	if o.kw["(null)"] != nil || n.kw["(null)"] != nil {
		ov, nv = ot, nt
	}
	if ot != nil && nt != nil && slices.Equal(without(ot), without(nt)) {
		if nNull {
			c.add(widened, ptr, "accepts null now", ov, nv)
		} else if oNull {
			c.add(narrowed, ptr, "no longer accepts null", ov, nv)
		}
		return
	}
	e := changed
	verb := "changed"
	switch {
	case covers(nt, ot):
		e, verb = widened, "widened"
	case covers(ot, nt):
		e, verb = narrowed, "narrowed"
	}
	c.add(e, ptr, fmt.Sprintf("%s from %s to %s", verb, typeText(ot), typeText(nt)), ov, nv)
}

// valueSet returns the values n allows by enum and const, as compact JSON, or nil for
// any value, and the keyword that says it.
func valueSet(n node) ([]string, string) {
	var set []string
	kw := ""
	if e, ok := n.kw["enum"].([]any); ok {
		kw = "enum"
		set = []string{}
		for _, v := range e {
			if s := string(raw(v)); !slices.Contains(set, s) {
				set = append(set, s)
			}
		}
	}
	if v, ok := n.kw["const"]; ok {
		s := string(raw(v))
		if set == nil || slices.Contains(set, s) {
			set = []string{s}
		} else {
			set = []string{}
		}
		if kw == "" {
			kw = "const"
		}
	}
	return set, kw
}

func (c *comparer) values(o, n node) {
	os, okw := valueSet(o)
	ns, nkw := valueSet(n)
	if os == nil && ns == nil {
		return
	}
	ptr := n.ptr(nkw)
	if nkw == "" {
		ptr = o.ptr(okw)
	}
	ov, nv := o.kw[okw], n.kw[nkw]
	switch {
	case os == nil:
		c.add(narrowed, ptr, "added: "+text(nv), nil, nv)
		return
	case ns == nil:
		c.add(widened, ptr, fmt.Sprintf("removed (was %s)", text(ov)), ov, nil)
		return
	}
	var gone, come []string
	for _, v := range os {
		if !slices.Contains(ns, v) {
			gone = append(gone, v)
		}
	}
	for _, v := range ns {
		if !slices.Contains(os, v) {
			come = append(come, v)
		}
	}
	var parts []string
	if len(gone) > 0 {
		parts = append(parts, strings.Join(gone, ", ")+" removed")
	}
	if len(come) > 0 {
		parts = append(parts, strings.Join(come, ", ")+" added")
	}
	switch {
	case len(gone) == 0 && len(come) == 0:
		if okw != nkw {
			c.add(neutral, ptr, fmt.Sprintf("rewritten from %s to %s, same values", okw, nkw), ov, nv)
		}
		return
	case len(gone) == 0:
		c.add(widened, ptr, "widened: "+strings.Join(parts, "; "), ov, nv)
	case len(come) == 0:
		c.add(narrowed, ptr, "narrowed: "+strings.Join(parts, "; "), ov, nv)
	default:
		c.add(changed, ptr, "changed: "+strings.Join(parts, "; "), ov, nv)
	}
}

// number reads a JSON number.
func number(v any) (*big.Rat, bool) {
	num, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(num.String())
	return r, ok
}

// limit is a bound: its value, whether it is exclusive, and its keyword.
type limit struct {
	v    *big.Rat
	excl bool
	kw   string
	raw  any
}

// boundOf returns n's bound from the inclusive and exclusive keywords, the stricter of
// the two when both are written; sign is 1 for a lower bound, -1 for an upper one.
func boundOf(n node, incl, excl string, sign int) *limit {
	var best *limit
	for _, k := range []string{incl, excl} {
		r, ok := number(n.kw[k])
		if !ok {
			continue
		}
		l := &limit{v: r, excl: k == excl, kw: k, raw: n.kw[k]}
		if best == nil || stricter(l, best, sign) {
			best = l
		}
	}
	return best
}

// stricter reports whether bound a excludes more than b.
func stricter(a, b *limit, sign int) bool {
	c := a.v.Cmp(b.v) * sign
	return c > 0 || c == 0 && a.excl && !b.excl
}

func (l *limit) String() string {
	return l.kw + " " + l.v.RatString()
}

func (c *comparer) bound(o, n node, incl, excl string, sign int) {
	ob, nb := boundOf(o, incl, excl, sign), boundOf(n, incl, excl, sign)
	switch {
	case ob == nil && nb == nil:
		return
	case ob == nil:
		c.add(narrowed, n.ptr(nb.kw), "added: "+text(nb.raw), nil, nb.raw)
		return
	case nb == nil:
		c.add(widened, o.ptr(ob.kw), fmt.Sprintf("removed (was %s)", text(ob.raw)), ob.raw, nil)
		return
	}
	if ob.v.Cmp(nb.v) == 0 && ob.excl == nb.excl {
		return
	}
	from, to := text(ob.raw), text(nb.raw)
	if ob.kw != nb.kw {
		from, to = ob.kw+" "+from, nb.kw+" "+to
	}
	if stricter(nb, ob, sign) {
		c.add(narrowed, n.ptr(nb.kw), fmt.Sprintf("tightened from %s to %s", from, to), ob.raw, nb.raw)
	} else {
		c.add(widened, n.ptr(nb.kw), fmt.Sprintf("widened from %s to %s", from, to), ob.raw, nb.raw)
	}
}

func (c *comparer) multipleOf(o, n node) {
	const k = "multipleOf"
	ov, nv := o.kw[k], n.kw[k]
	om, oOK := number(ov)
	nm, nOK := number(nv)
	switch {
	case !oOK && !nOK:
		return
	case !oOK:
		c.add(narrowed, n.ptr(k), "added: "+text(nv), nil, nv)
		return
	case !nOK:
		c.add(widened, o.ptr(k), fmt.Sprintf("removed (was %s)", text(ov)), ov, nil)
		return
	case om.Cmp(nm) == 0:
		return
	}
	isInt := func(r *big.Rat) bool { return r.IsInt() }
	msg := fmt.Sprintf("from %s to %s", text(ov), text(nv))
	switch {
	case nm.Sign() != 0 && isInt(new(big.Rat).Quo(om, nm)):
		// the old multiples are multiples of the new
		c.add(widened, n.ptr(k), "widened "+msg, ov, nv)
	case om.Sign() != 0 && isInt(new(big.Rat).Quo(nm, om)):
		c.add(narrowed, n.ptr(k), "tightened "+msg, ov, nv)
	default:
		c.add(changed, n.ptr(k), "changed "+msg, ov, nv)
	}
}

// count compares a minimum (sign 1) or maximum (sign -1) count: a length, a number of
// items or of properties.
func (c *comparer) count(o, n node, k string, sign int) {
	ov, nv := o.kw[k], n.kw[k]
	oc, oOK := number(ov)
	nc, nOK := number(nv)
	switch {
	case !oOK && !nOK:
		return
	case !oOK:
		if sign > 0 && nc.Sign() == 0 {
			c.add(neutral, n.ptr(k), "added: 0, no effect", nil, nv)
			return
		}
		c.add(narrowed, n.ptr(k), "added: "+text(nv), nil, nv)
		return
	case !nOK:
		c.add(widened, o.ptr(k), fmt.Sprintf("removed (was %s)", text(ov)), ov, nil)
		return
	}
	switch d := nc.Cmp(oc) * sign; {
	case d > 0:
		c.add(narrowed, n.ptr(k), fmt.Sprintf("tightened from %s to %s", text(ov), text(nv)), ov, nv)
	case d < 0:
		c.add(widened, n.ptr(k), fmt.Sprintf("widened from %s to %s", text(ov), text(nv)), ov, nv)
	}
}

// assertion compares a keyword that a value must match whose sets of values cannot be
// compared in general: pattern, format, contentEncoding. A pattern that matches every
// string (see matchesAll) is compared as no pattern.
func (c *comparer) assertion(o, n node, k string) {
	ov, oOK := o.kw[k]
	nv, nOK := n.kw[k]
	if k == "pattern" && oOK && nOK && !equal(ov, nv) {
		oAll, nAll := matchesAll(ov), matchesAll(nv)
		switch {
		case oAll && nAll:
			c.add(neutral, n.ptr(k), fmt.Sprintf("changed from %s to %s, both match every string", text(ov), text(nv)), ov, nv)
			return
		case nAll:
			c.add(widened, n.ptr(k), fmt.Sprintf("widened from %s to %s, which matches every string", text(ov), text(nv)), ov, nv)
			return
		case oAll:
			c.add(narrowed, n.ptr(k), fmt.Sprintf("tightened from %s, which matches every string, to %s", text(ov), text(nv)), ov, nv)
			return
		}
	}
	switch {
	case !oOK && !nOK || equal(ov, nv):
		return
	case !oOK:
		c.add(narrowed, n.ptr(k), "added: "+text(nv), nil, nv)
	case !nOK:
		c.add(widened, o.ptr(k), fmt.Sprintf("removed (was %s)", text(ov)), ov, nil)
	default:
		c.add(changed, n.ptr(k), fmt.Sprintf("changed from %s to %s", text(ov), text(nv)), ov, nv)
	}
}

func (c *comparer) uniqueItems(o, n node) {
	const k = "uniqueItems"
	ou, _ := o.kw[k].(bool)
	nu, _ := n.kw[k].(bool)
	switch {
	case nu && !ou:
		c.add(narrowed, n.ptr(k), "added: items must be unique", o.kw[k], n.kw[k])
	case ou && !nu:
		c.add(widened, o.ptr(k), "removed: items may repeat", o.kw[k], n.kw[k])
	}
}

func names(v any) []string {
	m, _ := v.(map[string]any)
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func (c *comparer) object(o, n node) {
	op, np := names(o.kw["properties"]), names(n.kw["properties"])
	or, nr := stringSet(o.kw["required"]), stringSet(n.kw["required"])
	for _, name := range op {
		ptr := o.ptr("properties") + "/" + jsonread.EscapeToken(name)
		if !slices.Contains(np, name) {
			ov := o.kw["properties"].(map[string]any)[name]
			if c.output && !slices.Contains(or, name) {
				// A client of an optional output property handles its absence.
				c.add(neutral, ptr, "optional property removed", ov, nil)
				continue
			}
			c.add(changed, ptr, "property removed", ov, nil)
			continue
		}
		ptr = n.ptr("properties") + "/" + jsonread.EscapeToken(name)
		was, is := slices.Contains(or, name), slices.Contains(nr, name)
		switch {
		case was && !is:
			c.add(widened, ptr, "no longer required", true, false)
		case !was && is:
			c.add(narrowed, ptr, "now required", false, true)
		}
		c.schema(o.child("properties", name), n.child("properties", name))
	}
	for _, name := range np {
		if slices.Contains(op, name) {
			continue
		}
		ptr := n.ptr("properties") + "/" + jsonread.EscapeToken(name)
		nv := n.kw["properties"].(map[string]any)[name]
		switch {
		case slices.Contains(nr, name) && !c.output:
			c.add(narrowed, ptr, "required property added", nil, nv)
		case slices.Contains(nr, name):
			c.add(narrowed, ptr, "property added", nil, nv)
		default:
			c.add(neutral, ptr, "optional property added", nil, nv)
		}
	}
	// Required names that no properties declare.
	for _, name := range or {
		if !slices.Contains(op, name) && !slices.Contains(np, name) && !slices.Contains(nr, name) {
			c.add(widened, o.ptr("required"), fmt.Sprintf("%q no longer required", name), o.kw["required"], n.kw["required"])
		}
	}
	for _, name := range nr {
		if !slices.Contains(op, name) && !slices.Contains(np, name) && !slices.Contains(or, name) {
			c.add(narrowed, n.ptr("required"), fmt.Sprintf("%q now required", name), o.kw["required"], n.kw["required"])
		}
	}

	const k = "additionalProperties"
	ov, oOK := o.kw[k]
	nv, nOK := n.kw[k]
	if !oOK && !nOK {
		return
	}
	oClosed, nClosed := ov == false, nv == false
	switch {
	case !oClosed && nClosed:
		c.add(narrowed, n.ptr(k), "object closed: no other properties", ov, nv)
	case oClosed && !nClosed && c.output:
		// As for a new output property: a client ignores the properties it does not
		// know.
		c.add(neutral, o.ptr(k), "object opened: other properties may come", ov, nv)
	case oClosed && !nClosed:
		c.add(widened, o.ptr(k), "object opened: other properties allowed", ov, nv)
	case oClosed && nClosed:
	default:
		c.schema(o.child(k), n.child(k))
	}
}

// branches compares the branches of anyOf or oneOf (k). A branch added to a oneOf widens
// it only when the branches exclude each other by a discriminator, as a tagged union's
// do (see discriminated): otherwise a value that two branches now accept is refused.
func (c *comparer) branches(o, n node, k string) {
	ob, _ := o.kw[k].([]any)
	nb, _ := n.kw[k].([]any)
	_, oOK := o.kw[k]
	_, nOK := n.kw[k]
	switch {
	case !oOK && !nOK:
		return
	case !oOK:
		c.add(changed, n.ptr(k), "added", nil, n.kw[k])
		return
	case !nOK:
		c.add(changed, o.ptr(k), "removed", o.kw[k], nil)
		return
	}
	if len(ob) == len(nb) {
		// The order of the branches means nothing: the same branches in another order
		// accept the same values.
		same := true
		for _, b := range ob {
			if !slices.ContainsFunc(nb, func(x any) bool { return equal(x, b) }) {
				same = false
				break
			}
		}
		if same {
			return
		}
		for i := range ob {
			c.schema(o.child(k, fmt.Sprint(i)), n.child(k, fmt.Sprint(i)))
		}
		return
	}
	var gone, come int
	for _, b := range ob {
		if !slices.ContainsFunc(nb, func(x any) bool { return equal(x, b) }) {
			gone++
		}
	}
	for _, b := range nb {
		if !slices.ContainsFunc(ob, func(x any) bool { return equal(x, b) }) {
			come++
		}
	}
	switch {
	case gone == 0 && k == "oneOf" && !discriminated(nb):
		c.add(changed, n.ptr(k), fmt.Sprintf("changed: %d %s added, whose values other branches may accept too", come, branchWord(come)), o.kw[k], n.kw[k])
	case gone == 0:
		c.add(widened, n.ptr(k), fmt.Sprintf("widened: %d %s added", come, branchWord(come)), o.kw[k], n.kw[k])
	case come == 0:
		c.add(narrowed, n.ptr(k), fmt.Sprintf("narrowed: %d %s removed", gone, branchWord(gone)), o.kw[k], n.kw[k])
	default:
		c.add(changed, n.ptr(k), fmt.Sprintf("changed: %d %s removed, %d added", gone, branchWord(gone), come), o.kw[k], n.kw[k])
	}
}

// discriminated reports whether branches are objects that one required property tells
// apart, each branch's a different const: a tagged union, whose branches no value
// matches twice.
func discriminated(bs []any) bool {
	var consts map[string]map[string]bool // property -> the const texts seen
	for i, b := range bs {
		m, _ := b.(map[string]any)
		props, _ := m["properties"].(map[string]any)
		req, _ := m["required"].([]any)
		here := map[string]string{}
		for _, r := range req {
			name, _ := r.(string)
			if p, ok := props[name].(map[string]any); ok {
				if v, ok := p["const"]; ok {
					here[name] = string(raw(v))
				}
			}
		}
		if i == 0 {
			consts = map[string]map[string]bool{}
			for name, v := range here {
				consts[name] = map[string]bool{v: true}
			}
			continue
		}
		for name, seen := range consts {
			v, ok := here[name]
			if !ok || seen[v] {
				delete(consts, name)
				continue
			}
			seen[v] = true
		}
	}
	return len(consts) > 0
}

func branchWord(n int) string {
	if n == 1 {
		return "branch"
	}
	return "branches"
}
