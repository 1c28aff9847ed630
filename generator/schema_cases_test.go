package generator

import "github.com/toolgen/toolgen/model"

// This file builds, by hand, the model packages the schema tests generate from.

// schemaCase is one golden case: a package and the name of its golden directory.
type schemaCase struct {
	name string
	pkg  func() *model.Package
}

// schemaCases returns the golden cases, each with a fresh package.
func schemaCases() []schemaCase {
	return []schemaCase{
		{"weather", weatherPackage},
		{"params", paramsPackage},
		{"shared", sharedPackage},
		{"kinds", kindsPackage},
		{"dialects", dialectsPackage},
		{"unions", unionsPackage},
	}
}

// tString is string.
func tString() *model.Type { return &model.Type{Kind: model.String} }

// tBool is bool.
func tBool() *model.Type { return &model.Type{Kind: model.Bool} }

// tInt is a signed integer of the given size.
func tInt(bits int) *model.Type { return &model.Type{Kind: model.Int, Bits: bits} }

// tUint is an unsigned integer of the given size.
func tUint(bits int) *model.Type { return &model.Type{Kind: model.Uint, Bits: bits} }

// tFloat is a float of the given size.
func tFloat(bits int) *model.Type { return &model.Type{Kind: model.Float, Bits: bits} }

// tTime is time.Time.
func tTime() *model.Type { return &model.Type{Kind: model.Time} }

// tDuration is time.Duration.
func tDuration() *model.Type { return &model.Type{Kind: model.Duration} }

// tBytes is []byte.
func tBytes() *model.Type { return &model.Type{Kind: model.Bytes} }

// tAny is any.
func tAny() *model.Type { return &model.Type{Kind: model.Any} }

// tRaw is json.RawMessage.
func tRaw() *model.Type { return &model.Type{Kind: model.Raw} }

// tText is an encoding.TextUnmarshaler.
func tText() *model.Type { return &model.Type{Kind: model.Text} }

// tPtr is *e.
func tPtr(e *model.Type) *model.Type { return &model.Type{Kind: model.Pointer, Elem: e} }

// tSlice is []e.
func tSlice(e *model.Type) *model.Type { return &model.Type{Kind: model.Slice, Elem: e} }

// tArray is [n]e.
func tArray(n int, e *model.Type) *model.Type {
	return &model.Type{Kind: model.Array, Len: n, Elem: e}
}

// tMap is map[k]e.
func tMap(k, e *model.Type) *model.Type { return &model.Type{Kind: model.Map, Key: k, Elem: e} }

// tNamed refers to the named type id.
func tNamed(id string) *model.Type { return &model.Type{Kind: model.Named, Ref: id} }

// tStruct is an unnamed struct.
func tStruct(fields ...*model.Field) *model.Type {
	return &model.Type{Kind: model.Struct, Fields: fields}
}

// fld returns a required field; opts adjust it.
func fld(name string, t *model.Type, opts ...func(*model.Field)) *model.Field {
	f := &model.Field{Name: name, GoPath: []string{name}, Type: t, Required: true}
	for _, o := range opts {
		o(f)
	}
	return f
}

// desc sets a field's description.
func desc(d string) func(*model.Field) { return func(f *model.Field) { f.Description = d } }

// optional makes a field optional.
func optional(f *model.Field) { f.Required = false }

// omitEmpty marks a field omitempty (and so optional).
func omitEmpty(f *model.Field) { f.Required, f.OmitEmpty = false, true }

// cons sets a field's constraints.
func cons(set func(c *model.Constraints)) func(*model.Field) {
	return func(f *model.Field) { set(&f.Constraints) }
}

// ip returns a pointer to n.
func ip(n int) *int { return &n }

// bp returns a pointer to b.
func bp(b bool) *bool { return &b }

