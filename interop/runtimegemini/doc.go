// Package runtimegemini holds, in test files only, the checks of runtime/gemini against
// the official Google Gen AI Go SDK (google.golang.org/genai): the declarations, tool
// configs, requests and functionResponse answers the adapter writes are what the SDK's
// types read, and the calls and responses it assembles from bodies and streams are the
// ones the SDK reads. runtime/gemini's own tests check the same behaviour without the
// SDK, which the root module does not require; they share internal/wiretest and
// runtime/gemini/testdata with these.
package runtimegemini
