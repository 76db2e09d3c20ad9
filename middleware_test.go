package vurb_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// recorder returns middleware that appends name to trace before and after
// the inner layers run.
func recorder(mu *sync.Mutex, trace *[]string, name string) vurb.Middleware {
	return func(next vurb.Handler) vurb.Handler {
		return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) {
			mu.Lock()
			*trace = append(*trace, name)
			mu.Unlock()
			res, err := next(ctx, c)
			mu.Lock()
			*trace = append(*trace, "/"+name)
			mu.Unlock()
			return res, err
		}
	}
}

func TestMiddlewareOrder(t *testing.T) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		t.Run(exp.String(), func(t *testing.T) {
			is := is.New(t)
			var mu sync.Mutex
			var trace []string
			f := vurb.New(vurb.WithExposition(exp))
			f.Use(recorder(&mu, &trace, "app1"), recorder(&mu, &trace, "app2"))
			tool := f.Tool("admin").Use(recorder(&mu, &trace, "tool"))
			group := tool.Group("users", "").Use(recorder(&mu, &trace, "group"))
			vurb.Query(group, "list", func(ctx context.Context, in ListUsers) (string, error) {
				mu.Lock()
				trace = append(trace, "handler")
				mu.Unlock()
				return "ok", nil
			}).Use(recorder(&mu, &trace, "action"))

			name, args := "admin_users_list", `{}`
			if exp == vurb.Grouped {
				name, args = "admin", `{"action":"users.list"}`
			}
			is.Equal(text(call(t, f, name, args)), "ok")
			is.Equal(strings.Join(trace, " "), "app1 app2 tool group action handler /action /group /tool /app2 /app1")
		})
	}
}

type userKey struct{}

func TestMiddlewareSeesCallAndPassesValues(t *testing.T) {
	is := is.New(t)
	f := vurb.New(vurb.WithExposition(vurb.Grouped))
	var seen vurb.Call
	f.Use(func(next vurb.Handler) vurb.Handler {
		return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) {
			seen = *c
			return next(context.WithValue(ctx, userKey{}, "ada"), c)
		}
	})
	vurb.Mutation(f, "admin.users.ban", func(ctx context.Context, in UserRef) (string, error) {
		c := vurb.CallFrom(ctx)
		return ctx.Value(userKey{}).(string) + " banned " + in.UserID + " via " + c.Key, nil
	})
	is.Equal(text(call(t, f, "admin", `{"action":"users.ban","user_id":"u7"}`)), "ada banned u7 via admin.users.ban")
	is.Equal(seen.Tool, "admin")
	is.Equal(seen.Action, "users.ban")
	is.Equal(seen.Key, "admin.users.ban")
	is.Equal(seen.Name, "admin")
	is.Equal(seen.Input.(*UserRef).UserID, "u7") // the validated input
	is.True(seen.RequestID() != "")
}

func TestMiddlewareShortCircuit(t *testing.T) {
	is := is.New(t)
	f := vurb.New()
	handlerRan := false
	deny := func(next vurb.Handler) vurb.Handler {
		return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) {
			if c.Input.(*DeleteProject).ID == "protected" {
				return vurb.Error("permission denied: project protected is locked"), nil
			}
			return next(ctx, c)
		}
	}
	vurb.Mutation(f, "projects.delete", func(ctx context.Context, in DeleteProject) (string, error) {
		handlerRan = true
		return "deleted", nil
	}).Use(deny)

	res := call(t, f, "projects_delete", `{"workspace_id":"w","id":"protected"}`)
	is.True(res.IsError)
	is.Equal(text(res), "permission denied: project protected is locked")
	is.True(!handlerRan)
	is.Equal(text(call(t, f, "projects_delete", `{"workspace_id":"w","id":"other"}`)), "deleted")
	is.True(handlerRan)
}

func TestMiddlewareError(t *testing.T) {
	is := is.New(t)
	f := vurb.New()
	f.Use(func(next vurb.Handler) vurb.Handler {
		return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) {
			return nil, errUnauthenticated
		}
	})
	vurb.Query(f, "projects.list", listProjects)
	res := call(t, f, "projects_list", `{"workspace_id":"w"}`)
	is.True(res.IsError)
	is.Equal(text(res), "[projects_list] not signed in: send a token")
}

var errUnauthenticated = errorString("not signed in: send a token")

type errorString string

func (e errorString) Error() string { return string(e) }