// weatherPackage: a struct argument with an enum type, a bounded int and a default; a
// struct output; a slice output (wrapped); annotations, title and groups.
func weatherPackage() *model.Package {
	return &model.Package{
		Path: "example.com/weather", Name: "weather", Dir: ".",
		Tools: []*model.Tool{
			{
				Name: "get_weather", GoName: "GetWeather", Title: "Get weather",
				Description: "GetWeather returns the forecast for a city.\n\nUse it whenever the user asks about the weather.\n",
				Groups:      []string{"weather"},
				Annotations: model.Annotations{ReadOnly: bp(true), Idempotent: bp(true), OpenWorld: bp(true)},
				Strict:      true,
				Input:       model.Input{Kind: model.InputStruct, Type: tNamed("WeatherQuery")},
				Output:      model.Output{Kind: model.OutputValue, Type: tNamed("Forecast"), Error: true},
			},
			{
				Name: "list_cities", GoName: "ListCities",
				Description: "ListCities lists the cities with forecasts.",
				Annotations: model.Annotations{ReadOnly: bp(true)},
				Strict:      true,
				Input:       model.Input{Kind: model.InputNone},
				Output:      model.Output{Kind: model.OutputValue, Type: tSlice(tString())},
			},
		},
		Types: []*model.NamedType{
			{ID: "Day", Name: "Day", PkgPath: "example.com/weather", Doc: "Day is one day's forecast.",
				Underlying: tStruct(
					fld("date", tTime(), desc("The day, at midnight UTC.")),
					fld("high", tFloat(64), desc("Highest temperature.")),
					fld("low", tFloat(64), desc("Lowest temperature.")),
					fld("summary", tString(), omitEmpty, desc("A few words, such as \"light rain\".")),
				)},
			{ID: "Forecast", Name: "Forecast", PkgPath: "example.com/weather", Doc: "Forecast is the weather to come.",
				Underlying: tStruct(
					fld("city", tString()),
					fld("unit", tNamed("Unit"), desc("Temperature unit.")),
					fld("days", tSlice(tNamed("Day")), desc("One entry per day.")),
				)},
			{ID: "Unit", Name: "Unit", PkgPath: "example.com/weather", Doc: "Temperature unit.",
				Underlying: tString(),
				Enum: []*model.EnumValue{
					{GoName: "Celsius", Value: `"celsius"`, Doc: "degrees Celsius"},
					{GoName: "Fahrenheit", Value: `"fahrenheit"`, Doc: "degrees Fahrenheit"},
				}},
			{ID: "WeatherQuery", Name: "WeatherQuery", PkgPath: "example.com/weather", Doc: "WeatherQuery selects a forecast.",
				Underlying: tStruct(
					fld("city", tString(), desc(`City name, such as "Paris".`), cons(func(c *model.Constraints) { c.MinLength = ip(1) })),
					fld("unit", tNamed("Unit"), optional, desc("Temperature unit."), cons(func(c *model.Constraints) { c.Default = `"celsius"` })),
					fld("days", tInt(64), optional, desc("How many days to forecast."), cons(func(c *model.Constraints) {
						c.Minimum, c.Maximum, c.Default = "1", "14", "3"
					})),
				)},
		},
	}
}

// paramsPackage: an ordinary multi-parameter function, and a tool without parameters.
func paramsPackage() *model.Package {
	return &model.Package{
		Path: "example.com/greet", Name: "greet", Dir: "greet",
		Tools: []*model.Tool{
			{
				Name: "greet", GoName: "Greet",
				Description: "Greet says hello.",
				Groups:      []string{"social", "fun"},
				Annotations: model.Annotations{Destructive: bp(false)},
				Strict:      true,
				Input: model.Input{Kind: model.InputParams, Params: []*model.Field{
					fld("name", tString(), desc("The name of the person to greet."), cons(func(c *model.Constraints) { c.MinLength = ip(1) })),
					fld("times", tInt(8), optional, desc("How many times."), cons(func(c *model.Constraints) {
						c.Default, c.Maximum = "1", "5"
					})),
					fld("shout", tPtr(tBool()), optional),
				}},
				Output: model.Output{Kind: model.OutputText},
			},
			{
				Name: "ping", GoName: "Ping", Strict: true,
				Input:  model.Input{Kind: model.InputNone},
				Output: model.Output{Kind: model.OutputNone, Error: true},
			},
		},
	}
}

