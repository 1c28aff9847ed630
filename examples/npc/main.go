// Command npc runs one conversation about a small game world through every provider
// adapter in turn (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages,
// Gemini generateContent), each with a scripted replay of that API: no network, no API
// key, and every request checked as the real API would check it.
//
// In the conversation the model reads two characters' health in one turn, tries two
// doors (one by a name that is no door, one locked), reads what went wrong, corrects
// the name, and gives a quest. All four conversations share one world, so the output
// shows the annotations at work: opening the open cellar door again changes nothing
// (open_door is idempotent), while every quest given is one more quest and one more
// reward paid (give_quest is not).
//
//	go run ./examples/npc          # whole responses
//	go run ./examples/npc -stream  # streamed: the model's text as it writes it
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/toolgen/toolgen/examples/npc/world"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/tooltest"
)

// Question is what the player asks.
const Question = "Borin looks hurt. How are he and Mira doing? Then open the cellar and the tower for him, and give him the rat hunt for 50 gold."

func main() {
	stream := flag.Bool("stream", false, "stream the responses, printing the model's text as it writes it")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *stream); err != nil {
		fmt.Fprintf(os.Stderr, "npc: %v\n", err)
		os.Exit(1)
	}
}

// run plays the conversation with every provider, one after the other, in one world;
// with each response streamed when stream is set.
func run(ctx context.Context, w io.Writer, stream bool) error {
	keep := world.New()
	fmt.Fprintln(w, "The tools:")
	for _, t := range world.WorldTools(keep).Tools() {
		e := t.Annotations.Effective()
		kind := "changes the world"
		switch {
		case e.ReadOnly:
			kind = "read-only"
		case e.Idempotent:
			kind = "changes the world, idempotent"
		}
		fmt.Fprintf(w, "  %-15s %s\n", t.Name, kind)
	}
	fmt.Fprintf(w, "\nThe world: %s\n", describe(keep.State()))
	for _, provider := range tooltest.Formats() {
		fmt.Fprintf(w, "\n=== %s ===\n\n", provider)
		before := keep.State()
		if stream {
			streamFn, err := tooltest.Stream(provider, Script())
			if err != nil {
				return err
			}
			if _, _, err := ConverseStream(ctx, w, provider, streamFn, keep); err != nil {
				return err
			}
		} else {
			send, err := tooltest.Send(provider, Script())
			if err != nil {
				return err
			}
			if _, _, err := Converse(ctx, w, provider, send, keep); err != nil {
				return err
			}
		}
		fmt.Fprintf(w, "\nThe world: %s\n", changes(before, keep.State()))
	}
	return nil
}

// Converse runs the conversation that Question starts, with a provider's API (send)
// and the tools of keep, printing each round and the final answer. It returns the
// answer and the rounds.
func Converse(ctx context.Context, w io.Writer, provider tooltest.Format, send loop.SendFunc, keep *world.World) (string, []loop.Round, error) {
	return converse(ctx, w, provider, send, nil, keep)
}

// ConverseStream runs the conversation as Converse does, with a provider's API
// streaming (stream): the model's text is printed as it comes, each round once its
// stream is complete.
func ConverseStream(ctx context.Context, w io.Writer, provider tooltest.Format, stream loop.StreamFunc, keep *world.World) (string, []loop.Round, error) {
	return converse(ctx, w, provider, nil, stream, keep)
}

// converse runs the conversation with send, or streaming with stream when it is set.
func converse(ctx context.Context, w io.Writer, provider tooltest.Format, send loop.SendFunc, stream loop.StreamFunc, keep *world.World) (string, []loop.Round, error) {
	p, err := provider.Provider()
	if err != nil {
		return "", nil, err
	}
	req, err := provider.NewRequest("replay", Question)
	if err != nil {
		return "", nil, err
	}
	var rounds []loop.Round
	writing := false // a line of streamed text is open
	endText := func() {
		if writing {
			fmt.Fprint(w, "\n")
			writing = false
		}
	}
	chat := loop.Loop{
		Provider: p,
		Tools:    world.WorldTools(keep),
		Send:     send,
		Stream:   stream,
		OnText: func(delta string) {
			if !writing {
				fmt.Fprint(w, "assistant (streamed): ")
				writing = true
			}
			fmt.Fprint(w, delta)
		},
		OnRound: func(r loop.Round) {
			endText()
			rounds = append(rounds, r)
			fmt.Fprintf(w, "round %d: %d call(s) in one turn, ran in %s\n", r.Number, len(r.Calls), r.Duration.Round(time.Microsecond))
			for _, c := range r.Calls {
				status := "ok"
				if c.Result.IsError {
					status = "error"
				}
				fmt.Fprintf(w, "  %s %s  id=%s  %s\n    -> %s\n", c.Call.Name, c.Call.Arguments, c.Call.ID, status, c.Result.Text())
			}
		},
	}
	fmt.Fprintf(w, "player: %s\n\n", Question)
	final, _, err := chat.Run(ctx, req)
	endText()
	if err != nil {
		return "", rounds, err
	}
	answer, err := provider.Text(final)
	if err != nil {
		return "", rounds, err
	}
	if stream == nil {
		fmt.Fprintf(w, "\nassistant: %s\n", answer)
	}
	return answer, rounds, nil
}

