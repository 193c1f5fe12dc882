//go:build !race

package review_test

// modelChecks is how many generated sequences TestDeskModel runs in the
// normal test (CI's `go test`).
const modelChecks = 30