// sharedPackage: a recursive type, a struct and an enum reused within one schema, an
// enum narrowed by a constraint, a pointer-to-struct argument.
func sharedPackage() *model.Package {
	return &model.Package{
		Path: "example.com/shop", Name: "shop", Dir: ".",
		Tools: []*model.Tool{
			{
				Name: "place_order", GoName: "PlaceOrder", Receiver: "Shop", ReceiverPointer: true,
				Description: "PlaceOrder places an order.",
				Annotations: model.Annotations{ReadOnly: bp(false), Destructive: bp(false), Idempotent: bp(false), OpenWorld: bp(false)},
				Strict:      true, Context: true,
				Input:  model.Input{Kind: model.InputStruct, Type: tPtr(tNamed("Order"))},
				Output: model.Output{Kind: model.OutputValue, Type: tNamed("Order"), Error: true},
			},
			{
				Name: "save_tree", GoName: "SaveTree", Title: "Save a tree",
				Description: "SaveTree stores a tree.",
				Strict:      true,
				Input:       model.Input{Kind: model.InputParams, Params: []*model.Field{fld("root", tNamed("Node"), desc("The tree's root."))}},
				Output:      model.Output{Kind: model.OutputValue, Type: tNamed("Node")},
			},
		},
		Types: []*model.NamedType{
			{ID: "Address", Name: "Address", PkgPath: "example.com/shop", Doc: "Address is a postal address.",
				Underlying: tStruct(
					fld("street", tString()),
					fld("city", tString()),
					fld("country", tString(), desc("ISO 3166 country code."), cons(func(c *model.Constraints) { c.Pattern = "^[A-Z]{2}$" })),
				)},
			{ID: "Node", Name: "Node", PkgPath: "example.com/shop", Doc: "Node is a tree node.", Recursive: true,
				Underlying: tStruct(
					fld("name", tString()),
					fld("children", tSlice(tNamed("Node")), optional, omitEmpty),
					fld("parent", tPtr(tNamed("Node")), optional, omitEmpty, desc("Parent node, if any.")),
				)},
			{ID: "Order", Name: "Order", PkgPath: "example.com/shop", Doc: "Order is what a customer buys.",
				Underlying: tStruct(
					fld("billing", tNamed("Address"), desc("Where the bill goes.")),
					fld("shipping", tPtr(tNamed("Address")), optional, desc("Where the goods go, if not to the billing address.")),
					fld("tree", tNamed("Node"), optional, omitEmpty, desc("Node is a tree node.")),
					fld("priority", tNamed("Priority"), desc("How urgent.")),
					fld("fallback", tPtr(tNamed("Priority")), optional, desc("Priority to fall back to.")),
					fld("only", tNamed("Priority"), optional, desc("How urgent."), cons(func(c *model.Constraints) { c.Enum = []string{"1", "2"} })),
				)},
			{ID: "Priority", Name: "Priority", PkgPath: "example.com/shop", Doc: "How urgent.",
				Underlying: tInt(8),
				Enum: []*model.EnumValue{
					{GoName: "Low", Value: "1"},
					{GoName: "Normal", Value: "2"},
					{GoName: "High", Value: "3"},
				}},
		},
	}
}

