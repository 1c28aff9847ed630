// Package runtimeopenai holds, in test files only, the checks of runtime/openai
// against the official OpenAI Go SDK (github.com/openai/openai-go): the definitions,
// tool choices, requests and answers the adapter writes are what the SDK reads and
// builds, and the calls it reads from bodies and streams the SDK built or recorded
// are the ones the SDK reads (its accumulator, its stream event types). runtime/openai's
// own tests check the same behaviour without the SDK, which the root module does not
// require; they share internal/wiretest and runtime/openai/testdata with these.
package runtimeopenai
