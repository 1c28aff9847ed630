// Package forecast is toolgen's first example: a forecast tool that takes a struct of
// arguments with an enum from constants, bounds and defaults, and returns a typed report
// for the model with a weather card for the user, and a greeting tool written as an
// ordinary function whose parameters are described with //toolgen:param lines.
//
// The forecasts are made up from the city's name, so the example needs no network.
package forecast

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

//go:generate go tool toolgen generate

// Unit is a temperature unit.
type Unit string

// The units a forecast can be given in.
const (
	// Celsius is degrees Celsius.
	Celsius Unit = "celsius"
	// Fahrenheit is degrees Fahrenheit.
	Fahrenheit Unit = "fahrenheit"
)

// Query asks for a city's forecast.
type Query struct {
	// City is the city to forecast, such as "Paris" or "Tokyo".
	City string `json:"city" tool:"minLength=1,maxLength=80"`
	// Days is how many days to forecast, today included.
	Days int `json:"days,omitempty" tool:"minimum=1,maximum=14,default=1"`
	// Unit is the unit of the temperatures in the answer.
	Unit Unit `json:"unit,omitempty" tool:"default=celsius"`
}

// Forecast is one day's weather.
type Forecast struct {
	// Date is the day, as YYYY-MM-DD.
	Date string `json:"date"`
	// High is the day's highest temperature.
	High float64 `json:"high"`
	// Low is the day's lowest temperature.
	Low float64 `json:"low"`
	// Summary describes the sky, such as "sunny" or "light rain".
	Summary string `json:"summary"`
}

// Report is a city's forecast.
type Report struct {
	City string     `json:"city"`
	Unit Unit       `json:"unit"`
	Days []Forecast `json:"days"`
}

// GetWeather returns the weather forecast for a city, one entry per day.
//
// Use it whenever the user asks about the weather, temperatures or rain somewhere.
//
// Examples:
//
//	{"city": "Paris"}
//	{"city": "Tokyo", "days": 3, "unit": "fahrenheit"}
//
//toolgen:tool title="Get the weather" readonly idempotent openworld=false group=weather
func GetWeather(ctx context.Context, q Query) (Report, []runtime.Content, error) {
	r, err := makeReport(ctx, q)
	if err != nil {
		return Report{}, nil, err
	}
	// The model reads the report's JSON; the card is for the user alone: an MCP host
	// shows it (audience ["user"]), and no provider adapter sends it to the model.
	return r, []runtime.Content{runtime.UserText(r.Card())}, nil
}

// Card is the report as a weather card for a person to read: a line for the city, then
// one per day.
func (r Report) Card() string {
	deg := "°C"
	if r.Unit == Fahrenheit {
		deg = "°F"
	}
	var b strings.Builder
	if len(r.Days) == 1 {
		fmt.Fprintf(&b, "%s, today", r.City)
	} else {
		fmt.Fprintf(&b, "%s, the next %d days", r.City, len(r.Days))
	}
	for _, d := range r.Days {
		date, _ := time.Parse(time.DateOnly, d.Date)
		fmt.Fprintf(&b, "\n%s  %-13s  %g to %g%s", date.Format("Mon Jan 2"), d.Summary, d.Low, d.High, deg)
	}
	return b.String()
}

// makeReport makes up the report for q.
func makeReport(ctx context.Context, q Query) (Report, error) {
	if err := ctx.Err(); err != nil {
		return Report{}, err
	}
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(q.City)))
	seed := h.Sum32()
	start := time.Date(2026, time.December, 1, 0, 0, 0, 0, time.UTC)
	skies := []string{"sunny", "partly cloudy", "cloudy", "light rain", "showers", "snow"}
	r := Report{City: q.City, Unit: q.Unit}
	for i := range q.Days {
		v := seed>>(i%16) + uint32(i)*7919
		low := float64(int(v%15)) - 2
		high := low + float64(int(v%9)) + 3
		if q.Unit == Fahrenheit {
			low, high = math.Round(low*9/5+32), math.Round(high*9/5+32)
		}
		r.Days = append(r.Days, Forecast{
			Date:    start.AddDate(0, 0, i).Format(time.DateOnly),
			High:    high,
			Low:     low,
			Summary: skies[int(v)%len(skies)],
		})
	}
	return r, nil
}

// HelloWorld greets a person by name.
//
//toolgen:tool readonly idempotent openworld=false
//toolgen:param name desc="The name of the person to greet." minLength=1
//toolgen:param times desc="How many times to say hello." minimum=1 maximum=5 default=1
func HelloWorld(name string, times int) string {
	return strings.TrimSpace(strings.Repeat(fmt.Sprintf("Hello, %s! ", name), times))
}
