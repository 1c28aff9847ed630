package generator

import (
	"fmt"
	"unicode/utf8"

	"github.com/toolgen/toolgen/model"
)

// checkText reports the first string of pkg that reaches a generated file and is not
// valid UTF-8: JSON holds text only (encoding/json would write U+FFFD in its place,
// so the schema would say another value than the code checks), and neither does a
// model's call. The parser refuses such strings at their positions; this guards the
// models built by hand.
func checkText(pkg *model.Package) error {
	for _, t := range pkg.Tools {
		for _, s := range append([]string{t.Name, t.Title, t.Description}, t.Groups...) {
			if !utf8.ValidString(s) {
				return fmt.Errorf("tool %q: %q is not valid UTF-8", t.Name, s)
			}
		}
		for _, p := range t.Input.Params {
			if err := checkFieldText(p); err != nil {
				return fmt.Errorf("tool %q: %w", t.Name, err)
			}
		}
		for _, ty := range []*model.Type{t.Input.Type, t.Output.Type} {
			if err := checkTypeText(ty); err != nil {
				return fmt.Errorf("tool %q: %w", t.Name, err)
			}
		}
	}
	for _, nt := range pkg.Types {
		if !utf8.ValidString(nt.Doc) {
			return fmt.Errorf("type %s: doc comment %q is not valid UTF-8", nt.ID, nt.Doc)
		}
		for _, ev := range nt.Enum {
			if !utf8.ValidString(ev.Value) || !utf8.ValidString(ev.Doc) {
				return fmt.Errorf("type %s: constant %s: %q (%q) is not valid UTF-8", nt.ID, ev.GoName, ev.Value, ev.Doc)
			}
		}
		if err := checkTypeText(nt.Underlying); err != nil {
			return fmt.Errorf("type %s: %w", nt.ID, err)
		}
		for _, v := range variantsOf(nt.Underlying) {
			if !utf8.ValidString(v.Value) || !utf8.ValidString(nt.Underlying.Tag) {
				return fmt.Errorf("type %s: variant %q (discriminator %q) is not valid UTF-8", nt.ID, v.Value, nt.Underlying.Tag)
			}
		}
	}
	return nil
}

// checkTypeText checks the fields of the unnamed structs in t (named types are
// checked once, as pkg.Types).
func checkTypeText(t *model.Type) error {
	for ; t != nil; t = t.Elem {
		for _, f := range t.Fields {
			if err := checkFieldText(f); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkFieldText(f *model.Field) error {
	c := f.Constraints
	strs := []string{f.Name, f.Description, c.Const, c.Default, c.Pattern, c.Format, c.Layout, c.Title}
	strs = append(strs, c.Enum...)
	for _, s := range strs {
		if !utf8.ValidString(s) {
			return fmt.Errorf("property %q: %q is not valid UTF-8", f.Name, s)
		}
	}
	return checkTypeText(f.Type)
}

// variantsOf returns a union's variants, nil for any other type (or none).
func variantsOf(t *model.Type) []*model.Variant {
	if t == nil {
		return nil
	}
	return t.Variants
}
