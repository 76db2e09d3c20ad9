package redisstate

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb/store"
)

// DefaultPrefix begins every key the stores write, unless WithPrefix sets
// another. Through vurb.WithReplicas (ForApp) the app's name and a colon
// follow it, so that two apps on one Redis never share state.
const DefaultPrefix = "vurb:"

// DefaultTimeout bounds each method of the stores unless WithTimeout sets
// another bound, as redisrate.DefaultTimeout does: with Redis down,
// go-redis's default options retry the dial for about 1.7 s, which every
// request would wait without a bound.
const DefaultTimeout = 250 * time.Millisecond

// Store is the state of a vurb server kept in one Redis: its tasks
// (Tasks), its handshake-era sessions (Sessions) and its workflow
// instances (Workflows). Replicas that give
// their stores the same Redis and prefix share that state. It is safe for
// concurrent use.
type Store struct {
	client    redis.UniversalClient
	c         config
	tasks     *TaskStore
	sessions  *SessionStore
	bus       *Bus
	ledger    *Ledger
	workflows *WorkflowStore
}

// Option configures a Store.
type Option func(*config)

// config is what the options set.
type config struct {
	prefix                   string
	prefixSet                bool // WithPrefix: ForApp keeps it as it is
	timeout                  time.Duration
	maxTasks, perCaller      int
	maxBytes, perCallerBytes int64
}

// WithPrefix sets what begins every key the stores write, and the bus's
// channel, in place of DefaultPrefix and the app's name: two different
// apps that share a name (vurb.WithName) and a Redis must each set their
// own, since replicas of one app share state by sharing a name. Replicas
// that share state must use the same prefix.
func WithPrefix(prefix string) Option {
	return func(c *config) { c.prefix, c.prefixSet = prefix, true }
}

// WithTimeout bounds each method of the stores to d (default
// DefaultTimeout; 0 for no bound beyond the caller's context and the
// client's timeouts). Past it the method returns an error wrapping
// context.DeadlineExceeded, so a Redis that is down or hung costs a
// request at most d. An Update that retries after conflicting writes
// retries within the same bound.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithMaxTasks bounds the live tasks the task store holds, over all
// replicas (default store.DefaultMaxTasks). n <= 0 keeps the default.
func WithMaxTasks(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxTasks = n
		}
	}
}

// WithMaxTaskBytes bounds the bytes of JSON the task store holds, over all
// replicas (default store.DefaultMaxBytes). n <= 0 keeps the default.
func WithMaxTaskBytes(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxBytes = n
		}
	}
}

// WithTaskPerCaller bounds the tasks and the bytes one caller
// (store.Task's Caller) may hold at once in the task store. The defaults
// are those of store.MemoryTasks (store.CallerShare): a sixteenth of the
// store's (store.DefaultCallerShare), but at least 16 tasks and 1 MiB
// when the store has them. Zero keeps a default.
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
	c := config{prefix: DefaultPrefix, timeout: DefaultTimeout, maxTasks: store.DefaultMaxTasks, maxBytes: store.DefaultMaxBytes}
	for _, o := range opts {
		o(&c)
	}
	if c.timeout < 0 {
		panic(fmt.Sprintf("redisstate: WithTimeout(%v): give a positive bound, or 0 for none", c.timeout))
	}
	tasks, bytes := store.CallerShare(c.maxTasks, c.maxBytes) // as store.NewMemoryTasks
	if c.perCaller == 0 {
		c.perCaller = tasks
	}
	if c.perCallerBytes == 0 {
		c.perCallerBytes = bytes
	}
	return newStore(client, c)
}

func newStore(client redis.UniversalClient, c config) *Store {
	return &Store{client: client, c: c, tasks: newTaskStore(client, c), sessions: newSessionStore(client, c),
		bus: newBus(client, c), ledger: newLedger(client, c), workflows: newWorkflowStore(client, c)}
}

// App returns the stores of the app named name: their keys begin with
// DefaultPrefix, name and a colon ("vurb:billing:"), or with the prefix
// WithPrefix set, as it is.
func (s *Store) App(name string) *Store {
	c := s.c
	if !c.prefixSet {
		c.prefix = DefaultPrefix + name + ":"
	}
	return newStore(s.client, c)
}

// ForApp returns the stores, the bus and the ledger of the app named
// name (see App), for vurb.WithReplicas: the one option that makes an app
// a replica sharing this Redis.
func (s *Store) ForApp(name string) store.Replicas {
	a := s.App(name)
	return store.Replicas{Sessions: a.sessions, Tasks: a.tasks, Bus: a.bus, Ledger: a.ledger, Workflows: a.workflows}
}

// Tasks returns the store of tasks, for vurb.TaskConfig's Store.
func (s *Store) Tasks() *TaskStore { return s.tasks }

// Sessions returns the store of handshake-era sessions.
func (s *Store) Sessions() *SessionStore { return s.sessions }

// Bus returns the replicas' message bus.
func (s *Store) Bus() *Bus { return s.bus }

// Ledger returns the ledger of what is used once.
func (s *Store) Ledger() *Ledger { return s.ledger }

// Workflows returns the store of workflow instances.
func (s *Store) Workflows() *WorkflowStore { return s.workflows }

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
