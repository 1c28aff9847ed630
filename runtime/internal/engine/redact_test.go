package engine

import "testing"

// TestRedactDeepPaths: "**" in a sensitive path stands for any number of keys and
// indexes, also none; below it a value the path does not reach stays as it is, while
// before it a value that stands where the path goes on is replaced whole.
func TestRedactDeepPaths(t *testing.T) {
	tool := &Tool{Sensitive: []string{"/root/**/pin", "/root/**/lock/**/code", "/list/*/key"}}
	for in, want := range map[string]string{
		`{"root":{"pin":"1","name":"n","child":{"pin":"2","kids":[{"pin":"3"},{"PIN":"4","name":"m"}]}}}`: `{"root":{"child":{"kids":[{"pin":"[redacted]"},{"PIN":"[redacted]","name":"m"}],"pin":"[redacted]"},"name":"n","pin":"[redacted]"}}`,
		`{"root":{"child":"{\"pin\":\"5\",\"n\":1}"}}`:                                                    `{"root":{"child":{"n":1,"pin":"[redacted]"}}}`,
		`{"root":{"lock":{"code":"6","next":{"lock":{"x":{"code":"7"}}}}}}`:                               `{"root":{"lock":{"code":"[redacted]","next":{"lock":{"x":{"code":"[redacted]"}}}}}}`,
		`{"root":{"code":"8","lockless":1}}`:                                                              `{"root":{"code":"8","lockless":1}}`,
		`{"root":"9"}`:                                                                                    `{"root":"[redacted]"}`,
		`{"root":[{"pin":"10"}]}`:                                                                         `{"root":[{"pin":"[redacted]"}]}`,
		`{"list":[{"key":"11"},"12",{"k":{"key":"13"}}]}`:                                                 `{"list":[{"key":"[redacted]"},"[redacted]",{"k":{"key":"13"}}]}`,
		`{"list":{"key":"14"}}`:                                                                           `{"list":{"key":"[redacted]"}}`, // "*" stands for any key too
	} {
		if got := string(Redact(tool.Sensitive, []byte(in))); got != want {
			t.Errorf("Redact(%s)\n = %s\nwant %s", in, got, want)
		}
	}
}
