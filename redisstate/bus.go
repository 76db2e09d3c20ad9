package redisstate

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Bus is the replicas' message bus on Redis publish/subscribe, on one
// channel (the prefix followed by "bus"). Publish/subscribe keeps
// nothing: a replica whose subscription is broken misses what is
// published meanwhile, which is what store.Bus promises. It is safe for
// concurrent use.
type Bus struct {
	client  redis.UniversalClient
	channel string
	c       config
}

func newBus(client redis.UniversalClient, c config) *Bus {
	return &Bus{client: client, channel: c.prefix + "bus", c: c}
}

// Publish sends msg to every replica subscribed, within the store's
// timeout, and returns how many subscriptions received it (with Redis
// Cluster, those of the node it reached).
func (b *Bus) Publish(ctx context.Context, msg []byte) (int, error) {
	ctx, cancel := b.c.bound(ctx)
	defer cancel()
	n, err := b.client.Publish(ctx, b.channel, msg).Result()
	if err != nil {
		return 0, b.c.failed("publish", err)
	}
	return int(n), nil
}

// Subscribe calls deliver with each message published from now on, in
// order, on one goroutine of its own, until ctx is done. It returns at
// once. go-redis resubscribes a broken subscription by itself (a Redis
// restarted, a connection cut), so the messages resume when Redis is back.
func (b *Bus) Subscribe(ctx context.Context, deliver func(msg []byte)) {
	ps := b.client.Subscribe(ctx, b.channel)
	// A health check every 30 s finds a connection that died silently; a
	// message that waits longer than a minute for deliver is dropped with
	// its followers rather than held without bound.
	ch := ps.Channel(redis.WithChannelHealthCheckInterval(30*time.Second), redis.WithChannelSendTimeout(time.Minute))
	go func() {
		defer ps.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case m, ok := <-ch:
				if !ok {
					return
				}
				deliver([]byte(m.Payload))
			}
		}
	}()
}
