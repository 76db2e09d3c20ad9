package engine

import (
	"runtime"
	"sync"
)

// A handler runs on a goroutine other than its caller's (see dispatch), so
// that one which ignores its context cannot hold its call past the
// deadline; a caller that answers for itself (Origin.Answerer, watched.go)
// runs it on its own goroutine instead. A fresh goroutine per call costs more than its start: it has
// the smallest stack, and a middleware chain or a handler doing real work
// grows that stack by copying it, frame by frame, on every call. Served,
// under deep middleware, a fresh goroutine per call cost much of the
// throughput and of the p99 (bench/README.md, "What each hot-path
// mechanism buys a served call"). Workers keep their goroutines, and the stacks
// those have grown, from one call to the next.
//
// The pool holds handles; a worker's goroutine holds only its channels.
// The sync.Pool lets idle handles go across garbage collections, and a
// cleanup then closes the job channel, which ends the goroutine: idle
// workers last as long as the load that needed them, with no timer and no
// janitor.

// worker is the handle of one goroutine that runs jobs.
type worker struct {
	jobs chan job
	// answers carries the outcome of each job. A worker whose call
	// stopped waiting (its deadline passed) is never pooled again, so an
	// answer left there is never read by another call.
	answers chan outcome
}

// job is one call for a worker: run ep's chain with cc.
type job struct {
	ep *Endpoint
	cc *callContext
}

var idleWorkers sync.Pool

// startJob hands the call to an idle worker, or to a new one, and returns
// the worker, whose answers channel will carry the outcome. The caller
// gives it back with idleWorkers.Put once it has read a normal answer, and
// drops it otherwise (see exec).
func startJob(ep *Endpoint, cc *callContext) *worker {
	w, _ := idleWorkers.Get().(*worker)
	if w == nil {
		// Buffered: a worker back in the pool may get its next job before
		// it is waiting for one, and neither side must wait for the other.
		w = &worker{jobs: make(chan job, 1), answers: make(chan outcome, 1)}
		runtime.AddCleanup(w, closeJobs, w.jobs)
		go work(w.jobs, w.answers)
	}
	w.jobs <- job{ep: ep, cc: cc}
	return w
}

func closeJobs(jobs chan job) { close(jobs) }

// work runs jobs until its channel is closed. It must not refer to its
// handle, or the handle would never be collected. It sends each answer
// itself, after run has returned, so that a chain ended by runtime.Goexit
// (even one resumed after a deferred panic was recovered) is answered as
// exited, and its worker is never handed another job.
func work(jobs <-chan job, answers chan<- outcome) {
	var j job
	answered := true
	defer func() {
		if !answered { // runtime.Goexit is unwinding this goroutine
			j.ep.release(j.cc)
			answers <- j.ep.exited(j.cc)
		}
	}()
	for j = range jobs {
		answered = false
		out := j.ep.run(j.cc)
		answered = true
		j.ep.release(j.cc) // before the answer: a call that reads it finds its handler returned
		answers <- out
		j = job{}
	}
}
