package wire_test

import (
	"errors"
	"testing"

	"github.com/toolgen/toolgen/runtime/internal/wire"
)

func TestHasCalls(t *testing.T) {
	if !wire.HasCalls([]string{"call"}, nil) {
		t.Error("HasCalls of a call = false")
	}
	if wire.HasCalls([]string{}, nil) || wire.HasCalls[string](nil, nil) {
		t.Error("HasCalls of no call = true")
	}
	if wire.HasCalls([]string{"call"}, errors.New("malformed")) {
		t.Error("HasCalls of an error = true")
	}
}
