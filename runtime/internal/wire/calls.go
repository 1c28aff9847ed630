package wire

// HasCalls reports whether reading the calls of a response succeeded and found at
// least one: a package's HasToolCalls(body) is HasCalls(Calls(body)).
func HasCalls[Call any](calls []Call, err error) bool {
	return err == nil && len(calls) > 0
}
