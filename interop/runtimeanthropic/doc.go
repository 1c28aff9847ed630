// Package runtimeanthropic holds, in test files only, the checks of runtime/anthropic
// against the official Anthropic Go SDK (github.com/anthropics/anthropic-sdk-go): the
// definitions, tool choices, requests and tool_result answers the adapter writes are
// what the SDK's param types read, and the calls and messages it assembles from bodies
// and streams are the ones the SDK reads and accumulates. runtime/anthropic's own tests
// check the same behaviour without the SDK, which the root module does not require;
// they share internal/wiretest and runtime/anthropic/testdata with these.
package runtimeanthropic
