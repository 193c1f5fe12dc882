package present

// Keys is who has the keyboard, as the line under the decision bar says.
type Keys int

const (
	ReviewKeys Keys = iota // the window's review keys
	Typing                 // a box the window knows (search, comment): Esc closes it
	RejectBox              // the reject box: Ctrl+Enter rejects
	Editor                 // the editor: Esc goes back to the review keys
	TextBox                // another text box
	Queue                  // the queue (a Tab into it): the arrows and Space choose a row
	Control                // a button or option reached with Tab
)

// Keyboard is the keyboard line for k; what names the box for Typing.
func Keyboard(k Keys, what string) string {
	switch k {
	case Typing:
		return "Keys: typing in " + what + " (Esc closes it)"
	case RejectBox:
		return "Keys: typing in the reject box (Ctrl+Enter rejects, Esc closes it)"
	case Editor:
		return "Keys: typing in the editor (Esc: back to the review keys)"
	case TextBox:
		return "Keys: typing in a text box"
	case Control:
		return "Keys: a button or option (Space uses it, Tab moves on)"
	case Queue:
		return "Keys: the queue (Space shows the row; Esc: back to the review keys)"
	}
	return "Keys: review (? lists them)"
}
