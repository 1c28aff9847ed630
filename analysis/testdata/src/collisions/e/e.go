package e

import ServiceTools "strings" // want `ServiceTools is declared here, but toolgen generates func ServiceTools\(recv \*Service\) \*runtime\.Toolset in toolgen\.gen\.go, returning the tools of Service's methods \(echo\): rename this declaration, or rename the constructor with //toolgen:package typetools=PATTERN, where \* stands for the type's name`

// Service holds the dependencies.
type Service struct{}

// Echo says msg back.
//
//toolgen:tool readonly
func (s *Service) Echo() string { return ServiceTools.ToUpper("") }
