package toon

import (
	"encoding/json"
	"fmt"
	"testing"
)

type benchRow struct {
	ID     int     `json:"id"`
	Name   string  `json:"name"`
	Email  string  `json:"email"`
	Role   string  `json:"role"`
	Active bool    `json:"active"`
	Score  float64 `json:"score"`
}

// benchRows returns n uniform rows, the shape TOON's tabular form targets.
func benchRows(n int) []benchRow {
	roles := []string{"admin", "editor", "viewer"}
	rows := make([]benchRow, n)
	for i := range rows {
		rows[i] = benchRow{
			ID:     i + 1,
			Name:   fmt.Sprintf("User %d", i+1),
			Email:  fmt.Sprintf("user%d@example.com", i+1),
			Role:   roles[i%len(roles)],
			Active: i%4 != 0,
			Score:  float64(i%1000) / 8,
		}
	}
	return rows
}

func BenchmarkTabular(b *testing.B) {
	rows := benchRows(1000)
	b.Run("toon.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out, err := Marshal(rows)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out, err := json.Marshal(rows)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
		}
	})
}

// TestTabularSize holds TOON to its reason for being: on uniform rows it
// must be at least 35% smaller than JSON.
func TestTabularSize(t *testing.T) {
	rows := benchRows(1000)
	js, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	tn, err := Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	saving := 1 - float64(len(tn))/float64(len(js))
	t.Logf("1000 rows x 6 fields: JSON %d bytes, TOON %d bytes, %.1f%% smaller", len(js), len(tn), 100*saving)
	if saving < 0.35 {
		t.Fatalf("TOON is only %.1f%% smaller than JSON, want at least 35%%", 100*saving)
	}
	var back []benchRow
	if err := Unmarshal(tn, &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != len(rows) || back[999] != rows[999] {
		t.Fatalf("rows did not survive Unmarshal: %+v", back[len(back)-1])
	}
}
