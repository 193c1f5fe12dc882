// Package workspace decides which paths an agent may edit: the workspace
// roots (symlinks resolved, nested roots picking the deepest), ignore files
// in gitignore syntax (.diffdeskignore, .clineignore, .geminiignore,
// .aiderignore), protected paths (with the reason a person must decide),
// paths holding control or invisible characters, read-only files, the binary and size
// refusals, and the re-check of a path just before it is written.
package workspace
