// Package workspace decides which paths an agent may edit: the workspace
// roots (symlinks resolved, nested roots picking the deepest), ignore files
// in gitignore syntax (.diffdeskignore, .clineignore, .geminiignore,
// .aiderignore), protected paths, and the binary and size refusals.
package workspace
