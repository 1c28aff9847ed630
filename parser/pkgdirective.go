package parser

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgen/toolgen/model"
)

// packageDirective is the directive of a package's options. It is a line of the doc
// comment of a package clause, in any one file of the package:
//
//	// Package bank serves accounts.
//	//
//	//toolgen:package tools=AllTools typetools=*Toolset descriptions=verbatim schema=2020-12
//	package bank
const packageDirective = "package"

// packageOptionNames are the options of //toolgen:package.
var packageOptionNames = []string{"tools", "typetools", "descriptions", "schema"}

// Values of the descriptions= option.
const (
	descriptionsTrim     = "trim"     // the default: a leading Go name is dropped
	descriptionsVerbatim = "verbatim" // doc comments as written
)

// packageOptions are what a package's //toolgen:package line says.
type packageOptions struct {
	// toolsFunc names the constructor of the package-level tools ("" for the default).
	toolsFunc string
	// typeToolsFunc is the pattern of the receiver types' constructors ("" for the
	// default).
	typeToolsFunc string
	// verbatim keeps doc comments as written in descriptions.
	verbatim bool
	// schemaDialect is the value of schema= (model.SchemaDialect202012), "" when
	// absent: the roots of the canonical schemas then name no "$schema".
	schemaDialect string
	// toolsOff and typeToolsOff are the offsets of the options in the comment, -1
	// when absent.
	toolsOff, typeToolsOff int
	// c is the directive's comment, nil when the package has none.
	c *ast.Comment
}

// packageDirectives returns the //toolgen:package lines of a file's package clause doc
// comment.
func packageDirectives(f *ast.File) []*ast.Comment {
	if f.Doc == nil {
		return nil
	}
	var out []*ast.Comment
	for _, c := range f.Doc.List {
		if name, _, ok := directiveName(c.Text); ok && name == packageDirective {
			out = append(out, c)
		}
	}
	return out
}

// parsePackageOptions reads a //toolgen:package line. Invalid options are reported
// and left at their defaults; where formats the position of an offset in the comment
// for messages.
func parsePackageOptions(c *ast.Comment, where func(off int) string) (packageOptions, []offError) {
	po := packageOptions{toolsOff: -1, typeToolsOff: -1, c: c}
	_, rest, _ := directiveName(c.Text)
	opts, errs := splitOptions(c.Text[rest:], rest)
	seen := map[string]option{}
	for _, o := range opts {
		fail := func(format string, args ...any) {
			errs = append(errs, offError{o.Off, fmt.Sprintf(format, args...)})
		}
		if !slices.Contains(packageOptionNames, o.Key) {
			fail("%s", unknownMsg("option", o.Key, packageOptionNames))
			continue
		}
		if prev, dup := seen[o.Key]; dup {
			fail("repeated option %q (first at %s)", o.Key, where(prev.Off))
			continue
		}
		seen[o.Key] = o
		if !o.HasValue || o.Value == "" {
			fail("option %q needs a value (%s=...)", o.Key, o.Key)
			continue
		}
		v := o.Value
		switch o.Key {
		case "tools":
			if msg := checkConstructorName(v, "tools", v); msg != "" {
				fail("%s", msg)
				continue
			}
			po.toolsFunc, po.toolsOff = v, o.Off
		case "typetools":
			if n := strings.Count(v, "*"); n != 1 {
				fail("invalid typetools=%s: the pattern needs exactly one *, which stands for the receiver type's name (typetools=*Toolset names the tools of Service ServiceToolset)", v)
				continue
			}
			if v == "*" {
				fail("invalid typetools=*: the constructor would have the receiver type's own name; add to it, as in typetools=*Toolset")
				continue
			}
			if msg := checkConstructorName(strings.Replace(v, "*", "Service", 1), "typetools", v); msg != "" {
				fail("%s", msg)
				continue
			}
			po.typeToolsFunc, po.typeToolsOff = v, o.Off
		case "descriptions":
			switch v {
			case descriptionsTrim:
				po.verbatim = false
			case descriptionsVerbatim:
				po.verbatim = true
			default:
				fail("invalid descriptions=%s: want descriptions=%s (doc comments as written) or descriptions=%s (the default: a leading Go name is dropped)", v, descriptionsVerbatim, descriptionsTrim)
			}
		case "schema":
			if v != model.SchemaDialect202012 {
				fail("invalid schema=%s: want schema=%s, the only dialect toolgen writes (every tool's inputSchema and outputSchema then say \"$schema\": %q)", v, model.SchemaDialect202012, model.SchemaURI202012)
				continue
			}
			po.schemaDialect = v
		}
	}
	return po, errs
}

// checkConstructorName checks a constructor name given by option key (written value)
// and returns what is wrong with it, or "".
func checkConstructorName(name, key, value string) string {
	switch {
	case !token.IsIdentifier(name):
		return fmt.Sprintf("invalid %s=%s: %q is not a Go identifier", key, value, name)
	case !token.IsExported(name) && !strings.HasPrefix(value, "*"):
		r, _ := utf8.DecodeRuneInString(value)
		return fmt.Sprintf("invalid %s=%s: the constructor must be exported, so that other packages can call it; start it with an upper-case letter (%s=%c%s)", key, value, key, unicode.ToUpper(r), value[utf8.RuneLen(r):])
	case model.IsHelperName(name):
		return fmt.Sprintf("invalid %s=%s: names that start with %q and an upper-case letter are reserved for toolgen's helpers", key, value, model.HelperPrefix)
	}
	return ""
}

// readPackageOptions reads the package's //toolgen:package line, reporting a second
// one and the problems of its options, into b.opts and the model.
func (b *pkgBuilder) readPackageOptions(files []*ast.File, mp *model.Package) {
	b.opts = packageOptions{toolsOff: -1, typeToolsOff: -1}
	var first *ast.Comment
	for _, f := range files {
		for _, c := range packageDirectives(f) {
			if first != nil {
				b.errorf(b.commentPos(c, 0), "repeated %s%s directive (first at %s): a package has one", directivePrefix, packageDirective, formatPos(b.commentPos(first, 0)))
				continue
			}
			first = c
			po, errs := parsePackageOptions(c, func(off int) string { return formatPos(b.commentPos(c, off)) })
			for _, e := range errs {
				b.errorf(b.commentPos(c, e.Off), "%s", e.Msg)
			}
			b.opts = po
		}
	}
	mp.ToolsFunc = b.opts.toolsFunc
	mp.TypeToolsFunc = b.opts.typeToolsFunc
	mp.SchemaDialect = b.opts.schemaDialect
}

// optionsOf returns what a package's //toolgen:package line says, ignoring its
// mistakes (the builder reports them).
func optionsOf(files []*ast.File) packageOptions {
	for _, f := range files {
		for _, c := range packageDirectives(f) {
			po, _ := parsePackageOptions(c, func(int) string { return "" })
			return po
		}
	}
	return packageOptions{toolsOff: -1, typeToolsOff: -1}
}
