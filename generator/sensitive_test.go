package generator

import (
	"slices"
	"testing"

	"github.com/toolgen/toolgen/model"
)

// TestSensitivePathsReachEveryDepth: below the place a recursive type first appears,
// the sensitive paths go on with "**": a recursive input struct, types that refer to
// each other, a recursive type inside another, and lists and maps of them.
func TestSensitivePathsReachEveryDepth(t *testing.T) {
	secret := cons(func(c *model.Constraints) { c.Sensitive = true })
	pkg := &model.Package{
		Path: "example.com/vault", Name: "vault", Dir: ".",
		Types: []*model.NamedType{
			// Node{Pin; Child *Node; Kids []Node; Inner Inner}
			{ID: "Node", Name: "Node", Recursive: true, Underlying: tStruct(
				fld("pin", tString(), secret),
				fld("child", tPtr(tNamed("Node")), optional),
				fld("kids", tSlice(tNamed("Node")), optional),
				fld("inner", tNamed("Inner"), optional),
			)},
			// Inner{Chain map[string]*Link}: not recursive, holding a recursive type.
			{ID: "Inner", Name: "Inner", Underlying: tStruct(
				fld("chain", tMap(tString(), tPtr(tNamed("Link"))), optional),
			)},
			// Link{Code; Next *Link}
			{ID: "Link", Name: "Link", Recursive: true, Underlying: tStruct(
				fld("code", tString(), secret),
				fld("next", tPtr(tNamed("Link")), optional),
			)},
			// Ping{Pong *Pong; Key}, Pong{Ping *Ping}: each refers to the other.
			{ID: "Ping", Name: "Ping", Recursive: true, Underlying: tStruct(
				fld("pong", tPtr(tNamed("Pong")), optional),
				fld("key", tString(), secret),
			)},
			{ID: "Pong", Name: "Pong", Recursive: true, Underlying: tStruct(
				fld("ping", tPtr(tNamed("Ping")), optional),
			)},
		},
	}
	for _, tc := range []struct {
		input model.Input
		want  []string
	}{
		{model.Input{Kind: model.InputStruct, Type: tPtr(tNamed("Node"))},
			[]string{"/pin", "/child/**/pin", "/child/**/inner/chain/*/**/code", "/kids/*/**/pin", "/kids/*/**/inner/chain/*/**/code", "/inner/chain/*/**/code"}},
		{model.Input{Kind: model.InputParams, Params: []*model.Field{fld("a", tNamed("Ping")), fld("b", tSlice(tNamed("Pong")))}},
			[]string{"/a/**/key", "/b/*/**/ping/**/key"}},
	} {
		got := sensitivePaths(pkg, &model.Tool{Name: "t", Input: tc.input})
		if !slices.Equal(got, tc.want) {
			t.Errorf("sensitivePaths = %q, want %q", got, tc.want)
		}
	}
}
