package a

// Tools is taken as well.
func Tools() {} // want `Tools is declared here, but toolgen generates func Tools\(\) \*runtime\.Toolset in toolgen\.gen\.go, returning the package-level tools \(ping\): rename this declaration, or rename the constructor with //toolgen:package tools=NAME`
