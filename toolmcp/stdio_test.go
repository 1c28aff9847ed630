package toolmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolgen/toolgen/toolmcp"
)

// rawClient speaks JSON-RPC lines to a server on a toolmcp.IOTransport, to send what
// no well-behaved client library would.
type rawClient struct {
	t    testing.TB
	in   *io.PipeWriter
	msgs chan rawMessage
	seen map[string]rawMessage // responses read while waiting for another id
	done chan error            // the server session's end
}

type rawMessage struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func startRaw(t testing.TB, maxBytes int) *rawClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := newServer()
	toolmcp.Register(s, newFixture().ts)
	ss, err := s.Connect(context.Background(), &toolmcp.IOTransport{Reader: inR, Writer: outW, MaxMessageBytes: maxBytes}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &rawClient{t: t, in: inW, msgs: make(chan rawMessage, 16), seen: map[string]rawMessage{}, done: make(chan error, 1)}
	go func() { c.done <- ss.Wait() }()
	go func() {
		r := bufio.NewReader(outR)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				close(c.msgs)
				return
			}
			var m rawMessage
			if err := json.Unmarshal(line, &m); err != nil {
				t.Errorf("the server wrote a line that is not JSON: %q", line)
				continue
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		ss.Close()
	})
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	c.expect(`"init"`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// expect returns the response of id (its JSON text).
func (c *rawClient) expect(id string) rawMessage {
	c.t.Helper()
	if m, ok := c.seen[id]; ok {
		delete(c.seen, id)
		return m
	}
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("the server closed its output while %s was awaited (session ended: %v)", id, <-c.done)
			}
			if string(m.ID) == id {
				return m
			}
			c.seen[string(m.ID)] = m
		case <-timeout:
			c.t.Fatalf("no response to %s", id)
		}
	}
}

// alive checks that the session still answers.
func (c *rawClient) alive(n int) {
	c.t.Helper()
	id := fmt.Sprintf(`"ping-%d"`, n)
	c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	if m := c.expect(id); m.Error != nil {
		c.t.Fatalf("ping: %s", m.Error.Message)
	}
}

