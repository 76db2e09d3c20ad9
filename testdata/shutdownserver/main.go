// Command shutdownserver is the server TestShutdownOfAProcess signals: a
// vurb app with a task action and a slow call, served over loopback HTTP
// by ListenAndServe under signal.NotifyContext, as a deployment runs it.
// It writes "ready" once it listens, its log on stderr, and at exit how
// many task handlers finished.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/vurb-go/vurb"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "where to listen")
	grace := flag.Duration("grace", 2*time.Second, "WithShutdownGrace")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var finished atomic.Int64
	app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(os.Stderr, nil))))
	vurb.Mutation(app, "jobs.run", func(ctx context.Context, in struct {
		Millis int `json:"millis"`
	}) (string, error) {
		select {
		case <-time.After(time.Duration(in.Millis) * time.Millisecond):
			finished.Add(1)
			return "ran", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}).Task(vurb.WithTaskRequired(), vurb.WithTaskTTL(time.Hour))
	vurb.Query(app, "ops.slow", func(ctx context.Context, _ struct{}) (string, error) {
		<-ctx.Done() // until the shutdown cuts it
		return "", ctx.Err()
	})
	fmt.Println("ready")
	if err := app.ListenAndServe(ctx, *addr, vurb.WithShutdownGrace(*grace)); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("finished=%d\n", finished.Load())
}
