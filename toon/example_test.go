package toon_test

import (
	"fmt"
	"log"

	"github.com/vurb-go/vurb/toon"
)

func ExampleMarshal() {
	type User struct {
		ID     int     `json:"id"`
		Name   string  `json:"name"`
		Role   string  `json:"role"`
		Score  float64 `json:"score"`
		Banned bool    `json:"banned,omitempty"`
	}
	page := struct {
		Users []User `json:"users"`
		Next  string `json:"next"`
	}{
		Users: []User{{1, "Alice", "admin", 9.5, false}, {2, "Bob, Jr.", "user", 7, false}},
		Next:  "cursor:2",
	}
	out, err := toon.Marshal(page)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(out))
	// Output:
	// users[2]{id,name,role,score}:
	//   1,Alice,admin,9.5
	//   2,"Bob, Jr.",user,7
	// next: "cursor:2"
}

func ExampleFromJSON() {
	// Key order and every digit of the numbers survive the conversion.
	out, err := toon.FromJSON([]byte(`{
		"zeta": 1,
		"alpha": {"tags": ["a", "b|c"], "id": 98765432109876543210},
		"ratio": 1.50e-3
	}`), toon.WithDelimiter(toon.Pipe))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(out))
	// Output:
	// zeta: 1
	// alpha:
	//   tags[2|]: a|"b|c"
	//   id: 98765432109876543210
	// ratio: 0.0015
}

func ExampleToJSON() {
	out, err := toon.ToJSON([]byte("items[2]{sku,qty}:\n  B2,1\n  A1,2\ntotal: 3"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(out))

	_, err = toon.ToJSON([]byte("tags[3]: a,b"))
	fmt.Println(err)
	// Output:
	// {"items":[{"sku":"B2","qty":1},{"sku":"A1","qty":2}],"total":3}
	// toon: line 1: array length [3] does not match the 2 items found
}

func ExampleUnmarshal() {
	var cfg struct {
		Name  string   `json:"name"`
		Ports []int    `json:"ports"`
		Tags  []string `json:"tags"`
	}
	err := toon.Unmarshal([]byte("name: api\nports[2]: 80,443\ntags: []"), &cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v\n", cfg)
	// Output:
	// {Name:api Ports:[80 443] Tags:[]}
}

func ExampleWithKeyFolding() {
	v := map[string]any{"server": map[string]any{"http": map[string]any{"port": 8080}}}
	out, _ := toon.Marshal(v, toon.WithKeyFolding(toon.KeyFoldingSafe))
	fmt.Println(string(out))

	back, _ := toon.ToJSON(out, toon.WithExpandPaths(toon.ExpandPathsSafe))
	fmt.Println(string(back))
	// Output:
	// server.http.port: 8080
	// {"server":{"http":{"port":8080}}}
}
