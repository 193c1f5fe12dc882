//go:build race

package review_test

// modelChecks is how many generated sequences TestDeskModel runs under the
// race detector, which makes each about five times slower.
const modelChecks = 8
