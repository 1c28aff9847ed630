// Command calls calls every tool of package synthetic with arguments made from its
// input schema and prints the results, for comparing two builds.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"example.com/scaling/synthetic"
)

func main() {
	ts := synthetic.Tools()
	for _, tool := range ts.Tools() {
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		json.Unmarshal(tool.InputSchema, &schema)
		var names []string
		for n := range schema.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, v := range []string{"true", `"a"`, "1", "[]", "{}", "null", `"2024-01-01T00:00:00Z"`, "-1.5", `["x","x"]`, `{"a":"b"}`} {
			args := "{"
			for i, n := range names {
				if i > 0 {
					args += ","
				}
				args += fmt.Sprintf("%q:%s", n, v)
			}
			args += "}"
			for _, a := range []string{args, "{}", `{"zz":1}`} {
				r := ts.Call(context.Background(), tool.Name, []byte(a))
				fmt.Printf("%s %s -> %v %s\n", tool.Name, a, r.IsError, r.Text())
			}
		}
	}
}
