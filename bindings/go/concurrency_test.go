package hiera

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func envInt(name string, dflt int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return dflt
}

// Many goroutines look up through one session at once (Lookup, LookupRaw
// and LookupMany), each checking every answer against Puppet's, while the
// garbage collector runs over and over (a missing KeepAlive would show).
func TestConcurrentLookups(t *testing.T) {
	ex := openExample(t)
	goroutines := envInt("HIERA_TEST_GOROUTINES", 16)
	rounds := envInt("HIERA_TEST_ROUNDS", 50)
	stopGC := make(chan struct{})
	defer close(stopGC)
	go func() {
		for {
			select {
			case <-stopGC:
				return
			default:
				runtime.GC()
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	var lookups atomic.Int64
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				for i := range ex.keys {
					key := ex.keys[(i+g+r)%len(ex.keys)] // each goroutine in another order
					var err error
					switch (g + r) % 3 {
					case 0:
						raw, found, lerr := ex.s.LookupRaw(key)
						err = ex.check(key, raw, found, lerr)
					case 1:
						v, found, lerr := ex.s.Lookup(key, WithOrderedMaps())
						var raw []byte
						if found {
							raw, _ = Marshal(v)
						}
						err = ex.check(key, raw, found, lerr)
					case 2:
						results, lerr := ex.s.LookupMany(NewRequest(key), NewRequest("no::such::key"))
						if lerr != nil {
							err = lerr
						} else {
							err = ex.check(key, results[0].Raw, results[0].Found, results[0].Err)
						}
					}
					lookups.Add(1)
					if err != nil {
						errs <- fmt.Errorf("goroutine %d round %d: %w", g, r, err)
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d goroutines, %d lookups", goroutines, lookups.Load())
}

// Close racing with lookups and session creation: every call either
// answers correctly or returns ErrClosed, and nothing crashes.
func TestCloseRacesWithLookups(t *testing.T) {
	for trial := 0; trial < 5; trial++ {
		ex := openExample(t)
		const goroutines = 8
		var wg sync.WaitGroup
		var answered, closed atomic.Int64
		errs := make(chan error, 2*goroutines)
		start := make(chan struct{})
		for g := 0; g < goroutines; g++ {
			wg.Add(2)
			go func(g int) { // lookups on the shared session until it is closed
				defer wg.Done()
				<-start
				for i := 0; ; i++ {
					key := ex.keys[(g+i)%len(ex.keys)]
					raw, found, err := ex.s.LookupRaw(key)
					if errors.Is(err, ErrClosed) {
						closed.Add(1)
						return
					}
					if err := ex.check(key, raw, found, err); err != nil {
						errs <- err
						return
					}
					answered.Add(1)
				}
			}(g)
			go func() { // sessions from the shared configuration until it is closed
				defer wg.Done()
				<-start
				for {
					s, err := ex.h.Session(nil)
					if errors.Is(err, ErrClosed) {
						return
					}
					if err != nil {
						errs <- err
						return
					}
					if _, _, err := s.Lookup("ntp::service_name"); err != nil {
						errs <- err
					}
					s.Close()
				}
			}()
		}
		close(start)
		// Close in the middle of the stream of answers.
		for deadline := time.Now().Add(10 * time.Second); answered.Load() < int64(20+trial*200) && time.Now().Before(deadline); {
			time.Sleep(100 * time.Microsecond)
		}
		var cwg sync.WaitGroup
		for i := 0; i < 3; i++ { // several Close calls at once
			cwg.Add(2)
			go func() { defer cwg.Done(); ex.s.Close() }()
			go func() { defer cwg.Done(); ex.h.Close() }()
		}
		cwg.Wait()
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if closed.Load() != goroutines {
			t.Fatalf("%d of %d lookup goroutines saw ErrClosed", closed.Load(), goroutines)
		}
		if _, _, err := ex.s.Lookup("motd"); !errors.Is(err, ErrClosed) {
			t.Fatalf("after Close: %v", err)
		}
		t.Logf("trial %d: %d answers before Close", trial, answered.Load())
	}
}
