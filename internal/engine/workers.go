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
// pass-through layer under 100 layers, measured). Workers keep their
// goroutines, and the stacks those have grown, from one call to the next.
//
// The pool holds handles; a worker's goroutine holds only its channel. The
// sync.Pool lets idle handles go across garbage collections, and a cleanup
// then closes the channel, which ends the goroutine: idle workers last as
// long as the load that needed them, with no timer and no janitor.

// worker is the handle of one goroutine that runs tasks.
type worker struct{ tasks chan task }

// task is one call for a worker: run ep's chain with cc, answer on done.
type task struct {
	ep   *Endpoint
	cc   *callContext
	done chan<- outcome
}

var idleWorkers sync.Pool

// startTask hands t to an idle worker, or to a new one, and returns the
// worker. The caller gives it back with idleWorkers.Put once the task has
// answered normally, and drops it otherwise (see exec).
func startTask(t task) *worker {
	w, _ := idleWorkers.Get().(*worker)
	if w == nil {
		// Buffered: a worker back in the pool may get its next task before
		// it is waiting for one, and the sender must not wait.
		w = &worker{tasks: make(chan task, 1)}
		runtime.AddCleanup(w, closeTasks, w.tasks)
		go work(w.tasks)
	}
	w.tasks <- t
	return w
}

func closeTasks(tasks chan task) { close(tasks) }

// work runs tasks until its channel is closed. It must not refer to its
// handle, or the handle would never be collected. It sends each answer
// itself, after run has returned, so that a chain ended by runtime.Goexit
// (even one resumed after a deferred panic was recovered) is answered as
// exited, and its worker is never handed another task.
func work(tasks <-chan task) {
	var t task
	answered := true
	defer func() {
		if !answered { // runtime.Goexit is unwinding this goroutine
			t.ep.release(t.cc)
			t.done <- t.ep.exited(t.cc)
		}
	}()
	for t = range tasks {
		answered = false
		out := t.ep.run(t.cc)
		answered = true
		t.ep.release(t.cc) // before the answer: a call that reads it finds its handler returned
		t.done <- out
		t = task{}
	}
}
