// want +2 `tools=ServiceTools gives the constructor of the package-level tools the name of the constructor of the tools of Service's methods; choose another name` `invalid typetools=new\*: the constructor must be exported, so that other packages can call it; start it with an upper-case letter \(typetools=New\*\)`

//toolgen:package tools=ServiceTools typetools=new*
package f

// Service holds the dependencies.
type Service struct{}

// Ping checks the connection.
//
//toolgen:tool readonly
func Ping() string { return "pong" }

// Echo says msg back.
//
//toolgen:tool readonly
func (s *Service) Echo() string { return "" }
