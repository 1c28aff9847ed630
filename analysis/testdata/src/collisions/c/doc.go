// want +4 `invalid tools=allTools: the constructor must be exported, so that other packages can call it; start it with an upper-case letter \(tools=AllTools\)` `invalid typetools=Toolset: the pattern needs exactly one \*, which stands for the receiver type's name \(typetools=\*Toolset names the tools of Service ServiceToolset\)` `invalid descriptions=terse: want descriptions=verbatim \(doc comments as written\) or descriptions=trim \(the default: a leading Go name is dropped\)` `unknown option "colour" \(known: descriptions, schema, tools, typetools\)` `repeated option "tools" \(first at \S*\.go:\d+:\d+\)`

// Package c has every mistake a //toolgen:package line can have.
//
//toolgen:package tools=allTools typetools=Toolset descriptions=terse colour=red tools=X
package c

// Ping checks the connection.
//
//toolgen:tool readonly
func Ping() string { return "pong" }
