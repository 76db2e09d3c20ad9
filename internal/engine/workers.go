package engine

import (
	"runtime"
	"sync"
)

// A handler runs on a goroutine other than its caller's (see exec), so
// that one which ignores its context cannot hold its call past the
// deadline. A fresh goroutine per call costs more than its start: it has
// the smallest stack, and a middleware chain or a handler doing real work
// grows that stack by copying it, frame by frame, on every call (47 ns per
// pass-through layer under 100 layers in process). Served, under 100
// layers, a fresh goroutine per call cost a third of the throughput and
// doubled p99 at 8 clients (bench/README.md, "What each hot-path mechanism
// buys a served call"). Workers keep their goroutines, and the stacks
// those have grown, from one call to the next.
//
// The pool holds handles; a worker's goroutine holds only its channels.
// The sync.Pool lets idle handles go across garbage collections, and a
// cleanup then closes the task channel, which ends the goroutine: idle
// workers last as long as the load that needed them, with no timer and no
// janitor.

// worker is the handle of one goroutine that runs tasks.
type worker struct {
	tasks chan task
	// answers carries the outcome of each task. A worker whose call
	// stopped waiting (its deadline passed) is never pooled again, so an
	// answer left there is never read by another call.
	answers chan outcome
}

// task is one call for a worker: run ep's chain with cc.
type task struct {
	ep *Endpoint
	cc *callContext
}

var idleWorkers sync.Pool

// startTask hands the call to an idle worker, or to a new one, and returns
// the worker, whose answers channel will carry the outcome. The caller
// gives it back with idleWorkers.Put once it has read a normal answer, and
// drops it otherwise (see exec).
func startTask(ep *Endpoint, cc *callContext) *worker {
	w, _ := idleWorkers.Get().(*worker)
	if w == nil {
		// Buffered: a worker back in the pool may get its next task before
		// it is waiting for one, and neither side must wait for the other.
		w = &worker{tasks: make(chan task, 1), answers: make(chan outcome, 1)}
		runtime.AddCleanup(w, closeTasks, w.tasks)
		go work(w.tasks, w.answers)
	}
	w.tasks <- task{ep: ep, cc: cc}
	return w
}

func closeTasks(tasks chan task) { close(tasks) }

// work runs tasks until its channel is closed. It must not refer to its
// handle, or the handle would never be collected. It sends each answer
// itself, after run has returned, so that a chain ended by runtime.Goexit
// (even one resumed after a deferred panic was recovered) is answered as
// exited, and its worker is never handed another task.
func work(tasks <-chan task, answers chan<- outcome) {
	var t task
	answered := true
	defer func() {
		if !answered { // runtime.Goexit is unwinding this goroutine
			t.ep.release(t.cc)
			answers <- t.ep.exited(t.cc)
		}
	}()
	for t = range tasks {
		answered = false
		out := t.ep.run(t.cc)
		answered = true
		t.ep.release(t.cc) // before the answer: a call that reads it finds its handler returned
		answers <- out
		t = task{}
	}
}
