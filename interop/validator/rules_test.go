package validator_test

import (
	"fmt"
	"strings"
	"testing"

	playground "github.com/go-playground/validator/v10"

	"github.com/toolgen/toolgen/internal/validatorrules"
)

// TestValidatorRuleNames checks the names the parser takes for rules the validator
// knows (no did-you-mean for them) against the validator: each is one, and a name that
// is not one ("requird") is refused as an undefined validation function, the panic
// that tells the two apart.
func TestValidatorRuleNames(t *testing.T) {
	v := playground.New()
	undefined := func(rule string) (undefined bool) {
		defer func() {
			if r := recover(); r != nil {
				undefined = strings.Contains(fmt.Sprint(r), "Undefined validation function")
			}
		}()
		_ = v.Var("x", rule)
		return false
	}
	if !undefined("requird") {
		t.Fatal(`the validator takes "requird": the check cannot tell its rules`)
	}
	for _, name := range validatorrules.Names {
		if undefined(name) {
			t.Errorf("%q is in validatorrules.Names, but the validator does not know it", name)
		}
	}
}
