package review_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
)

// within fails the test if f has not returned after a long while: a
// registry that holds its lock while a subscriber runs deadlocks here, and
// the test should say so rather than hang.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not return: the subscribers' lock is held while a subscriber runs", what)
	}
}

// TestSubscribersCancelDuringEmit: a subscriber may cancel itself, or one
// after it, from inside its call; the cancelled are not called again, not
// even later in the same Emit, and the others still are.
func TestSubscribersCancelDuringEmit(t *testing.T) {
	var s review.Subscribers
	var got []string
	var cancelA, cancelB func()
	cancelA = s.Subscribe(func(ev review.Event) {
		got = append(got, "a:"+ev.ID)
		cancelA()
		cancelB()
		cancelA() // twice is harmless
	})
	cancelB = s.Subscribe(func(ev review.Event) { got = append(got, "b:"+ev.ID) })
	s.Subscribe(func(ev review.Event) { got = append(got, "c:"+ev.ID) })

	within(t, "Emit whose subscriber cancels", func() {
		s.Emit(review.Event{Kind: review.EventAdded, ID: "1"})
		s.Emit(review.Event{Kind: review.EventUpdated, ID: "2"})
	})
	if want := "[a:1 c:1 c:2]"; fmt.Sprint(got) != want {
		t.Errorf("calls = %v; want %s (a cancels itself and b during the first Emit)", got, want)
	}
}

// TestSubscribersSlowSubscriber: while one subscriber is slow inside an
// Emit, others subscribe, cancel and emit on other goroutines without
// waiting for it; the slow Emit then reaches the subscribers after it.
func TestSubscribersSlowSubscriber(t *testing.T) {
	var s review.Subscribers
	entered, release := make(chan struct{}), make(chan struct{})
	s.Subscribe(func(ev review.Event) {
		if ev.ID == "slow" {
			close(entered)
			<-release
		}
	})
	var after atomic.Int32
	s.Subscribe(func(review.Event) { after.Add(1) })

	slowDone := make(chan struct{})
	go func() {
		defer close(slowDone)
		s.Emit(review.Event{Kind: review.EventAdded, ID: "slow"})
	}()
	<-entered
	var other atomic.Int32
	within(t, "Subscribe, Emit and cancel beside a slow subscriber", func() {
		cancel := s.Subscribe(func(review.Event) { other.Add(1) })
		s.Emit(review.Event{Kind: review.EventUpdated, ID: "beside"})
		cancel()
	})
	if other.Load() != 1 || after.Load() != 1 {
		t.Errorf("beside the slow subscriber: new subscriber called %d times, the one after the slow one %d; want 1 and 1", other.Load(), after.Load())
	}
	close(release)
	<-slowDone
	if after.Load() != 2 {
		t.Errorf("the subscriber after the slow one was called %d times; want 2 (the slow Emit reached it once released)", after.Load())
	}
	if other.Load() != 1 {
		t.Errorf("a subscriber cancelled before the slow Emit reached it was called %d times; want 1", other.Load())
	}
}

// TestSubscribersConcurrentEmit: events emitted from many goroutines while
// others subscribe and cancel each reach a steady subscriber exactly once.
func TestSubscribersConcurrentEmit(t *testing.T) {
	const emitters, each = 8, 200
	var s review.Subscribers
	var mu sync.Mutex
	seen := map[string]int{}
	s.Subscribe(func(ev review.Event) {
		mu.Lock()
		seen[ev.ID]++
		mu.Unlock()
	})
	stop := make(chan struct{})
	churned := make(chan struct{})
	go func() {
		defer close(churned)
		for {
			select {
			case <-stop:
				return
			default:
			}
			cancel := s.Subscribe(func(review.Event) {})
			cancel()
		}
	}()
	var wg sync.WaitGroup
	for g := range emitters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				s.Emit(review.Event{Kind: review.EventUpdated, ID: fmt.Sprintf("%d/%d", g, i)})
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-churned
	if len(seen) != emitters*each {
		t.Errorf("the steady subscriber saw %d distinct events; want %d", len(seen), emitters*each)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("event %s reached the steady subscriber %d times; want once", id, n)
		}
	}
}
