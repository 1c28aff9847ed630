package runtime_test

import (
	"context"
	"testing"
)

// TestUniqueAfterAnotherViolation checks that uniqueItems is checked whatever was
// found wrong before the list or in it (the README promises every violation), for
// items of every kind, among the valid items, and that items that differ are not
// reported as equal then.
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
		// After an invalid item of the list itself, by their indexes in the list.
		{`{"s":[1,"a","a"]}`, `/s/0: must be a string (got 1); /s: must not hold equal items (items 1 and 2 are equal)`},
		{`{"s":["a",1,2,"b","a"]}`, `/s/1: must be a string (got 1); /s/2: must be a string (got 2); /s: must not hold equal items (items 0 and 4 are equal)`},
		{`{"s":["a","b",1]}`, `/s/2: must be a string (got 1)`},
		{`{"o":[{"x":"bad"},{"x":1},{"x":"bad"},{"x":1}]}`, `/o/0/x: must be an integer (got "bad"); /o/2/x: must be an integer (got "bad"); /o: must not hold equal items (items 1 and 3 are equal)`},
		{`{"l":[[1],["x"],[1]]}`, `/l/1/0: must be an integer (got "x"); /l: must not hold equal items (items 0 and 2 are equal)`},
	} {
		r := ts.Call(context.Background(), "u", []byte(tc.args))
		if want := "invalid arguments for u: " + tc.want; !r.IsError || r.Text() != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, r.Text(), want)
		}
	}
}
