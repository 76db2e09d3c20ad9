package vurb

import "time"

// ServeOption configures Attach, Serve, NewServer and HTTPHandler. Options
// about HTTP (Stateless, AllowedOrigins, ...) are ignored where there is no
// HTTP.
type ServeOption func(*serveConfig)

type serveConfig struct {
	include, exclude map[string]bool

	stateless      bool
	jsonResponse   bool
	maxBodyBytes   int64
	allowedOrigins map[string]bool
	allowedHosts   map[string]bool
	shutdownGrace  time.Duration
}

func newServeConfig(opts []ServeOption) serveConfig {
	var c serveConfig
	for _, opt := range opts {
		opt(&c)
	}
	return c
}

// IncludeTags exposes only the actions that carry at least one of tags
// (their own, their group's or their tool's). A filter is access control:
// an action it hides is absent from tools/list and a call to it gets the
// same "unknown tool" error as a name that never existed.
func IncludeTags(tags ...string) ServeOption {
	return func(c *serveConfig) { c.include = addToSet(c.include, tags) }
}

// ExcludeTags hides every action that carries any of tags, whatever
// IncludeTags says.
func ExcludeTags(tags ...string) ServeOption {
	return func(c *serveConfig) { c.exclude = addToSet(c.exclude, tags) }
}

func addToSet(set map[string]bool, values []string) map[string]bool {
	if set == nil {
		set = make(map[string]bool, len(values))
	}
	for _, v := range values {
		set[v] = true
	}
	return set
}

// allows reports whether an action with tags passes the filter.
func (c *serveConfig) allows(tags []string) bool {
	included := len(c.include) == 0
	for _, t := range tags {
		if c.exclude[t] {
			return false
		}
		if c.include[t] {
			included = true
		}
	}
	return included
}

func (c *serveConfig) filters() bool { return len(c.include) > 0 || len(c.exclude) > 0 }