// kindsPackage: every kind of type and constraint, and every kind of output root.
func kindsPackage() *model.Package {
	item := []*model.Field{
		fld("id", tInt(64)),
		fld("name", tString()),
		fld("price", tFloat(32), omitEmpty),
		fld("data", tBytes(), omitEmpty),
		fld("meta", tMap(tString(), tAny())),
		fld("ttl", tDuration(), desc("Time to live.")),
		fld("expires", tPtr(tTime()), optional),
		fld("level", tNamed("Level"), omitEmpty),
		fld("window", tNamed("Window"), omitEmpty),
	}
	return &model.Package{
		Path: "example.com/kinds", Name: "kinds", Dir: "internal/kinds",
		Tools: []*model.Tool{
			{
				Name: "configure", GoName: "Configure",
				Description: "Configure takes every kind of argument.",
				Strict:      false,
				Input: model.Input{Kind: model.InputStruct, Type: tStruct(
					fld("small", tInt(8), desc("A small number."), cons(func(c *model.Constraints) { c.Minimum, c.Maximum = "-200", "100" })),
					fld("name", tPtr(tString()), optional, cons(func(c *model.Constraints) { c.MaxLength = ip(64) })),
					fld("level", tPtr(tNamed("Level")), optional),
					fld("levels", tMap(tNamed("Level"), tString()), optional, desc("Per-level messages.")),
					fld("counts", tMap(tString(), tInt(64)), optional, cons(func(c *model.Constraints) { c.MinItems = ip(1); c.Minimum = "0" })),
					fld("point", tArray(3, tFloat(64)), optional, desc("X, Y and Z.")),
					fld("payload", tBytes(), optional),
					fld("timeout", tDuration(), optional, desc("How long to wait"), cons(func(c *model.Constraints) { c.Default = `"30s"` })),
					fld("retry_after", tPtr(tDuration()), optional),
					fld("intervals", tSlice(tDuration()), optional, cons(func(c *model.Constraints) { c.MaxItems = ip(4) })),
					fld("grace", tNamed("Timeout"), optional),
					fld("at", tTime(), optional),
					fld("extra", tAny(), optional),
					fld("raw", tRaw(), optional),
					fld("color", tNamed("Color"), optional),
					fld("tags", tNamed("Tags"), optional, cons(func(c *model.Constraints) {
						c.MaxItems, c.UniqueItems, c.MaxLength, c.Pattern = ip(5), true, ip(20), "^[a-z]+$"
					})),
					fld("emails", tSlice(tString()), optional, cons(func(c *model.Constraints) { c.MinItems, c.Format = ip(1), "email" })),
					fld("medium", tInt(16), optional, cons(func(c *model.Constraints) { c.ExclusiveMinimum = "0" })),
					fld("byte", tUint(8), optional),
					fld("big", tUint(64), optional),
					fld("u32", tUint(32), optional, cons(func(c *model.Constraints) { c.Maximum = "10" })),
					fld("ratio", tFloat(64), optional, cons(func(c *model.Constraints) { c.MultipleOf, c.ExclusiveMaximum = "0.5", "1" })),
					fld("opts", tSlice(tPtr(tString())), optional, cons(func(c *model.Constraints) { c.Enum = []string{`"a"`, `"b"`} })),
					fld("grid", tSlice(tSlice(tInt(64))), optional, cons(func(c *model.Constraints) { c.MaxItems, c.Maximum = ip(2), "9" })),
					fld("window", tStruct(
						fld("from", tTime()),
						fld("to", tTime(), optional),
					), optional, desc("A time window.")),
					fld("old", tString(), optional, desc(`Use <b>"new"</b> & friends instead.`), cons(func(c *model.Constraints) {
						c.Title, c.Deprecated = "Old name", true
					})),
					fld("mode", tString(), optional, cons(func(c *model.Constraints) { c.Const = `"fast"` })),
					fld("secret", tString(), optional, cons(func(c *model.Constraints) { c.Sensitive = true })),
					fld("items", tSlice(tNamed("Item")), optional),
					fld("tree", tNamed("Tree"), optional, desc("Nested settings."), cons(func(c *model.Constraints) { c.MinItems = ip(1) })),
				)},
				Output: model.Output{Kind: model.OutputValue, Type: tSlice(tNamed("Item"))},
			},
			{
				Name: "count", GoName: "Count", Strict: true,
				Input:  model.Input{Kind: model.InputNone},
				Output: model.Output{Kind: model.OutputValue, Type: tInt(64)},
			},
			{
				Name: "index", GoName: "Index", Strict: true,
				Input:  model.Input{Kind: model.InputNone},
				Output: model.Output{Kind: model.OutputValue, Type: tMap(tString(), tSlice(tNamed("Item")))},
			},
			{
				Name: "lookup", GoName: "Lookup", Strict: true,
				Input:  model.Input{Kind: model.InputParams, Params: []*model.Field{fld("id", tInt(64))}},
				Output: model.Output{Kind: model.OutputValue, Type: tPtr(tNamed("Item"))},
			},
			{
				Name: "raw_result", GoName: "RawResult", Strict: true,
				Input:  model.Input{Kind: model.InputNone},
				Output: model.Output{Kind: model.OutputResult, ResultPointer: true},
			},
		},
		Types: []*model.NamedType{
			{ID: "Color", Name: "Color", PkgPath: "example.com/kinds", Doc: "Color is a color name or #rrggbb.", Underlying: tText()},
			{ID: "Item", Name: "Item", PkgPath: "example.com/kinds", Doc: "Item is a thing.", Underlying: tStruct(item...)},
			{ID: "Level", Name: "Level", PkgPath: "example.com/kinds", Doc: "Level is a log level.",
				Underlying: tString(),
				Enum: []*model.EnumValue{
					{GoName: "Debug", Value: `"debug"`, Doc: "Debug is chatty."},
					{GoName: "Info", Value: `"info"`},
				}},
			{ID: "Tags", Name: "Tags", PkgPath: "example.com/kinds", Doc: "Tags are labels.", Underlying: tSlice(tString())},
			{ID: "Timeout", Name: "Timeout", PkgPath: "example.com/kinds", Doc: "Timeout is how long to wait.", Underlying: tDuration()},
			{ID: "Tree", Name: "Tree", PkgPath: "example.com/kinds", Doc: "Tree is nested settings.", Recursive: true,
				Underlying: tMap(tString(), tNamed("Tree"))},
			{ID: "Window", Name: "Window", PkgPath: "example.com/kinds", Underlying: tStruct(
				fld("from", tTime()),
				fld("to", tPtr(tTime())),
			)},
		},
	}
}

