package present

// Tone is the colour a piece of text gets, named by what it means; the
// window maps it to its theme (ui/tone.go).
type Tone int

const (
	Normal  Tone = iota // the foreground
	Accent              // waiting for the person, under way
	Success             // approved, no new problems
	Warning             // stale, warnings, a checker that failed
	Danger              // rejected, failed, errors
	Muted               // withdrawn, decided long ago
)

// String names the tone (tests, logs).
func (t Tone) String() string {
	switch t {
	case Accent:
		return "accent"
	case Success:
		return "success"
	case Warning:
		return "warning"
	case Danger:
		return "danger"
	case Muted:
		return "muted"
	}
	return "normal"
}

// StatusTone is the status line's colour: red for an error, else plain.
func StatusTone(isErr bool) Tone {
	if isErr {
		return Danger
	}
	return Normal
}
