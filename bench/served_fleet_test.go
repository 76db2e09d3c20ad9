package bench

import "testing"

// servedFleet starts server processes on first use and stops them all at
// the end, so that a filtered benchmark starts only what it measures.
type servedFleet struct {
	tb    testing.TB
	extra func(contender, transport string) []string
	procs map[string]*servedProc
}

func newServedFleet(tb testing.TB) *servedFleet {
	return &servedFleet{tb: tb, procs: map[string]*servedProc{}}
}

func (f *servedFleet) get(contender, transport string) *servedProc {
	f.tb.Helper()
	key := contender + " " + transport
	if p := f.procs[key]; p != nil {
		return p
	}
	var extra []string
	if f.extra != nil {
		extra = f.extra(contender, transport)
	}
	p, err := startServed(f.tb, contender, transport, extra...)
	if err != nil {
		f.tb.Fatal(err)
	}
	f.procs[key] = p
	return p
}

func (f *servedFleet) close() {
	for key, p := range f.procs {
		if err := p.close(); err != nil {
			f.tb.Errorf("%s: %v", key, err)
		}
	}
}
