package glob_test

import (
	"fmt"

	"github.com/vurb-go/vurb/internal/glob"
)

func ExampleCompile() {
	_, err := glob.Compile("tasks..update")
	fmt.Println(err)
	// Output: glob "tasks..update": empty segment at position 2
}

func ExamplePattern_Match() {
	p := glob.MustCompile("sprints.**")
	for _, key := range []string{"sprints", "sprints.get", "sprints.items.move", "tasks.get"} {
		fmt.Println(key, p.Match(key))
	}
	// Output:
	// sprints true
	// sprints.get true
	// sprints.items.move true
	// tasks.get false
}

func ExamplePattern_Covers() {
	broad := glob.MustCompile("sprints.**")
	fmt.Println(broad.Covers(glob.MustCompile("sprints.*"))) // listed after broad, it never wins
	fmt.Println(broad.Covers(glob.MustCompile("**.get")))    // "tasks.get" escapes broad
	fmt.Println(glob.MustCompile("*.get").Covers(glob.MustCompile("**.get")))
	// Output:
	// true
	// false
	// false
}
