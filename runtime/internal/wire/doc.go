// Package wire holds the plumbing the provider adapters (runtime/openai,
// runtime/anthropic, runtime/gemini) share: a server-sent event reader and helpers for
// the JSON objects they read and rewrite field by field, keeping every field they do
// not own. What differs between the providers, their wire formats, stays in their
// packages.
//
// Like all of runtime/..., it depends on the standard library only.
package wire