// Script is the replayed model's side: two health checks in one turn, two doors in
// the next, then a turn planned from what the doors said, then the answer.
func Script() *tooltest.Script {
	return &tooltest.Script{
		Question: Question,
		Turns: []tooltest.Turn{
			{Say: "Let me look at them first.", Calls: []tooltest.Call{
				{Name: "get_npc_health", Args: `{"npc":"borin"}`},
				{Name: "get_npc_health", Args: `{"npc":"mira"}`},
			}},
			{Say: "Now the doors.", Calls: []tooltest.Call{
				{Name: "open_door", Args: `{"door":"cellar door"}`},
				{Name: "open_door", Args: `{"door":"tower"}`},
			}},
			{Plan: func(last []tooltest.Result) []tooltest.Call {
				var calls []tooltest.Call
				for _, r := range last {
					if c, ok := Correct(r); ok {
						calls = append(calls, c)
					}
				}
				return append(calls, tooltest.Call{Name: "give_quest", Args: `{"npc":"borin","quest":"rat_hunt","reward":50,"note":"mind the big one"}`})
			}},
		},
		Answer: Answer,
	}
}

// mustBeOneOf finds an enum violation in an argument error, such as
// /door: must be one of "gate", "cellar", "tower" (got "cellar door").
var mustBeOneOf = regexp.MustCompile(`/(\w+): must be one of ((?:"[^"]*"(?:, )?)+) \(got "([^"]*)"\)`)

// Correct is what a model does with an argument error that lists the valid values: it
// calls again with the valid value its own value named ("cellar" for "cellar door",
// "rat_hunt" for "the rat hunt").
func Correct(r tooltest.Result) (tooltest.Call, bool) {
	m := mustBeOneOf.FindStringSubmatch(r.Text)
	if m == nil {
		return tooltest.Call{}, false
	}
	words := strings.NewReplacer("_", " ", "-", " ")
	property, got := m[1], words.Replace(strings.ToLower(m[3]))
	var args map[string]any
	if json.Unmarshal([]byte(r.Call.Args), &args) != nil {
		return tooltest.Call{}, false
	}
	for _, v := range strings.Split(m[2], ", ") {
		v = strings.Trim(v, `"`)
		if strings.Contains(got, words.Replace(v)) {
			args[property] = v
			b, _ := json.Marshal(args)
			return tooltest.Call{Name: r.Call.Name, Args: string(b)}, true
		}
	}
	return tooltest.Call{}, false
}

// Answer tells the player what happened, from the results the model read.
func Answer(results []tooltest.Result) string {
	var lines []string
	for _, r := range results {
		var line string
		switch r.Call.Name {
		case "get_npc_health":
			var h world.Health
			if json.Unmarshal([]byte(r.Text), &h) == nil && h.NPC != "" {
				line = fmt.Sprintf("%s is %s (%d/%d HP).", title(string(h.NPC)), h.Condition, h.HP, h.MaxHP)
			}
		case "open_door":
			var d world.DoorState
			switch {
			case json.Unmarshal([]byte(r.Text), &d) == nil && d.Door != "":
				line = fmt.Sprintf("The %s door is open now.", d.Door)
				if d.WasOpen {
					line = fmt.Sprintf("The %s door was open already.", d.Door)
				}
			case mustBeOneOf.MatchString(r.Text):
				m := mustBeOneOf.FindStringSubmatch(r.Text)
				line = fmt.Sprintf("(I first asked for the %q door, which the tool did not know; it listed the doors, so I asked again.)", m[3])
			}
		case "give_quest":
			var a world.Assignment
			if json.Unmarshal([]byte(r.Text), &a) == nil && a.Number > 0 {
				line = fmt.Sprintf("%s took quest %d, %s, for %d gold; %d gold are left in the treasury.", title(string(a.NPC)), a.Number, a.Quest, a.Reward, a.TreasuryLeft)
			}
		}
		if line == "" {
			line = fmt.Sprintf("%s %s did not work: %s.", r.Call.Name, r.Call.Args, strings.TrimSuffix(r.Text, "."))
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n  ")
}

// title capitalizes a name.
func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// describe sums up a world's state.
func describe(s world.State) string {
	var doors []string
	for _, d := range s.Doors {
		state := "shut"
		switch {
		case d.Locked:
			state = "locked"
		case d.Open:
			state = "open"
		}
		doors = append(doors, string(d.Door)+" "+state)
	}
	return fmt.Sprintf("doors: %s; %d quest(s) given; %d gold in the treasury", strings.Join(doors, ", "), len(s.Quests), s.Treasury)
}

// changes says what changed between two states of a world.
func changes(before, after world.State) string {
	var out []string
	for i, d := range after.Doors {
		if d.Open && !before.Doors[i].Open {
			out = append(out, fmt.Sprintf("the %s door opened", d.Door))
		}
	}
	for _, q := range after.Quests[len(before.Quests):] {
		out = append(out, fmt.Sprintf("quest %d given to %s (%s, %d gold)", q.Number, q.NPC, q.Quest, q.Reward))
	}
	if after.Treasury != before.Treasury {
		out = append(out, fmt.Sprintf("the treasury went from %d to %d gold", before.Treasury, after.Treasury))
	}
	if len(out) == 0 {
		out = append(out, "nothing changed")
	}
	return strings.Join(out, "; ") + "\n  now " + describe(after)
}
