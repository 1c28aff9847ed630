// Package shapes holds three tools whose argument types were written for the
// benchmarks of issue 12 without looking at what the generated decoders are fast at:
// a small object of bounded integers and an enum (set_alarm, about 53 bytes of
// arguments), a log search with date-time strings, enums, a pattern, a nested optional
// filter and a bounded list (search_logs, about 232 bytes), and a list of 100 contacts
// of strings and numbers with no maxItems (import_contacts, about 5 KB).
//
// The tools do nothing. The benchmarks of the bench package decode their arguments
// with the generated decoders, with the hand-written single-pass decoders of floor.go
// (the floor: the same contract, written by hand), and with the peers.
package shapes

import "context"

//go:generate go tool toolgen generate
//go:generate go tool easyjson -no_std_marshalers -output_filename shapes_easyjson.go shapes.go

// Tone is the sound an alarm plays.
type Tone string

// The tones of an alarm.
const (
	// Chime is a soft chime.
	Chime Tone = "chime"
	// Birdsong is recorded birds.
	Birdsong Tone = "birdsong"
	// Radio plays the radio.
	Radio Tone = "radio"
	// Buzzer is a loud buzzer.
	Buzzer Tone = "buzzer"
)

// AlarmArgs sets an alarm: bounded integers of three Go types and an enum.
//
//easyjson:json
type AlarmArgs struct {
	// Hour is the hour of the day, 0 to 23.
	Hour int `json:"hour" tool:"minimum=0,maximum=23"`
	// Minute is the minute of the hour.
	Minute int32 `json:"minute" tool:"minimum=0,maximum=59"`
	// Volume is how loud, from 1 to 10.
	Volume uint8 `json:"volume,omitempty" tool:"minimum=1,maximum=10,default=5"`
	// Tone is the sound to play.
	Tone Tone `json:"tone"`
}

// SetAlarm sets an alarm.
//
//toolgen:tool idempotent destructive=false openworld=false
func SetAlarm(ctx context.Context, a AlarmArgs) error { return nil }

// Level is a log level.
type Level string

// The log levels.
const (
	// Debug is for developers.
	Debug Level = "debug"
	// Info is routine.
	Info Level = "info"
	// Warn is unusual.
	Warn Level = "warn"
	// Error is a failure.
	Error Level = "error"
	// Fatal is a failure that ended the process.
	Fatal Level = "fatal"
)

// Order is a sort order.
type Order string

// The sort orders.
const (
	// Asc is oldest first.
	Asc Order = "asc"
	// Desc is newest first.
	Desc Order = "desc"
)

// LogFilter narrows a log search.
type LogFilter struct {
	// Host is the host that wrote the entries.
	Host string `json:"host" tool:"minLength=1,maxLength=64"`
	// Status is an HTTP status code.
	Status int `json:"status,omitempty" tool:"minimum=100,maximum=599"`
	// MinLatencyMs keeps only requests at least this slow.
	MinLatencyMs int `json:"minLatencyMs,omitempty" tool:"minimum=0,maximum=60000"`
}

// LogQuery searches a service's logs: date-time strings, enums, a pattern, a nested
// optional filter and a bounded list.
//
//easyjson:json
type LogQuery struct {
	// Service is the service's name, such as "checkout-api".
	Service string `json:"service" tool:"pattern=^[a-z][a-z0-9-]*[a-z0-9]$"`
	// Since is the start of the period.
	Since string `json:"since" tool:"format=date-time"`
	// Until is the end of the period; now if absent.
	Until string `json:"until,omitempty" tool:"format=date-time"`
	// Level is the lowest level listed.
	Level Level `json:"level"`
	// Order is the order of the entries.
	Order Order `json:"order,omitempty" tool:"default=desc"`
	// Filter, if set, narrows the search.
	Filter *LogFilter `json:"filter,omitempty"`
	// Tags are tags every entry listed has.
	Tags []string `json:"tags,omitempty" tool:"maxItems=5"`
	// Limit is the most entries to list.
	Limit int `json:"limit,omitempty" tool:"minimum=1,maximum=1000,default=100"`
}

// SearchLogs searches a service's logs.
//
//toolgen:tool readonly idempotent openworld=false
func SearchLogs(ctx context.Context, q LogQuery) error { return nil }

// Contact is one person to import.
type Contact struct {
	// Name is the person's full name.
	Name string `json:"name" tool:"minLength=1,maxLength=100"`
	// City is where the person lives.
	City string `json:"city" tool:"maxLength=60"`
	// Age is the person's age in years.
	Age int `json:"age" tool:"minimum=0,maximum=150"`
	// Score is the lead score, 0 to 100.
	Score float64 `json:"score" tool:"minimum=0,maximum=100"`
}

// ContactList is a list of contacts to import, as long as the caller likes.
//
//easyjson:json
type ContactList struct {
	// Contacts are the people to import.
	Contacts []Contact `json:"contacts" tool:"minItems=1"`
}

// ImportContacts imports contacts.
//
//toolgen:tool idempotent=false destructive=false openworld=false
func ImportContacts(ctx context.Context, l ContactList) error { return nil }
