package main

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// The phases a decision → write latency is counted in: the run's faults,
// each from when it began until its effect is taken to be over, and the
// steady state, every other sample.
const (
	phaseSteady    = "steady"
	phaseKill      = "hub node killed"
	phasePartition = "desk partitioned"
	phaseRestart   = "every desk restarted"
	// settle is how long after a fault ends its samples are still counted
	// in it: a killed node's consumers are remade, a partitioned desk
	// reconnects, restarted desks link again, within it.
	settle = 20 * time.Second
)

// sample is one approved file's latency: when its reviewer's decision
// won, when its desk wrote it, and which desk.
type sample struct {
	won, wrote time.Time
	desk       string
}

func (s sample) d() time.Duration { return s.wrote.Sub(s.won) }

// PhaseLatency is the decision → write latency of the samples of one
// phase.
type PhaseLatency struct {
	Phase         string
	N             int
	P50, P99, Max time.Duration
}

func (p PhaseLatency) String() string {
	return fmt.Sprintf("%s: p50 %v, p99 %v, max %v (%d)", p.Phase, p.P50.Round(time.Millisecond), p.P99.Round(time.Millisecond), p.Max.Round(time.Millisecond), p.N)
}

// phaseLog records the faults as they happen.
type phaseLog struct {
	start  time.Time
	mu     sync.Mutex
	faults []fault
}

type fault struct {
	kind     string
	from, to time.Time
	desk     string // "": every desk's samples
}

func (l *phaseLog) add(kind string, from, to time.Time, desk string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.faults = append(l.faults, fault{kind, from, to, desk})
}

// of is the phase of s: of the faults whose time (from its start until
// settle after its end) s's decision → write overlaps — on s's desk, for
// a fault of one desk — the one begun last; steady when none.
func (l *phaseLog) of(s sample) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	kind, at := phaseSteady, time.Time{}
	for _, f := range l.faults {
		if f.desk != "" && f.desk != s.desk {
			continue
		}
		if !s.wrote.Before(f.from) && !s.won.After(f.to.Add(settle)) && !f.from.Before(at) {
			kind, at = f.kind, f.from
		}
	}
	return kind
}

// split is the latency of the samples per phase, steady first, then the
// faults in the order they happened.
func (l *phaseLog) split(samples []sample) []PhaseLatency {
	by := map[string][]time.Duration{}
	for _, s := range samples {
		by[l.of(s)] = append(by[l.of(s)], s.d())
	}
	order := []string{phaseSteady}
	l.mu.Lock()
	for _, f := range l.faults {
		order = append(order, f.kind)
	}
	l.mu.Unlock()
	var out []PhaseLatency
	for _, ph := range order {
		ds := by[ph]
		if len(ds) == 0 {
			continue
		}
		slices.Sort(ds)
		n := len(ds)
		out = append(out, PhaseLatency{Phase: ph, N: n, P50: ds[n/2], P99: ds[min(n*99/100, n-1)], Max: ds[n-1]})
	}
	return out
}

// slowest describes the n slowest samples: desk, latency, when the
// decision won (seconds into the load) and its phase.
func (l *phaseLog) slowest(samples []sample, n int) []string {
	s := slices.Clone(samples)
	slices.SortFunc(s, func(a, b sample) int { return int(b.d() - a.d()) })
	var out []string
	for _, x := range s[:min(n, len(s))] {
		out = append(out, fmt.Sprintf("%s %v, decided at +%.1fs, %s", x.desk, x.d().Round(time.Millisecond), x.won.Sub(l.start).Seconds(), l.of(x)))
	}
	return out
}

// faultsAt says when each fault happened, seconds into the load.
func (l *phaseLog) faultsAt() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b []string
	for _, f := range l.faults {
		b = append(b, fmt.Sprintf("%s +%.1fs–+%.1fs", f.kind, f.from.Sub(l.start).Seconds(), f.to.Sub(l.start).Seconds()))
	}
	return strings.Join(b, ", ")
}

// timeline is the latency of the samples by when their decision won, in
// buckets of width from the start of the load: count, p50 and max each,
// and the faults that began in it.
func (l *phaseLog) timeline(samples []sample, width time.Duration) []string {
	buckets := map[int][]time.Duration{}
	last := 0
	for _, s := range samples {
		i := int(s.won.Sub(l.start) / width)
		buckets[i] = append(buckets[i], s.d())
		last = max(last, i)
	}
	l.mu.Lock()
	began := map[int][]string{}
	for _, f := range l.faults {
		i := int(f.from.Sub(l.start) / width)
		began[i] = append(began[i], f.kind)
	}
	l.mu.Unlock()
	var out []string
	for i := 0; i <= last; i++ {
		ds := buckets[i]
		line := fmt.Sprintf("+%3.0fs: %4d", (time.Duration(i) * width).Seconds(), len(ds))
		if len(ds) > 0 {
			slices.Sort(ds)
			line += fmt.Sprintf("  p50 %6v  max %6v", ds[len(ds)/2].Round(time.Millisecond), ds[len(ds)-1].Round(time.Millisecond))
		}
		if b := began[i]; len(b) > 0 {
			line += "  ← " + strings.Join(b, ", ")
		}
		out = append(out, line)
	}
	return out
}