// at returns an option that sets a field's position in dialects.go.
func at(line int) func(*model.Field) {
	return func(f *model.Field) { f.Pos = model.Pos{File: "dialects/dialects.go", Line: line, Col: 2} }
}

// toolAt returns a position in dialects.go, for a tool.
func toolAt(line int) model.Pos { return model.Pos{File: "dialects/dialects.go", Line: line, Col: 1} }

// nested returns depth structs, each holding the next in its "next" property.
func nested(depth int) *model.Type {
	t := tStruct(fld("leaf", tString()))
	for range depth - 1 {
		t = tStruct(fld("next", t))
	}
	return t
}

// dialectsPackage: what the provider dialects must lower, restate or refuse: keywords
// strict modes drop, formats, constants and integer enums, references with keywords
// beside them, a map and a free-form value in a strict tool, OpenAI's depth limit,
// Anthropic's union limit, and names Gemini may refuse.
func dialectsPackage() *model.Package {
	var options []*model.Field
	for i := range 17 {
		options = append(options, fld("opt"+string(rune('a'+i)), tPtr(tInt(64)), optional, at(60+i)))
	}
	return &model.Package{
		Path: "example.com/dialects", Name: "dialects", Dir: "dialects",
		Tools: []*model.Tool{
			{
				Name: "book_trip", GoName: "BookTrip", Description: "BookTrip books a trip.", Strict: true, Pos: toolAt(10),
				Input: model.Input{Kind: model.InputParams, Params: []*model.Field{
					fld("destination", tString(), at(11), desc("Where to."), cons(func(c *model.Constraints) { c.MinLength, c.MaxLength = ip(1), ip(80) })),
					fld("website", tString(), optional, at(12), cons(func(c *model.Constraints) { c.Format = "uri" })),
					fld("travelers", tSlice(tNamed("Traveler")), at(13), cons(func(c *model.Constraints) { c.MinItems, c.MaxItems, c.UniqueItems = ip(2), ip(9), true })),
					fld("class", tNamed("Class"), optional, at(14), cons(func(c *model.Constraints) { c.Default = "2" })),
					fld("budget", tFloat(64), at(15), cons(func(c *model.Constraints) { c.ExclusiveMinimum, c.MultipleOf = "0", "0.01" })),
					fld("nights", tInt(8), at(16), cons(func(c *model.Constraints) { c.ExclusiveMaximum = "30" })),
					fld("code", tString(), optional, at(17), cons(func(c *model.Constraints) { c.Const = `"X1"` })),
					fld("seats", tInt(64), optional, at(18), cons(func(c *model.Constraints) { c.Const = "2" })),
					fld("legacy", tString(), optional, at(19), desc("Old field."), cons(func(c *model.Constraints) { c.Title, c.Deprecated = "Legacy", true })),
					fld("home-airport", tString(), optional, at(20), cons(func(c *model.Constraints) { c.Pattern = "^[A-Z]{3}$" })),
					fld("home", tNamed("Address"), at(21), desc("Where the travelers live.")),
					fld("work", tPtr(tNamed("Address")), optional, at(22), desc("Where they work.")),
					fld("departure", tTime(), at(23)),
					fld("day", tString(), optional, at(24), cons(func(c *model.Constraints) { c.Format = "date" })),
					fld("photo", tBytes(), optional, at(25), cons(func(c *model.Constraints) { c.MaxLength = ip(1000) })),
				}},
				Output: model.Output{Kind: model.OutputText},
			},
			{
				Name: "tag_items", GoName: "TagItems", Description: "TagItems labels items.", Strict: true, Pos: toolAt(30),
				Input: model.Input{Kind: model.InputParams, Params: []*model.Field{
					fld("labels", tMap(tString(), tString()), at(31), cons(func(c *model.Constraints) { c.MaxItems, c.MaxLength = ip(10), ip(20) })),
					fld("extra", tAny(), optional, at(32)),
				}},
				Output: model.Output{Kind: model.OutputNone, Error: true},
			},
			{
				Name: "deep", GoName: "Deep", Description: "Deep nests eleven objects.", Strict: true, Pos: toolAt(40),
				Input:  model.Input{Kind: model.InputParams, Params: []*model.Field{fld("next", nested(10), at(41))}},
				Output: model.Output{Kind: model.OutputNone},
			},
			{
				Name: "many_options", GoName: "ManyOptions", Description: "ManyOptions has seventeen optional numbers.", Strict: true, Pos: toolAt(50),
				Input:  model.Input{Kind: model.InputParams, Params: options},
				Output: model.Output{Kind: model.OutputNone},
			},
			{
				Name: "9lives", GoName: "NineLives", Description: "NineLives has a name Gemini refuses.", Pos: toolAt(90),
				Input:  model.Input{Kind: model.InputNone},
				Output: model.Output{Kind: model.OutputNone},
			},
		},
		Types: []*model.NamedType{
			{ID: "Address", Name: "Address", PkgPath: "example.com/dialects", Doc: "Address is a postal address.",
				Underlying: tStruct(
					fld("street", tString(), at(101)),
					fld("city", tString(), at(102)),
				)},
			{ID: "Class", Name: "Class", PkgPath: "example.com/dialects", Doc: "Class is a travel class.",
				Underlying: tInt(64),
				Enum: []*model.EnumValue{
					{GoName: "Economy", Value: "1", Doc: "The cheapest."},
					{GoName: "Business", Value: "2"},
					{GoName: "First", Value: "3"},
				}},
			{ID: "Traveler", Name: "Traveler", PkgPath: "example.com/dialects", Doc: "Traveler is one person.",
				Underlying: tStruct(
					fld("name", tString(), at(111)),
					fld("age", tPtr(tUint(8)), optional, at(112)),
				)},
		},
	}
}

