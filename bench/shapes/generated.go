package shapes

import "github.com/toolgen/toolgen/runtime"

// The decoders toolgen generated for the tools' argument types (toolgen.gen.go), for
// the benchmarks of the bench package, which run them as Toolset.Call does: a
// runtime.Decoder reset for the arguments, the decoder, then Finish. Each is the
// generated function itself, not a wrapper around it.
var (
	GeneratedAlarmArgs   func(*runtime.Decoder, *AlarmArgs)   = toolgenDecodeAlarmArgs
	GeneratedLogQuery    func(*runtime.Decoder, *LogQuery)    = toolgenDecodeLogQuery
	GeneratedContactList func(*runtime.Decoder, *ContactList) = toolgenDecodeContactList
)
