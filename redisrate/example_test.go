package redisrate_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/redisrate"
)

// Two replicas of one server, each with its own Redis client, hold one
// limit together: alice spends her two calls a minute on the first, and
// the second refuses her third.
func ExampleNew() {
	replica := func() *vurb.App {
		client := redis.NewClient(&redis.Options{Addr: os.Getenv("REDIS_ADDR"), ContextTimeoutEnabled: true})
		app := vurb.New(vurb.WithRateStore(redisrate.New(client, redisrate.WithTimeout(100*time.Millisecond))))
		vurb.Query(app, "reports.build", func(context.Context, struct{}) (string, error) {
			return "report ready", nil
		}).RateLimit(vurb.PerCaller(2, time.Minute))
		return app
	}
	first, second := replica(), replica()

	alice := vurb.ContextWithCaller(context.Background(), &vurb.Caller{Token: &auth.TokenInfo{UserID: "alice"}})
	for _, app := range []*vurb.App{first, first, second} {
		res, err := app.Call(alice, "reports_build", nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// report ready
	// report ready
	// [reports_build] rate limit reached (2 calls per minute); retry in 30s, not sooner
}
