// want +4 `repeated //toolgen:package directive \(first at \S*\.go:\d+:\d+\): a package has one`

// A second //toolgen:package line, in another file.
//
//toolgen:package tools=Other
package c

// want +2 `//toolgen:package must be in the doc comment of the package clause \(the comment right above "package c"\)`

//toolgen:package tools=Third
func notHere() {}