func TestIOTransportAnswersWhatTheSDKCannotRead(t *testing.T) {
	c := startRaw(t, 0)
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	for i, tc := range []struct {
		name, line, id string
		code           int64
	}{
		{"too deep", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":` + deep + `}}}`, "1", jsonrpc.CodeInvalidRequest},
		{"not JSON", `hello`, "null", jsonrpc.CodeParseError},
		{"cut short", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"`, "2", jsonrpc.CodeParseError},
		{"two messages on a line", `{"jsonrpc":"2.0","id":3,"method":"ping"} {"jsonrpc":"2.0","id":4,"method":"ping"}`, "3", jsonrpc.CodeParseError},
		{"a number", `42`, "null", jsonrpc.CodeInvalidRequest},
		{"a string", `"ping"`, "null", jsonrpc.CodeInvalidRequest},
		{"a batch", `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, "null", jsonrpc.CodeInvalidRequest},
		{"no version", `{"id":6,"method":"ping"}`, "6", jsonrpc.CodeInvalidRequest},
		{"version a number", `{"jsonrpc":2,"id":7,"method":"ping"}`, "7", jsonrpc.CodeInvalidRequest},
		{"id a boolean", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest},
		{"method a number", `{"jsonrpc":"2.0","id":8,"method":5}`, "8", jsonrpc.CodeInvalidRequest},
		{"error not an object", `{"jsonrpc":"2.0","id":9,"method":"ping","error":5}`, "9", jsonrpc.CodeInvalidRequest},
		{"response without id", `{"jsonrpc":"2.0","result":{}}`, "null", jsonrpc.CodeInvalidRequest},
		{"error code not an integer", `{"jsonrpc":"2.0","id":10,"error":{"code":1.5,"message":"x"}}`, "10", jsonrpc.CodeInvalidRequest},
	} {
		c.send(tc.line)
		m := c.expect(tc.id)
		if m.Error == nil || m.Error.Code != tc.code {
			t.Errorf("%s: got %+v, want error %d", tc.name, m, tc.code)
		}
		c.alive(i)
	}
	// White space around a message is fine.
	c.send(`  {"jsonrpc":"2.0","id":"spaced","method":"ping"}  ` + "\t\r")
	if m := c.expect(`"spaced"`); m.Error != nil {
		t.Errorf("a message with white space around it: %s", m.Error.Message)
	}
	c.send("")
	c.alive(100)
}

func TestIOTransportMessageLimit(t *testing.T) {
	c := startRaw(t, 200)
	c.send(`{"jsonrpc":"2.0","id":"long","method":"tools/call","params":{"name":"echo","arguments":{"text":"` + strings.Repeat("x", 1000) + `"}}}`)
	if m := c.expect(`"long"`); m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(m.Error.Message, "longer than 200 bytes") {
		t.Errorf("a line over the limit: %+v", m)
	}
	c.alive(0)
}

func TestIOTransportArguments(t *testing.T) {
	c := startRaw(t, 0)
	for i, tc := range []struct {
		name, params, want string
	}{
		{"missing", `{"name":"echo"}`, "invalid arguments for echo: /text: missing required property"},
		{"null", `{"name":"echo","arguments":null}`, "invalid arguments for echo: /text: missing required property"},
		{"not an object", `{"name":"echo","arguments":[1]}`, "invalid arguments for echo: must be an object (got an array)"},
		{"deep", `{"name":"echo","arguments":{"text":` + strings.Repeat("[", 500) + strings.Repeat("]", 500) + `}}`,
			"invalid arguments for echo: /text: nested deeper than the limit of 64 levels"},
		{"valid", `{"name":"echo","arguments":{"text":"hi"}}`, "hi"},
	} {
		id := fmt.Sprintf(`"call-%d"`, i)
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + tc.params + `}`)
		m := c.expect(id)
		var res struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		}
		if m.Error != nil || json.Unmarshal(m.Result, &res) != nil || len(res.Content) != 1 {
			t.Errorf("%s: %+v, want a result", tc.name, m)
			continue
		}
		if res.Content[0].Text != tc.want || res.IsError != (tc.name != "valid") {
			t.Errorf("%s: isError %v, %q; want %q", tc.name, res.IsError, res.Content[0].Text, tc.want)
		}
	}
}

func TestIOTransportEndsAtEOF(t *testing.T) {
	c := startRaw(t, 0)
	c.in.Close()
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end when its input did")
	}
}

func TestIOTransportAnswersRequestsReadBeforeEOF(t *testing.T) {
	c := startRaw(t, 0)
	c.send(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo","arguments":{"text":"piped"}}}`)
	c.send(`{"jsonrpc":"2.0","id":2.0,"method":"tools/list"}`)
	c.send(`{"jsonrpc":"2.0","id":"\u0062","method":"ping"}`)
	c.in.Close() // as `printf ... | server` does, at once
	c.expect(`"a"`)
	c.expect(`2`)
	c.expect(`"b"`)
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end after answering")
	}
}

// TestIOTransportRefusesDuplicateKeys: a message with a key twice in any object is
// answered with invalid request, with its id unless the id is what appears twice, and
// never reaches a tool; the session goes on.
func TestIOTransportRefusesDuplicateKeys(t *testing.T) {
	c := startRaw(t, 0)
	for i, tc := range []struct{ name, line, id, where string }{
		{"params twice", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"seen"}},"params":{"name":"echo","arguments":{"text":"run"}}}`, "1", `"params" appears twice in the message`},
		{"name twice", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","name":"fail_safe","arguments":{"text":"x"}}}`, "2", `"name" appears twice in /params`},
		{"an argument twice", `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo","arguments":{"text":"seen","text":"run"}}}`, `"a"`, `"text" appears twice in /params/arguments`},
		{"escaped", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}},"\u0070arams":{"name":"fail_safe"}}`, "4", `"params" appears twice`},
		{"in _meta", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},"_meta":{"progressToken":1,"progressToken":2}}}`, "5", `/params/_meta`},
		{"id twice", `{"jsonrpc":"2.0","id":6,"id":7,"method":"ping"}`, "null", `"id" appears twice`},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"requestId":2}}`, "null", `"requestId" appears twice in /params`},
		{"a long key", `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"` + strings.Repeat("k", 1000) + `":1,"` + strings.Repeat("k", 1000) + `":2}}`, "8", `..." appears twice in /params`},
	} {
		c.send(tc.line)
		m := c.expect(tc.id)
		if m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(m.Error.Message, tc.where) || len(m.Error.Message) > 512 {
			t.Errorf("%s: got %+v, want invalid request saying %q", tc.name, m, tc.where)
		}
		c.alive(i)
	}
	c.send(`{"jsonrpc":"2.0","id":"valid","method":"tools/call","params":{"name":"echo","arguments":{"text":"fine"}}}`)
	if m := c.expect(`"valid"`); m.Error != nil || !strings.Contains(string(m.Result), "fine") {
		t.Errorf("a valid call after them: %+v", m)
	}
}