// unionsPackage: a tagged union as a parameter, a list item, an optional property, a
// map value and a result, one variant with an optional field, and a union nested in a
// variant (recursion through the union).
func unionsPackage() *model.Package {
	const path = "example.com/pay"
	return &model.Package{
		Path: path, Name: "pay", Dir: ".",
		Tools: []*model.Tool{{
			Name: "pay", GoName: "Pay", Description: "Pay pays an amount.", Strict: true,
			Input: model.Input{Kind: model.InputParams, Params: []*model.Field{
				fld("method", tNamed("Method"), desc("How to pay.")),
				fld("amount", tInt(64), cons(func(c *model.Constraints) { c.Minimum = "1" })),
				fld("backups", tSlice(tNamed("Method")), omitEmpty),
				fld("spare", tNamed("Method"), omitEmpty),
				fld("byName", tMap(tString(), tNamed("Method")), omitEmpty),
			}},
			Output: model.Output{Kind: model.OutputValue, Type: tNamed("Method"), Error: true},
		}, {
			Name: "refund", GoName: "Refund", Description: "Refund pays back, strict everywhere.", Strict: true,
			Input: model.Input{Kind: model.InputParams, Params: []*model.Field{
				fld("to", tNamed("Target"), desc("Where the money goes.")),
				fld("also", tSlice(tNamed("Target")), omitEmpty),
				fld("maybe", tNamed("Target"), omitEmpty, desc("Another target, if any.")),
			}},
			Output: model.Output{Kind: model.OutputNone, Error: true},
		}},
		Types: []*model.NamedType{
			{ID: "BankTransfer", Name: "BankTransfer", PkgPath: path, Doc: "A transfer from a bank account.",
				Underlying: tStruct(fld("iban", tString(), cons(func(c *model.Constraints) { c.Pattern = "^[A-Z]{2}[0-9]{2}" })))},
			{ID: "Card", Name: "Card", PkgPath: path, Doc: "A payment card.",
				Underlying: tStruct(
					fld("number", tString(), cons(func(c *model.Constraints) { c.MinLength = ip(12) })),
					fld("holder", tString(), omitEmpty),
				)},
			{ID: "Method", Name: "Method", PkgPath: path, Doc: "Method is how a payment is made.",
				Underlying: &model.Type{Kind: model.Union, Tag: "type", Variants: []*model.Variant{
					{Value: "card", Type: tNamed("Card")},
					{Value: "bank_transfer", Type: tNamed("BankTransfer")},
					{Value: "split", Type: tNamed("Split")},
				}}, Recursive: true},
			{ID: "Target", Name: "Target", PkgPath: path, Doc: "Target is a card or an account.",
				Underlying: &model.Type{Kind: model.Union, Tag: "kind", Variants: []*model.Variant{
					{Value: "card", Type: tNamed("Card")},
					{Value: "bank", Type: tNamed("BankTransfer")},
				}}},
			{ID: "Split", Name: "Split", PkgPath: path, Doc: "Split pays with two methods.",
				Underlying: tStruct(fld("first", tNamed("Method")), fld("second", tNamed("Method"))), Recursive: true},
		},
	}
}
