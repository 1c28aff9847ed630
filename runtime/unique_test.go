package runtime_test

import (
	"context"
	"testing"
)

// TestUniqueAfterAnotherViolation checks that uniqueItems is checked whatever was
// found wrong before the list (the README promises every violation), for items of
// every kind, and that items that differ are not reported as equal then.
func TestUniqueAfterAnotherViolation(t *testing.T) {
	ts := mustTool(t, "u", `{"type":"object","properties":{
		"n":{"type":"integer","maximum":5},
		"s":{"type":"array","items":{"type":"string"},"uniqueItems":true},
		"o":{"type":"array","items":{"type":"object","properties":{"x":{"type":"integer"}}},"uniqueItems":true},
		"l":{"type":"array","items":{"type":"array","items":{"type":"integer"}},"uniqueItems":true}}}`)
	for _, tc := range []struct{ args, want string }{
		{`{"n":6,"s":["a","b","a"]}`, `/n: must be at most 5 (got 6); /s: must not hold equal items (items 0 and 2 are equal)`},
		{`{"n":6,"o":[{"x":1},{"x":2},{"x":1}]}`, `/n: must be at most 5 (got 6); /o: must not hold equal items (items 0 and 2 are equal)`},
		{`{"n":6,"l":[[1],[2],[1]]}`, `/n: must be at most 5 (got 6); /l: must not hold equal items (items 0 and 2 are equal)`},
		{`{"n":6,"o":[{"x":1},{"x":2}],"l":[[1],[2]],"s":["a","b"]}`, `/n: must be at most 5 (got 6)`},
		{`{"s":["a","a"],"o":[{"x":1},{"x":1}]}`, `/s: must not hold equal items (items 0 and 1 are equal); /o: must not hold equal items (items 0 and 1 are equal)`},
	} {
		r := ts.Call(context.Background(), "u", []byte(tc.args))
		if want := "invalid arguments for u: " + tc.want; !r.IsError || r.Text() != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, r.Text(), want)
		}
	}
}