// TestIOTransportRefusesCaseFoldedKeys: in the protocol's objects (the message, its
// params), two keys equal under case folding are refused as a key twice: the SDK reads
// "params" exactly, a reader using encoding/json takes the last of "params" and
// "Params". In a tool's arguments they are two properties and reach the tool.
func TestIOTransportRefusesCaseFoldedKeys(t *testing.T) {
	c := startRaw(t, 0)
	for i, tc := range []struct{ name, line, id, says string }{
		{"Params beside params", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"seen"}},"Params":{"name":"fail_safe","arguments":{}}}`,
			"1", `"Params" appears twice in the message, first as "params"`},
		{"Name beside name", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","Name":"fail_safe","arguments":{"text":"x"}}}`,
			"2", `"Name" appears twice in /params, first as "name"`},
		{"long s", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},"argument\u017f":{}}}`,
			"3", `"argumentſ" appears twice in /params, first as "arguments"`},
		{"Kelvin sign", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},"tas\u212a":1,"task":2}}`,
			"4", "\"task\" appears twice in /params, first as \"tas\u212a\""},
		{"Method beside method", `{"jsonrpc":"2.0","id":5,"method":"ping","Method":"tools/call"}`, "5", `"Method" appears twice in the message, first as "method"`},
		{"ID beside id", `{"jsonrpc":"2.0","id":6,"ID":7,"method":"ping"}`, "null", `"ID" appears twice in the message, first as "id"`},
	} {
		c.send(tc.line)
		m := c.expect(tc.id)
		if m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(m.Error.Message, tc.says) || len(m.Error.Message) > 512 {
			t.Errorf("%s: got %+v, want invalid request saying %q", tc.name, m, tc.says)
		}
		c.alive(i)
	}
	// Arguments are the tool's, read case-sensitively: "Text" is another property.
	c.send(`{"jsonrpc":"2.0","id":"args","method":"tools/call","params":{"name":"echo","arguments":{"text":"x","Text":"y"}}}`)
	if m := c.expect(`"args"`); m.Error != nil || !strings.Contains(string(m.Result), `"isError":true`) || !strings.Contains(string(m.Result), "Text") {
		t.Errorf("arguments differing in case: %+v, want the tool's error about Text", m)
	}
	c.send(`{"jsonrpc":"2.0","id":"meta","method":"tools/call","params":{"name":"echo","arguments":{"text":"meta"},"_meta":{"progressToken":"a","ProgressToken":"b"}}}`)
	if m := c.expect(`"meta"`); m.Error != nil || !strings.Contains(string(m.Result), "meta") {
		t.Errorf("_meta keys differing in case: %+v", m)
	}
	c.send(`{"jsonrpc":"2.0","id":"valid","method":"tools/call","params":{"name":"echo","arguments":{"text":"fine"}}}`)
	if m := c.expect(`"valid"`); m.Error != nil || !strings.Contains(string(m.Result), "fine") {
		t.Errorf("a valid call after them: %+v", m)
	}
}
