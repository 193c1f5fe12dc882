package ui

import "github.com/diffdesk/diffdesk/internal/version"

// AboutText is what the window says of itself under the keys (?): its
// version, the commit it was built from, and its licence.
func AboutText() string {
	return "DiffDesk " + version.Read().String() + "\nMIT licence · github.com/diffdesk/diffdesk"
}
