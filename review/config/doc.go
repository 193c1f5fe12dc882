// Package config reads DiffDesk's configuration: the user's config.toml
// merged with the .diffdesk.toml of each workspace root — formatters,
// checkers, auto-approve rules, protected paths, limits, the settle window, doors,
// history retention — with every problem reported by file and line.
//
// # Trust
//
// The user's config.toml is the person's own. A workspace's .diffdesk.toml
// comes with the code: a cloned repository can hold one, written by anyone.
// So a workspace file's settings apply untrusted only where they make the
// desk stricter, and everything else waits until the person trusts that
// exact file (LoadTrusting, a Trust, the TrustStore beside the user
// config; the window's question and deskctl trust ask):
//
//   - formatters: off until trusted. Each runs a program as the user on
//     approved files; an untrusted one is code execution.
//   - auto_approve rules: off until trusted. They decide without a
//     person; an untrusted one would switch review off.
//   - checkers ([[checker]]): off until trusted. Each runs a program as
//     the user on every proposed file it matches, before anyone decides.
//   - any rule added later that runs a program or decides belongs with
//     these: in WorkspaceFile, listed by its Rules, turned on by
//     Config.apply only when trusted.
//   - protected: always applies. It only asks a person more often.
//   - [limits] max_file_bytes: a lower value applies untrusted (stricter);
//     a higher one waits, since it raises how much content an agent may
//     push into the desk's memory and the person's review.
//   - [desk] settle: waits. It neither runs nor decides, but it holds every
//     approval's answer (up to MaxSettle) and adopts as final whatever
//     another writer puts in the file meanwhile, which is the person's
//     call, not the repository's.
//   - unprotect, [doors], [history]: refused in a workspace file, trusted
//     or not.
//
// Trust is keyed by the workspace root (absolute, symlinks resolved) and
// the SHA-256 of the file's exact bytes, hashed from the same bytes that
// are parsed: a changed file is untrusted again. Config.WithTrusted turns a
// loaded file's rules on without reading it again, so what applies is
// exactly what the person was shown.
package config
