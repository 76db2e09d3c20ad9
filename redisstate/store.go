package redisstate

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
)

// DefaultPrefix begins every key the stores write, unless WithPrefix sets
// another.
const DefaultPrefix = "vurb:"

// DefaultTimeout bounds each method of the stores unless WithTimeout sets
// another bound, as redisrate.DefaultTimeout does: with Redis down,
// go-redis's default options retry the dial for about 1.7 s, which every
// request would wait without a bound.
const DefaultTimeout = 250 * time.Millisecond

// Store is the state of a vurb server kept in one Redis: its tasks
// (Tasks) and its handshake-era sessions (Sessions). Replicas that give
// their stores the same Redis and prefix share that state. It is safe for
// concurrent use.
type Store struct {
	tasks    *TaskStore
	sessions *SessionStore
	bus      *Bus
}

// Option configures a Store.
type Option func(*config)

// config is what the options set.
type config struct {
	prefix                   string
	timeout                  time.Duration
	maxTasks, perCaller      int
	maxBytes, perCallerBytes int64
}

// WithPrefix sets what begins every key the stores write (default
// DefaultPrefix), so that several apps, or an app and other users of the
// same Redis, keep their keys apart. Replicas that share state must use
// the same prefix.
func WithPrefix(prefix string) Option { return func(c *config) { c.prefix = prefix } }

// WithTimeout bounds each method of the stores to d (default
// DefaultTimeout; 0 for no bound beyond the caller's context and the
// client's timeouts). Past it the method returns an error wrapping
// context.DeadlineExceeded, so a Redis that is down or hung costs a
// request at most d. An Update that retries after conflicting writes
// retries within the same bound.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithMaxTasks bounds the live tasks the task store holds, over all
// replicas (default vurb.DefaultMaxTasks). n <= 0 keeps the default.
func WithMaxTasks(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxTasks = n
		}
	}
}

// WithMaxTaskBytes bounds the bytes of JSON the task store holds, over all
// replicas (default vurb.DefaultMaxTaskBytes). n <= 0 keeps the default.
func WithMaxTaskBytes(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxBytes = n
		}
	}
}

// WithTaskPerCaller bounds the tasks and the bytes one caller
// (TaskRecord.Caller) may hold at once in the task store. The defaults are
// vurb.MemoryTaskStore's: a sixteenth of the store's
// (vurb.DefaultTaskCallerShare), but at least 16 tasks and 1 MiB when the
// store has them. Zero keeps a default.
func WithTaskPerCaller(tasks int, bytes int64) Option {
	return func(c *config) {
		if tasks > 0 {
			c.perCaller = tasks
		}
		if bytes > 0 {
			c.perCallerBytes = bytes
		}
	}
}

// New returns the stores that keep their state through client: a
// *redis.Client, *redis.ClusterClient, *redis.Ring or any
// redis.UniversalClient. The client is the caller's: New neither pings nor
// closes it, so a Redis down at start is no error, and the stores work as
// soon as it answers.
func New(client redis.UniversalClient, opts ...Option) *Store {
	if client == nil {
		panic("redisstate: New(nil): give a Redis client, such as redis.NewClient(&redis.Options{Addr: ..., ContextTimeoutEnabled: true})")
	}
	c := config{prefix: DefaultPrefix, timeout: DefaultTimeout, maxTasks: vurb.DefaultMaxTasks, maxBytes: vurb.DefaultMaxTaskBytes}
	for _, o := range opts {
		o(&c)
	}
	if c.timeout < 0 {
		panic(fmt.Sprintf("redisstate: WithTimeout(%v): give a positive bound, or 0 for none", c.timeout))
	}
	tasks, bytes := vurb.TaskCallerShare(c.maxTasks, c.maxBytes) // as vurb.NewMemoryTaskStore
	if c.perCaller == 0 {
		c.perCaller = tasks
	}
	if c.perCallerBytes == 0 {
		c.perCallerBytes = bytes
	}
	return &Store{tasks: newTaskStore(client, c), sessions: newSessionStore(client, c), bus: newBus(client, c)}
}

// Tasks returns the store of tasks, for vurb.TaskConfig's Store.
func (s *Store) Tasks() *TaskStore { return s.tasks }

// Sessions returns the store of handshake-era sessions.
func (s *Store) Sessions() *SessionStore { return s.sessions }

// Bus returns the replicas' message bus.
func (s *Store) Bus() *Bus { return s.bus }

// Replicas returns the stores and the bus for vurb.WithReplicas: the one
// option that makes an app a replica sharing this Redis.
func (s *Store) Replicas() vurb.Replicas {
	return vurb.Replicas{Sessions: s.sessions, Tasks: s.tasks, Bus: s.bus}
}

// bound returns ctx bounded by the timeout, if there is one.
func (c *config) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.timeout > 0 {
		return context.WithTimeout(ctx, c.timeout)
	}
	return ctx, func() {}
}

// failed is the error of op, which Redis failed with err. A timeout says
// it is the store's bound that passed, and which: go-redis reports a Redis
// that is down, and retried dials cut short, as the deadline alone.
func (c *config) failed(op string, err error) error {
	var ne net.Error
	if c.timeout > 0 && (errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()) {
		return fmt.Errorf("redisstate: %s: Redis did not answer within %v (down, or too slow): %w", op, c.timeout, err)
	}
	return fmt.Errorf("redisstate: %s: %w", op, err)
}
