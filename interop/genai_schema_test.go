package interop_test

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"google.golang.org/genai"
)

// TestGenaiSchemaKeys checks generator/testdata/genai_schema_keys.txt, the keywords
// the generator's dialect rules (generator/dialect_rules_test.go) allow in a Gemini
// schema, against the JSON field names of the SDK's genai.Schema, which the root
// module's tests cannot import.
func TestGenaiSchemaKeys(t *testing.T) {
	data, err := os.ReadFile("../generator/testdata/genai_schema_keys.txt")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			listed = append(listed, line)
		}
	}
	var keys []string
	st := reflect.TypeFor[genai.Schema]()
	for i := range st.NumField() {
		if name, _, _ := strings.Cut(st.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	if !slices.Equal(listed, keys) {
		t.Errorf("generator/testdata/genai_schema_keys.txt lists\n%q\ngenai.Schema has\n%q", listed, keys)
	}
}
