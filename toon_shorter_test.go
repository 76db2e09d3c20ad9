package vurb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

// randomValue is a random JSON-like value: scalars, strings that need
// quoting in TOON, uniform and non-uniform lists of records, nesting.
func randomValue(r *rand.Rand, depth int) any {
	kinds := 9
	if depth > 3 {
		kinds = 5
	}
	switch r.IntN(kinds) {
	case 0:
		return r.IntN(2000) - 1000
	case 1:
		return r.Float64() * 100
	case 2:
		return r.IntN(2) == 0
	case 3:
		return nil
	case 4:
		words := []string{"", "a", "Ada", "x, y", "a|b", "line\nbreak", " pad ", "42", "true", "-", "é", `q"uote`, "key: value"}
		return words[r.IntN(len(words))]
	case 5, 6: // a list of records, uniform or not
		rows := make([]any, r.IntN(6))
		for i := range rows {
			row := map[string]any{"id": i, "name": randomValue(r, depth+1)}
			if r.IntN(3) == 0 {
				row[fmt.Sprintf("extra%d", r.IntN(3))] = randomValue(r, depth+1)
			}
			rows[i] = row
		}
		return rows
	case 7:
		list := make([]any, r.IntN(5))
		for i := range list {
			list[i] = randomValue(r, depth+1)
		}
		return list
	default:
		m := map[string]any{}
		for i := range r.IntN(5) {
			m[fmt.Sprintf("k%d", i)] = randomValue(r, depth+1)
		}
		return m
	}
}

// TestTOONResultsNeverLongerThanJSON: whatever the value, the text a model
// reads in TOONResults mode is at most as long as its compact JSON, and is
// one or the other.
func TestTOONResultsNeverLongerThanJSON(t *testing.T) {
	is := is.New(t)
	r := rand.New(rand.NewPCG(18, 2026))
	var value any
	app := vurb.New(vurb.WithResultFormat(vurb.TOONResults()))
	vurb.Query(app, "values.get", func(context.Context, struct{}) (any, error) { return value, nil })
	toon, asJSON := 0, 0
	for range 2000 {
		value = randomValue(r, 0)
		if _, ok := value.(string); ok || value == nil {
			continue // a string is sent as itself, null as "null"
		}
		want, err := json.Marshal(value)
		is.NoErr(err)
		got := text(call(t, app, "values_get", `{}`))
		is.True(len(got) <= len(want)) // TOON only where it is shorter
		if got == string(want) {
			asJSON++
		} else {
			toon++
		}
	}
	t.Logf("TOON sent for %d values, JSON for %d", toon, asJSON)
	is.True(toon > 0 && asJSON > 0) // both happen: the choice is made per value
}
