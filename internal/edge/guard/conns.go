package guard

import (
	"net"
	"net/http"
	"sync"
)

// LimitListener holds at most max accepted connections open. Past the
// bound, the connection that has waited longest without a request in
// flight (one that never sent a request, or a kept-alive one between
// requests) is closed to make room for the new one, so that sockets that
// send nothing cannot keep a client with a request out; only when every
// connection is busy with a request does Accept wait for one to finish or
// close, the new client waiting in the kernel's listen backlog meanwhile
// rather than taking the process's last file descriptors. The server's
// ConnState hook (track) tells it which connections are idle.
type LimitListener struct {
	net.Listener
	max int

	mu     sync.Mutex
	room   *sync.Cond // signalled when a connection closes or goes idle
	open   int
	idle   idleConns // the connections without a request in flight, oldest first
	closed bool
}

// idleConns is a list threaded through the connections themselves, so
// that a connection going idle after each request allocates nothing.
type idleConns struct{ head, tail *limitConn }

func (q *idleConns) push(c *limitConn) {
	c.prev, c.next, c.queued = q.tail, nil, true
	if q.tail != nil {
		q.tail.next = c
	} else {
		q.head = c
	}
	q.tail = c
}

func (q *idleConns) remove(c *limitConn) {
	if !c.queued {
		return
	}
	if c.prev != nil {
		c.prev.next = c.next
	} else {
		q.head = c.next
	}
	if c.next != nil {
		c.next.prev = c.prev
	} else {
		q.tail = c.prev
	}
	c.prev, c.next, c.queued = nil, nil, false
}

// LimitListen bounds ln to n open connections (LimitListener); n <= 0
// is no bound.
func LimitListen(ln net.Listener, n int) net.Listener {
	if n <= 0 {
		return ln
	}
	l := &LimitListener{Listener: ln, max: n}
	l.room = sync.NewCond(&l.mu)
	return l
}

// Accept waits for a connection, then for room for it.
func (l *LimitListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	for l.open >= l.max && !l.closed {
		if victim := l.idle.head; victim != nil {
			l.idle.remove(victim)
			l.mu.Unlock()
			victim.Close() // frees its place, and wakes this loop
			l.mu.Lock()
			continue
		}
		l.room.Wait()
	}
	if l.closed {
		l.mu.Unlock()
		c.Close()
		return nil, net.ErrClosed
	}
	l.open++
	lc := &limitConn{Conn: c, l: l}
	l.idle.push(lc) // new: idle until its first request
	l.mu.Unlock()
	return lc, nil
}

// Close closes the listener and ends a waiting Accept.
func (l *LimitListener) Close() error {
	err := l.Listener.Close()
	l.mu.Lock()
	l.closed = true
	l.room.Broadcast()
	l.mu.Unlock()
	return err
}

// Track is the http.Server's ConnState hook: a connection with a request
// in flight may not be closed to make room; a new or idle one may.
func (l *LimitListener) Track(c net.Conn, state http.ConnState) {
	lc, ok := c.(*limitConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if lc.done {
		return
	}
	switch state {
	case http.StateActive, http.StateHijacked:
		l.idle.remove(lc)
	case http.StateIdle:
		if !lc.queued {
			l.idle.push(lc)
			l.room.Signal()
		}
	}
}

// limitConn frees its place when first closed.
type limitConn struct {
	net.Conn
	l *LimitListener
	// Guarded by l.mu: its place in l.idle while idle, and whether it is
	// closed.
	prev, next *limitConn
	queued     bool
	done       bool
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	l := c.l
	l.mu.Lock()
	if !c.done {
		c.done = true
		l.idle.remove(c)
		l.open--
		l.room.Signal()
	}
	l.mu.Unlock()
	return err
}
