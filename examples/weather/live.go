package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/tooltest"
)

// api is what -live needs to know of a provider's API.
type api struct {
	baseURL string // without a trailing slash
	keyVar  string // the environment variable holding the API key
	model   string // the default model
}

var apis = map[tooltest.Format]api{
	"openai":           {"https://api.openai.com/v1", "OPENAI_API_KEY", "gpt-5-mini"},
	"openai-responses": {"https://api.openai.com/v1", "OPENAI_API_KEY", "gpt-5-mini"},
	"anthropic":        {"https://api.anthropic.com/v1", "ANTHROPIC_API_KEY", "claude-sonnet-4-5"},
	"gemini":           {"https://generativelanguage.googleapis.com/v1beta", "GEMINI_API_KEY", "gemini-2.5-flash"},
}

// NewRequest returns the HTTP request that sends body to a provider's API: its
// endpoint under baseURL ("" for the provider's own) and its authentication headers.
func NewRequest(ctx context.Context, provider tooltest.Format, model, key, baseURL string, body []byte) (*http.Request, error) {
	a, ok := apis[provider]
	if !ok {
		return nil, fmt.Errorf("unknown provider %q", provider)
	}
	if baseURL == "" {
		baseURL = a.baseURL
	}
	header := http.Header{"Content-Type": {"application/json"}}
	var path string
	switch provider {
	case "openai":
		path = "/chat/completions"
		header.Set("Authorization", "Bearer "+key)
	case "openai-responses":
		path = "/responses"
		header.Set("Authorization", "Bearer "+key)
	case "anthropic":
		path = "/messages"
		header.Set("x-api-key", key)
		header.Set("anthropic-version", "2023-06-01")
	case "gemini":
		path = "/models/" + url.PathEscape(model) + ":generateContent"
		header.Set("x-goog-api-key", key)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(baseURL, "/")+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = header
	return req, nil
}

// Live returns a loop.SendFunc that posts each request body to a provider's API
// and returns the response body; any status but 2xx is an error quoting the body.
// A nil client means one with a two-minute timeout.
func Live(provider tooltest.Format, model, key, baseURL string, client *http.Client) loop.SendFunc {
	if client == nil {
		client = &http.Client{Timeout: 2 * time.Minute}
	}
	return func(ctx context.Context, body []byte) ([]byte, error) {
		req, err := NewRequest(ctx, provider, model, key, baseURL, body)
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		out, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
		if err != nil {
			return nil, fmt.Errorf("%s: reading the response: %w", req.URL.Redacted(), err)
		}
		if resp.StatusCode/100 != 2 {
			return nil, fmt.Errorf("%s: %s: %s", req.URL.Redacted(), resp.Status, bytes.TrimSpace(out))
		}
		return out, nil
	}
}

// keyVars lists the API key variables, for the usage message.
func keyVars() []string {
	var vars []string
	for _, a := range apis {
		if !slices.Contains(vars, a.keyVar) {
			vars = append(vars, a.keyVar)
		}
	}
	slices.Sort(vars)
	return vars
}

// defaultModels lists each provider's default model, for the usage message.
func defaultModels() string {
	var out []string
	for _, p := range tooltest.Formats() {
		out = append(out, string(p)+" "+apis[p].model)
	}
	return strings.Join(out, ", ")
}

// providerNames lists the wire formats, for messages.
func providerNames() string {
	names := make([]string, len(tooltest.Formats()))
	for i, f := range tooltest.Formats() {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}
