package a

import toolgenStrings "strings" // want `toolgenStrings is declared here, but names that start with "toolgen" and an upper-case letter are reserved for the helpers toolgen declares in toolgen\.gen\.go \(toolgenTools, toolgenDispatch, \.\.\.\): rename it`

// Service holds the dependencies.
type Service struct{}

// Ping checks the connection.
//
//toolgen:tool readonly
func Ping() string { return "pong" }

// Echo says msg back.
//
//toolgen:tool readonly
//toolgen:param msg desc="What to say."
func (s *Service) Echo(msg string) string { return toolgenStrings.ToUpper(msg) }

// ServiceTools is taken.
type ServiceTools struct{} // want `ServiceTools is declared here, but toolgen generates func ServiceTools\(recv \*Service\) \*runtime\.Toolset in toolgen\.gen\.go, returning the tools of Service's methods \(echo\): rename this declaration, or rename the constructor with //toolgen:package typetools=PATTERN, where \* stands for the type's name`

var toolgenTools, toolgenHelper = 1, 2 // want `toolgenTools is declared here, but names that start with "toolgen" and an upper-case letter are reserved for the helpers toolgen declares in toolgen\.gen\.go \(toolgenTools, toolgenDispatch, \.\.\.\): rename it` `toolgenHelper is declared here, but names that start with "toolgen" and an upper-case letter are reserved for the helpers toolgen declares in toolgen\.gen\.go \(toolgenTools, toolgenDispatch, \.\.\.\): rename it`

// toolgen_ok and toolgenlower do not have the helpers' form.
var toolgen_ok, toolgenlower = 1, 2
