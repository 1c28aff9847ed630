// Package oasdiff holds the test that keeps contractdiff's table of contract changes
// (internal/contractdiff/testdata/oasdiff.json) honest: it runs oasdiff
// (github.com/oasdiff/oasdiff), the OpenAPI breaking-change checker, over an OpenAPI 3.1
// document wrapping each pair, and checks that the verdict and rule ids the table
// records are the ones oasdiff gives. contractdiff's own test then judges toolgen diff
// against those recorded verdicts, without this module's dependencies.
//
// It is a module of its own so that neither the root module nor interop carries
// oasdiff and kin-openapi.
package oasdiff
