// Package bench holds toolgen's performance evidence: three tools whose arguments are
// decoded by toolgen's generated decoders, and benchmarks that decode the same
// arguments with encoding/json, easyjson, goccy/go-json, santhosh-tekuri/jsonschema and
// the MCP Go SDK's mcp.AddTool input path. See docs/PERFORMANCE.md and run.sh.
//
// The tools do nothing: the benchmarks measure how their arguments get from JSON to Go.
package bench

import (
	"context"
	"time"
)

//go:generate go tool toolgen generate
//go:generate go tool easyjson -no_std_marshalers -output_filename tools_easyjson.go tools.go

// Unit is a temperature unit.
type Unit string

// The units of a forecast.
const (
	// Celsius is degrees Celsius.
	Celsius Unit = "celsius"
	// Fahrenheit is degrees Fahrenheit.
	Fahrenheit Unit = "fahrenheit"
)

// WeatherQuery asks for a city's forecast: three properties, an enum and bounds.
//
//easyjson:json
type WeatherQuery struct {
	// City is the city to forecast, such as "Paris".
	City string `json:"city" tool:"minLength=1,maxLength=80"`
	// Days is how many days to forecast, today included.
	Days int `json:"days,omitempty" tool:"minimum=1,maximum=14,default=1"`
	// Unit is the unit of the temperatures.
	Unit Unit `json:"unit,omitempty" tool:"default=celsius"`
}

// GetWeather forecasts the weather of a city.
//
//toolgen:tool readonly idempotent openworld=false
func GetWeather(ctx context.Context, q WeatherQuery) error { return nil }

// Category is a spending category.
type Category string

// The spending categories.
const (
	// Groceries is food and household supplies.
	Groceries Category = "groceries"
	// Dining is restaurants, cafés and take-away.
	Dining Category = "dining"
	// Travel is transport and lodging.
	Travel Category = "travel"
	// Utilities is energy, water, phone and internet.
	Utilities Category = "utilities"
	// Entertainment is events, games and subscriptions.
	Entertainment Category = "entertainment"
	// Health is care and medicine.
	Health Category = "health"
	// Other is everything else.
	Other Category = "other"
)

// AmountRange bounds the amounts of the transactions listed, in cents.
type AmountRange struct {
	// Min is the smallest amount.
	Min int64 `json:"min,omitempty" tool:"minimum=0,maximum=100000000"`
	// Max is the largest amount.
	Max int64 `json:"max,omitempty" tool:"minimum=0,maximum=100000000"`
	// Currency is an ISO 4217 code such as "EUR".
	Currency string `json:"currency" tool:"pattern=^[A-Z]{3}$"`
}

// TransactionsQuery selects transactions: date-times, a nested object, an array of
// enum values and pointers.
//
//easyjson:json
type TransactionsQuery struct {
	// AccountID is the account to list.
	AccountID string `json:"accountId" tool:"minLength=1,maxLength=64"`
	// From is the start of the period.
	From time.Time `json:"from"`
	// To is the end of the period.
	To time.Time `json:"to"`
	// Amount bounds the amounts.
	Amount AmountRange `json:"amount"`
	// Categories are the categories to list.
	Categories []Category `json:"categories" tool:"minItems=1,maxItems=7"`
	// Merchant, if set, lists only this merchant's transactions.
	Merchant *string `json:"merchant,omitempty" tool:"minLength=1,maxLength=100"`
	// Limit, if set, is the most transactions to list.
	Limit *int `json:"limit,omitempty" tool:"minimum=1,maximum=500"`
}

// ListTransactions lists an account's transactions.
//
//toolgen:tool readonly idempotent openworld=false
func ListTransactions(ctx context.Context, q TransactionsQuery) error { return nil }

// Item is one line of a stock batch.
type Item struct {
	// SKU is the product's stock-keeping unit, such as "ABC-1234".
	SKU string `json:"sku" tool:"pattern=^[A-Z]{3}-[0-9]{4}$"`
	// Quantity is how many units.
	Quantity int `json:"quantity" tool:"minimum=1,maximum=10000"`
	// PriceCents is the unit price in cents.
	PriceCents int64 `json:"priceCents" tool:"minimum=1,maximum=100000000"`
}

// BatchRequest adds up to 100 lines of stock at once.
//
//easyjson:json
type BatchRequest struct {
	// Items are the lines of the batch.
	Items []Item `json:"items" tool:"minItems=1,maxItems=100"`
}

// AddStock adds a batch of stock.
//
//toolgen:tool idempotent=false destructive=false openworld=false
func AddStock(ctx context.Context, b BatchRequest) error { return nil }
