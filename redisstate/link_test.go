package redisstate_test

import (
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// link is a TCP hop between one replica and Redis that a test can cut
// (a partition: open connections dropped, new ones closed at once) or
// slow (each chunk either way held a random delay), as a network does.
type link struct {
	ln     net.Listener
	target string

	mu       sync.Mutex
	cut      bool
	min, max time.Duration
	conns    map[net.Conn]struct{}
}

// newLink starts a link to target, closed at the test's end.
func newLink(t *testing.T, target string) *link {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &link{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	go l.accept()
	t.Cleanup(func() {
		_ = ln.Close()
		l.setCut(true)
	})
	return l
}

// client returns a go-redis client that reaches Redis through l.
func (l *link) client(t *testing.T) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: l.ln.Addr().String(), ContextTimeoutEnabled: true})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// setCut cuts the link (every open connection dropped) or heals it.
func (l *link) setCut(cut bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cut = cut
	if cut {
		for c := range l.conns {
			_ = c.Close()
		}
		clear(l.conns)
	}
}

// slow holds each answer from Redis between min and max before passing
// it on: a round trip takes that much longer.
func (l *link) slow(min, max time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.min, l.max = min, max
}

func (l *link) delay() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.max <= 0 {
		return 0
	}
	return l.min + rand.N(l.max-l.min+1)
}

func (l *link) accept() {
	for {
		in, err := l.ln.Accept()
		if err != nil {
			return
		}
		go l.serve(in)
	}
}

func (l *link) serve(in net.Conn) {
	out, err := net.Dial("tcp", l.target)
	if err != nil {
		_ = in.Close()
		return
	}
	l.mu.Lock()
	if l.cut {
		l.mu.Unlock()
		_ = in.Close()
		_ = out.Close()
		return
	}
	l.conns[in], l.conns[out] = struct{}{}, struct{}{}
	l.mu.Unlock()
	go l.pipe(out, in, false)
	l.pipe(in, out, true)
}

// pipe copies from src to dst, chunk by chunk, each held l's delay when
// held is set.
func (l *link) pipe(dst, src net.Conn, held bool) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if held {
				time.Sleep(l.delay())
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
