// Command quickstart is a complete vurb server: a CRUD "projects" tool over
// an in-memory store (declared in package projects). It serves stdio by
// default (for desktop clients) and streamable HTTP at http://ADDR/mcp with
// -http ADDR.
//
//	go run ./examples/quickstart              # stdio
//	go run ./examples/quickstart -http 127.0.0.1:8080  # http://127.0.0.1:8080/mcp
//
// Bind to loopback: its tools delete, and ":8080" would offer them to every
// host that can reach this one.
//
// examples/quickstart/otlp is the same server with OpenTelemetry, exporting
// its traces and metrics to OTEL_EXPORTER_OTLP_ENDPOINT; it is a module of
// its own, so that this one builds without the OpenTelemetry SDK.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/examples/quickstart/projects"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	app := projects.NewApp()
	if *addr == "" {
		// stdout is the protocol's: a word for the human goes to stderr, so
		// that the server does not look hung.
		log.Printf("quickstart: serving MCP over stdio (one JSON-RPC message a line); Ctrl-D or Ctrl-C stops it")
		if err := app.Serve(ctx, vurb.Stdio()); err != nil {
			log.Fatal(err)
		}
		return
	}
	log.Printf("quickstart: serving MCP at http://%s/mcp", *addr)
	// On SIGINT/SIGTERM, calls in flight finish and answer before it returns.
	if err := app.ListenAndServe(ctx, *addr); err != nil {
		log.Fatal(err)
	}
}
