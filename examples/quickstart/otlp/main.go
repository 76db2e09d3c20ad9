// Command otlp is the quickstart (package projects) with OpenTelemetry: a
// span for every MCP request, the MCP metrics, and trace ids on its log
// lines, exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set.
//
//	OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 go -C examples/quickstart/otlp run . -http 127.0.0.1:8080
//
// It is a Go module of its own, as a user's server is: vurb's go.mod, and
// so the plain quickstart's build, never list the OpenTelemetry SDK.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/examples/quickstart/projects"
	vurbotel "github.com/vurb-go/vurb/otel"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	shutdown, err := setupTelemetry(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer func() {
		// Flush the spans and metrics still buffered, within a bound.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := shutdown(ctx); err != nil {
			log.Print(err)
		}
	}()

	// vurbotel uses the global providers setupTelemetry installed.
	app := projects.NewApp(vurbotel.Options()...)
	if *addr == "" {
		if err := app.Serve(ctx, vurb.Stdio()); err != nil {
			log.Print(err)
		}
		return
	}
	log.Printf("quickstart: serving MCP at http://%s/mcp", *addr)
	if err := app.ListenAndServe(ctx, *addr); err != nil {
		log.Print(err)
	}
}
