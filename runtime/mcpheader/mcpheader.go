// Package mcpheader reads and checks the properties of a tool's arguments that an MCP
// client mirrors into HTTP headers (MCP SEP-2243): "x-mcp-header": "Region" in a
// property's schema asks a client over streamable HTTP to send the argument as the
// header Mcp-Param-Region too, for load balancers and gateways to route by. toolgen
// writes it for tool:"header=Region"; runtime.NewTool checks a dynamic tool's, and
// toolmcp checks what the client sent against the arguments.
package mcpheader

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Keyword is the keyword of a property's schema that names the HTTP header the
// property's value is mirrored into (MCP SEP-2243): "x-mcp-header": "Region" asks an
// MCP client over streamable HTTP to send the argument as the header Mcp-Param-Region,
// for load balancers and gateways to route by, and the server to check that the header
// says what the arguments say. toolgen writes it for tool:"header=Region"; a dynamic
// tool's schema may carry it too (runtime.NewTool checks it as generate does).
const Keyword = "x-mcp-header"

// MaxNameBytes is the longest header name (the part after Mcp-Param-) a
// property may name. SEP-2243 sets no bound; this one keeps Mcp-Param-{name} well
// inside what HTTP servers take for a header line.
const MaxNameBytes = 64

// Param is a property of a tool's arguments mirrored into an HTTP header.
type Param struct {
	// Path is the chain of property names from the arguments' root to the property.
	Path []string
	// Name is the header's name after Mcp-Param-, as the schema writes it.
	Name string
	// Type is the property's JSON Schema type: "string", "integer" or "boolean".
	Type string
}

// CheckName reports why name cannot be an x-mcp-header value, by SEP-2243's
// rules: it must not be empty, must be an HTTP field-name token (1*tchar of RFC 9110,
// which leaves out spaces, colons, control characters and anything not ASCII), and
// here at most MaxNameBytes long. It returns nil for a valid name.
func CheckName(name string) error {
	if name == "" {
		return errors.New("a header name must not be empty")
	}
	if len(name) > MaxNameBytes {
		return fmt.Errorf("a header name is at most %d bytes, not %d", MaxNameBytes, len(name))
	}
	for i := 0; i < len(name); i++ {
		if !isTokenChar(name[i]) {
			r := []rune(name[i:])[0]
			return fmt.Errorf("a header name is an HTTP token (letters, digits and !#$%%&'*+-.^_`|~), and %s is not one of those", strconv.QuoteRune(r))
		}
	}
	return nil
}

// isTokenChar reports whether c is an RFC 9110 tchar.
func isTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// valueKeywords hold JSON values rather than schemas.
var valueKeywords = []string{"const", "enum", "default", "examples"}

// headerTypes are the JSON Schema types SEP-2243 lets a header carry.
var headerTypes = []string{"string", "integer", "boolean"}

// Params returns the properties of a tool's arguments that its input schema mirrors
// into HTTP headers (Keyword), sorted by path, or an error naming an
// annotation SEP-2243 refuses: a name CheckName refuses, a name two properties
// share (compared case-insensitively, as header names are), a property whose type is
// not exactly one of string, integer and boolean, or an annotation not reachable from
// the root through "properties" alone (inside items, anyOf, $defs or any other
// keyword). A client must drop a tool with such an annotation, so runtime.NewTool
// refuses it. A schema that is not JSON has no header parameters: its own check says so.
func Params(schema []byte) ([]Param, error) {
	if !bytes.Contains(schema, []byte(Keyword)) && !bytes.Contains(schema, []byte(`\u`)) {
		return nil, nil // no annotation, not even spelled with escapes
	}
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, nil // not JSON: the schema's own check says so
	}
	var out []Param
	seen := map[string]string{} // lower-case name -> the path that has it
	var walk func(v any, path []string, reachable bool) error
	walk = func(v any, path []string, reachable bool) error {
		switch v := v.(type) {
		case []any:
			for _, it := range v {
				if err := walk(it, path, false); err != nil {
					return err
				}
			}
			return nil
		case map[string]any:
			at := "/" + strings.Join(path, "/")
			if h, ok := v[Keyword]; ok {
				p, err := headerParam(v, h, path, at, reachable, seen)
				if err != nil {
					return err
				}
				out = append(out, p)
			}
			for _, k := range slices.Sorted(maps.Keys(v)) {
				switch {
				case k == Keyword || slices.Contains(valueKeywords, k):
					// Values, not schemas: an object there is data.
				case k == "properties" && reachable:
					props, _ := v[k].(map[string]any)
					for _, name := range slices.Sorted(maps.Keys(props)) {
						if err := walk(props[name], append(slices.Clip(path), name), true); err != nil {
							return err
						}
					}
				default:
					// Any other keyword's schemas (items, anyOf, $defs, ...) are not
					// reachable through properties alone: an annotation there is refused.
					if err := walk(v[k], append(slices.Clip(path), k), false); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	if err := walk(root, nil, true); err != nil {
		return nil, fmt.Errorf("input schema %w", err)
	}
	return out, nil
}

// headerParam checks the annotation h of the schema node at path (at, its JSON Pointer
// of property names), whose names so far are in seen.
func headerParam(node map[string]any, h any, path []string, at string, reachable bool, seen map[string]string) (Param, error) {
	if !reachable || len(path) == 0 {
		return Param{}, fmt.Errorf("%s: %s is only for a property reached from the arguments through \"properties\" alone", at, Keyword)
	}
	name, ok := h.(string)
	if !ok {
		return Param{}, fmt.Errorf("%s: %s must be a string", at, Keyword)
	}
	if err := CheckName(name); err != nil {
		return Param{}, fmt.Errorf("%s: %s %q: %w", at, Keyword, name, err)
	}
	typ, _ := node["type"].(string)
	if !slices.Contains(headerTypes, typ) {
		return Param{}, fmt.Errorf("%s: %s %q is for a string, integer or boolean property (one \"type\"), not %s", at, Keyword, name, typeSaid(typ, node["type"]))
	}
	lower := strings.ToLower(name)
	if other, dup := seen[lower]; dup {
		return Param{}, fmt.Errorf("%s: %s %q: the property %s has it already (header names are compared case-insensitively)", at, Keyword, name, other)
	}
	seen[lower] = at
	return Param{Path: slices.Clone(path), Name: name, Type: typ}, nil
}

func typeSaid(typ string, raw any) string {
	if typ == "" || raw == nil {
		return "a property without one type"
	}
	return strconv.Quote(typ)
}
