package shapes

import "github.com/toolgen/toolgen/runtime/toolimpl"

// The decoders toolgen generated for the tools' argument types (toolgen.gen.go), for
// the benchmarks of the bench package, which run them as Toolset.Call does: a
// toolimpl.Decoder reset for the arguments, the decoder, then Finish. Each is the
// generated function itself, not a wrapper around it.
var (
	GeneratedAlarmArgs   func(*toolimpl.Decoder, *AlarmArgs)   = toolgenDecodeAlarmArgs
	GeneratedLogQuery    func(*toolimpl.Decoder, *LogQuery)    = toolgenDecodeLogQuery
	GeneratedContactList func(*toolimpl.Decoder, *ContactList) = toolgenDecodeContactList
)
