// Package decision is the desk's decision vocabulary, shared by the journal
// that records decisions, the desk that carries them out and the window and
// protocols that ask for them: the Verdict a proposal ends with, a
// person's line Comment on a Side of a file, and HunkSeen, whether each
// hunk was on screen before the decision. It holds no state and imports
// nothing of the desk.
package decision
