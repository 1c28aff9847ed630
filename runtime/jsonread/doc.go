// Package jsonread is toolgen's one JSON tokenizer. The runtime's argument decoder,
// toolmcp's screens of MCP messages (duplicate and case-folded keys, depth, stdio
// framing) and the providers' stream accumulators all read JSON through it, so a
// string, a number, an escape or a nesting is read one way everywhere, with one set of
// limits and one JSON Pointer escaping.
//
// It has three layers:
//
//   - lexical functions (SkipSpace, PlainEnd, ScanString, String, ScanNumber, Literal,
//     Skip, Valid) that read one token or one value of a byte slice at an index and
//     return the index after it, for readers that drive their own structure, such as
//     the decoder, which reads a value as the schema asks;
//   - a Scanner, which reads a whole text token by token, keeps the JSON Pointer of the
//     current position, enforces Limits and finds keys given twice in an object, exactly
//     or under Unicode case folding (KeyMode);
//   - loose functions (SkipLoose, DepthOver) for text that may be malformed or cut
//     short, which find where a value ends by counting brackets and check nothing else.
//
// What it reads valid, encoding/json reads valid (FuzzScanner holds the two equal),
// and it decodes a string as encoding/json does: escapes undone, a surrogate pair
// joined, a lone surrogate and each byte of invalid UTF-8 read as U+FFFD.
//
// It imports only the standard library, since package runtime, which every program
// using generated tools links, imports it. Like runtime/schematree and
// runtime/safetext, it is for toolgen's own packages (the runtime and its provider
// packages, toolmcp, the generator): its API follows them and is not part of the
// runtime's compatibility promise.
package jsonread
