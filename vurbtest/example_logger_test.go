package vurbtest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// The app logs to the test: its lines show with the test that made them,
// when it fails or under go test -v.
func ExampleLogger() {
	test(func(t testing.TB) {
		app := vurb.New(vurb.WithLogger(vurbtest.Logger(t)))
		vurb.Query(app, "docs.search", func(ctx context.Context, in Search) (string, error) {
			vurb.Logger(ctx).Info("searching", "query", in.Query)
			return "found", nil
		})
		c := vurbtest.New(t, app)
		fmt.Println(c.CallText("docs_search", Search{Query: "go"}))
	})
	// Output:
	// level=INFO msg=searching request_id=1 tool=docs action=search query=go
	// found
}
