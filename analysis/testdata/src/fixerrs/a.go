package fixerrs

// want +4 `unknown option "redonly" \(did you mean "readonly"\?\)`

// Misspelt has a misspelt option.
//
//toolgen:tool redonly
func Misspelt() {}

// want +4 `unknown directive "//toolgen:tools" \(did you mean "//toolgen:tool"\?\)`

// Directive has a misspelt directive.
//
//toolgen:tools readonly
func Directive() {}

// Query has a misspelt constraint, and a misspelt format, whose position is the
// item's, not the value's: no fix for it.
type Query struct {
	// Name is a name.
	Name string `json:"name" tool:"minLenght=1"` // want `unknown constraint "minLenght" \(did you mean "minLength"\?\)`
	// Site is a URL.
	Site string `json:"site" tool:"format=url"` // want `unknown format "url" \(did you mean "uri"\?\)`
}

// Search searches.
//
//toolgen:tool readonly
func Search(q Query) {}

// want +4 `unknown option "xyzzy" \(known: .*\)`

// Far has no known option near it.
//
//toolgen:tool xyzzy
func Far() {}

// Near has a space in its directive: an error, with the fix.
//
// want +1 `"// toolgen:tool readonly" is not a toolgen directive: did you mean //toolgen:tool readonly\?`
// toolgen:tool readonly
func Near() {}

// Block has its directive in a /* */ comment.
//
// want +1 `"/\* toolgen:tool \*/" is not a toolgen directive: did you mean //toolgen:tool\?`
/* toolgen:tool */
func Block() {}
