package toon

import "strings"

// line is one input line split into indentation depth and content.
type line struct {
	num   int    // 1-based line number, for errors
	depth int    // indentation level
	text  string // content after the indentation, trailing spaces removed; "" when blank
}

// scanLines splits a document into lines and measures their indentation
// (spec §12). A line that holds only white space is blank whatever its
// indentation. In strict mode indentation must be a whole number of
// levels made of spaces; otherwise it is rounded down and a tab counts as
// one level.
func scanLines(data []byte, o options) ([]line, error) {
	src := string(data)
	lines := make([]line, 0, strings.Count(src, "\n")+1)
	for num := 1; ; num++ {
		raw, rest, more := strings.Cut(src, "\n")
		raw = strings.TrimSuffix(raw, "\r")
		spaces, tabs, i := 0, 0, 0
		for ; i < len(raw) && (raw[i] == ' ' || raw[i] == '\t'); i++ {
			if raw[i] == ' ' {
				spaces++
			} else {
				tabs++
			}
		}
		ln := line{num: num, text: strings.TrimRight(raw[i:], " ")}
		if ln.text != "" {
			switch {
			case o.strict && tabs > 0:
				return nil, syntaxErrorf(num, "tab in indentation; indent with %d spaces per level", o.indent)
			case o.strict && spaces%o.indent != 0:
				return nil, syntaxErrorf(num, "indentation of %d spaces is not a multiple of %d", spaces, o.indent)
			}
			ln.depth = spaces/o.indent + tabs
		}
		lines = append(lines, ln)
		if !more {
			return lines, nil
		}
		src = rest
	}
}
