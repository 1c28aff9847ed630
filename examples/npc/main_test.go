package main

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/examples/npc/world"
	"github.com/toolgen/toolgen/tooltest"
)

// seen records what the replayed model read: the results of turn 2 when it planned
// turn 3, and every result when it answered.
type seen struct {
	beforeTurn3, atAnswer []tooltest.Result
}

// recording returns Script with hooks that record what the model read.
func recording(s *seen) *tooltest.Script {
	script := Script()
	plan := script.Turns[2].Plan
	script.Turns[2].Plan = func(last []tooltest.Result) []tooltest.Call {
		s.beforeTurn3 = last
		return plan(last)
	}
	answer := script.Answer
	script.Answer = func(all []tooltest.Result) string {
		s.atAnswer = all
		return answer(all)
	}
	return script
}

func TestConverse(t *testing.T) {
	for _, provider := range tooltest.Formats() {
		t.Run(string(provider), func(t *testing.T) {
			var s seen
			send, err := tooltest.Send(provider, recording(&s))
			if err != nil {
				t.Fatal(err)
			}
			keep := world.New()
			var out bytes.Buffer
			answer, rounds, err := Converse(context.Background(), &out, provider, send, keep)
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}

			// The conversation completed, the answer told from what the model read.
			for _, want := range []string{"Borin is badly wounded (12/40 HP).", "Mira is unhurt (40/40 HP).", "The cellar door is open now.", "Borin took quest 1, rat_hunt, for 50 gold; 250 gold are left"} {
				if !strings.Contains(answer, want) {
					t.Errorf("the answer does not say %q:\n%s", want, answer)
				}
			}

			// The world changed as asked: the cellar open, the tower still locked, one
			// quest given and paid.
			st := keep.State()
			want := []world.DoorState{{Door: world.Gate, Open: true}, {Door: world.Cellar, Open: true}, {Door: world.Tower, Locked: true}}
			if !slices.Equal(st.Doors, want) {
				t.Errorf("doors %+v, want %+v", st.Doors, want)
			}
			q := world.Assignment{Number: 1, NPC: world.Borin, Quest: world.RatHunt, Reward: 50, Note: "mind the big one", TreasuryLeft: 250}
			if len(st.Quests) != 1 || st.Quests[0] != q || st.Treasury != 250 {
				t.Errorf("quests %+v, treasury %d", st.Quests, st.Treasury)
			}

			// Three rounds of two calls; every call answered, and the model read every
			// answer, in order, as the round had it.
			if len(rounds) != 3 {
				t.Fatalf("%d rounds", len(rounds))
			}
			var results []string
			for _, r := range rounds {
				if len(r.Calls) != 2 {
					t.Errorf("round %d has %d calls, want 2", r.Number, len(r.Calls))
				}
				for _, c := range r.Calls {
					results = append(results, c.Result.Text())
				}
			}
			var read []string
			for _, r := range s.atAnswer {
				read = append(read, r.Text)
			}
			if !slices.Equal(read, results) {
				t.Errorf("the model read\n%q\nbut the calls returned\n%q", read, results)
			}
			for _, c := range rounds[0].Calls {
				if c.Call.Name != "get_npc_health" || c.Result.IsError {
					t.Errorf("round 1: %s %s: %s", c.Call.Name, c.Call.Arguments, c.Result.Text())
				}
			}

			// The unknown door came back to the model as an error it could read, with
			// the doors that exist; the locked one as the tool's own message.
			if len(s.beforeTurn3) != 2 {
				t.Fatalf("the model read %d results before turn 3", len(s.beforeTurn3))
			}
			bad, locked := s.beforeTurn3[0], s.beforeTurn3[1]
			flagged := provider == "anthropic" || provider == "gemini" // OpenAI's formats have no error flag
			if bad.Call.Args != `{"door":"cellar door"}` || !strings.Contains(bad.Text, `/door: must be one of "gate", "cellar", "tower" (got "cellar door")`) || bad.IsError != flagged {
				t.Errorf("the model read %+v for the unknown door", bad)
			}
			if locked.Text != "the tower door is locked" || locked.IsError != flagged {
				t.Errorf("the model read %+v for the locked door", locked)
			}
			// ... and its next turn corrected the call.
			fix := rounds[2].Calls[0]
			if fix.Call.Name != "open_door" || string(fix.Call.Arguments) != `{"door":"cellar"}` || fix.Result.IsError {
				t.Errorf("round 3 began with %s %s: %s", fix.Call.Name, fix.Call.Arguments, fix.Result.Text())
			}
		})
	}
}

