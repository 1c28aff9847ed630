// Package world is a small game world for toolgen's conversation example: a keep whose
// characters a model looks after. Its tools are methods of *World, so the world's state
// is injected through the receiver; they read it (get_npc_health, read-only), change it
// idempotently (open_door) or change it a little more each time (give_quest). Names of
// characters, doors and quests are enums from constants, rewards are bounded, and what
// the world refuses (a locked door, an empty treasury) reaches the model as a tool
// error it can read.
package world

import (
	"context"
	"slices"
	"sync"

	"github.com/toolgen/toolgen/runtime"
)

//go:generate go tool toolgen generate

// NPC names a character of the keep.
type NPC string

// The keep's characters.
const (
	// Borin is the blacksmith.
	Borin NPC = "borin"
	// Mira is the herbalist.
	Mira NPC = "mira"
	// Tomas is the gate guard.
	Tomas NPC = "tomas"
)

// Door names a door of the keep.
type Door string

// The keep's doors.
const (
	// Gate is the keep's front gate.
	Gate Door = "gate"
	// Cellar is the cellar door, under the kitchen.
	Cellar Door = "cellar"
	// Tower is the door of the wizard's tower.
	Tower Door = "tower"
)

// Quest names a quest a character can be given.
type Quest string

// The quests on offer.
const (
	// RatHunt is clearing the cellar of rats.
	RatHunt Quest = "rat_hunt"
	// LostRing is finding the ring Mira lost in the woods.
	LostRing Quest = "lost_ring"
	// NightWatch is keeping watch on the walls until dawn.
	NightWatch Quest = "night_watch"
)

// World is the keep: its characters, doors, quest log and treasury. Its methods are
// safe for concurrent use, as tool calls of one turn run in parallel.
type World struct {
	mu       sync.Mutex
	health   map[NPC]int
	doors    map[Door]DoorState
	treasury int
	quests   []Assignment
}

// MaxHP is every character's full health.
const MaxHP = 40

// New returns the keep at dawn: Borin hurt, the gate open, the cellar shut, the tower
// locked, 300 gold in the treasury and no quest given.
func New() *World {
	return &World{
		health: map[NPC]int{Borin: 12, Mira: MaxHP, Tomas: 31},
		doors: map[Door]DoorState{
			Gate:   {Door: Gate, Open: true},
			Cellar: {Door: Cellar},
			Tower:  {Door: Tower, Locked: true},
		},
		treasury: 300,
	}
}

// HealthQuery asks how a character is doing.
type HealthQuery struct {
	// NPC is the character to look at.
	NPC NPC `json:"npc"`
}

// Health is how a character is doing.
type Health struct {
	NPC NPC `json:"npc"`
	// HP is the character's hit points, from 0 to MaxHP.
	HP    int `json:"hp"`
	MaxHP int `json:"maxHp"`
	// Condition is "unhurt", "wounded" or "badly wounded".
	Condition string `json:"condition"`
}

// GetNPCHealth tells how a character of the keep is doing: hit points and condition.
//
//toolgen:tool name=get_npc_health title="Check a character's health" readonly idempotent openworld=false
func (w *World) GetNPCHealth(ctx context.Context, q HealthQuery) (Health, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	hp := w.health[q.NPC]
	h := Health{NPC: q.NPC, HP: hp, MaxHP: MaxHP, Condition: "unhurt"}
	switch {
	case hp <= MaxHP/3:
		h.Condition = "badly wounded"
	case hp < MaxHP:
		h.Condition = "wounded"
	}
	return h, nil
}

// DoorRequest names the door to open.
type DoorRequest struct {
	// Door is the door to open.
	Door Door `json:"door"`
}

// DoorState is the state of a door.
type DoorState struct {
	Door   Door `json:"door"`
	Open   bool `json:"open"`
	Locked bool `json:"locked"`
	// WasOpen tells that the door was open already, so nothing changed.
	WasOpen bool `json:"wasOpen"`
}

// OpenDoor opens a door of the keep. Opening a door that is open already changes
// nothing. A locked door stays shut.
//
//toolgen:tool name=open_door title="Open a door" destructive=false idempotent openworld=false
func (w *World) OpenDoor(ctx context.Context, r DoorRequest) (DoorState, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.doors[r.Door]
	if d.Locked {
		return DoorState{}, runtime.ToolErrorf("the %s door is locked", r.Door)
	}
	was := d.Open
	d.Open = true
	w.doors[r.Door] = d
	return DoorState{Door: r.Door, Open: true, WasOpen: was}, nil
}

// QuestOffer gives a quest to a character.
type QuestOffer struct {
	// NPC is the character who takes the quest.
	NPC NPC `json:"npc"`
	// Quest is the quest to give.
	Quest Quest `json:"quest"`
	// Reward is the gold promised, paid from the keep's treasury when the quest is
	// given.
	Reward int `json:"reward" tool:"minimum=0,maximum=500"`
	// Note is a word for the character, such as "mind the big one".
	Note string `json:"note,omitempty" tool:"maxLength=200"`
}

// Assignment is a quest given, as the quest log keeps it.
type Assignment struct {
	// Number numbers the quest log's entries from 1.
	Number int    `json:"number"`
	NPC    NPC    `json:"npc"`
	Quest  Quest  `json:"quest"`
	Reward int    `json:"reward"`
	Note   string `json:"note,omitempty"`
	// TreasuryLeft is the gold left in the treasury once the reward is paid.
	TreasuryLeft int `json:"treasuryLeft"`
}

// GiveQuest gives a character a quest and pays the promised reward from the keep's
// treasury. Every call gives one more quest and pays once more: do not repeat a call
// that succeeded.
//
//toolgen:tool name=give_quest title="Give a quest" destructive=false idempotent=false openworld=false
func (w *World) GiveQuest(ctx context.Context, q QuestOffer) (Assignment, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if q.Reward > w.treasury {
		return Assignment{}, runtime.ToolErrorf("the treasury holds only %d gold, not the %d promised", w.treasury, q.Reward)
	}
	w.treasury -= q.Reward
	a := Assignment{Number: len(w.quests) + 1, NPC: q.NPC, Quest: q.Quest, Reward: q.Reward, Note: q.Note, TreasuryLeft: w.treasury}
	w.quests = append(w.quests, a)
	return a, nil
}

// State is a copy of the world's state, for the host to show.
type State struct {
	Doors    []DoorState
	Quests   []Assignment
	Treasury int
}

// State returns a copy of the world's state, doors in the order of their constants.
func (w *World) State() State {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := State{Quests: slices.Clone(w.quests), Treasury: w.treasury}
	for _, d := range []Door{Gate, Cellar, Tower} {
		s.Doors = append(s.Doors, w.doors[d])
	}
	return s
}
