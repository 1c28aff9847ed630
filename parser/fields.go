package parser

import (
	"go/types"
	"strings"

	"github.com/toolgen/toolgen/model"
)

// fieldJob is a property whose tool tag (or //toolgen:param line) is checked once
// every type of the package is mapped, because the checks need to see through named
// types that may still be in the making when the property is found.
type fieldJob struct {
	field *model.Field
	items []kv
	// pointer and omit are what make a property optional by default.
	pointer, omit bool
	site          model.Pos
	// validate are the rules of the field's validate tag, read as keywords once the
	// types are mapped.
	validate []vrule
	// output marks a field mapped for a result: its validate rules are read (the field
	// may be shared with arguments) but not reported on.
	output bool
	// zeroFails is the first validate rule that rejects the field's zero value (a nil
	// pointer, "", 0, an empty list) with no omitempty before it, read once the types
	// are mapped: the validator checks an absent property's zero value, so the
	// property is required (and a pointer not nullable).
	zeroFails *kv
	// notZero marks validate's required on a time.Time (or its items): the decoder
	// refuses the zero time.
	notZero bool
}

// kv is one constraint: key[=value], from a tool tag or a //toolgen:param line.
type kv struct {
	Key      string
	Value    string
	HasValue bool
	// Pos is the position of Key.
	Pos model.Pos
	// Rule is the validate rule the item was read from, "" for a tool tag's.
	Rule string
	// Text is a tool tag item as written between its commas (see tagItem).
	Text string
	// Values are an enum's values, when they come split (oneof's may hold a "|").
	Values []string
}

// field maps one struct field chosen by mapStruct.
func (b *pkgBuilder) field(sf structField, m mode, owner *namedEntry) *model.Field {
	v := sf.v
	at, info := b.declPos(v)
	omit := false
	for o := range strings.SplitSeq(sf.opts, ",") {
		switch o {
		case "omitempty", "omitzero":
			omit = true
		case "string":
			jt, _ := lookupTag(sf.tag, "json")
			off := strings.Index(jt.Value, ",string")
			b.errorf(b.tagPos(info, jt.Offset(off+1), at), "field %s: the json tag option \"string\" is not supported", v.Name())
		}
	}
	mt, err := b.mapType(v.Type(), m, owner)
	if err != nil {
		b.errorf(at, "field %s: %v", v.Name(), err)
		return nil
	}
	f := &model.Field{
		Name:      sf.name,
		GoPath:    sf.path,
		Type:      mt,
		OmitEmpty: omit,
		Pos:       at,
	}
	if len(sf.path) > 1 {
		f.EmbeddedPointers = sf.ptrs
	}
	if info != nil {
		f.Description, f.Placeholder = b.describe(v.Name(), info.Doc, info.Comment)
	}
	if f.Description == "" {
		f.Description = b.typeDoc(mt)
	}
	job := &fieldJob{field: f, pointer: isPointer(v.Type()), omit: omit, site: at, output: m == modeOutput}
	if tv, ok := lookupTag(sf.tag, "tool"); ok {
		items, errs := splitTag(tv.Value)
		for _, e := range errs {
			b.errorf(b.tagPos(info, tv.Offset(e.Off), at), "field %s: %s", v.Name(), e.Msg)
		}
		for _, it := range items {
			job.items = append(job.items, kv{Key: it.Key, Value: it.Value, HasValue: it.HasValue, Text: it.Text, Pos: b.tagPos(info, tv.Offset(it.Off), at)})
		}
	}
	if tv, ok := lookupTag(sf.tag, "validate"); ok {
		rules, offs, errs := splitValidate(tv.Value)
		for _, e := range errs {
			if m == modeInput {
				b.errorf(b.tagPos(info, tv.Offset(e.Off), at), "field %s: %s", v.Name(), e.Msg)
			}
		}
		for i, r := range rules {
			r.Pos = b.tagPos(info, tv.Offset(offs[i]), at)
			job.validate = append(job.validate, r)
		}
	}
	b.jobs = append(b.jobs, job)
	b.unreadTags(sf, m, info, at)
	return f
}

// unreadTags are the struct tag keys of other libraries that say what a field's values
// may be, which a reader could expect toolgen to honor. They are not read: each one on
// a tool's field is a warning, so that no rule is silently dropped. binding constrains
// arguments only; jsonschema would describe results too. (validate tags are read:
// validate.go.)
var unreadTags = []struct {
	key, msg string
	output   bool
}{
	{"jsonschema", "toolgen does not read jsonschema tags: it changes neither the schema nor the decoder; write its keywords in the tool tag (tool:\"minimum=1,maxLength=64\")", true},
	{"binding", "toolgen does not read binding tags: their rules are neither in the schema nor checked by the decoder; write them as tool tag keywords (tool:\"minimum=1,maxLength=64\")", false},
}

// unreadTags warns about the tags of unreadTags on a field.
func (b *pkgBuilder) unreadTags(sf structField, m mode, info *declInfo, at model.Pos) {
	for _, u := range unreadTags {
		if m == modeOutput && !u.output {
			continue
		}
		tv, ok := lookupTag(sf.tag, u.key)
		if !ok {
			continue
		}
		// The key starts before the value's quote and the colon.
		b.warnf(b.tagPos(info, tv.Offset(0)-2-len(u.key), at), "field %s: %s", sf.v.Name(), u.msg)
	}
}

// declPos is the position of a declared name and what its syntax says, found by
// name in its file when export data left the column out.
func (b *pkgBuilder) declPos(obj types.Object) (model.Pos, *declInfo) {
	info := b.l.docs.lookup(obj.Pos(), obj.Name())
	if info != nil && info.Pos.IsValid() {
		return b.l.position(info.Pos), info
	}
	return b.l.pos(obj.Pos()), info
}

// tagPos is the position of byte off of a field's tag text: exact in a raw string
// literal, the literal's start in an interpreted one, the field itself when the
// syntax is not at hand.
func (b *pkgBuilder) tagPos(info *declInfo, off int, field model.Pos) model.Pos {
	if info == nil || info.Tag == nil {
		return field
	}
	p := b.l.position(info.TagPos)
	lit := info.Tag.Value
	if !strings.HasPrefix(lit, "`") {
		return p
	}
	for i := 0; i < 1+off && i < len(lit); i++ {
		if lit[i] == '\n' {
			p.Line++
			p.Col = 1
		} else {
			p.Col++
		}
	}
	return p
}