// TestRun plays main: every provider in turn, in one world. open_door is idempotent,
// so the cellar opens once; give_quest is not, so each conversation gives a quest.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, false); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	text := out.String()
	for _, provider := range tooltest.Formats() {
		if !strings.Contains(text, "=== "+string(provider)+" ===") {
			t.Errorf("no conversation with %s", provider)
		}
	}
	if n := strings.Count(text, "the cellar door opened"); n != 1 {
		t.Errorf("the cellar door opened %d times", n)
	}
	if n := strings.Count(text, "The cellar door was open already."); n != 3 {
		t.Errorf("the model was told %d times that the cellar door was open already", n)
	}
	if !strings.Contains(text, "quest 4 given to borin") || !strings.HasSuffix(strings.TrimSpace(text), "4 quest(s) given; 100 gold in the treasury") {
		t.Errorf("the end of the run:\n%s", text[max(0, len(text)-400):])
	}
}

// TestCorrect: the model's correction picks the valid value its own value named, and
// leaves other errors alone.
func TestCorrect(t *testing.T) {
	keep := world.New()
	tools := world.WorldTools(keep)
	res := tools.Call(context.Background(), "give_quest", []byte(`{"npc":"borin","quest":"the rat hunt","reward":50}`))
	c, ok := Correct(tooltest.Result{Call: tooltest.Call{Name: "give_quest", Args: `{"npc":"borin","quest":"the rat hunt","reward":50}`}, Text: res.Text(), IsError: res.IsError})
	if !ok || c.Args != `{"npc":"borin","quest":"rat_hunt","reward":50}` {
		t.Errorf("Correct(%q) = %+v, %v", res.Text(), c, ok)
	}
	if _, ok := Correct(tooltest.Result{Call: tooltest.Call{Name: "open_door", Args: `{"door":"tower"}`}, Text: "the tower door is locked"}); ok {
		t.Error("Correct corrected a tool error")
	}
	res = tools.Call(context.Background(), "give_quest", []byte(`{"npc":"borin","quest":"rat_hunt","reward":501}`))
	if !res.IsError || !strings.Contains(res.Text(), "/reward: must be at most 500 (got 501)") {
		t.Errorf("a reward out of bounds: %s", res.Text())
	}
	res = tools.Call(context.Background(), "give_quest", []byte(`{"npc":"mira","quest":"lost_ring","reward":500}`))
	if !res.IsError || res.Text() != "the treasury holds only 300 gold, not the 500 promised" {
		t.Errorf("a reward over the treasury: %s", res.Text())
	}
}

// TestRunStream plays main with -stream: every provider's text is streamed, and the
// conversations end as they do whole, in one world.
func TestRunStream(t *testing.T) {
	var whole, streamed bytes.Buffer
	if err := run(context.Background(), &whole, false); err != nil {
		t.Fatalf("%v\n%s", err, whole.String())
	}
	if err := run(context.Background(), &streamed, true); err != nil {
		t.Fatalf("%v\n%s", err, streamed.String())
	}
	text := streamed.String()
	if n := strings.Count(text, "assistant (streamed): Let me look at them first.\nround 1: 2 call(s) in one turn"); n != len(tooltest.Formats()) {
		t.Errorf("%d conversations streamed their first turn, want %d:\n%s", n, len(tooltest.Formats()), text)
	}
	worlds := func(s string) []string {
		var out []string
		for line := range strings.SplitSeq(s, "\n") {
			if strings.HasPrefix(line, "The world: ") {
				out = append(out, line)
			}
		}
		return out
	}
	if w, s := worlds(whole.String()), worlds(text); !slices.Equal(w, s) || len(w) != len(tooltest.Formats())+1 {
		t.Errorf("the world streamed:\n%q\nwhole:\n%q", s, w)
	}
}

// TestConverseStream: the streamed conversation answers as the whole one does, for
// every provider.
func TestConverseStream(t *testing.T) {
	for _, provider := range tooltest.Formats() {
		t.Run(string(provider), func(t *testing.T) {
			stream, err := tooltest.Stream(provider, Script())
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			answer, rounds, err := ConverseStream(context.Background(), &out, provider, stream, world.New())
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			send, err := tooltest.Send(provider, Script())
			if err != nil {
				t.Fatal(err)
			}
			whole, wholeRounds, err := Converse(context.Background(), io.Discard, provider, send, world.New())
			if err != nil || whole != answer || len(rounds) != len(wholeRounds) {
				t.Errorf("streamed %q in %d rounds, whole %q in %d (%v)", answer, len(rounds), whole, len(wholeRounds), err)
			}
			if !strings.Contains(out.String(), "assistant (streamed): "+answer+"\n") {
				t.Errorf("the answer was not streamed:\n%s", out.String())
			}
		})
	}
}
