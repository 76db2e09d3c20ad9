package vurb_test

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

func cachingApp(opts ...vurb.Option) *vurb.App {
	app := vurb.New(opts...)
	vurb.Query(app, "docs.search", search)
	vurb.Resource(app, "config://app", "config", func(context.Context) (vurb.Contents, error) {
		return vurb.Contents{Text: "{}"}, nil
	}).TTL(time.Hour, true)
	vurb.ResourceTemplate(app, "users://{id}", "user", func(_ context.Context, v map[string]string) (vurb.Contents, error) {
		return vurb.Contents{Text: v["id"]}, nil
	})
	return app
}

func TestCacheHintsOfTheNewRevision(t *testing.T) {
	is := is.New(t)
	h := cachingApp().HTTPHandler()
	list, rpcErr, _ := postRPC(t, h, "tools/list", map[string]any{})
	is.True(rpcErr == nil)
	is.Equal(list["ttlMs"], float64(5*60*1000)) // 5 min, the default; the app is frozen: lists last
	is.Equal(list["cacheScope"], "public")

	read, rpcErr, _ := postRPC(t, h, "resources/read", map[string]any{"uri": "config://app"})
	is.True(rpcErr == nil)
	is.Equal(read["ttlMs"], float64(time.Hour.Milliseconds())) // the resource's own TTL
	is.Equal(read["cacheScope"], "public")

	read, rpcErr, _ = postRPC(t, h, "resources/read", map[string]any{"uri": "users://u1"})
	is.True(rpcErr == nil)
	is.Equal(read["ttlMs"], float64(0)) // a read says nothing: stale at once, for this user only
	is.Equal(read["cacheScope"], "private")

	short := cachingApp(vurb.WithListTTL(time.Second)).HTTPHandler()
	list, _, _ = postRPC(t, short, "prompts/list", map[string]any{})
	is.Equal(list["ttlMs"], float64(1000))
}
