// Package assets holds DiffDesk's embedded resources: the application icon.
package assets

import _ "embed"

// Icon is the application icon, a 256×256 PNG.
//
//go:embed icon.png
var Icon []byte
