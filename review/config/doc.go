// Package config reads DiffDesk's configuration: the user's config.toml
// merged with the .diffdesk.toml of each workspace root — formatters,
// auto-approve rules, protected paths, limits, the settle window, doors,
// history retention — with every problem reported by file and line.
package config
