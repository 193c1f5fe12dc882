package review

// DoorStatus describes one open agent front door (an IDE door of package
// ide), as the status method and the window show it.
type DoorStatus struct {
	Name string `json:"name"` // "claude-code" or "gemini-cli"
	Addr string `json:"addr"` // host:port it listens on (127.0.0.1 only)
	File string `json:"file"` // the lock or discovery file agents find it by
	// Connect is what a person types to connect the agent.
	Connect string `json:"connect"`
	Clients int    `json:"clients"` // agent connections open now
	Ready   int    `json:"ready"`   // of those, agents whose handshake is done (they listed the tools)
	Pending int    `json:"pending"` // reviews the door is waiting on
	// Error says why a door the config enables did not open (its
	// directory unsafe, no port); the desk serves the other doors. The
	// other fields but Name and File are empty then.
	Error string `json:"error,omitempty"`
}
