//go:build !unix

package config

import "io/fs"

// checkTrustOwner has no owner to check off Unix.
func checkTrustOwner(string, fs.FileInfo) error { return nil }

func checkUserConfigOwner(string, fs.FileInfo) error { return nil }
