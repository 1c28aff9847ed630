package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/tooltest"
)

// TestConverse runs the conversation with every provider's replayed API: the model's
// answer, composed from the results it read in the request, names both cities.
func TestConverse(t *testing.T) {
	for _, provider := range tooltest.Formats() {
		t.Run(string(provider), func(t *testing.T) {
			send, err := tooltest.Send(provider, Script())
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			answer, err := Converse(context.Background(), &out, provider, apis[provider].model, send)
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			for _, city := range []string{"Paris", "Tokyo"} {
				if !strings.Contains(answer, city) {
					t.Errorf("the answer does not mention %s: %q", city, answer)
				}
			}
			if !strings.Contains(answer, "°F") || strings.Contains(answer, "could not") {
				t.Errorf("the answer: %q", answer)
			}
			// The model read the reports alone (answer parses them); the cards were
			// for the user.
			for _, city := range []string{"Paris", "Tokyo"} {
				if !strings.Contains(out.String(), "for the user:\n      "+city+", the next 2 days\n") {
					t.Errorf("no card for %s:\n%s", city, out.String())
				}
			}
			if n := strings.Count(out.String(), "get_weather  id="); n != 2 || !strings.Contains(out.String(), "round 1: the model made 2 call(s) in one turn") {
				t.Errorf("the rounds printed (%d calls):\n%s", n, out.String())
			}
		})
	}
}

// TestConverseStream runs the conversation with every provider's replayed API
// streaming: the model's text is printed as it comes, before each round and at the end,
// and the answer is the one Converse gets.
func TestConverseStream(t *testing.T) {
	for _, provider := range tooltest.Formats() {
		t.Run(string(provider), func(t *testing.T) {
			stream, err := tooltest.Stream(provider, Script())
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			answer, err := ConverseStream(context.Background(), &out, provider, apis[provider].model, stream)
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			send, err := tooltest.Send(provider, Script())
			if err != nil {
				t.Fatal(err)
			}
			whole, err := Converse(context.Background(), io.Discard, provider, apis[provider].model, send)
			if err != nil || whole != answer {
				t.Errorf("streamed answer %q, whole %q (%v)", answer, whole, err)
			}
			text := out.String()
			say := strings.Index(text, "assistant (streamed): I'll look up both cities.\n\nround 1: the model made 2 call(s) in one turn")
			final := strings.Index(text, "assistant (streamed): "+answer+"\n")
			if say < 0 || final < say || strings.Contains(text, "assistant: ") {
				t.Errorf("the streamed conversation printed:\n%s", text)
			}
		})
	}
}

func TestRun(t *testing.T) {
	noEnv := func(string) string { return "" }
	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{nil, 0, "assistant: Here is the forecast"},
		{[]string{"-provider", "gemini"}, 0, "/unit: must be one of"},
		{[]string{"-live"}, 2, "needs the API key in OPENAI_API_KEY"},
		{[]string{"-live", "-provider", "anthropic"}, 2, "ANTHROPIC_API_KEY"},
		{[]string{"-live", "-provider", "gemini"}, 2, "GEMINI_API_KEY"},
		{[]string{"-provider", "mistral"}, 2, "unknown -provider"},
		{[]string{"-stream", "-provider", "openai-responses"}, 0, "assistant (streamed): Here is the forecast"},
		{[]string{"-stream", "-wire"}, 0, `<-- event "": {"choices":[{"delta":{"content":"Here "}`},
		{[]string{"-stream", "-live"}, 2, "-stream works with the replayed API only"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, &stdout, &stderr, noEnv)
		if code != tc.code || !strings.Contains(stdout.String()+stderr.String(), tc.says) {
			t.Errorf("weather %s: exit %d, want %d saying %q\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.args, " "), code, tc.code, tc.says, stdout.String(), stderr.String())
		}
	}
}

// TestLive checks what -live sends, to a test server: each API's endpoint and
// headers, the body unchanged, and the response body or the error status.
func TestLive(t *testing.T) {
	var got *http.Request
	var gotBody []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, gotBody = r, must(io.ReadAll(r.Body))
		if r.Header.Get("X-Fail") != "" || strings.Contains(string(gotBody), "fail") {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()

	for _, tc := range []struct {
		provider tooltest.Format
		path     string
		headers  map[string]string
	}{
		{"openai", "/v1/chat/completions", map[string]string{"Authorization": "Bearer sk-test"}},
		{"openai-responses", "/v1/responses", map[string]string{"Authorization": "Bearer sk-test"}},
		{"anthropic", "/v1/messages", map[string]string{"X-Api-Key": "sk-test", "Anthropic-Version": "2023-06-01"}},
		{"gemini", "/v1beta/models/gemini-2.5-flash:generateContent", map[string]string{"X-Goog-Api-Key": "sk-test"}},
	} {
		send := Live(tc.provider, apis[tc.provider].model, "sk-test", srv.URL+"/"+strings.Split(tc.path, "/")[1]+"/", srv.Client())
		resp, err := send(context.Background(), []byte(`{"q":1}`))
		if err != nil || string(resp) != `{"ok":true}` {
			t.Errorf("%s: %s, %v", tc.provider, resp, err)
			continue
		}
		if got.Method != http.MethodPost || got.URL.Path != tc.path || string(gotBody) != `{"q":1}` {
			t.Errorf("%s: %s %s %s", tc.provider, got.Method, got.URL.Path, gotBody)
		}
		tc.headers["Content-Type"] = "application/json"
		for k, v := range tc.headers {
			if got.Header.Get(k) != v {
				t.Errorf("%s: header %s is %q, want %q", tc.provider, k, got.Header.Get(k), v)
			}
		}
		for _, k := range []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key"} {
			if _, ok := tc.headers[k]; !ok && got.Header.Get(k) != "" {
				t.Errorf("%s: sends the key in %s too", tc.provider, k)
			}
		}
		if _, err := send(context.Background(), []byte(`{"fail":1}`)); err == nil || !strings.Contains(err.Error(), "400 Bad Request") || !strings.Contains(err.Error(), "bad request") {
			t.Errorf("%s: an HTTP 400 gave %v", tc.provider, err)
		}
	}

	// The default endpoints, without sending anything.
	for provider, want := range map[tooltest.Format]string{
		"openai":           "https://api.openai.com/v1/chat/completions",
		"openai-responses": "https://api.openai.com/v1/responses",
		"anthropic":        "https://api.anthropic.com/v1/messages",
		"gemini":           "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
	} {
		req, err := NewRequest(context.Background(), provider, apis[provider].model, "k", "", nil)
		if err != nil || req.URL.String() != want {
			t.Errorf("%s: %v, %v; want %s", provider, req.URL, err, want)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
